package postgres

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/textanalysis/go-textanalysis/server/store/sqlstore"
)

// dialect is PostgreSQL's part of the shared queries.
var dialect = sqlstore.Dialect{ForShare: " FOR SHARE", ForUpdate: " FOR UPDATE", SkipLocked: " FOR UPDATE SKIP LOCKED", Time: "TIMESTAMPTZ"}

// pgxQuerier is a pool or a transaction.
type pgxQuerier interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
	SendBatch(ctx context.Context, b *pgx.Batch) pgx.BatchResults
	Begin(ctx context.Context) (pgx.Tx, error)
}

// db is a [sqlstore.DB] on pgx, natively: its statement cache, and a
// batch as one pipeline (one round trip, one implicit transaction).
type db struct{ q pgxQuerier }

func (d db) QueryRow(ctx context.Context, query string, args ...any) sqlstore.Row {
	return row{d.q.QueryRow(ctx, query, pgArgs(args)...)}
}

func (d db) Query(ctx context.Context, query string, args ...any) (sqlstore.Rows, error) {
	rs, err := d.q.Query(ctx, query, pgArgs(args)...)
	if err != nil {
		return nil, err
	}
	return rows{rs}, nil
}

func (d db) Exec(ctx context.Context, query string, args ...any) (int64, error) {
	tag, err := d.q.Exec(ctx, query, pgArgs(args)...)
	return tag.RowsAffected(), err
}

func (d db) Batch(ctx context.Context, qs []sqlstore.Query) error {
	b := &pgx.Batch{}
	for _, q := range qs {
		b.Queue(q.SQL, pgArgs(q.Args)...)
	}
	br := d.q.SendBatch(ctx, b)
	defer br.Close()
	for i := range qs {
		qs[i].Err = row{br.QueryRow()}.Scan(qs[i].Dest...)
		if qs[i].Err != nil && !sqlstore.NoRows(qs[i].Err) {
			return qs[i].Err
		}
	}
	// Close reads to the end of the pipeline: the commit.
	return br.Close()
}

func (d db) Tx(ctx context.Context, fn func(sqlstore.DB) error) error {
	return pgx.BeginFunc(ctx, d.q, func(tx pgx.Tx) error { return fn(db{tx}) })
}

func (d db) Wrap(op string, err error) error { return wrap(op, err) }

// pgArgs converts time arguments to what PostgreSQL keeps.
func pgArgs(args []any) []any {
	for i, a := range args {
		if t, ok := a.(time.Time); ok {
			args[i] = normTime(t)
		}
	}
	return args
}

type row struct{ r pgx.Row }

func (r row) Scan(dest ...any) error { return scanTimes(r.r.Scan, dest) }

type rows struct{ pgx.Rows }

func (r rows) Scan(dest ...any) error { return scanTimes(r.Rows.Scan, dest) }
func (r rows) Close() error           { r.Rows.Close(); return r.Rows.Err() }

// scanTimes scans with scan, reading a NULL time as zero and every time
// in UTC; pgx.ErrNoRows becomes sql.ErrNoRows.
func scanTimes(scan func(...any) error, dest []any) error {
	var times []int
	for i, d := range dest {
		if _, ok := d.(*time.Time); ok {
			times = append(times, i)
		}
	}
	var holders []*time.Time
	if len(times) > 0 {
		holders = make([]*time.Time, len(times))
		orig := dest
		dest = append([]any(nil), dest...)
		for j, i := range times {
			dest[i] = &holders[j]
		}
		defer func() {
			for j, i := range times {
				t := orig[i].(*time.Time)
				if holders[j] == nil {
					*t = time.Time{}
				} else {
					*t = holders[j].UTC()
				}
			}
		}()
	}
	err := scan(dest...)
	if errors.Is(err, pgx.ErrNoRows) {
		return sql.ErrNoRows
	}
	return err
}
