package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
)

// A DB runs queries for the [Core]: a PostgreSQL pool, or SQLite's
// writer or readers. Its methods convert time.Time arguments (zero to
// NULL) and fill *time.Time destinations (NULL to zero, in UTC), and
// report a query with no row as sql.ErrNoRows.
type DB interface {
	QueryRow(ctx context.Context, query string, args ...any) Row
	Query(ctx context.Context, query string, args ...any) (Rows, error)
	// Exec runs a statement and returns the rows it affected.
	Exec(ctx context.Context, query string, args ...any) (int64, error)
	// Batch runs qs in one transaction, in order, in one round trip where
	// the database allows it, and scans the one row of each into its
	// Dest, setting its Err (sql.ErrNoRows when it returned none). It
	// returns an error, and nothing is kept, when the transaction failed.
	Batch(ctx context.Context, qs []Query) error
	// Tx runs fn in one transaction on a DB of it, and commits when fn
	// returns nil. A DB of a transaction must not start another.
	Tx(ctx context.Context, fn func(tx DB) error) error
	// Wrap maps an error to the store's sentinels (store.ErrNotFound for
	// sql.ErrNoRows and foreign keys, store.ErrExists for unique keys) or
	// prefixes it with the store's name and op.
	Wrap(op string, err error) error
}

// A Row is the result of [DB.QueryRow].
type Row interface{ Scan(dest ...any) error }

// Rows is the result of [DB.Query].
type Rows interface {
	Next() bool
	Scan(dest ...any) error
	Err() error
	Close() error
}

// A Query is one statement of a [DB.Batch].
type Query struct {
	SQL  string
	Args []any
	Dest []any
	Err  error // set by Batch
}

// Dialect is what the core's queries cannot say the same way in both
// databases.
type Dialect struct {
	// ForShare locks, in PostgreSQL (" FOR SHARE"), the account row a key
	// is added to, so that the addition waits for an erasure in progress;
	// SQLite's single writer needs none ("").
	ForShare string
	// ForUpdate locks, in PostgreSQL (" FOR UPDATE"), a row a transaction
	// decides on; "" in SQLite.
	ForUpdate string
	// SkipLocked makes concurrent claims of the outbox take different
	// rows in PostgreSQL (" FOR UPDATE SKIP LOCKED"); "" in SQLite.
	SkipLocked string
	// Time is the SQL type of a time column ("TIMESTAMPTZ", "INTEGER"),
	// for the casts a placeholder needs where its type cannot be inferred.
	Time string
}

// Core implements the shared part of [store.Store] on a DB.
type Core struct {
	R DB // reads
	W DB // writes, and reads that must see the last write
	Dialect
}

// NoRows reports whether err says a query returned no row.
func NoRows(err error) bool { return errors.Is(err, sql.ErrNoRows) }

// NormTime is t as both stores keep it: in UTC, to the microsecond, or
// zero.
func NormTime(t time.Time) time.Time {
	if t.IsZero() {
		return time.Time{}
	}
	return time.UnixMicro(t.UnixMicro()).UTC()
}

// Email is an e-mail address as stored: lower-cased, or NULL for none so
// that accounts without one never collide on the unique index.
func Email(e string) any {
	if e == "" {
		return nil
	}
	return strings.ToLower(e)
}

// collect reads every row of rs with scan.
func collect[T any](rs Rows, err error, scan func(Rows) (T, error)) ([]T, error) {
	if err != nil {
		return nil, err
	}
	defer rs.Close()
	var list []T
	for rs.Next() {
		v, err := scan(rs)
		if err != nil {
			return nil, err
		}
		list = append(list, v)
	}
	if err := rs.Err(); err != nil {
		return nil, err
	}
	return list, rs.Close()
}

// nullString scans a NULL as "".
type nullString string

// Scan implements sql.Scanner.
func (s *nullString) Scan(v any) error {
	switch x := v.(type) {
	case nil:
		*s = ""
	case string:
		*s = nullString(x)
	case []byte:
		*s = nullString(x)
	default:
		return fmt.Errorf("sqlstore: cannot scan %T into a string", v)
	}
	return nil
}

// Null is t as a nullable argument: nil (NULL) when zero, else t in UTC
// to the microsecond. A time.Time argument itself is never NULL.
func Null(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return NormTime(t)
}
