package postgres

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"

	"github.com/textanalysis/go-textanalysis/server/store"
	"github.com/textanalysis/go-textanalysis/server/store/sqlstore"
)

// Group commit of counts without the hot row held through the disk
// flush. A durable commit keeps its row locks until its WAL is on disk,
// so the batches of one busy account would queue on its usage_counts row
// one flush after another (about 300 a second on a loaded machine here,
// whatever the number of connections). Instead the count is committed
// with synchronous_commit off, which releases the row at once, and then,
// in the same pipeline, a second transaction writes a WAL record and
// commits durably: its flush covers the count's commit, which is earlier
// in the WAL. The batch returns only after that flush, so a count is
// durable before its request is answered, and the flushes of batches
// under way at once share one disk write (PostgreSQL's group commit).
// Another transaction may see the count before it is durable; it can only
// be lost in a crash of the database together with every later commit,
// its requests unanswered.
const (
	// flushSQL writes a transactional WAL record (of no table: nothing to
	// lock, no schema to migrate) and makes its implicit transaction
	// commit, with the session's synchronous_commit, wait for the flush.
	// Logical decoding clients see an empty message with this prefix.
	flushSQL = `SELECT pg_logical_emit_message(true, 'textanalysis-meter', '')`
	// meterConcurrency is how many ConsumeBatch calls the batcher keeps
	// under way (see [store.ConcurrentBatcher]).
	meterConcurrency = 4
)

// BatchConcurrency implements [store.ConcurrentBatcher]: batches gain
// from running at once when their counts do not hold the row through a
// flush.
func (s *Store) BatchConcurrency() int {
	if s.deferFlush {
		return meterConcurrency
	}
	return 1
}

// ConsumeBatch implements [store.Store] as [sqlstore.Core.ConsumeBatch]
// does, with the usual case (one take that fits in its existing row)
// committed as above, in one round trip.
func (s *Store) ConsumeBatch(ctx context.Context, takes []store.Take) ([]store.Taken, error) {
	if len(takes) == 1 && s.deferFlush {
		if q, args, ok := sqlstore.FitQuery(takes[0]); ok {
			after, fit, err := s.consumeFit(ctx, q, args)
			if err != nil {
				return nil, wrap("consume batch", err)
			}
			if fit {
				return []store.Taken{{Granted: takes[0].N, Count: after}}, nil
			}
			// No row yet, or not all fit: nothing changed.
		}
	}
	return s.Core.ConsumeBatch(ctx, takes)
}

// consumeFit runs q (see [sqlstore.FitQuery]) in a transaction committed
// without waiting for the disk, then the flush, in one pipeline. fit is
// false when q counted nothing.
func (s *Store) consumeFit(ctx context.Context, q string, args []any) (after int64, fit bool, err error) {
	b := &pgx.Batch{}
	b.Queue("BEGIN")
	b.Queue("SET LOCAL synchronous_commit = off")
	b.Queue(q, pgArgs(args)...)
	b.Queue("COMMIT")
	b.Queue(flushSQL)
	br := s.pool.SendBatch(ctx, b)
	defer br.Close()
	if _, err := br.Exec(); err != nil {
		return 0, false, err
	}
	if _, err := br.Exec(); err != nil {
		return 0, false, err
	}
	err = br.QueryRow().Scan(&after)
	if errors.Is(err, pgx.ErrNoRows) {
		err = nil
	} else if err == nil {
		fit = true
	}
	if err != nil {
		return 0, false, err
	}
	if _, err := br.Exec(); err != nil {
		// The commit's outcome is unknown, as with any commit whose
		// answer is lost.
		return 0, false, err
	}
	_, ferr := br.Exec()
	if ferr == nil {
		ferr = br.Close()
	}
	if ferr != nil && fit {
		// The count is committed but maybe not durable yet: a flush on
		// another connection makes it so.
		if _, err := s.pool.Exec(ctx, flushSQL); err != nil {
			return 0, false, errors.Join(ferr, err)
		}
	}
	return after, fit, nil
}

// probeFlush reports whether flushSQL runs on this server and role.
func probeFlush(ctx context.Context, q pgxQuerier) bool {
	_, err := q.Exec(ctx, flushSQL)
	return err == nil
}
