package postgres_test

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/textanalysis/go-textanalysis/server/store"
	"github.com/textanalysis/go-textanalysis/server/store/postgres"
	"github.com/textanalysis/go-textanalysis/server/store/storetest"
)

// baseURL is the test server: TEXTANALYSIS_TEST_POSTGRES_URL, or the local
// one CI runs.
func baseURL() string {
	if u := os.Getenv("TEXTANALYSIS_TEST_POSTGRES_URL"); u != "" {
		return u
	}
	return "postgres://postgres@127.0.0.1:5432/test?sslmode=disable"
}

var (
	reachOnce sync.Once
	reachErr  error
)

// freshSchema creates a schema with a random name, drops it when the test
// ends, and returns a URL whose connections use it. It skips the test when
// PostgreSQL is unreachable, unless CI is "true": CI must not skip it.
func freshSchema(t testing.TB) string {
	t.Helper()
	reachOnce.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		conn, err := pgx.Connect(ctx, baseURL())
		if err == nil {
			err = conn.Ping(ctx)
			conn.Close(ctx)
		}
		reachErr = err
	})
	if reachErr != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("PostgreSQL at %s is unreachable on CI: %v", redact(baseURL()), reachErr)
		}
		t.Skipf("PostgreSQL is unreachable (set TEXTANALYSIS_TEST_POSTGRES_URL): %v", reachErr)
	}

	b := make([]byte, 8)
	_, _ = rand.Read(b)
	schema := "storetest_" + hex.EncodeToString(b)
	admin, err := pgx.Connect(context.Background(), baseURL())
	require.NoError(t, err)
	_, err = admin.Exec(context.Background(), "CREATE SCHEMA "+schema)
	require.NoError(t, err)
	t.Cleanup(func() {
		_, err := admin.Exec(context.Background(), "DROP SCHEMA "+schema+" CASCADE")
		assert.NoError(t, err)
		admin.Close(context.Background())
	})

	u, err := url.Parse(baseURL())
	require.NoError(t, err)
	q := u.Query()
	q.Set("search_path", schema)
	if !q.Has("pool_max_conns") {
		// Parallel tests, of this package and others, share the server's
		// 100 connections.
		q.Set("pool_max_conns", "8")
	}
	u.RawQuery = q.Encode()
	return u.String()
}

func redact(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		return "(the configured URL)"
	}
	return u.Redacted()
}

func newDB(t *testing.T) storetest.Opener {
	u := freshSchema(t)
	return func(ctx context.Context) (store.Store, error) {
		st, err := postgres.Open(ctx, u)
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
	u := freshSchema(t)
	noDB, err := url.Parse(u)
	require.NoError(t, err)
	noDB.Path = "/no_such_database_here"
	tests := []struct {
		name    string
		url     string
		wantErr bool
	}{
		{"fresh schema", u, false},
		{"again", u, false},
		{"bad url", "postgres://user:hunter2@%zz/x", true},
		{"no such database", noDB.String(), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st, err := postgres.Open(t.Context(), tt.url)
			if tt.wantErr {
				require.Error(t, err)
				assert.True(t, strings.HasPrefix(err.Error(), "postgres: "), err.Error())
				assert.NotContains(t, err.Error(), "hunter2")
				return
			}
			require.NoError(t, err)
			require.NoError(t, st.Close())
			require.NoError(t, st.Close(), "closing twice")
		})
	}
}

// TestOpenConcurrently opens one fresh schema from several pools at once,
// as server processes starting together would: the advisory lock lets one
// migrate and the others find nothing to do.
func TestOpenConcurrently(t *testing.T) {
	u := freshSchema(t)
	const n = 6
	stores := make([]*postgres.Store, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { stores[i], errs[i] = postgres.Open(t.Context(), u) })
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

// TestDumpHasNoClearKey stores a key as the server would, by its hash, and
// checks that the key appears in no row of any table.
func TestDumpHasNoClearKey(t *testing.T) {
	u := freshSchema(t)
	ctx := t.Context()
	st, err := postgres.Open(ctx, u)
	require.NoError(t, err)
	defer st.Close()

	const clear = "ta_live_Q2hlY2tUaGVEdW1wRm9yQ2xlYXJLZXlz"
	sum := sha256.Sum256([]byte(clear))
	hash := hex.EncodeToString(sum[:])
	acct, err := st.CreateAccount(ctx, store.Account{Email: "ada@example.com", Plan: store.PlanFree})
	require.NoError(t, err)
	key, err := st.CreateKey(ctx, store.Key{AccountID: acct.ID, Prefix: clear[:13], Hash: hash, Kind: "live", API: "textanalysis", Name: "laptop"})
	require.NoError(t, err)
	_, _, err = st.Consume(ctx, acct.ID, time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC), 1000)
	require.NoError(t, err)
	require.NoError(t, st.CreateToken(ctx, store.Token{Hash: "tokenhash", Purpose: "claim", AccountID: acct.ID, KeyID: key.ID, ExpiresAt: time.Now().Add(time.Hour)}))

	conn, err := pgxpool.New(ctx, u)
	require.NoError(t, err)
	defer conn.Close()
	rows, err := conn.Query(ctx, `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY 1`)
	require.NoError(t, err)
	tables, err := pgx.CollectRows(rows, pgx.RowTo[string])
	require.NoError(t, err)
	require.Contains(t, tables, "api_keys")

	var dump strings.Builder
	for _, table := range tables {
		rows, err := conn.Query(ctx, `SELECT t::text FROM `+pgx.Identifier{table}.Sanitize()+` t`)
		require.NoError(t, err)
		lines, err := pgx.CollectRows(rows, pgx.RowTo[string])
		require.NoError(t, err)
		dump.WriteString(table + "\n" + strings.Join(lines, "\n") + "\n")
	}
	d := dump.String()
	assert.Contains(t, d, hash, "the hash is stored (the test looks in the right place)")
	assert.NotContains(t, d, clear, "the key in clear")
	assert.NotContains(t, d, clear[13:], "the secret part of the key")
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

// BenchmarkConsumeParallel measures counted requests from 4×GOMAXPROCS
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

func benchStore(b *testing.B) (*postgres.Store, int64) {
	b.Helper()
	st, err := postgres.Open(b.Context(), freshSchema(b))
	require.NoError(b, err)
	b.Cleanup(func() { st.Close() })
	a, err := st.CreateAccount(b.Context(), store.Account{Plan: store.PlanPayg})
	require.NoError(b, err)
	return st, a.ID
}

// TestDeletedAccountLeavesNoEmail erases an account with usage rows and
// checks that its address is in no live row of any table. (Dead row
// versions stay in the files until vacuum; the package doc says so.)
func TestDeletedAccountLeavesNoEmail(t *testing.T) {
	u := freshSchema(t)
	ctx := t.Context()
	st, err := postgres.Open(ctx, u)
	require.NoError(t, err)
	defer st.Close()
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

	conn, err := pgxpool.New(ctx, u)
	require.NoError(t, err)
	defer conn.Close()
	rows, err := conn.Query(ctx, `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY 1`)
	require.NoError(t, err)
	tables, err := pgx.CollectRows(rows, pgx.RowTo[string])
	require.NoError(t, err)
	var dump strings.Builder
	for _, table := range tables {
		rows, err := conn.Query(ctx, `SELECT t::text FROM `+pgx.Identifier{table}.Sanitize()+` t`)
		require.NoError(t, err)
		lines, err := pgx.CollectRows(rows, pgx.RowTo[string])
		require.NoError(t, err)
		dump.WriteString(table + "\n" + strings.Join(lines, "\n") + "\n")
	}
	assert.Contains(t, dump.String(), "usage_counts\n(", "the usage row is kept (the test looks in the right place)")
	assert.NotContains(t, dump.String(), "erase.me.please")
	assert.NotContains(t, dump.String(), "hash-of-the-key")
}

func TestSchemaCompat(t *testing.T) {
	u := freshSchema(t)
	storetest.SchemaCompat(t, storetest.SchemaHooks{
		Open:          func(ctx context.Context) (store.Store, error) { return postgres.Open(ctx, u) },
		OpenNoMigrate: func(ctx context.Context) (store.Store, error) { return postgres.OpenNoMigrate(ctx, u) },
		Migrate:       func(ctx context.Context) (int, int, error) { return postgres.Migrate(ctx, u) },
		Record: func(ctx context.Context, version, compat int) error {
			conn, err := pgxpool.New(ctx, u) // pgx.Connect would pass pool_max_conns on
			if err != nil {
				return err
			}
			defer conn.Close()
			if _, err := conn.Exec(ctx, `INSERT INTO schema_version (version) VALUES ($1)`, version); err != nil {
				return err
			}
			_, err = conn.Exec(ctx, `INSERT INTO schema_compat (version, compatible_from) VALUES ($1, $2)`, version, compat)
			return err
		},
		Version: postgres.SchemaVersion(),
	})
}

// TestPreviousReleaseMetersOnThisSchema runs the metering statements of
// the release before per-plan counts (schema 3), word for word, on this
// release's schema, as the previous binary does during a rolling deploy
// or after a rollback (N-1): they work, and their counts, like the rows
// from before the migration, are billed at the account's plan.
func TestPreviousReleaseMetersOnThisSchema(t *testing.T) {
	u := freshSchema(t)
	ctx := t.Context()
	st, err := postgres.Open(ctx, u)
	require.NoError(t, err)
	defer st.Close()
	payg, err := st.CreateAccount(ctx, store.Account{Plan: store.PlanPayg})
	require.NoError(t, err)
	period := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)

	old, err := pgxpool.New(ctx, u)
	require.NoError(t, err)
	defer old.Close()
	var n int64
	for _, q := range []struct {
		sql  string
		args []any
	}{
		// Consume.
		{`INSERT INTO usage_counts AS u (account_id, period, count) VALUES ($1, $2, 1)
		ON CONFLICT (account_id, period) DO UPDATE SET count = u.count + 1 WHERE u.count < $3
		RETURNING u.count`, []any{payg.ID, period, 100}},
		// ConsumeBatch, one take that fits.
		{`INSERT INTO usage_counts AS u (account_id, period, count)
		SELECT id, $2, $3::bigint FROM accounts WHERE id = $1 AND $3::bigint <= $4::bigint
		ON CONFLICT (account_id, period) DO UPDATE SET count = u.count + $3::bigint WHERE u.count + $3::bigint <= $4::bigint
		RETURNING u.count`, []any{payg.ID, period, 1, 100}},
		// ConsumeBatch, several takes.
		{`INSERT INTO usage_counts AS u (account_id, period, count)
		SELECT id, $2, 0 FROM accounts WHERE id = $1
		ON CONFLICT (account_id, period) DO UPDATE SET count = u.count
		RETURNING u.count`, []any{payg.ID, period}},
		{`UPDATE usage_counts SET count = LEAST(count + $3, GREATEST(count, $4))
		WHERE account_id = $1 AND period = $2 RETURNING count`, []any{payg.ID, period, 1, 100}},
	} {
		require.NoError(t, old.QueryRow(ctx, q.sql, q.args...).Scan(&n), q.sql)
	}
	assert.Equal(t, int64(3), n)
	rows, err := old.Query(ctx, `SELECT u.account_id, a.email, a.plan, u.period, u.count
		FROM usage_counts u JOIN accounts a ON a.id = u.account_id
		WHERE u.period >= $1 ORDER BY u.period, u.account_id`, period)
	require.NoError(t, err)
	rows.Close()
	require.NoError(t, rows.Err())

	// This release counts on, by plan, on the same row.
	got, err := st.ConsumeBatch(ctx, []store.Take{{AccountID: payg.ID, Period: period, N: 2, Limit: 100, Plan: store.PlanPayg}})
	require.NoError(t, err)
	assert.Equal(t, []store.Taken{{Granted: 2, Count: 5}}, got)
	usage, err := st.UsageSince(ctx, period)
	require.NoError(t, err)
	require.Len(t, usage, 1)
	assert.Equal(t, store.Usage{AccountID: payg.ID, Plan: store.PlanPayg, Period: period, Count: 5, Payg: 2}, usage[0])
	assert.Equal(t, int64(5), usage[0].Billed(), "the previous release's 3 are billed at the account's plan, as it would")
}

// TestContractBehindPgBouncer runs the contract suite in the query modes
// that work through PgBouncer's transaction pooling, where a prepared
// statement does not survive from one transaction to the next (README,
// "Behind PgBouncer"): exec (an unnamed statement per query) and
// simple_protocol.
func TestContractBehindPgBouncer(t *testing.T) {
	for _, mode := range []string{"exec", "simple_protocol"} {
		t.Run(mode, func(t *testing.T) {
			storetest.Run(t, func(t *testing.T) storetest.Opener {
				u, err := url.Parse(freshSchema(t))
				require.NoError(t, err)
				q := u.Query()
				q.Set("default_query_exec_mode", mode)
				u.RawQuery = q.Encode()
				return func(ctx context.Context) (store.Store, error) { return postgres.Open(ctx, u.String()) }
			})
		})
	}
}
