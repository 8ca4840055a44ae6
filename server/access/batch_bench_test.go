package access

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/textanalysis/go-textanalysis/internal/cputime"
	"github.com/textanalysis/go-textanalysis/server/store"
	"github.com/textanalysis/go-textanalysis/server/store/postgres"
	"github.com/textanalysis/go-textanalysis/server/store/sqlite"
)

// BenchmarkAdmit admits requests of one hot account from 16 goroutines
// per core, as bench/load does over HTTP: the cost of metering alone.
// TEXTANALYSIS_TEST_POSTGRES_URL runs it on PostgreSQL too.
func BenchmarkAdmit(b *testing.B) {
	stores := map[string]func(b *testing.B) store.Store{
		"sqlite": func(b *testing.B) store.Store {
			st, err := sqlite.Open(context.Background(), filepath.Join(b.TempDir(), "bench.db"))
			require.NoError(b, err)
			return st
		},
	}
	if url := os.Getenv("TEXTANALYSIS_TEST_POSTGRES_URL"); url != "" {
		stores["postgres"] = func(b *testing.B) store.Store {
			st, err := postgres.Open(context.Background(), url)
			require.NoError(b, err)
			return st
		}
	}
	for name, open := range stores {
		b.Run(name, func(b *testing.B) {
			st := open(b)
			defer st.Close()
			g, err := New(context.Background(), Config{Store: st, Rates: map[store.Plan]Rate{store.PlanPayg: {}}, PaygCap: 1 << 40})
			require.NoError(b, err)
			a, err := st.CreateAccount(context.Background(), store.Account{Plan: store.PlanPayg})
			require.NoError(b, err)
			iss, err := g.IssueKey(context.Background(), a, KindLive, "")
			require.NoError(b, err)
			b.SetParallelism(8)
			b.ReportAllocs()
			cpu0 := cputime.Process()
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					d, err := g.Admit(context.Background(), iss.Secret)
					if err != nil || d.Refused() {
						b.Fatal(err, d.Code)
					}
				}
			})
			b.StopTimer()
			b.ReportMetric(float64(cputime.Process()-cpu0)/float64(b.N), "cpu-ns/op")
			b.ReportMetric(float64(g.meter.tickets.Load())/float64(max(g.meter.batches.Load(), 1)), "requests/batch")
		})
	}
}
