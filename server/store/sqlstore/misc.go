package sqlstore

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/textanalysis/go-textanalysis/server/store"
)

// CreateToken implements [store.Store].
func (c *Core) CreateToken(ctx context.Context, t store.Token) error {
	_, err := c.W.Exec(ctx,
		`INSERT INTO tokens (hash, purpose, account_id, key_id, email, expires_at) VALUES ($1, $2, $3, $4, $5, $6)`,
		t.Hash, t.Purpose, t.AccountID, t.KeyID, t.Email, Null(t.ExpiresAt))
	if err != nil {
		return c.W.Wrap("create token", err)
	}
	return nil
}

// TokenCols are a token's columns, in [TokenDest]'s order.
const TokenCols = `hash, purpose, account_id, key_id, email, expires_at`

// TokenDest returns the scan destinations of TokenCols.
func TokenDest(t *store.Token) []any {
	return []any{&t.Hash, &t.Purpose, &t.AccountID, &t.KeyID, &t.Email, &t.ExpiresAt}
}

// Token implements [store.Store].
func (c *Core) Token(ctx context.Context, hash, purpose string, now time.Time) (store.Token, error) {
	var t store.Token
	err := c.R.QueryRow(ctx, `SELECT `+TokenCols+` FROM tokens WHERE hash = $1 AND purpose = $2 AND expires_at > $3`,
		hash, purpose, NormTime(now)).Scan(TokenDest(&t)...)
	if err != nil {
		return store.Token{}, c.R.Wrap("token", err)
	}
	return t, nil
}

// DeleteToken implements [store.Store].
func (c *Core) DeleteToken(ctx context.Context, hash string) error {
	if _, err := c.W.Exec(ctx, `DELETE FROM tokens WHERE hash = $1`, hash); err != nil {
		return c.W.Wrap("delete token", err)
	}
	return nil
}

// Secret implements [store.Store]. A generated value must not be empty.
func (c *Core) Secret(ctx context.Context, name string, generate func() ([]byte, error)) ([]byte, error) {
	var v []byte
	err := c.R.QueryRow(ctx, `SELECT value FROM secrets WHERE name = $1`, name).Scan(&v)
	if err == nil {
		return v, nil
	}
	if !NoRows(err) {
		return nil, c.R.Wrap("secret", err)
	}
	gen, err := generate()
	if err != nil {
		return nil, c.W.Wrap("secret", fmt.Errorf("generate: %w", err))
	}
	if len(gen) == 0 {
		return nil, c.W.Wrap("secret", errors.New("generate returned an empty value"))
	}
	// When another caller stored the secret first, the no-op update
	// returns its value, and this caller's is dropped.
	err = c.W.QueryRow(ctx, `INSERT INTO secrets (name, value) VALUES ($1, $2)
		ON CONFLICT (name) DO UPDATE SET name = excluded.name RETURNING value`, name, gen).Scan(&v)
	if err != nil {
		return nil, c.W.Wrap("secret", err)
	}
	return v, nil
}

// EnqueueMail implements [store.Store].
func (c *Core) EnqueueMail(ctx context.Context, m store.Mail) (store.Mail, error) {
	m = store.NewMail(m)
	m.CreatedAt, m.NextAt, m.ExpiresAt = NormTime(m.CreatedAt), NormTime(m.NextAt), NormTime(m.ExpiresAt)
	err := c.W.QueryRow(ctx, `INSERT INTO mail_outbox (recipient, subject, body, created_at, next_at, expires_at)
		VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`, m.To, m.Subject, m.Body, m.CreatedAt, m.NextAt, m.ExpiresAt).Scan(&m.ID)
	if err != nil {
		return store.Mail{}, c.W.Wrap("enqueue mail", err)
	}
	return m, nil
}

// ClaimMails implements [store.Store]. On PostgreSQL the mails are taken
// with FOR UPDATE SKIP LOCKED: workers claiming at once take different
// mails instead of waiting for each other, and the new next_at keeps a
// claimed mail from the others once the claim is committed. On SQLite the
// statement runs under the one write lock.
func (c *Core) ClaimMails(ctx context.Context, now time.Time, lease time.Duration, n int) ([]store.Mail, error) {
	if n <= 0 {
		return nil, nil
	}
	now = NormTime(now)
	rs, err := c.W.Query(ctx, `UPDATE mail_outbox SET attempts = attempts + 1, next_at = $2
		WHERE id IN (SELECT id FROM mail_outbox WHERE next_at <= $1 AND expires_at > $1
			ORDER BY next_at, id LIMIT $3`+c.SkipLocked+`)
		RETURNING id, recipient, subject, body, attempts, created_at, next_at, expires_at`, now, NormTime(now.Add(lease)), n)
	list, err := collect(rs, err, func(rs Rows) (store.Mail, error) {
		var m store.Mail
		err := rs.Scan(&m.ID, &m.To, &m.Subject, &m.Body, &m.Attempts, &m.CreatedAt, &m.NextAt, &m.ExpiresAt)
		return m, err
	})
	if err != nil {
		return nil, c.W.Wrap("claim mails", err)
	}
	store.SortMails(list)
	return list, nil
}

// RetryMail implements [store.Store].
func (c *Core) RetryMail(ctx context.Context, id int64, at time.Time) error {
	if _, err := c.W.Exec(ctx, `UPDATE mail_outbox SET next_at = $2 WHERE id = $1`, id, NormTime(at)); err != nil {
		return c.W.Wrap("retry mail", err)
	}
	return nil
}

// DeleteMail implements [store.Store].
func (c *Core) DeleteMail(ctx context.Context, id int64) error {
	if _, err := c.W.Exec(ctx, `DELETE FROM mail_outbox WHERE id = $1`, id); err != nil {
		return c.W.Wrap("delete mail", err)
	}
	return nil
}
