package postgres

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/textanalysis/go-textanalysis/server/store"
	"github.com/textanalysis/go-textanalysis/server/store/sqlstore"
)

// Store is a [store.Store] on a PostgreSQL database. Build it with [Open].
type Store struct {
	pool *pgxpool.Pool
	// The shared queries (metering, accounts, keys, tokens, secrets,
	// counters, the outbox), on the pool natively.
	sqlstore.Core
	closeOnce sync.Once
}

var _ store.Store = (*Store)(nil)

// Open connects to the database at url (a postgres:// URL or key=value
// connection string, as pgx reads it) and migrates its schema to the
// current version (a newer schema that declares itself compatible with
// this program is used as it is). Several processes may open one database
// at once. The pool holds up to max(16, 4×GOMAXPROCS) connections unless
// the URL sets pool_max_conns.
func Open(ctx context.Context, url string) (*Store, error) {
	s, _, _, err := open(ctx, url, true)
	return s, err
}

// OpenNoMigrate is Open for a deployment that migrates as its own step
// (textanalysis migrate): it changes no schema, and returns
// store.ErrSchemaOld when the schema is older than this program's.
func OpenNoMigrate(ctx context.Context, url string) (*Store, error) {
	s, _, _, err := open(ctx, url, false)
	return s, err
}

// Migrate brings the schema of the database at url to this program's
// version and returns the versions before and after.
func Migrate(ctx context.Context, url string) (from, to int, err error) {
	s, from, to, err := open(ctx, url, true)
	if err != nil {
		return from, to, err
	}
	return from, to, s.Close()
}

func open(ctx context.Context, url string, apply bool) (_ *Store, from, to int, _ error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		// pgx's message may quote the URL, password included.
		return nil, 0, 0, errors.New("postgres: open: cannot parse the connection URL")
	}
	if !strings.Contains(url, "pool_max_conns") {
		// pgxpool's default, max(4, NumCPU), starves a server whose every
		// request waits on the database twice.
		cfg.MaxConns = int32(max(16, 4*runtime.GOMAXPROCS(0)))
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, 0, 0, fmt.Errorf("postgres: open: %w", err)
	}
	if from, to, err = migrate(ctx, pool, apply); err != nil {
		pool.Close()
		return nil, from, to, err
	}
	return &Store{pool: pool, Core: sqlstore.Core{R: db{pool}, W: db{pool}, Dialect: dialect}}, from, to, nil
}

// Close closes the pool's connections. Calling it again does nothing.
func (s *Store) Close() error {
	s.closeOnce.Do(s.pool.Close)
	return nil
}

// wrap turns constraint violations into the store's sentinel errors and
// prefixes anything else with the operation.
func wrap(op string, err error) error {
	if errors.Is(err, pgx.ErrNoRows) || errors.Is(err, sql.ErrNoRows) {
		return store.ErrNotFound
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		switch pe.Code {
		case "23505": // unique_violation
			return store.ErrExists
		case "23503": // foreign_key_violation
			return store.ErrNotFound
		}
	}
	return fmt.Errorf("postgres: %s: %w", op, err)
}

// normTime is t as PostgreSQL keeps it: in UTC, to the microsecond.
func normTime(t time.Time) time.Time {
	if t.IsZero() {
		return time.Time{}
	}
	return time.UnixMicro(t.UnixMicro()).UTC()
}

// nullTime stores a zero time as NULL.
func nullTime(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	t = normTime(t)
	return &t
}

func fromNull(t *time.Time) time.Time {
	if t == nil {
		return time.Time{}
	}
	return t.UTC()
}

// An e-mail is stored lower-cased, and none as NULL so that accounts
// without one never collide on the unique index.
func email(e string) *string {
	if e == "" {
		return nil
	}
	e = strings.ToLower(e)
	return &e
}

const accountCols = `a.id, a.email, a.plan, a.email_confirmed, a.monthly_cap, a.created_at, a.trial_expires_at, a.deleted_at`

func scanAccount(row pgx.Row, extra ...any) (store.Account, error) {
	var (
		a            store.Account
		mail         *string
		created      time.Time
		exp, deleted *time.Time
	)
	dest := append([]any{&a.ID, &mail, &a.Plan, &a.EmailConfirmed, &a.MonthlyCap, &created, &exp, &deleted}, extra...)
	if err := row.Scan(dest...); err != nil {
		return store.Account{}, err
	}
	if mail != nil {
		a.Email = *mail
	}
	a.CreatedAt = created.UTC()
	a.TrialExpiresAt = fromNull(exp)
	a.DeletedAt = fromNull(deleted)
	return a, nil
}

const keyCols = `k.id, k.account_id, k.prefix, k.hash, k.kind, k.api, k.name, k.created_at, k.revoked_at, k.last_used_at`

// keyDest returns the scan destinations of keyCols and a function that
// finishes k after the scan.
func keyDest(k *store.Key) ([]any, func()) {
	var revoked, used *time.Time
	return []any{&k.ID, &k.AccountID, &k.Prefix, &k.Hash, &k.Kind, &k.API, &k.Name, &k.CreatedAt, &revoked, &used}, func() {
		k.CreatedAt = k.CreatedAt.UTC()
		k.RevokedAt = fromNull(revoked)
		k.LastUsedAt = fromNull(used)
	}
}

// querier is a pool or a transaction.
type querier interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// createKey stores k with q.
func createKey(ctx context.Context, q querier, k store.Key) (store.Key, error) {
	if k.CreatedAt.IsZero() {
		k.CreatedAt = time.Now()
	}
	k.CreatedAt = normTime(k.CreatedAt)
	k.RevokedAt = normTime(k.RevokedAt)
	k.LastUsedAt = time.Time{}
	// No row comes back for an unknown or deleted account: ErrNotFound.
	// FOR SHARE waits for a DeleteAccount of the account in progress and
	// then sees it deleted, so that no key is added behind its back.
	err := q.QueryRow(ctx,
		`INSERT INTO api_keys (account_id, prefix, hash, kind, api, name, created_at, revoked_at)
		SELECT a.id, $2, $3, $4, $5, $6, $7::timestamptz, $8::timestamptz FROM accounts a WHERE a.id = $1 AND a.deleted_at IS NULL
		FOR SHARE
		RETURNING id`,
		k.AccountID, k.Prefix, k.Hash, k.Kind, k.API, k.Name, k.CreatedAt, nullTime(k.RevokedAt),
	).Scan(&k.ID)
	return k, err
}

// Ping implements [store.Store].
func (s *Store) Ping(ctx context.Context) error {
	if err := s.pool.Ping(ctx); err != nil {
		return wrap("ping", err)
	}
	return nil
}
