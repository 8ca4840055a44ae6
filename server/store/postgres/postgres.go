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

// Ping implements [store.Store].
func (s *Store) Ping(ctx context.Context) error {
	if err := s.pool.Ping(ctx); err != nil {
		return wrap("ping", err)
	}
	return nil
}
