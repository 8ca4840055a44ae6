package postgres

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/textanalysis/go-textanalysis/server/store"
)

const mailCols = `id, recipient, subject, body, attempts, created_at, next_at, expires_at`

func scanMail(row pgx.CollectableRow) (store.Mail, error) {
	var m store.Mail
	if err := row.Scan(&m.ID, &m.To, &m.Subject, &m.Body, &m.Attempts, &m.CreatedAt, &m.NextAt, &m.ExpiresAt); err != nil {
		return store.Mail{}, err
	}
	m.CreatedAt, m.NextAt, m.ExpiresAt = m.CreatedAt.UTC(), m.NextAt.UTC(), m.ExpiresAt.UTC()
	return m, nil
}

// EnqueueMail implements [store.Store].
func (s *Store) EnqueueMail(ctx context.Context, m store.Mail) (store.Mail, error) {
	m = store.NewMail(m)
	m.CreatedAt, m.NextAt, m.ExpiresAt = normTime(m.CreatedAt), normTime(m.NextAt), normTime(m.ExpiresAt)
	err := s.pool.QueryRow(ctx, `INSERT INTO mail_outbox (recipient, subject, body, created_at, next_at, expires_at)
		VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`, m.To, m.Subject, m.Body, m.CreatedAt, m.NextAt, m.ExpiresAt).Scan(&m.ID)
	if err != nil {
		return store.Mail{}, wrap("enqueue mail", err)
	}
	return m, nil
}

// ClaimMails implements [store.Store]. The mails are taken with FOR
// UPDATE SKIP LOCKED: workers claiming at once take different mails
// instead of waiting for each other, and the new next_at keeps a claimed
// mail from the others once the claim is committed.
func (s *Store) ClaimMails(ctx context.Context, now time.Time, lease time.Duration, n int) ([]store.Mail, error) {
	if n <= 0 {
		return nil, nil
	}
	now = normTime(now)
	rows, err := s.pool.Query(ctx, `UPDATE mail_outbox SET attempts = attempts + 1, next_at = $2
		WHERE id IN (SELECT id FROM mail_outbox WHERE next_at <= $1 AND expires_at > $1
			ORDER BY next_at, id LIMIT $3 FOR UPDATE SKIP LOCKED)
		RETURNING `+mailCols, now, normTime(now.Add(lease)), n)
	if err != nil {
		return nil, wrap("claim mails", err)
	}
	list, err := pgx.CollectRows(rows, scanMail)
	if err != nil {
		return nil, wrap("claim mails", err)
	}
	store.SortMails(list)
	return list, nil
}

// RetryMail implements [store.Store].
func (s *Store) RetryMail(ctx context.Context, id int64, at time.Time) error {
	if _, err := s.pool.Exec(ctx, `UPDATE mail_outbox SET next_at = $2 WHERE id = $1`, id, normTime(at)); err != nil {
		return wrap("retry mail", err)
	}
	return nil
}

// DeleteMail implements [store.Store].
func (s *Store) DeleteMail(ctx context.Context, id int64) error {
	if _, err := s.pool.Exec(ctx, `DELETE FROM mail_outbox WHERE id = $1`, id); err != nil {
		return wrap("delete mail", err)
	}
	return nil
}
