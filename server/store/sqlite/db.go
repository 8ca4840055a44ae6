package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/textanalysis/go-textanalysis/server/store/sqlstore"
)

// dialect is SQLite's part of the shared queries: one writer at a time
// needs no row locks.
var dialect = sqlstore.Dialect{Time: "INTEGER"}

// db is a [sqlstore.DB] on database/sql: the writer's one connection or
// the readers, with every query rewritten for SQLite and prepared once.
type db struct {
	db    *sql.DB
	stmts sync.Map // query → *sql.Stmt
}

var placeholder = regexp.MustCompile(`\$(\d+)`)

// rewrite turns the shared queries' PostgreSQL forms into SQLite's:
// numbered placeholders ?N, and MIN and MAX for LEAST and GREATEST.
func rewrite(q string) string {
	q = placeholder.ReplaceAllString(q, "?$1")
	return strings.NewReplacer("LEAST(", "MIN(", "GREATEST(", "MAX(").Replace(q)
}

func (d *db) stmt(ctx context.Context, query string) (*sql.Stmt, error) {
	if s, ok := d.stmts.Load(query); ok {
		return s.(*sql.Stmt), nil
	}
	s, err := d.db.PrepareContext(ctx, rewrite(query))
	if err != nil {
		return nil, err
	}
	if prev, loaded := d.stmts.LoadOrStore(query, s); loaded {
		s.Close()
		return prev.(*sql.Stmt), nil
	}
	return s, nil
}

func (d *db) close() {
	d.stmts.Range(func(_, s any) bool { s.(*sql.Stmt).Close(); return true })
}

func (d *db) QueryRow(ctx context.Context, query string, args ...any) sqlstore.Row {
	s, err := d.stmt(ctx, query)
	if err != nil {
		return errRow{err}
	}
	return row{s.QueryRowContext(ctx, liteArgs(args)...)}
}

func (d *db) Query(ctx context.Context, query string, args ...any) (sqlstore.Rows, error) {
	s, err := d.stmt(ctx, query)
	if err != nil {
		return nil, err
	}
	rs, err := s.QueryContext(ctx, liteArgs(args)...)
	if err != nil {
		return nil, err
	}
	return rows{rs}, nil
}

func (d *db) Exec(ctx context.Context, query string, args ...any) (int64, error) {
	s, err := d.stmt(ctx, query)
	if err != nil {
		return 0, err
	}
	res, err := s.ExecContext(ctx, liteArgs(args)...)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// Batch runs qs in one IMMEDIATE transaction on the writer: no other
// writer comes between them.
func (d *db) Batch(ctx context.Context, qs []sqlstore.Query) error {
	// Prepared first: the writer's one connection is the transaction's.
	stmts := make([]*sql.Stmt, len(qs))
	for i, q := range qs {
		var err error
		if stmts[i], err = d.stmt(ctx, q.SQL); err != nil {
			return err
		}
	}
	tx, err := d.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for i, q := range qs {
		qs[i].Err = row{tx.StmtContext(ctx, stmts[i]).QueryRowContext(ctx, liteArgs(q.Args)...)}.Scan(q.Dest...)
		if qs[i].Err != nil && !sqlstore.NoRows(qs[i].Err) {
			return qs[i].Err
		}
	}
	return tx.Commit()
}

// Tx runs fn in one IMMEDIATE transaction on the writer.
func (d *db) Tx(ctx context.Context, fn func(sqlstore.DB) error) error {
	tx, err := d.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := fn(txDB{tx}); err != nil {
		return err
	}
	return tx.Commit()
}

func (d *db) Wrap(op string, err error) error { return wrap(op, err) }

// txDB is a [sqlstore.DB] in a transaction of the writer. Its statements
// are neither prepared ahead nor cached: the transaction holds the
// writer's one connection, the developer site's transactions are rare,
// and a purge's lists of IDs would fill a cache.
type txDB struct{ tx *sql.Tx }

func (d txDB) QueryRow(ctx context.Context, query string, args ...any) sqlstore.Row {
	return row{d.tx.QueryRowContext(ctx, rewrite(query), liteArgs(args)...)}
}

func (d txDB) Query(ctx context.Context, query string, args ...any) (sqlstore.Rows, error) {
	rs, err := d.tx.QueryContext(ctx, rewrite(query), liteArgs(args)...)
	if err != nil {
		return nil, err
	}
	return rows{rs}, nil
}

func (d txDB) Exec(ctx context.Context, query string, args ...any) (int64, error) {
	res, err := d.tx.ExecContext(ctx, rewrite(query), liteArgs(args)...)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

func (d txDB) Batch(ctx context.Context, qs []sqlstore.Query) error {
	for i, q := range qs {
		qs[i].Err = d.QueryRow(ctx, q.SQL, q.Args...).Scan(q.Dest...)
		if qs[i].Err != nil && !sqlstore.NoRows(qs[i].Err) {
			return qs[i].Err
		}
	}
	return nil
}

func (d txDB) Tx(ctx context.Context, fn func(sqlstore.DB) error) error {
	return errors.New("sqlite: nested transaction")
}

func (d txDB) Wrap(op string, err error) error { return wrap(op, err) }

// liteArgs converts time arguments to Unix microseconds.
func liteArgs(args []any) []any {
	for i, a := range args {
		if t, ok := a.(time.Time); ok {
			args[i] = t.UnixMicro()
		}
	}
	return args
}

type errRow struct{ err error }

func (r errRow) Scan(...any) error { return r.err }

type row struct{ r *sql.Row }

func (r row) Scan(dest ...any) error { return scanTimes(r.r.Scan, dest) }

type rows struct{ *sql.Rows }

func (r rows) Scan(dest ...any) error { return scanTimes(r.Rows.Scan, dest) }

// scanTimes scans with scan, reading times from Unix microseconds (NULL
// as zero).
func scanTimes(scan func(...any) error, dest []any) error {
	var times []int
	for i, d := range dest {
		if _, ok := d.(*time.Time); ok {
			times = append(times, i)
		}
	}
	if len(times) == 0 {
		return scan(dest...)
	}
	holders := make([]sql.NullInt64, len(times))
	orig := dest
	dest = append([]any(nil), dest...)
	for j, i := range times {
		dest[i] = &holders[j]
	}
	if err := scan(dest...); err != nil {
		return err
	}
	for j, i := range times {
		*orig[i].(*time.Time) = fromMicros(holders[j])
	}
	return nil
}
