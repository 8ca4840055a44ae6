package postgres

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/textanalysis/go-textanalysis/server/store"
)

// DeleteAccount implements [store.Store]. It runs in one transaction that
// locks the account's row first, so that a key being added to the account
// at the same moment is either deleted with the others or refused. The
// old row versions stay in the table's files until (auto)vacuum reclaims
// them, and in backups taken before.
func (s *Store) DeleteAccount(ctx context.Context, id int64, at time.Time) (store.Deletion, error) {
	if at.IsZero() {
		return store.Deletion{}, errors.New("postgres: delete account: zero time")
	}
	var d store.Deletion
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		var mail *string
		if err := tx.QueryRow(ctx, `SELECT email FROM accounts WHERE id = $1 FOR UPDATE`, id).Scan(&mail); err != nil {
			return err
		}
		// A confirmation token names the address it will confirm: it goes
		// with the address, whichever account it came from.
		tag, err := tx.Exec(ctx, `DELETE FROM tokens WHERE account_id = $1
			OR key_id IN (SELECT id FROM api_keys WHERE account_id = $1)
			OR ($2::text IS NOT NULL AND lower(email) = $2)`, id, mail)
		if err != nil {
			return err
		}
		d.Tokens = tag.RowsAffected()
		if tag, err = tx.Exec(ctx, `DELETE FROM api_keys WHERE account_id = $1`, id); err != nil {
			return err
		}
		d.Keys = tag.RowsAffected()
		for _, q := range []string{`DELETE FROM sessions WHERE account_id = $1`, `DELETE FROM plan_requests WHERE account_id = $1`} {
			if _, err := tx.Exec(ctx, q, id); err != nil {
				return err
			}
		}
		if mail != nil {
			if _, err := tx.Exec(ctx, `DELETE FROM mail_outbox WHERE lower(recipient) = $1`, *mail); err != nil {
				return err
			}
		}
		if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM usage_counts WHERE account_id = $1)`, id).Scan(&d.Kept); err != nil {
			return err
		}
		if d.Kept {
			_, err = tx.Exec(ctx, `UPDATE accounts SET email = NULL, email_confirmed = false,
				deleted_at = COALESCE(deleted_at, $1) WHERE id = $2`, normTime(at), id)
		} else {
			_, err = tx.Exec(ctx, `DELETE FROM accounts WHERE id = $1`, id)
		}
		return err
	})
	if err != nil {
		return store.Deletion{}, wrap("delete account", err)
	}
	return d, nil
}

// Purge implements [store.Store]. Each batch is its own transaction and
// takes its rows with FOR UPDATE SKIP LOCKED, so that processes purging
// at once share the work instead of waiting for each other.
func (s *Store) Purge(ctx context.Context, now time.Time) (store.PurgeStats, error) {
	var ps store.PurgeStats
	now = normTime(now)
	var err error
	// A token is valid while expires_at > now (see Token); one without an
	// expiry was never valid.
	ps.Tokens, err = s.purgeBatches(ctx, `DELETE FROM tokens WHERE hash IN
		(SELECT hash FROM tokens WHERE expires_at IS NULL OR expires_at <= $1 LIMIT $2 FOR UPDATE SKIP LOCKED)`, now)
	if err != nil {
		return ps, wrap("purge tokens", err)
	}
	ps.Counters, err = s.purgeBatches(ctx, `DELETE FROM counters WHERE (purpose, subject, window_start) IN
		(SELECT purpose, subject, window_start FROM counters WHERE expires_at <= $1 LIMIT $2 FOR UPDATE SKIP LOCKED)`, now)
	if err != nil {
		return ps, wrap("purge counters", err)
	}
	ps.Sessions, err = s.purgeBatches(ctx, `DELETE FROM sessions WHERE hash IN
		(SELECT hash FROM sessions WHERE expires_at <= $1 LIMIT $2 FOR UPDATE SKIP LOCKED)`, now)
	if err != nil {
		return ps, wrap("purge sessions", err)
	}
	ps.Mails, err = s.purgeBatches(ctx, `DELETE FROM mail_outbox WHERE id IN
		(SELECT id FROM mail_outbox WHERE expires_at <= $1 LIMIT $2 FOR UPDATE SKIP LOCKED)`, now)
	if err != nil {
		return ps, wrap("purge mails", err)
	}
	ps.TrialAccounts, err = store.InBatches(ctx, func(ctx context.Context) (int64, error) {
		keys, accounts, err := s.purgeTrials(ctx, now)
		ps.TrialKeys += keys
		return accounts, err
	})
	if err != nil {
		return ps, wrap("purge trials", err)
	}
	return ps, nil
}

// purgeBatches runs a DELETE whose last argument is the batch size until
// it deletes less than a full batch. Rows another process holds are
// skipped; that process deletes them.
func (s *Store) purgeBatches(ctx context.Context, query string, args ...any) (int64, error) {
	args = append(args, store.PurgeBatch)
	return store.InBatches(ctx, func(ctx context.Context) (int64, error) {
		tag, err := s.pool.Exec(ctx, query, args...)
		return tag.RowsAffected(), err
	})
}

// purgeTrials removes one batch of unclaimed trials expired for
// TrialRetention at now, and returns how many keys and accounts it removed
// or anonymised.
func (s *Store) purgeTrials(ctx context.Context, now time.Time) (keys, accounts int64, err error) {
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		// A trial whose holder is confirming a claim right now waits for
		// the next purge.
		rows, err := tx.Query(ctx,
			`SELECT id FROM accounts a
			WHERE plan = 'trial' AND deleted_at IS NULL AND trial_expires_at <= $1
			AND NOT EXISTS (SELECT 1 FROM tokens t WHERE t.account_id = a.id AND t.expires_at > $2)
			ORDER BY trial_expires_at LIMIT $3
			FOR UPDATE SKIP LOCKED`,
			now.Add(-store.TrialRetention), now, store.PurgeBatch)
		if err != nil {
			return err
		}
		ids, err := pgx.CollectRows(rows, pgx.RowTo[int64])
		if err != nil || len(ids) == 0 {
			return err
		}
		for _, q := range []string{`DELETE FROM tokens WHERE account_id = ANY($1)`, `DELETE FROM sessions WHERE account_id = ANY($1)`, `DELETE FROM plan_requests WHERE account_id = ANY($1)`} {
			if _, err := tx.Exec(ctx, q, ids); err != nil {
				return err
			}
		}
		tag, err := tx.Exec(ctx, `DELETE FROM api_keys WHERE account_id = ANY($1)`, ids)
		if err != nil {
			return err
		}
		keys = tag.RowsAffected()
		// Usage rows are billing records: an account they refer to stays,
		// as an anonymous record.
		if _, err := tx.Exec(ctx, `UPDATE accounts a SET email = NULL, email_confirmed = false, deleted_at = $2
			WHERE id = ANY($1) AND EXISTS (SELECT 1 FROM usage_counts u WHERE u.account_id = a.id)`, ids, now); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `DELETE FROM accounts a
			WHERE id = ANY($1) AND NOT EXISTS (SELECT 1 FROM usage_counts u WHERE u.account_id = a.id)`, ids); err != nil {
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
