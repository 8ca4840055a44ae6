package sqlite

import (
	"context"
	"database/sql"
	"time"

	"github.com/textanalysis/go-textanalysis/server/store"
)

// The developer site's operations: the live-key limit, links that act
// once, sessions and plan requests. Each runs in one IMMEDIATE
// transaction: no other writer, of this process or another, comes between
// its statements.

// CreateKeyLimited implements [store.Store].
func (s *Store) CreateKeyLimited(ctx context.Context, k store.Key, maxLive int) (store.Key, error) {
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return store.Key{}, wrap("create key", err)
	}
	defer tx.Rollback()
	if err := checkLive(ctx, tx, k.AccountID, maxLive); err != nil {
		return store.Key{}, wrap("create key", err)
	}
	if k, err = createKey(ctx, tx, k); err != nil {
		return store.Key{}, wrap("create key", err)
	}
	if err := tx.Commit(); err != nil {
		return store.Key{}, wrap("create key", err)
	}
	return k, nil
}

// checkLive returns ErrKeyLimit when an account has maxLive (> 0) live
// keys.
func checkLive(ctx context.Context, tx *sql.Tx, accountID int64, maxLive int) error {
	if maxLive <= 0 {
		return nil
	}
	var n int
	if err := tx.QueryRowContext(ctx,
		`SELECT count(*) FROM api_keys WHERE account_id = ? AND revoked_at IS NULL`, accountID).Scan(&n); err != nil {
		return err
	}
	if n >= maxLive {
		return store.ErrKeyLimit
	}
	return nil
}

// takeToken deletes an unexpired token of a purpose and returns it.
func takeToken(ctx context.Context, tx *sql.Tx, hash, purpose string, now time.Time) (store.Token, error) {
	var (
		t   store.Token
		exp sql.NullInt64
	)
	err := tx.QueryRowContext(ctx,
		`DELETE FROM tokens WHERE hash = ? AND purpose = ? AND expires_at > ?
		RETURNING hash, purpose, account_id, key_id, email, expires_at`, hash, purpose, now.UnixMicro(),
	).Scan(&t.Hash, &t.Purpose, &t.AccountID, &t.KeyID, &t.Email, &exp)
	t.ExpiresAt = fromMicros(exp)
	return t, err
}

// confirmedAccount finds the account of an address, or makes one on the
// Free plan, and marks the address confirmed.
func confirmedAccount(ctx context.Context, tx *sql.Tx, mail string, now time.Time) (store.Account, error) {
	if mail == "" {
		return store.Account{}, store.ErrNotFound
	}
	if _, err := tx.ExecContext(ctx,
		`INSERT INTO accounts (email, plan, email_confirmed, monthly_cap, created_at) VALUES (?, ?, 1, 0, ?)
		ON CONFLICT (email) DO UPDATE SET email_confirmed = 1`,
		email(mail), store.PlanFree, micros(now)); err != nil {
		return store.Account{}, err
	}
	return scanAccount(tx.QueryRowContext(ctx, `SELECT `+accountCols+` FROM accounts a WHERE a.email = ?`, email(mail)))
}

func keyIn(ctx context.Context, tx *sql.Tx, id int64) (store.Key, error) {
	var k store.Key
	dest, finish := keyDest(&k)
	if err := tx.QueryRowContext(ctx, `SELECT `+keyCols+` FROM api_keys k WHERE k.id = ?`, id).Scan(dest...); err != nil {
		return store.Key{}, err
	}
	finish()
	return k, nil
}

// ConfirmSignUp implements [store.Store].
func (s *Store) ConfirmSignUp(ctx context.Context, tokenHash string, now time.Time, k store.Key, maxLive int) (store.Account, store.Key, error) {
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return store.Account{}, store.Key{}, wrap("confirm sign-up", err)
	}
	defer tx.Rollback()
	t, err := takeToken(ctx, tx, tokenHash, store.PurposeSignUp, now)
	if err != nil {
		return store.Account{}, store.Key{}, wrap("confirm sign-up", err)
	}
	a, err := confirmedAccount(ctx, tx, t.Email, now)
	if err != nil {
		return store.Account{}, store.Key{}, wrap("confirm sign-up", err)
	}
	if err := checkLive(ctx, tx, a.ID, maxLive); err != nil {
		return store.Account{}, store.Key{}, wrap("confirm sign-up", err)
	}
	k.AccountID = a.ID
	if k, err = createKey(ctx, tx, k); err != nil {
		return store.Account{}, store.Key{}, wrap("confirm sign-up", err)
	}
	if err := tx.Commit(); err != nil {
		return store.Account{}, store.Key{}, wrap("confirm sign-up", err)
	}
	return a, k, nil
}

// ConfirmClaim implements [store.Store].
func (s *Store) ConfirmClaim(ctx context.Context, tokenHash string, now time.Time, maxLive int) (store.Claim, error) {
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return store.Claim{}, wrap("confirm claim", err)
	}
	defer tx.Rollback()
	t, err := takeToken(ctx, tx, tokenHash, store.PurposeClaim, now)
	if err != nil {
		return store.Claim{}, wrap("confirm claim", err)
	}
	var still bool
	if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM api_keys k JOIN accounts a ON a.id = k.account_id
		WHERE k.id = ? AND k.account_id = ? AND a.plan = ? AND a.deleted_at IS NULL)`,
		t.KeyID, t.AccountID, store.PlanTrial).Scan(&still); err != nil {
		return store.Claim{}, wrap("confirm claim", err)
	}
	if !still {
		// The link is used up all the same.
		if err := tx.Commit(); err != nil {
			return store.Claim{}, wrap("confirm claim", err)
		}
		return store.Claim{}, store.ErrAlreadyClaimed
	}
	a, err := confirmedAccount(ctx, tx, t.Email, now)
	if err != nil {
		return store.Claim{}, wrap("confirm claim", err)
	}
	if err := checkLive(ctx, tx, a.ID, maxLive); err != nil {
		return store.Claim{}, wrap("confirm claim", err)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE api_keys SET account_id = ? WHERE id = ?`, a.ID, t.KeyID); err != nil {
		return store.Claim{}, wrap("confirm claim", err)
	}
	// The trial account keeps no key; it ends, so it can't be claimed again.
	if _, err := tx.ExecContext(ctx, `UPDATE accounts SET plan = ?, trial_expires_at = NULL WHERE id = ?`,
		store.PlanFree, t.AccountID); err != nil {
		return store.Claim{}, wrap("confirm claim", err)
	}
	k, err := keyIn(ctx, tx, t.KeyID)
	if err != nil {
		return store.Claim{}, wrap("confirm claim", err)
	}
	if err := tx.Commit(); err != nil {
		return store.Claim{}, wrap("confirm claim", err)
	}
	return store.Claim{Account: a, Key: k, From: t.AccountID}, nil
}

// SignIn implements [store.Store].
func (s *Store) SignIn(ctx context.Context, tokenHash string, now time.Time, ses store.Session) (store.Account, error) {
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return store.Account{}, wrap("sign in", err)
	}
	defer tx.Rollback()
	t, err := takeToken(ctx, tx, tokenHash, store.PurposeSignIn, now)
	if err != nil {
		return store.Account{}, wrap("sign in", err)
	}
	a, err := scanAccount(tx.QueryRowContext(ctx, `SELECT `+accountCols+` FROM accounts a
		WHERE a.id = ? AND a.deleted_at IS NULL AND a.email = ?`, t.AccountID, email(t.Email)))
	if err != nil {
		return store.Account{}, wrap("sign in", err)
	}
	if ses.CreatedAt.IsZero() {
		ses.CreatedAt = now
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO sessions (hash, account_id, created_at, expires_at) VALUES (?, ?, ?, ?)`,
		ses.Hash, a.ID, micros(ses.CreatedAt), micros(ses.ExpiresAt)); err != nil {
		return store.Account{}, wrap("sign in", err)
	}
	if err := tx.Commit(); err != nil {
		return store.Account{}, wrap("sign in", err)
	}
	return a, nil
}

// Session implements [store.Store].
func (s *Store) Session(ctx context.Context, hash string, now time.Time) (store.Session, store.Account, error) {
	var (
		ses              store.Session
		created, expires sql.NullInt64
	)
	a, err := scanAccount(s.r.QueryRowContext(ctx, `SELECT `+accountCols+`, s.hash, s.account_id, s.created_at, s.expires_at
		FROM sessions s JOIN accounts a ON a.id = s.account_id
		WHERE s.hash = ? AND s.expires_at > ? AND a.deleted_at IS NULL`, hash, now.UnixMicro()),
		&ses.Hash, &ses.AccountID, &created, &expires)
	if err != nil {
		return store.Session{}, store.Account{}, wrap("session", err)
	}
	ses.CreatedAt, ses.ExpiresAt = fromMicros(created), fromMicros(expires)
	return ses, a, nil
}

// DeleteSession implements [store.Store].
func (s *Store) DeleteSession(ctx context.Context, hash string) error {
	if _, err := s.w.ExecContext(ctx, `DELETE FROM sessions WHERE hash = ?`, hash); err != nil {
		return wrap("delete session", err)
	}
	return nil
}

// CreatePlanRequest implements [store.Store].
func (s *Store) CreatePlanRequest(ctx context.Context, r store.PlanRequest) (store.PlanRequest, error) {
	if r.CreatedAt.IsZero() {
		r.CreatedAt = time.Now()
	}
	r.CreatedAt = normTime(r.CreatedAt)
	err := s.w.QueryRowContext(ctx,
		`INSERT INTO plan_requests (account_id, plan, monthly_cap, created_at)
		SELECT a.id, ?, ?, ? FROM accounts a WHERE a.id = ? AND a.deleted_at IS NULL RETURNING id`,
		r.Plan, r.MonthlyCap, micros(r.CreatedAt), r.AccountID).Scan(&r.ID)
	if err != nil {
		return store.PlanRequest{}, wrap("create plan request", err)
	}
	return r, nil
}

// ListPlanRequests implements [store.Store].
func (s *Store) ListPlanRequests(ctx context.Context, accountID int64) ([]store.PlanRequest, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT id, account_id, plan, monthly_cap, created_at FROM plan_requests
		WHERE ?1 = 0 OR account_id = ?1 ORDER BY id`, accountID)
	if err != nil {
		return nil, wrap("list plan requests", err)
	}
	defer rows.Close()
	var list []store.PlanRequest
	for rows.Next() {
		var (
			r       store.PlanRequest
			created sql.NullInt64
		)
		if err := rows.Scan(&r.ID, &r.AccountID, &r.Plan, &r.MonthlyCap, &created); err != nil {
			return nil, wrap("list plan requests", err)
		}
		r.CreatedAt = fromMicros(created)
		list = append(list, r)
	}
	if err := rows.Err(); err != nil {
		return nil, wrap("list plan requests", err)
	}
	return list, nil
}
