package sqlite

import (
	"context"
	"database/sql"
	"path/filepath"
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
