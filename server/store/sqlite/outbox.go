package sqlite

import (
	"context"
	"database/sql"
	"time"

	"github.com/textanalysis/go-textanalysis/server/store"
)

// EnqueueMail implements [store.Store].
func (s *Store) EnqueueMail(ctx context.Context, m store.Mail) (store.Mail, error) {
	m = store.NewMail(m)
	m.CreatedAt, m.NextAt, m.ExpiresAt = normTime(m.CreatedAt), normTime(m.NextAt), normTime(m.ExpiresAt)
	err := s.w.QueryRowContext(ctx, `INSERT INTO mail_outbox (recipient, subject, body, created_at, next_at, expires_at)
		VALUES (?, ?, ?, ?, ?, ?) RETURNING id`, m.To, m.Subject, m.Body, micros(m.CreatedAt), micros(m.NextAt), micros(m.ExpiresAt)).Scan(&m.ID)
	if err != nil {
		return store.Mail{}, wrap("enqueue mail", err)
	}
	return m, nil
}

// ClaimMails implements [store.Store]. One statement on the writer: SQLite
// runs one writer at a time, across processes, so the mails it takes are
// leased before anyone else looks.
func (s *Store) ClaimMails(ctx context.Context, now time.Time, lease time.Duration, n int) ([]store.Mail, error) {
	if n <= 0 {
		return nil, nil
	}
	rows, err := s.w.QueryContext(ctx, `UPDATE mail_outbox SET attempts = attempts + 1, next_at = ?2
		WHERE id IN (SELECT id FROM mail_outbox WHERE next_at <= ?1 AND expires_at > ?1 ORDER BY next_at, id LIMIT ?3)
		RETURNING id, recipient, subject, body, attempts, created_at, next_at, expires_at`,
		now.UnixMicro(), now.Add(lease).UnixMicro(), n)
	if err != nil {
		return nil, wrap("claim mails", err)
	}
	defer rows.Close()
	var list []store.Mail
	for rows.Next() {
		var (
			m                   store.Mail
			created, next, exps sql.NullInt64
		)
		if err := rows.Scan(&m.ID, &m.To, &m.Subject, &m.Body, &m.Attempts, &created, &next, &exps); err != nil {
			return nil, wrap("claim mails", err)
		}
		m.CreatedAt, m.NextAt, m.ExpiresAt = fromMicros(created), fromMicros(next), fromMicros(exps)
		list = append(list, m)
	}
	if err := rows.Err(); err != nil {
		return nil, wrap("claim mails", err)
	}
	store.SortMails(list)
	return list, nil
}

// RetryMail implements [store.Store].
func (s *Store) RetryMail(ctx context.Context, id int64, at time.Time) error {
	if _, err := s.w.ExecContext(ctx, `UPDATE mail_outbox SET next_at = ? WHERE id = ?`, micros(at), id); err != nil {
		return wrap("retry mail", err)
	}
	return nil
}

// DeleteMail implements [store.Store].
func (s *Store) DeleteMail(ctx context.Context, id int64) error {
	if _, err := s.w.ExecContext(ctx, `DELETE FROM mail_outbox WHERE id = ?`, id); err != nil {
		return wrap("delete mail", err)
	}
	return nil
}
