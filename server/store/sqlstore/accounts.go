package sqlstore

import (
	"context"
	"errors"
	"time"

	"github.com/textanalysis/go-textanalysis/server/store"
)

// AccountCols are an account's columns, of accounts a, in [ScanAccount]'s
// order.
const AccountCols = `a.id, a.email, a.plan, a.email_confirmed, a.monthly_cap, a.created_at, a.trial_expires_at, a.deleted_at`

// ScanAccount scans AccountCols, then extra.
func ScanAccount(row Row, extra ...any) (store.Account, error) {
	var (
		a    store.Account
		mail nullString
	)
	dest := append([]any{&a.ID, &mail, &a.Plan, &a.EmailConfirmed, &a.MonthlyCap, &a.CreatedAt, &a.TrialExpiresAt, &a.DeletedAt}, extra...)
	if err := row.Scan(dest...); err != nil {
		return store.Account{}, err
	}
	a.Email = string(mail)
	return a, nil
}

// KeyCols are a key's columns, of api_keys k, in [KeyDest]'s order.
const KeyCols = `k.id, k.account_id, k.prefix, k.hash, k.kind, k.api, k.name, k.created_at, k.revoked_at, k.last_used_at`

// KeyDest returns the scan destinations of KeyCols.
func KeyDest(k *store.Key) []any {
	return []any{&k.ID, &k.AccountID, &k.Prefix, &k.Hash, &k.Kind, &k.API, &k.Name, &k.CreatedAt, &k.RevokedAt, &k.LastUsedAt}
}

// CreateAccount implements [store.Store].
func (c *Core) CreateAccount(ctx context.Context, a store.Account) (store.Account, error) {
	if a.CreatedAt.IsZero() {
		a.CreatedAt = time.Now()
	}
	a.CreatedAt = NormTime(a.CreatedAt)
	a.TrialExpiresAt = NormTime(a.TrialExpiresAt)
	if e, ok := Email(a.Email).(string); ok {
		a.Email = e
	}
	err := c.W.QueryRow(ctx,
		`INSERT INTO accounts (email, plan, email_confirmed, monthly_cap, created_at, trial_expires_at)
		VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
		Email(a.Email), string(a.Plan), a.EmailConfirmed, a.MonthlyCap, a.CreatedAt, Null(a.TrialExpiresAt),
	).Scan(&a.ID)
	if err != nil {
		return store.Account{}, c.W.Wrap("create account", err)
	}
	return a, nil
}

// Account implements [store.Store].
func (c *Core) Account(ctx context.Context, id int64) (store.Account, error) {
	a, err := ScanAccount(c.R.QueryRow(ctx, `SELECT `+AccountCols+` FROM accounts a WHERE a.id = $1`, id))
	if err != nil {
		return store.Account{}, c.R.Wrap("account", err)
	}
	return a, nil
}

// AccountByEmail implements [store.Store].
func (c *Core) AccountByEmail(ctx context.Context, mail string) (store.Account, error) {
	if mail == "" {
		return store.Account{}, store.ErrNotFound
	}
	a, err := ScanAccount(c.R.QueryRow(ctx, `SELECT `+AccountCols+` FROM accounts a WHERE a.email = $1`, Email(mail)))
	if err != nil {
		return store.Account{}, c.R.Wrap("account by email", err)
	}
	return a, nil
}

// UpdateAccount implements [store.Store].
func (c *Core) UpdateAccount(ctx context.Context, a store.Account) error {
	n, err := c.W.Exec(ctx,
		`UPDATE accounts SET email = $1, plan = $2, email_confirmed = $3, monthly_cap = $4, trial_expires_at = $5
		WHERE id = $6 AND deleted_at IS NULL`,
		Email(a.Email), string(a.Plan), a.EmailConfirmed, a.MonthlyCap, Null(a.TrialExpiresAt), a.ID)
	return c.affected("update account", n, err)
}

// affected maps a statement that touched no row to ErrNotFound.
func (c *Core) affected(op string, n int64, err error) error {
	if err != nil {
		return c.W.Wrap(op, err)
	}
	if n == 0 {
		return store.ErrNotFound
	}
	return nil
}

// ListAccounts implements [store.Store].
func (c *Core) ListAccounts(ctx context.Context) ([]store.Account, error) {
	rs, err := c.R.Query(ctx, `SELECT `+AccountCols+` FROM accounts a ORDER BY a.id`)
	list, err := collect(rs, err, func(rs Rows) (store.Account, error) { return ScanAccount(rs) })
	if err != nil {
		return nil, c.R.Wrap("list accounts", err)
	}
	return list, nil
}

// CreateKey implements [store.Store].
func (c *Core) CreateKey(ctx context.Context, k store.Key) (store.Key, error) {
	k, err := c.CreateKeyIn(ctx, c.W, k)
	if err != nil {
		return store.Key{}, c.W.Wrap("create key", err)
	}
	return k, nil
}

// CreateKeyIn stores k with db (the writer, or a transaction's). No row
// comes back for an unknown or deleted account: sql.ErrNoRows.
func (c *Core) CreateKeyIn(ctx context.Context, db DB, k store.Key) (store.Key, error) {
	if k.CreatedAt.IsZero() {
		k.CreatedAt = time.Now()
	}
	k.CreatedAt = NormTime(k.CreatedAt)
	k.RevokedAt = NormTime(k.RevokedAt)
	k.LastUsedAt = time.Time{}
	err := db.QueryRow(ctx,
		`INSERT INTO api_keys (account_id, prefix, hash, kind, api, name, created_at, revoked_at)
		SELECT a.id, $2, $3, $4, $5, $6, CAST($7 AS `+c.Time+`), CAST($8 AS `+c.Time+`) FROM accounts a WHERE a.id = $1 AND a.deleted_at IS NULL`+c.ForShare+`
		RETURNING id`,
		k.AccountID, k.Prefix, k.Hash, k.Kind, k.API, k.Name, k.CreatedAt, Null(k.RevokedAt),
	).Scan(&k.ID)
	return k, err
}

const keyByHashSQL = `SELECT ` + AccountCols + `, ` + KeyCols + `
	FROM api_keys k JOIN accounts a ON a.id = k.account_id WHERE k.hash = $1`

// KeyByHash implements [store.Store].
func (c *Core) KeyByHash(ctx context.Context, hash string) (store.Key, store.Account, error) {
	var k store.Key
	a, err := ScanAccount(c.R.QueryRow(ctx, keyByHashSQL, hash), KeyDest(&k)...)
	if err != nil {
		return store.Key{}, store.Account{}, c.R.Wrap("key by hash", err)
	}
	return k, a, nil
}

// Key implements [store.Store].
func (c *Core) Key(ctx context.Context, id int64) (store.Key, error) {
	var k store.Key
	if err := c.R.QueryRow(ctx, `SELECT `+KeyCols+` FROM api_keys k WHERE k.id = $1`, id).Scan(KeyDest(&k)...); err != nil {
		return store.Key{}, c.R.Wrap("key", err)
	}
	return k, nil
}

// ListKeys implements [store.Store].
func (c *Core) ListKeys(ctx context.Context, accountID int64) ([]store.Key, error) {
	rs, err := c.R.Query(ctx,
		`SELECT `+KeyCols+` FROM api_keys k WHERE CAST($1 AS BIGINT) = 0 OR k.account_id = $1 ORDER BY k.id`, accountID)
	list, err := collect(rs, err, func(rs Rows) (store.Key, error) {
		var k store.Key
		err := rs.Scan(KeyDest(&k)...)
		return k, err
	})
	if err != nil {
		return nil, c.R.Wrap("list keys", err)
	}
	return list, nil
}

// RevokeKey implements [store.Store].
func (c *Core) RevokeKey(ctx context.Context, keyID int64, at time.Time) error {
	if at.IsZero() {
		return c.W.Wrap("revoke key", errors.New("zero time"))
	}
	n, err := c.W.Exec(ctx, `UPDATE api_keys SET revoked_at = COALESCE(revoked_at, $1) WHERE id = $2`, NormTime(at), keyID)
	return c.affected("revoke key", n, err)
}

// MoveKey implements [store.Store].
func (c *Core) MoveKey(ctx context.Context, keyID, toAccountID int64) error {
	n, err := c.W.Exec(ctx, `UPDATE api_keys SET account_id = $1 WHERE id = $2
		AND EXISTS (SELECT 1 FROM accounts WHERE id = $1 AND deleted_at IS NULL`+c.ForShare+`)`, toAccountID, keyID)
	return c.affected("move key", n, err)
}

// TouchKey implements [store.Store].
func (c *Core) TouchKey(ctx context.Context, keyID int64, at time.Time) error {
	_, err := c.W.Exec(ctx,
		`UPDATE api_keys SET last_used_at = $1 WHERE id = $2 AND (last_used_at IS NULL OR last_used_at < $3)`,
		NormTime(at), keyID, NormTime(at.Add(-store.KeyTouchInterval)))
	if err != nil {
		return c.W.Wrap("touch key", err)
	}
	return nil
}
