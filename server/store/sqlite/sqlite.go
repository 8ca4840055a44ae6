package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"time"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/textanalysis/go-textanalysis/server/store"
	"github.com/textanalysis/go-textanalysis/server/store/sqlstore"
)

// DefaultPath is the file [Open] uses when given an empty path.
const DefaultPath = "textanalysis.db"

// BusyTimeout is how long a statement waits for another process's write
// lock before it fails with SQLITE_BUSY.
const BusyTimeout = 10 * time.Second

// Store is a [store.Store] on one SQLite file. Build it with [Open].
type Store struct {
	w *sql.DB // exactly one connection: every write, in turn
	r *sql.DB // read-only connections

	// The shared queries (metering, accounts, keys, tokens, secrets,
	// counters, the outbox), on the writer and the readers; each query
	// is prepared once, on first use.
	sqlstore.Core
	wdb, rdb *db

	closeOnce sync.Once
	closeErr  error
}

var _ store.Store = (*Store)(nil)

// Open opens the SQLite database at path (DefaultPath when empty),
// creating it when it does not exist, and migrates its schema to the
// current version (a newer schema that declares itself compatible with
// this program is used as it is). Several processes may open one file at
// once.
func Open(ctx context.Context, path string) (*Store, error) {
	s, _, _, err := open(ctx, path, true)
	return s, err
}

// OpenNoMigrate is Open for a deployment that migrates as its own step
// (textanalysis migrate): it changes no schema, and returns
// store.ErrSchemaOld when the schema is older than this program's.
func OpenNoMigrate(ctx context.Context, path string) (*Store, error) {
	s, _, _, err := open(ctx, path, false)
	return s, err
}

// Migrate brings the schema of the database at path to this program's
// version and returns the versions before and after.
func Migrate(ctx context.Context, path string) (from, to int, err error) {
	s, from, to, err := open(ctx, path, true)
	if err != nil {
		return from, to, err
	}
	return from, to, s.Close()
}

func open(ctx context.Context, path string, apply bool) (_ *Store, from, to int, _ error) {
	if path == "" {
		path = DefaultPath
	}
	// The driver reads parameters after the first '?', and ":memory:"
	// would give the two pools two different databases.
	if strings.ContainsRune(path, '?') || path == ":memory:" || strings.HasPrefix(path, "file:") {
		return nil, from, to, fmt.Errorf("sqlite: open %q: the path must name a file", path)
	}
	busy := fmt.Sprint(BusyTimeout.Milliseconds())
	// secure_delete overwrites what DeleteAccount and Purge remove, so an
	// erased e-mail address does not linger in free pages of the file.
	w, err := sql.Open("sqlite", path+"?_busy_timeout="+busy+
		"&_synchronous=NORMAL&_foreign_keys=1&_txlock=immediate&_pragma=secure_delete(1)")
	if err != nil {
		return nil, from, to, fmt.Errorf("sqlite: open: %w", err)
	}
	w.SetMaxOpenConns(1)
	w.SetMaxIdleConns(1)
	w.SetConnMaxIdleTime(0)
	w.SetConnMaxLifetime(0)
	if err := retryBusy(ctx, func() (err error) {
		from, to, err = setup(ctx, w, apply)
		return err
	}); err != nil {
		w.Close()
		return nil, from, to, err
	}
	r, err := sql.Open("sqlite", path+"?_busy_timeout="+busy+"&_foreign_keys=1&_query_only=1")
	if err != nil {
		w.Close()
		return nil, from, to, fmt.Errorf("sqlite: open: %w", err)
	}
	n := max(4, runtime.GOMAXPROCS(0))
	r.SetMaxOpenConns(n)
	r.SetMaxIdleConns(n)
	if err := r.PingContext(ctx); err != nil {
		r.Close()
		w.Close()
		return nil, from, to, fmt.Errorf("sqlite: open: %w", err)
	}
	s := &Store{w: w, r: r, wdb: &db{db: w}, rdb: &db{db: r}}
	s.Core = sqlstore.Core{R: s.rdb, W: s.wdb, Dialect: dialect}
	return s, from, to, nil
}

// Close closes the database. Calling it again returns the first result.
func (s *Store) Close() error {
	s.closeOnce.Do(func() {
		s.wdb.close()
		s.rdb.close()
		s.closeErr = errors.Join(s.r.Close(), s.w.Close())
		if s.closeErr != nil {
			s.closeErr = fmt.Errorf("sqlite: close: %w", s.closeErr)
		}
	})
	return s.closeErr
}

// setup switches the file to WAL mode and migrates its schema (or with
// apply false checks it).
func setup(ctx context.Context, w *sql.DB, apply bool) (from, to int, err error) {
	var mode string
	if err := w.QueryRowContext(ctx, `PRAGMA journal_mode = WAL`).Scan(&mode); err != nil {
		return 0, 0, fmt.Errorf("sqlite: open: set WAL mode: %w", err)
	}
	if !strings.EqualFold(mode, "wal") {
		return 0, 0, fmt.Errorf("sqlite: open: journal mode is %q, not WAL", mode)
	}
	return migrate(ctx, w, apply)
}

// retryBusy calls f until it succeeds, fails with another error than
// SQLITE_BUSY or SQLITE_LOCKED, or BusyTimeout passes. SQLite returns
// SQLITE_BUSY without waiting in a few cases, such as a new file being
// switched to WAL mode by another process at the same moment.
func retryBusy(ctx context.Context, f func() error) error {
	deadline := time.Now().Add(BusyTimeout)
	for wait := time.Millisecond; ; wait = min(2*wait, 50*time.Millisecond) {
		err := f()
		var se *sqlite.Error
		if err == nil || !errors.As(err, &se) || time.Now().After(deadline) {
			return err
		}
		if code := se.Code() & 0xff; code != sqlite3.SQLITE_BUSY && code != sqlite3.SQLITE_LOCKED {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(wait):
		}
	}
}

// wrap turns constraint violations into the store's sentinel errors and
// prefixes anything else with the operation.
func wrap(op string, err error) error {
	if errors.Is(err, sql.ErrNoRows) {
		return store.ErrNotFound
	}
	var se *sqlite.Error
	if errors.As(err, &se) {
		switch se.Code() {
		case sqlite3.SQLITE_CONSTRAINT_UNIQUE, sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY:
			return store.ErrExists
		case sqlite3.SQLITE_CONSTRAINT_FOREIGNKEY:
			return store.ErrNotFound
		}
	}
	return fmt.Errorf("sqlite: %s: %w", op, err)
}

// Times are kept as Unix microseconds, zero as NULL.

func micros(t time.Time) sql.NullInt64 {
	if t.IsZero() {
		return sql.NullInt64{}
	}
	return sql.NullInt64{Int64: t.UnixMicro(), Valid: true}
}

func fromMicros(n sql.NullInt64) time.Time {
	if !n.Valid {
		return time.Time{}
	}
	return time.UnixMicro(n.Int64).UTC()
}

// normTime is t as it is stored and read back.
func normTime(t time.Time) time.Time { return fromMicros(micros(t)) }

// ConsumeBatch implements [store.Store] as [sqlstore.Core.ConsumeBatch]
// does, except that a batch that has started is not interrupted by ctx:
// a context that can end costs database/sql and the driver a goroutine
// each per statement (to watch it), a fifth of the CPU of a group commit
// of one account's counts besides SQLite's own. The wait for another
// process's write lock stays bounded by BusyTimeout, and the statements
// of a batch are short. A ctx already done counts nothing.
func (s *Store) ConsumeBatch(ctx context.Context, takes []store.Take) ([]store.Taken, error) {
	if err := ctx.Err(); err != nil {
		return nil, s.wdb.Wrap("consume batch", err)
	}
	return s.Core.ConsumeBatch(context.WithoutCancel(ctx), takes)
}

// Ping implements [store.Store].
func (s *Store) Ping(ctx context.Context) error {
	var v int
	if err := s.r.QueryRowContext(ctx, `SELECT COALESCE(MAX(version), 0) FROM schema_version`).Scan(&v); err != nil {
		return wrap("ping", err)
	}
	return nil
}
