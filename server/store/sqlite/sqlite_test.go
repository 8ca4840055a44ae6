package sqlite_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/textanalysis/go-textanalysis/server/store"
	"github.com/textanalysis/go-textanalysis/server/store/sqlite"
	"github.com/textanalysis/go-textanalysis/server/store/storetest"
)

// newDB gives each subtest its own file.
func newDB(t *testing.T) storetest.Opener {
	path := filepath.Join(t.TempDir(), "textanalysis.db")
	return func(ctx context.Context) (store.Store, error) {
		st, err := sqlite.Open(ctx, path)
		if err != nil {
			return nil, err
		}
		return st, nil
	}
}

func TestContract(t *testing.T) {
	storetest.Run(t, newDB)
}

func TestOpen(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name    string
		path    string
		wantErr bool
	}{
		{"new file", filepath.Join(dir, "new.db"), false},
		{"memory", ":memory:", true},
		{"uri", "file:" + filepath.Join(dir, "x.db"), true},
		{"query", filepath.Join(dir, "x.db?mode=ro"), true},
		{"missing directory", filepath.Join(dir, "no", "such", "dir", "x.db"), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st, err := sqlite.Open(t.Context(), tt.path)
			if tt.wantErr {
				require.Error(t, err)
				assert.True(t, strings.HasPrefix(err.Error(), "sqlite: "), err.Error())
				return
			}
			require.NoError(t, err)
			require.NoError(t, st.Close())
			require.NoError(t, st.Close(), "closing twice")
		})
	}
}

// TestOpenConcurrently opens one new file from many goroutines at once,
// each with its own connections as separate processes would have: the
// migrations run once and nobody sees SQLITE_BUSY.
func TestOpenConcurrently(t *testing.T) {
	path := filepath.Join(t.TempDir(), "textanalysis.db")
	const n = 8
	stores := make([]*sqlite.Store, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { stores[i], errs[i] = sqlite.Open(t.Context(), path) })
	}
	wg.Wait()
	for i := range n {
		require.NoError(t, errs[i])
		t.Cleanup(func() { stores[i].Close() })
	}
	a, err := stores[0].CreateAccount(t.Context(), store.Account{Plan: store.PlanTrial})
	require.NoError(t, err)
	got, err := stores[n-1].Account(t.Context(), a.ID)
	require.NoError(t, err)
	assert.Equal(t, a, got)
}

func TestReopenKeepsSchemaVersion(t *testing.T) {
	path := filepath.Join(t.TempDir(), "textanalysis.db")
	for range 3 {
		st, err := sqlite.Open(t.Context(), path)
		require.NoError(t, err)
		require.NoError(t, st.Close())
	}
}

// TestDumpHasNoClearKey stores a key as the server would, by its hash, and
// checks that the key itself appears nowhere in the database files.
func TestDumpHasNoClearKey(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "textanalysis.db")
	st, err := sqlite.Open(t.Context(), path)
	require.NoError(t, err)

	const clear = "ta_live_Q2hlY2tUaGVEdW1wRm9yQ2xlYXJLZXlz"
	sum := sha256.Sum256([]byte(clear))
	hash := hex.EncodeToString(sum[:])
	acct, err := st.CreateAccount(t.Context(), store.Account{Email: "ada@example.com", Plan: store.PlanFree})
	require.NoError(t, err)
	key, err := st.CreateKey(t.Context(), store.Key{AccountID: acct.ID, Prefix: clear[:13], Hash: hash, Kind: "live", API: "textanalysis", Name: "laptop"})
	require.NoError(t, err)
	_, _, err = st.Consume(t.Context(), acct.ID, time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC), 1000)
	require.NoError(t, err)
	require.NoError(t, st.CreateToken(t.Context(), store.Token{Hash: "tokenhash", Purpose: "claim", AccountID: acct.ID, KeyID: key.ID, ExpiresAt: time.Now().Add(time.Hour)}))

	dump := func() string {
		var all []byte
		entries, err := os.ReadDir(dir)
		require.NoError(t, err)
		for _, e := range entries { // the database, its WAL and shared memory
			b, err := os.ReadFile(filepath.Join(dir, e.Name()))
			require.NoError(t, err)
			all = append(all, b...)
		}
		return string(all)
	}
	// While open, the rows may sit in the WAL; after Close, in the file.
	for _, stage := range []string{"open", "closed"} {
		if stage == "closed" {
			require.NoError(t, st.Close())
		}
		d := dump()
		assert.Contains(t, d, hash, "%s: the hash is stored (the test looks in the right place)", stage)
		assert.NotContains(t, d, clear, "%s: the key in clear", stage)
		assert.NotContains(t, d, clear[13:], "%s: the secret part of the key", stage)
	}
}

// BenchmarkConsume measures one counted request, one caller at a time.
func BenchmarkConsume(b *testing.B) {
	st, acct := benchStore(b)
	period := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := st.Consume(b.Context(), acct, period, 1<<62); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkConsumeParallel measures counted requests from GOMAXPROCS
// callers (set it with -cpu) on one account.
func BenchmarkConsumeParallel(b *testing.B) {
	st, acct := benchStore(b)
	period := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	b.ReportAllocs()
	b.SetParallelism(4)
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, _, err := st.Consume(context.Background(), acct, period, 1<<62); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

// BenchmarkConsumeBatch measures one group commit of 8 requests of one
// account, as the batcher makes under load: one transaction.
func BenchmarkConsumeBatch(b *testing.B) {
	st, acct := benchStore(b)
	period := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	takes := []store.Take{{AccountID: acct, Period: period, N: 8, Limit: 1 << 62, Plan: store.PlanPayg}}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := st.ConsumeBatch(b.Context(), takes); err != nil {
			b.Fatal(err)
		}
	}
}

func benchStore(b *testing.B) (*sqlite.Store, int64) {
	b.Helper()
	st, err := sqlite.Open(b.Context(), filepath.Join(b.TempDir(), "bench.db"))
	require.NoError(b, err)
	b.Cleanup(func() { st.Close() })
	a, err := st.CreateAccount(b.Context(), store.Account{Plan: store.PlanPayg})
	require.NoError(b, err)
	return st, a.ID
}

// TestDeletedAccountLeavesNoEmail erases an account with usage rows and
// checks that its address is nowhere in the file once the store is closed:
// secure_delete overwrites the freed cells, and closing checkpoints the WAL.
func TestDeletedAccountLeavesNoEmail(t *testing.T) {
	dir := t.TempDir()
	st, err := sqlite.Open(t.Context(), filepath.Join(dir, "textanalysis.db"))
	require.NoError(t, err)
	ctx := t.Context()
	const addr = "erase.me.please@example.com"
	acct, err := st.CreateAccount(ctx, store.Account{Email: addr, Plan: store.PlanPayg})
	require.NoError(t, err)
	key, err := st.CreateKey(ctx, store.Key{AccountID: acct.ID, Prefix: "ta_live_abcdef", Hash: "hash-of-the-key", Kind: "live", API: "textanalysis", Name: "erase.me.please's laptop"})
	require.NoError(t, err)
	_, _, err = st.Consume(ctx, acct.ID, time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC), 1000)
	require.NoError(t, err)
	require.NoError(t, st.CreateToken(ctx, store.Token{Hash: "token-hash", Purpose: "confirm", KeyID: key.ID, Email: addr, ExpiresAt: time.Now().Add(time.Hour)}))

	d, err := st.DeleteAccount(ctx, acct.ID, time.Now())
	require.NoError(t, err)
	assert.Equal(t, store.Deletion{Keys: 1, Tokens: 1, Kept: true}, d)
	require.NoError(t, st.Close())

	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	var all []byte
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		require.NoError(t, err)
		all = append(all, b...)
	}
	assert.NotContains(t, string(all), "erase.me.please")
	assert.NotContains(t, string(all), "hash-of-the-key")
}
