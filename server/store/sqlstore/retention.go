package sqlstore

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/textanalysis/go-textanalysis/server/store"
)

// DeleteAccount implements [store.Store]. It runs in one transaction that
// locks the account's row first (on SQLite, the write lock), so that a key
// being added to the account at the same moment is either deleted with
// the others or refused.
func (c *Core) DeleteAccount(ctx context.Context, id int64, at time.Time) (store.Deletion, error) {
	if at.IsZero() {
		return store.Deletion{}, c.W.Wrap("delete account", errors.New("zero time"))
	}
	var d store.Deletion
	err := c.W.Tx(ctx, func(tx DB) error {
		var mail nullString
		if err := tx.QueryRow(ctx, `SELECT email FROM accounts WHERE id = $1`+c.ForUpdate, id).Scan(&mail); err != nil {
			return err
		}
		addr := Email(string(mail))
		// A confirmation token names the address it will confirm: it goes
		// with the address, whichever account it came from.
		var err error
		if d.Tokens, err = tx.Exec(ctx, `DELETE FROM tokens WHERE account_id = $1
			OR key_id IN (SELECT id FROM api_keys WHERE account_id = $1)
			OR (CAST($2 AS TEXT) IS NOT NULL AND lower(email) = CAST($2 AS TEXT))`, id, addr); err != nil {
			return err
		}
		if d.Keys, err = tx.Exec(ctx, `DELETE FROM api_keys WHERE account_id = $1`, id); err != nil {
			return err
		}
		for _, q := range []string{`DELETE FROM sessions WHERE account_id = $1`, `DELETE FROM plan_requests WHERE account_id = $1`} {
			if _, err := tx.Exec(ctx, q, id); err != nil {
				return err
			}
		}
		if addr != nil {
			if _, err := tx.Exec(ctx, `DELETE FROM mail_outbox WHERE lower(recipient) = $1`, addr); err != nil {
				return err
			}
		}
		if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM usage_counts WHERE account_id = $1)`, id).Scan(&d.Kept); err != nil {
			return err
		}
		if d.Kept {
			_, err = tx.Exec(ctx, `UPDATE accounts SET email = NULL, email_confirmed = FALSE,
				deleted_at = COALESCE(deleted_at, $1) WHERE id = $2`, NormTime(at), id)
		} else {
			_, err = tx.Exec(ctx, `DELETE FROM accounts WHERE id = $1`, id)
		}
		return err
	})
	if err != nil {
		return store.Deletion{}, c.W.Wrap("delete account", err)
	}
	return d, nil
}

// Purge implements [store.Store]. Each batch is its own transaction; on
// PostgreSQL it takes its rows with FOR UPDATE SKIP LOCKED, so that
// processes purging at once share the work instead of waiting for each
// other.
func (c *Core) Purge(ctx context.Context, now time.Time) (store.PurgeStats, error) {
	var ps store.PurgeStats
	now = NormTime(now)
	var err error
	// A token is valid while expires_at > now (see Token); one without an
	// expiry was never valid.
	ps.Tokens, err = c.purgeBatches(ctx, `DELETE FROM tokens WHERE hash IN
		(SELECT hash FROM tokens WHERE expires_at IS NULL OR expires_at <= $1 LIMIT $2`+c.SkipLocked+`)`, now)
	if err != nil {
		return ps, c.W.Wrap("purge tokens", err)
	}
	ps.Counters, err = c.purgeBatches(ctx, `DELETE FROM counters WHERE (purpose, subject, window_start) IN
		(SELECT purpose, subject, window_start FROM counters WHERE expires_at <= $1 LIMIT $2`+c.SkipLocked+`)`, now)
	if err != nil {
		return ps, c.W.Wrap("purge counters", err)
	}
	ps.Sessions, err = c.purgeBatches(ctx, `DELETE FROM sessions WHERE hash IN
		(SELECT hash FROM sessions WHERE expires_at <= $1 LIMIT $2`+c.SkipLocked+`)`, now)
	if err != nil {
		return ps, c.W.Wrap("purge sessions", err)
	}
	ps.Mails, err = c.purgeBatches(ctx, `DELETE FROM mail_outbox WHERE id IN
		(SELECT id FROM mail_outbox WHERE expires_at <= $1 LIMIT $2`+c.SkipLocked+`)`, now)
	if err != nil {
		return ps, c.W.Wrap("purge mails", err)
	}
	ps.TrialAccounts, err = store.InBatches(ctx, func(ctx context.Context) (int64, error) {
		keys, accounts, err := c.purgeTrials(ctx, now)
		ps.TrialKeys += keys
		return accounts, err
	})
	if err != nil {
		return ps, c.W.Wrap("purge trials", err)
	}
	return ps, nil
}

// purgeBatches runs a DELETE whose last argument is the batch size until
// it deletes less than a full batch. On PostgreSQL, rows another process
// holds are skipped; that process deletes them.
func (c *Core) purgeBatches(ctx context.Context, query string, args ...any) (int64, error) {
	args = append(args, store.PurgeBatch)
	return store.InBatches(ctx, func(ctx context.Context) (int64, error) {
		return c.W.Exec(ctx, query, args...)
	})
}

// purgeTrials removes one batch of unclaimed trials expired for
// TrialRetention at now, and returns how many keys and accounts it removed
// or anonymised.
func (c *Core) purgeTrials(ctx context.Context, now time.Time) (keys, accounts int64, err error) {
	err = c.W.Tx(ctx, func(tx DB) error {
		// A trial whose holder is confirming a claim right now waits for
		// the next purge.
		rs, err := tx.Query(ctx,
			`SELECT id FROM accounts a
			WHERE plan = 'trial' AND deleted_at IS NULL AND trial_expires_at <= $1
			AND NOT EXISTS (SELECT 1 FROM tokens t WHERE t.account_id = a.id AND t.expires_at > $2)
			ORDER BY trial_expires_at LIMIT $3`+c.SkipLocked,
			now.Add(-store.TrialRetention), now, store.PurgeBatch)
		ids, err := collect(rs, err, func(rs Rows) (any, error) {
			var id int64
			err := rs.Scan(&id)
			return id, err
		})
		if err != nil || len(ids) == 0 {
			return err
		}
		in := placeholders(1, len(ids))
		for _, q := range []string{`DELETE FROM tokens WHERE account_id IN `, `DELETE FROM sessions WHERE account_id IN `, `DELETE FROM plan_requests WHERE account_id IN `} {
			if _, err := tx.Exec(ctx, q+in, ids...); err != nil {
				return err
			}
		}
		if keys, err = tx.Exec(ctx, `DELETE FROM api_keys WHERE account_id IN `+in, ids...); err != nil {
			return err
		}
		// Usage rows are billing records: an account they refer to stays,
		// as an anonymous record.
		if _, err := tx.Exec(ctx, `UPDATE accounts SET email = NULL, email_confirmed = FALSE, deleted_at = $1
			WHERE id IN `+placeholders(2, len(ids))+` AND EXISTS (SELECT 1 FROM usage_counts u WHERE u.account_id = accounts.id)`,
			append([]any{now}, ids...)...); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `DELETE FROM accounts
			WHERE id IN `+in+` AND NOT EXISTS (SELECT 1 FROM usage_counts u WHERE u.account_id = accounts.id)`, ids...); err != nil {
			return err
		}
		accounts = int64(len(ids))
		return nil
	})
	if err != nil {
		return 0, 0, err
	}
	return keys, accounts, nil
}

// placeholders returns "($from, …, $from+n-1)".
func placeholders(from, n int) string {
	var b strings.Builder
	b.WriteByte('(')
	for i := range n {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "$%d", from+i)
	}
	b.WriteByte(')')
	return b.String()
}
