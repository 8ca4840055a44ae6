// Package storetest is the contract suite every [store.Store]
// implementation passes, in the manner of testing/fstest.TestFS: accounts,
// keys, tokens and secrets with their errors, and above all the exactness of
// the counters under concurrency, across two stores sharing one database,
// and across closing and reopening it.
//
// An implementation's test hands [Run] a [NewDB] function that prepares a
// fresh, empty database for one subtest and returns an [Opener] for it. The
// suite opens a store on that database once or several times (at once, as
// two server processes would, or one after the other, as a restart would)
// and closes every store it opens. Subtests run in parallel; each gets its
// own database, and the suite is quick (a few seconds on SQLite).
//
//	func TestContract(t *testing.T) {
//		storetest.Run(t, func(t *testing.T) storetest.Opener {
//			path := filepath.Join(t.TempDir(), "textanalysis.db")
//			return func(ctx context.Context) (store.Store, error) {
//				st, err := sqlite.Open(ctx, path)
//				if err != nil {
//					return nil, err
//				}
//				return st, nil
//			}
//		})
//	}
package storetest
