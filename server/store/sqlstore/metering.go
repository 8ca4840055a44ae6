package sqlstore

import (
	"context"
	"time"

	"github.com/textanalysis/go-textanalysis/server/store"
)

// The statements of metering. Each counts in the row of an account and
// period of usage_counts: count is the allowance, on any plan; payg_count
// and other_count count the same requests apart by the plan they were
// admitted on (see [planShares]).
const (
	// consumeSQL counts one request, without a plan: the row is created
	// at 1, or incremented while under the limit; no row comes back at
	// the limit.
	consumeSQL = `INSERT INTO usage_counts AS u (account_id, period, count) VALUES ($1, $2, 1)
	ON CONFLICT (account_id, period) DO UPDATE SET count = u.count + 1 WHERE u.count < $3
	RETURNING count`
	usedSQL = `SELECT count FROM usage_counts WHERE account_id = $1 AND period = $2`
	// batchAllSQL counts all $3 requests when they fit under $4, in one
	// statement, and as many in payg_count times $5 and other_count times
	// $6; no row comes back when they don't fit (or for an unknown
	// account), and nothing changes.
	batchAllSQL = `INSERT INTO usage_counts AS u (account_id, period, count, payg_count, other_count)
	SELECT id, $2, CAST($3 AS BIGINT), CAST($3 AS BIGINT) * CAST($5 AS BIGINT), CAST($3 AS BIGINT) * CAST($6 AS BIGINT)
	FROM accounts WHERE id = $1 AND CAST($3 AS BIGINT) <= CAST($4 AS BIGINT)
	ON CONFLICT (account_id, period) DO UPDATE SET count = u.count + CAST($3 AS BIGINT),
		payg_count = u.payg_count + excluded.payg_count, other_count = u.other_count + excluded.other_count
	WHERE u.count + CAST($3 AS BIGINT) <= CAST($4 AS BIGINT)
	RETURNING count`
	// batchAddFitSQL counts all $3 requests in an existing row when they
	// fit under $4, as batchAllSQL does, without the insert's look-up of
	// the account; no row comes back when there is no row yet or they
	// don't fit.
	batchAddFitSQL = `UPDATE usage_counts SET count = count + CAST($3 AS BIGINT),
		payg_count = payg_count + CAST($3 AS BIGINT) * CAST($5 AS BIGINT),
		other_count = other_count + CAST($3 AS BIGINT) * CAST($6 AS BIGINT)
	WHERE account_id = $1 AND period = $2 AND count + CAST($3 AS BIGINT) <= CAST($4 AS BIGINT)
	RETURNING count`
	// batchLockSQL makes the period's row (at 0) when there is none,
	// locks it until the transaction ends and returns its count; no row
	// comes back for an unknown account.
	batchLockSQL = `INSERT INTO usage_counts AS u (account_id, period, count)
	SELECT id, $2, 0 FROM accounts WHERE id = $1
	ON CONFLICT (account_id, period) DO UPDATE SET count = u.count
	RETURNING count`
	// batchAddSQL then adds up to $3 requests without passing $4 (nor
	// lowering a count already past it), and as many to payg_count times
	// $5 and to other_count times $6.
	batchAddSQL = `UPDATE usage_counts SET count = LEAST(count + $3, GREATEST(count, $4)),
		payg_count = payg_count + (LEAST(count + $3, GREATEST(count, $4)) - count) * $5,
		other_count = other_count + (LEAST(count + $3, GREATEST(count, $4)) - count) * $6
	WHERE account_id = $1 AND period = $2 RETURNING count`
)

// planShares returns what one request of plan adds to payg_count and to
// other_count: (1, 0) on Pay as you go, (0, 1) on another plan, (0, 0)
// for none.
func planShares(p store.Plan) (payg, other int64) {
	switch p {
	case "":
		return 0, 0
	case store.PlanPayg:
		return 1, 0
	}
	return 0, 1
}

// Consume implements [store.Store]. It returns ErrNotFound for an unknown
// account.
func (c *Core) Consume(ctx context.Context, accountID int64, period time.Time, limit int64) (int64, bool, error) {
	if limit <= 0 {
		n, err := c.Used(ctx, accountID, period)
		return n, false, err
	}
	var n int64
	err := c.W.QueryRow(ctx, consumeSQL, accountID, NormTime(period), limit).Scan(&n)
	switch {
	case err == nil:
		return n, true, nil
	case NoRows(err):
		// At the limit: nothing changed. Read the count as it is now.
		n, err := c.Used(ctx, accountID, period)
		return n, false, err
	}
	return 0, false, c.W.Wrap("consume", err)
}

// ConsumeBatch implements [store.Store]. A batch of one take that fits
// (the usual case: one busy account, far from its limit) is one statement;
// otherwise its statements go in one [DB.Batch]: one transaction, in one
// round trip on PostgreSQL (a pipeline), under the write lock on SQLite.
// Takes are applied in [store.TakeOrder], so that concurrent batches lock
// rows in one order.
func (c *Core) ConsumeBatch(ctx context.Context, takes []store.Take) ([]store.Taken, error) {
	out := make([]store.Taken, len(takes))
	if len(takes) == 0 {
		return out, nil
	}
	if t := takes[0]; len(takes) == 1 && t.N > 0 && t.Limit > 0 {
		var after int64
		payg, other := planShares(t.Plan)
		err := c.W.QueryRow(ctx, batchAddFitSQL, t.AccountID, NormTime(t.Period), t.N, t.Limit, payg, other).Scan(&after)
		if NoRows(err) {
			err = c.W.QueryRow(ctx, batchAllSQL, t.AccountID, NormTime(t.Period), t.N, t.Limit, payg, other).Scan(&after)
		}
		if err == nil {
			out[0] = store.Taken{Granted: t.N, Count: after}
			return out, nil
		}
		if !NoRows(err) {
			return nil, c.W.Wrap("consume batch", err)
		}
	}
	order := store.TakeOrder(takes)
	before, after := make([]int64, len(takes)), make([]int64, len(takes))
	qs := make([]Query, 0, 2*len(takes))
	for _, i := range order {
		t := takes[i]
		period := NormTime(t.Period)
		if t.N <= 0 || t.Limit <= 0 {
			qs = append(qs, Query{SQL: usedSQL, Args: []any{t.AccountID, period}, Dest: []any{&out[i].Count}})
			continue
		}
		payg, other := planShares(t.Plan)
		qs = append(qs,
			Query{SQL: batchLockSQL, Args: []any{t.AccountID, period}, Dest: []any{&before[i]}},
			Query{SQL: batchAddSQL, Args: []any{t.AccountID, period, t.N, t.Limit, payg, other}, Dest: []any{&after[i]}})
	}
	if err := c.W.Batch(ctx, qs); err != nil {
		return nil, c.W.Wrap("consume batch", err)
	}
	q := qs
	for _, i := range order {
		t := takes[i]
		if t.N <= 0 || t.Limit <= 0 {
			if err := q[0].Err; err != nil && !NoRows(err) {
				return nil, c.W.Wrap("consume batch", err)
			}
			q = q[1:]
			continue
		}
		lock, add := q[0].Err, q[1].Err
		q = q[2:]
		for _, err := range []error{lock, add} {
			if err != nil && !NoRows(err) {
				return nil, c.W.Wrap("consume batch", err)
			}
		}
		if lock != nil || add != nil {
			out[i].Err = store.ErrNotFound
			continue
		}
		out[i].Granted, out[i].Count = after[i]-before[i], after[i]
	}
	return out, nil
}

// Used implements [store.Store].
func (c *Core) Used(ctx context.Context, accountID int64, period time.Time) (int64, error) {
	var n int64
	err := c.R.QueryRow(ctx, usedSQL, accountID, NormTime(period)).Scan(&n)
	if NoRows(err) {
		return 0, nil
	}
	if err != nil {
		return 0, c.R.Wrap("used", err)
	}
	return n, nil
}

// UsageSince implements [store.Store].
func (c *Core) UsageSince(ctx context.Context, since time.Time) ([]store.Usage, error) {
	rs, err := c.R.Query(ctx,
		`SELECT u.account_id, a.email, a.plan, u.period, u.count, u.payg_count, u.other_count
		FROM usage_counts u JOIN accounts a ON a.id = u.account_id
		WHERE u.period >= $1 ORDER BY u.period, u.account_id`, NormTime(since))
	list, err := collect(rs, err, func(rs Rows) (store.Usage, error) {
		var (
			u    store.Usage
			mail nullString
		)
		err := rs.Scan(&u.AccountID, &mail, &u.Plan, &u.Period, &u.Count, &u.Payg, &u.Other)
		u.Email = string(mail)
		return u, err
	})
	if err != nil {
		return nil, c.R.Wrap("usage since", err)
	}
	return list, nil
}

// TakeSlot implements [store.Store].
func (c *Core) TakeSlot(ctx context.Context, ct store.Counter, limit int) (bool, error) {
	if limit <= 0 {
		return false, nil
	}
	var n int64
	err := c.W.QueryRow(ctx,
		`INSERT INTO counters AS c (purpose, subject, window_start, expires_at, count) VALUES ($1, $2, $3, $4, 1)
		ON CONFLICT (purpose, subject, window_start) DO UPDATE SET count = c.count + 1 WHERE c.count < $5
		RETURNING count`,
		ct.Purpose, ct.Subject, NormTime(ct.Window), NormTime(ct.Expires), limit).Scan(&n)
	switch {
	case err == nil:
		return true, nil
	case NoRows(err):
		return false, nil
	}
	return false, c.W.Wrap("take slot", err)
}
