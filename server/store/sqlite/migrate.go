package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/textanalysis/go-textanalysis/server/store/sqlstore"
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
	// 2: deleted accounts, and retention. Accounts and keys are rebuilt
	// with AUTOINCREMENT: rows are deleted now, and without it SQLite gives
	// a deleted highest ID to the next row, which would turn an old claim
	// link (an HMAC of a key ID) into one for someone else's key. The
	// rebuild follows SQLite's "other kinds of schema changes" procedure;
	// migrate turns foreign keys off around it.
	`
CREATE TABLE accounts_v2 (
	id               INTEGER PRIMARY KEY AUTOINCREMENT,
	email            TEXT UNIQUE,             -- lower-cased; NULL when none
	plan             TEXT NOT NULL,
	email_confirmed  INTEGER NOT NULL DEFAULT 0,
	monthly_cap      INTEGER NOT NULL DEFAULT 0,
	created_at       INTEGER NOT NULL,        -- Unix microseconds, UTC
	trial_expires_at INTEGER,                 -- NULL when none
	deleted_at       INTEGER                  -- NULL while the account exists
) STRICT;
INSERT INTO accounts_v2 (id, email, plan, email_confirmed, monthly_cap, created_at, trial_expires_at)
	SELECT id, email, plan, email_confirmed, monthly_cap, created_at, trial_expires_at FROM accounts;
DROP TABLE accounts;
ALTER TABLE accounts_v2 RENAME TO accounts;
-- Purge finds unclaimed expired trials here.
CREATE INDEX accounts_trial_expires_at ON accounts (trial_expires_at)
	WHERE plan = 'trial' AND deleted_at IS NULL;

CREATE TABLE api_keys_v2 (
	id         INTEGER PRIMARY KEY AUTOINCREMENT,
	account_id INTEGER NOT NULL REFERENCES accounts (id),
	prefix     TEXT NOT NULL,
	hash       TEXT NOT NULL UNIQUE,
	kind       TEXT NOT NULL,
	api        TEXT NOT NULL,
	name       TEXT NOT NULL DEFAULT '',
	created_at INTEGER NOT NULL,
	revoked_at INTEGER
) STRICT;
INSERT INTO api_keys_v2 SELECT * FROM api_keys;
DROP TABLE api_keys;
ALTER TABLE api_keys_v2 RENAME TO api_keys;
CREATE INDEX api_keys_account_id ON api_keys (account_id);

CREATE INDEX trial_slots_day ON trial_slots (day);
CREATE INDEX tokens_expires_at ON tokens (expires_at);
CREATE INDEX tokens_account_id ON tokens (account_id);
`,
	// 3: the developer site's account page and caps: keys' last use,
	// counters of any purpose (trial slots move there), sessions, and
	// requests for a plan.
	`
ALTER TABLE api_keys ADD COLUMN last_used_at INTEGER;

-- Events per purpose, subject (an HMAC of a client or e-mail address) and
-- window; purged when the window ends.
CREATE TABLE counters (
	purpose      TEXT NOT NULL,
	subject      TEXT NOT NULL,
	window_start INTEGER NOT NULL,
	expires_at   INTEGER NOT NULL,
	count        INTEGER NOT NULL,
	PRIMARY KEY (purpose, subject, window_start)
) STRICT, WITHOUT ROWID;
CREATE INDEX counters_expires_at ON counters (expires_at);
INSERT INTO counters (purpose, subject, window_start, expires_at, count)
	SELECT 'trial', addr_hmac, day, day + 86400000000, count FROM trial_slots;
DROP TABLE trial_slots;

-- Only the hash of a session's cookie is stored.
CREATE TABLE sessions (
	hash       TEXT PRIMARY KEY,
	account_id INTEGER NOT NULL REFERENCES accounts (id),
	created_at INTEGER NOT NULL,
	expires_at INTEGER NOT NULL
) STRICT, WITHOUT ROWID;
CREATE INDEX sessions_account_id ON sessions (account_id);
CREATE INDEX sessions_expires_at ON sessions (expires_at);

CREATE TABLE plan_requests (
	id          INTEGER PRIMARY KEY AUTOINCREMENT,
	account_id  INTEGER NOT NULL REFERENCES accounts (id),
	plan        TEXT NOT NULL,
	monthly_cap INTEGER NOT NULL DEFAULT 0,
	created_at  INTEGER NOT NULL
) STRICT;
CREATE INDEX plan_requests_account_id ON plan_requests (account_id);
`,
	// 4: per-plan counts. count stays the period's allowance, on any plan;
	// a request is also counted in payg_count when it was admitted on Pay
	// as you go, in other_count on any other plan, so that a month begun
	// on Free is billed only from the change. The rest, count − payg_count
	// − other_count, was counted by an older release (rows from before
	// this version, or the previous binary during a rolling deploy) and is
	// billed at the account's plan, as before. Only columns with defaults
	// are added: the previous release keeps working (N-1).
	`
ALTER TABLE usage_counts ADD COLUMN payg_count INTEGER NOT NULL DEFAULT 0;
ALTER TABLE usage_counts ADD COLUMN other_count INTEGER NOT NULL DEFAULT 0;
`,
	// 5: the mail outbox. Requests enqueue mails; a worker claims them (a
	// lease in next_at: SQLite has one writer at a time), sends, and
	// deletes them. A new table: the previous release, which sends inside
	// the request, keeps working (N-1).
	`
CREATE TABLE mail_outbox (
	id         INTEGER PRIMARY KEY AUTOINCREMENT,
	recipient  TEXT NOT NULL,
	subject    TEXT NOT NULL,
	body       TEXT NOT NULL,             -- may hold a live link: kept only until sent
	attempts   INTEGER NOT NULL DEFAULT 0,
	created_at INTEGER NOT NULL,
	next_at    INTEGER NOT NULL,          -- claimable from then (a lease, or the next attempt)
	expires_at INTEGER NOT NULL
) STRICT;
CREATE INDEX mail_outbox_next_at ON mail_outbox (next_at);
CREATE INDEX mail_outbox_expires_at ON mail_outbox (expires_at);
CREATE INDEX mail_outbox_recipient ON mail_outbox (recipient);
`,
}

// SchemaVersion is the newest schema version this program writes.
func SchemaVersion() int { return len(migrations) }

// compatibleFrom[i] is the oldest program schema version that works with
// schema version i+1 (see [store.CheckSchema]); from version 4 on, a
// migration keeps the previous release working: compatibleFrom[i] = i.
var compatibleFrom = []int{1, 2, 3, 3, 3}

// migrate brings the schema to the newest version, or with apply false
// only checks that this program can use it (store.ErrSchemaOld,
// store.ErrSchemaNew). It runs in one IMMEDIATE transaction, so a second
// process opening the file at the same time waits for the first and then
// finds nothing to do. It returns the versions before and after.
func migrate(ctx context.Context, db *sql.DB, apply bool) (from, to int, err error) {
	from, err = runMigrations(ctx, db, apply)
	if err != nil || !apply {
		return from, from, err
	}
	return from, max(from, len(migrations)), nil
}

func runMigrations(ctx context.Context, db *sql.DB, apply bool) (version int, err error) {
	// Rebuilding a table that others refer to needs foreign keys off, and
	// the pragma is a no-op inside a transaction: set it on the connection
	// first, and check the keys by hand before committing.
	conn, err := db.Conn(ctx)
	if err != nil {
		return version, fmt.Errorf("sqlite: migrate: %w", err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `PRAGMA foreign_keys = OFF`); err != nil {
		return version, fmt.Errorf("sqlite: migrate: %w", err)
	}
	defer func() {
		if _, ferr := conn.ExecContext(context.WithoutCancel(ctx), `PRAGMA foreign_keys = ON`); ferr != nil && err == nil {
			err = fmt.Errorf("sqlite: migrate: %w", ferr)
		}
	}()
	tx, err := conn.BeginTx(ctx, nil) // BEGIN IMMEDIATE (_txlock)
	if err != nil {
		return version, fmt.Errorf("sqlite: migrate: begin: %w", err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_version (
		version    INTEGER PRIMARY KEY,
		applied_at INTEGER NOT NULL
	) STRICT;
	CREATE TABLE IF NOT EXISTS schema_compat (
		version         INTEGER PRIMARY KEY,
		compatible_from INTEGER NOT NULL -- the oldest program version that works with it
	) STRICT`); err != nil {
		return version, fmt.Errorf("sqlite: migrate: %w", err)
	}
	version, wrote, err := sqlstore.Migrate(ctx, txDB{tx}, sqlstore.Schema{
		Migrations: migrations, CompatibleFrom: compatibleFrom,
		Script: func(ctx context.Context, script string) error {
			_, err := tx.ExecContext(ctx, script)
			return err
		},
	}, apply)
	if err != nil || !wrote {
		return version, err // the deferred rollback ends the transaction
	}
	rows, err := tx.QueryContext(ctx, `PRAGMA foreign_key_check`)
	if err != nil {
		return version, fmt.Errorf("sqlite: migrate: %w", err)
	}
	bad := rows.Next()
	if err := errors.Join(rows.Err(), rows.Close()); err != nil {
		return version, fmt.Errorf("sqlite: migrate: foreign key check: %w", err)
	}
	if bad {
		return version, errors.New("sqlite: migrate: foreign key check failed")
	}
	if err := tx.Commit(); err != nil {
		return version, fmt.Errorf("sqlite: migrate: %w", err)
	}
	return version, nil
}
