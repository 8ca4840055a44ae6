package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"time"

	"github.com/textanalysis/go-textanalysis/server/store"
)

// DeleteAccount implements [store.Store]. It runs in one transaction. The
// removed rows are overwritten in the file (secure_delete); until the next
// checkpoint, older copies of their pages may remain in the WAL file.
func (s *Store) DeleteAccount(ctx context.Context, id int64, at time.Time) (store.Deletion, error) {
	if at.IsZero() {
		return store.Deletion{}, errors.New("sqlite: delete account: zero time")
	}
	tx, err := s.w.BeginTx(ctx, nil) // BEGIN IMMEDIATE: no other writer between the statements
	if err != nil {
		return store.Deletion{}, wrap("delete account", err)
	}
	defer tx.Rollback()
	var mail sql.NullString
	if err := tx.QueryRowContext(ctx, `SELECT email FROM accounts WHERE id = ?`, id).Scan(&mail); err != nil {
		return store.Deletion{}, wrap("delete account", err)
	}
	var d store.Deletion
	// A confirmation token names the address it will confirm: it goes
	// with the address, whichever account it came from.
	if d.Tokens, err = execCount(ctx, tx,
		`DELETE FROM tokens WHERE account_id = ?1
		OR key_id IN (SELECT id FROM api_keys WHERE account_id = ?1)
		OR (?2 IS NOT NULL AND lower(email) = ?2)`, id, mail); err != nil {
		return store.Deletion{}, wrap("delete account: tokens", err)
	}
	if d.Keys, err = execCount(ctx, tx, `DELETE FROM api_keys WHERE account_id = ?`, id); err != nil {
		return store.Deletion{}, wrap("delete account: keys", err)
	}
	for _, q := range []string{`DELETE FROM sessions WHERE account_id = ?`, `DELETE FROM plan_requests WHERE account_id = ?`} {
		if _, err := tx.ExecContext(ctx, q, id); err != nil {
			return store.Deletion{}, wrap("delete account", err)
		}
	}
	if mail.Valid {
		if _, err := tx.ExecContext(ctx, `DELETE FROM mail_outbox WHERE lower(recipient) = ?`, mail.String); err != nil {
			return store.Deletion{}, wrap("delete account: mails", err)
		}
	}
	if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM usage_counts WHERE account_id = ?)`, id).Scan(&d.Kept); err != nil {
		return store.Deletion{}, wrap("delete account: usage", err)
	}
	if d.Kept {
		_, err = tx.ExecContext(ctx, `UPDATE accounts SET email = NULL, email_confirmed = 0,
			deleted_at = COALESCE(deleted_at, ?) WHERE id = ?`, micros(at), id)
	} else {
		_, err = tx.ExecContext(ctx, `DELETE FROM accounts WHERE id = ?`, id)
	}
	if err != nil {
		return store.Deletion{}, wrap("delete account", err)
	}
	if err := tx.Commit(); err != nil {
		return store.Deletion{}, wrap("delete account", err)
	}
	return d, nil
}

type execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

// execCount runs a statement and returns the number of rows it changed.
func execCount(ctx context.Context, db execer, query string, args ...any) (int64, error) {
	res, err := db.ExecContext(ctx, query, args...)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// Purge implements [store.Store]. Each batch is its own transaction, so
// counting goes on between batches.
func (s *Store) Purge(ctx context.Context, now time.Time) (store.PurgeStats, error) {
	var ps store.PurgeStats
	now = now.UTC()
	var err error
	// A token is valid while expires_at > now (see Token); one without an
	// expiry was never valid.
	ps.Tokens, err = s.purgeBatches(ctx, `DELETE FROM tokens WHERE hash IN
		(SELECT hash FROM tokens WHERE expires_at IS NULL OR expires_at <= ? LIMIT ?)`, now.UnixMicro())
	if err != nil {
		return ps, wrap("purge tokens", err)
	}
	ps.Counters, err = s.purgeBatches(ctx, `DELETE FROM counters WHERE (purpose, subject, window_start) IN
		(SELECT purpose, subject, window_start FROM counters WHERE expires_at <= ? LIMIT ?)`, now.UnixMicro())
	if err != nil {
		return ps, wrap("purge counters", err)
	}
	ps.Sessions, err = s.purgeBatches(ctx, `DELETE FROM sessions WHERE hash IN
		(SELECT hash FROM sessions WHERE expires_at <= ? LIMIT ?)`, now.UnixMicro())
	if err != nil {
		return ps, wrap("purge sessions", err)
	}
	ps.Mails, err = s.purgeBatches(ctx, `DELETE FROM mail_outbox WHERE id IN
		(SELECT id FROM mail_outbox WHERE expires_at <= ? LIMIT ?)`, now.UnixMicro())
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
// it deletes less than a full batch.
func (s *Store) purgeBatches(ctx context.Context, query string, args ...any) (int64, error) {
	args = append(args, store.PurgeBatch)
	return store.InBatches(ctx, func(ctx context.Context) (int64, error) {
		return execCount(ctx, s.w, query, args...)
	})
}

// purgeTrials removes one batch of unclaimed trials expired for
// TrialRetention at now, and returns how many keys and accounts it removed
// or anonymised.
func (s *Store) purgeTrials(ctx context.Context, now time.Time) (keys, accounts int64, err error) {
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return 0, 0, err
	}
	defer tx.Rollback()
	// A trial whose holder is confirming a claim right now waits for the
	// next purge.
	rows, err := tx.QueryContext(ctx,
		`SELECT id FROM accounts a
		WHERE plan = 'trial' AND deleted_at IS NULL AND trial_expires_at <= ?1
		AND NOT EXISTS (SELECT 1 FROM tokens t WHERE t.account_id = a.id AND t.expires_at > ?2)
		ORDER BY trial_expires_at LIMIT ?3`,
		now.Add(-store.TrialRetention).UnixMicro(), now.UnixMicro(), store.PurgeBatch)
	if err != nil {
		return 0, 0, err
	}
	var ids []any
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return 0, 0, err
		}
		ids = append(ids, id)
	}
	if err := errors.Join(rows.Err(), rows.Close()); err != nil {
		return 0, 0, err
	}
	if len(ids) == 0 {
		return 0, 0, nil
	}
	in := "(" + strings.Repeat("?,", len(ids)-1) + "?)"
	for _, q := range []string{`DELETE FROM tokens WHERE account_id IN `, `DELETE FROM sessions WHERE account_id IN `, `DELETE FROM plan_requests WHERE account_id IN `} {
		if _, err := tx.ExecContext(ctx, q+in, ids...); err != nil {
			return 0, 0, err
		}
	}
	if keys, err = execCount(ctx, tx, `DELETE FROM api_keys WHERE account_id IN `+in, ids...); err != nil {
		return 0, 0, err
	}
	// Usage rows are billing records: an account they refer to stays, as
	// an anonymous record.
	if _, err := tx.ExecContext(ctx, `UPDATE accounts SET email = NULL, email_confirmed = 0, deleted_at = ?
		WHERE id IN `+in+` AND EXISTS (SELECT 1 FROM usage_counts u WHERE u.account_id = accounts.id)`,
		append([]any{now.UnixMicro()}, ids...)...); err != nil {
		return 0, 0, err
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM accounts
		WHERE id IN `+in+` AND NOT EXISTS (SELECT 1 FROM usage_counts u WHERE u.account_id = accounts.id)`,
		ids...); err != nil {
		return 0, 0, err
	}
	if err := tx.Commit(); err != nil {
		return 0, 0, err
	}
	return keys, int64(len(ids)), nil
}
