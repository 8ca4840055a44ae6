package sqlite

import (
	"context"
	"database/sql"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/textanalysis/go-textanalysis/server/store"
	"github.com/textanalysis/go-textanalysis/server/store/storetest"
)

// TestMigrateFromVersion1 upgrades a file written by the first schema,
// with rows in every table that version 2 rebuilds, and checks that the
// rows, their links and their IDs survive.
func TestMigrateFromVersion1(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v1.db")
	db, err := sql.Open("sqlite", path+"?_foreign_keys=1")
	require.NoError(t, err)
	created := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, q := range []string{
		`CREATE TABLE schema_version (version INTEGER PRIMARY KEY, applied_at INTEGER NOT NULL) STRICT`,
		migrations[0],
		`INSERT INTO schema_version VALUES (1, 0)`,
		`INSERT INTO accounts (id, email, plan, email_confirmed, monthly_cap, created_at) VALUES (7, 'ada@example.com', 'payg', 1, 42, ?1)`,
		`INSERT INTO accounts (id, plan, created_at, trial_expires_at) VALUES (9, 'trial', ?1, ?1)`,
		`INSERT INTO api_keys (id, account_id, prefix, hash, kind, api, name, created_at) VALUES (3, 7, 'ta_live_a', 'h-3', 'live', 'textanalysis', 'laptop', ?1)`,
		`INSERT INTO api_keys (id, account_id, prefix, hash, kind, api, created_at) VALUES (5, 9, 'ta_trial_b', 'h-5', 'trial', 'textanalysis', ?1)`,
		`INSERT INTO usage_counts VALUES (7, ?1, 12)`,
		`INSERT INTO trial_slots VALUES ('addr-hmac', ?1, 3)`,
	} {
		_, err := db.Exec(q, created.UnixMicro())
		require.NoError(t, err, q)
	}
	require.NoError(t, db.Close())

	st, err := Open(t.Context(), path)
	require.NoError(t, err)
	defer st.Close()
	ctx := t.Context()

	ada := store.Account{ID: 7, Email: "ada@example.com", Plan: store.PlanPayg, EmailConfirmed: true, MonthlyCap: 42, CreatedAt: created}
	k, a, err := st.KeyByHash(ctx, "h-3")
	require.NoError(t, err)
	assert.Equal(t, ada, a)
	assert.Equal(t, store.Key{ID: 3, AccountID: 7, Prefix: "ta_live_a", Hash: "h-3", Kind: "live", API: "textanalysis", Name: "laptop", CreatedAt: created}, k)
	used, err := st.Used(ctx, 7, created)
	require.NoError(t, err)
	assert.Equal(t, int64(12), used)
	// Version 3 moved the trial slots into the counters.
	ok, err := st.TakeSlot(ctx, store.Counter{Purpose: "trial", Subject: "addr-hmac", Window: created, Expires: created.Add(24 * time.Hour)}, 3)
	require.NoError(t, err)
	assert.False(t, ok, "the day's three slots are still taken")

	// Foreign keys are on again, and point at the rebuilt tables.
	_, err = st.CreateKey(ctx, store.Key{AccountID: 1 << 40, Prefix: "x", Hash: "h-x", Kind: "live", API: "textanalysis"})
	assert.ErrorIs(t, err, store.ErrNotFound)
	_, _, err = st.Consume(ctx, 1<<40, created, 10)
	assert.ErrorIs(t, err, store.ErrNotFound)
	var fk bool
	require.NoError(t, st.w.QueryRow(`PRAGMA foreign_keys`).Scan(&fk))
	assert.True(t, fk)

	// The highest account and key, deleted, are not given again.
	d, err := st.DeleteAccount(ctx, 9, created)
	require.NoError(t, err)
	assert.Equal(t, store.Deletion{Keys: 1}, d)
	b, err := st.CreateAccount(ctx, store.Account{Plan: store.PlanFree})
	require.NoError(t, err)
	assert.Equal(t, int64(10), b.ID)
	nk, err := st.CreateKey(ctx, store.Key{AccountID: b.ID, Prefix: "ta_live_c", Hash: "h-6", Kind: "live", API: "textanalysis"})
	require.NoError(t, err)
	assert.Equal(t, int64(6), nk.ID)
}

func TestSchemaCompat(t *testing.T) {
	path := filepath.Join(t.TempDir(), "schema.db")
	storetest.SchemaCompat(t, storetest.SchemaHooks{
		Open:          func(ctx context.Context) (store.Store, error) { return Open(ctx, path) },
		OpenNoMigrate: func(ctx context.Context) (store.Store, error) { return OpenNoMigrate(ctx, path) },
		Migrate:       func(ctx context.Context) (int, int, error) { return Migrate(ctx, path) },
		Record: func(ctx context.Context, version, compat int) error {
			db, err := sql.Open("sqlite", path)
			if err != nil {
				return err
			}
			defer db.Close()
			_, err = db.ExecContext(ctx, `INSERT INTO schema_version (version, applied_at) VALUES (?1, 0);
				INSERT INTO schema_compat (version, compatible_from) VALUES (?1, ?2)`, version, compat)
			return err
		},
		Version: len(migrations),
	})
}

// TestPerPlanCountsN1 migrates a file of the release before per-plan
// counts (schema 3) with usage rows, and runs that release's metering
// statements, word for word, on the migrated schema, as the previous
// binary does during a rolling deploy or after a rollback (N-1): they
// work, and their counts, like the rows from before the migration, are
// billed at the account's plan.
func TestPerPlanCountsN1(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v3.db")
	db, err := sql.Open("sqlite", path+"?_foreign_keys=0")
	require.NoError(t, err)
	nov := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	for _, q := range []string{
		`CREATE TABLE schema_version (version INTEGER PRIMARY KEY, applied_at INTEGER NOT NULL) STRICT`,
		migrations[0], migrations[1], migrations[2],
		`INSERT INTO schema_version VALUES (1, 0), (2, 0), (3, 0)`,
		`INSERT INTO accounts (id, email, plan, created_at) VALUES (7, 'p@example.com', 'payg', ?1), (8, 'f@example.com', 'free', ?1)`,
		`INSERT INTO usage_counts VALUES (7, ?1, 12), (8, ?1, 30)`,
	} {
		_, err := db.Exec(q, nov.UnixMicro())
		require.NoError(t, err, q)
	}
	require.NoError(t, db.Close())

	ctx := t.Context()
	st, err := Open(ctx, path)
	require.NoError(t, err)
	defer st.Close()
	var n int64
	for _, q := range []string{
		// The previous release's Consume, and ConsumeBatch's statements.
		`INSERT INTO usage_counts (account_id, period, count) VALUES (?1, ?2, 1)
	ON CONFLICT (account_id, period) DO UPDATE SET count = count + 1 WHERE count < ?3
	RETURNING count`,
		`INSERT INTO usage_counts (account_id, period, count)
	SELECT id, ?2, ?3 FROM accounts WHERE id = ?1 AND ?3 <= ?4
	ON CONFLICT (account_id, period) DO UPDATE SET count = count + ?3 WHERE count + ?3 <= ?4
	RETURNING count`,
		`INSERT INTO usage_counts (account_id, period, count)
	SELECT id, ?2, MIN(?3, ?4) FROM accounts WHERE id = ?1
	ON CONFLICT (account_id, period) DO UPDATE SET count = MIN(count + ?3, MAX(count, ?4))
	RETURNING count`,
	} {
		args := []any{int64(7), nov.UnixMicro(), int64(1), int64(100)}
		if strings.Contains(q, "?4") {
			require.NoError(t, st.w.QueryRowContext(ctx, q, args...).Scan(&n), q)
		} else {
			require.NoError(t, st.w.QueryRowContext(ctx, q, int64(7), nov.UnixMicro(), int64(100)).Scan(&n), q)
		}
	}
	assert.Equal(t, int64(15), n)
	rows, err := st.r.QueryContext(ctx, `SELECT u.account_id, a.email, a.plan, u.period, u.count
		FROM usage_counts u JOIN accounts a ON a.id = u.account_id
		WHERE u.period >= ? ORDER BY u.period, u.account_id`, nov.UnixMicro())
	require.NoError(t, err)
	require.NoError(t, rows.Close())

	got, err := st.ConsumeBatch(ctx, []store.Take{
		{AccountID: 7, Period: nov, N: 2, Limit: 100, Plan: store.PlanPayg},
		{AccountID: 8, Period: nov, N: 1, Limit: 1000, Plan: store.PlanFree},
	})
	require.NoError(t, err)
	assert.Equal(t, []store.Taken{{Granted: 2, Count: 17}, {Granted: 1, Count: 31}}, got)
	usage, err := st.UsageSince(ctx, nov)
	require.NoError(t, err)
	assert.Equal(t, []store.Usage{
		{AccountID: 7, Email: "p@example.com", Plan: store.PlanPayg, Period: nov, Count: 17, Payg: 2},
		{AccountID: 8, Email: "f@example.com", Plan: store.PlanFree, Period: nov, Count: 31, Other: 1},
	}, usage)
	assert.Equal(t, []int64{17, 0}, []int64{usage[0].Billed(), usage[1].Billed()},
		"counts without a plan are billed at the account's plan, as before")
}
