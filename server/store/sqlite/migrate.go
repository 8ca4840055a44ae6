package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// migrations are the schema's versions in order: migrations[i] takes the
// database from version i to i+1. Never edit one that has shipped; append.
// Keep them in step with the PostgreSQL store's.
var migrations = []string{
	// 1: accounts, keys, counters, trial slots, tokens, secrets.
	`
CREATE TABLE accounts (
	id               INTEGER PRIMARY KEY,
	email            TEXT UNIQUE,             -- lower-cased; NULL when none
	plan             TEXT NOT NULL,
	email_confirmed  INTEGER NOT NULL DEFAULT 0,
	monthly_cap      INTEGER NOT NULL DEFAULT 0,
	created_at       INTEGER NOT NULL,        -- Unix microseconds, UTC
	trial_expires_at INTEGER                  -- NULL when none
) STRICT;

-- Only the hash of a key is stored, never the key.
CREATE TABLE api_keys (
	id         INTEGER PRIMARY KEY,
	account_id INTEGER NOT NULL REFERENCES accounts (id),
	prefix     TEXT NOT NULL,
	hash       TEXT NOT NULL UNIQUE,
	kind       TEXT NOT NULL,
	api        TEXT NOT NULL,
	name       TEXT NOT NULL DEFAULT '',
	created_at INTEGER NOT NULL,
	revoked_at INTEGER
) STRICT;
CREATE INDEX api_keys_account_id ON api_keys (account_id);

CREATE TABLE usage_counts (
	account_id INTEGER NOT NULL REFERENCES accounts (id),
	period     INTEGER NOT NULL,              -- start of the period
	count      INTEGER NOT NULL,
	PRIMARY KEY (account_id, period)
) STRICT, WITHOUT ROWID;
CREATE INDEX usage_counts_period ON usage_counts (period);

-- Trial keys issued per client address (an HMAC of it) and UTC day.
CREATE TABLE trial_slots (
	addr_hmac TEXT NOT NULL,
	day       INTEGER NOT NULL,
	count     INTEGER NOT NULL,
	PRIMARY KEY (addr_hmac, day)
) STRICT, WITHOUT ROWID;

CREATE TABLE tokens (
	hash       TEXT PRIMARY KEY,
	purpose    TEXT NOT NULL,
	account_id INTEGER NOT NULL DEFAULT 0,
	key_id     INTEGER NOT NULL DEFAULT 0,
	email      TEXT NOT NULL DEFAULT '',
	expires_at INTEGER
) STRICT, WITHOUT ROWID;

CREATE TABLE secrets (
	name  TEXT PRIMARY KEY,
	value BLOB NOT NULL
) STRICT, WITHOUT ROWID;
`,
}

// migrate brings the schema to the newest version. It runs in one
// IMMEDIATE transaction, so a second process opening the file at the same
// time waits for the first and then finds nothing to do.
func migrate(ctx context.Context, db *sql.DB) error {
	tx, err := db.BeginTx(ctx, nil) // BEGIN IMMEDIATE (_txlock)
	if err != nil {
		return fmt.Errorf("sqlite: migrate: begin: %w", err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_version (
		version    INTEGER PRIMARY KEY,
		applied_at INTEGER NOT NULL
	) STRICT`); err != nil {
		return fmt.Errorf("sqlite: migrate: %w", err)
	}
	var version int
	if err := tx.QueryRowContext(ctx, `SELECT COALESCE(MAX(version), 0) FROM schema_version`).Scan(&version); err != nil {
		return fmt.Errorf("sqlite: migrate: %w", err)
	}
	if version > len(migrations) {
		return fmt.Errorf("sqlite: migrate: database schema version %d is newer than this program's %d", version, len(migrations))
	}
	for v := version; v < len(migrations); v++ {
		if _, err := tx.ExecContext(ctx, migrations[v]); err != nil {
			return fmt.Errorf("sqlite: migrate to version %d: %w", v+1, err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO schema_version (version, applied_at) VALUES (?, ?)`,
			v+1, time.Now().UnixMicro()); err != nil {
			return fmt.Errorf("sqlite: migrate to version %d: %w", v+1, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("sqlite: migrate: %w", err)
	}
	return nil
}
