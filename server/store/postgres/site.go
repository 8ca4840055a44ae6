package postgres

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/textanalysis/go-textanalysis/server/store"
)

// The developer site's operations: the live-key limit, links that act
// once, sessions and plan requests. Each runs in one transaction that
// locks the rows it decides on (READ COMMITTED: each statement after a
// lock sees what the transaction it waited for committed).

// CreateKeyLimited implements [store.Store]. It locks the account's row,
// so that concurrent calls for one account count in turn.
func (s *Store) CreateKeyLimited(ctx context.Context, k store.Key, maxLive int) (store.Key, error) {
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		var one int
		if err := tx.QueryRow(ctx, `SELECT 1 FROM accounts WHERE id = $1 AND deleted_at IS NULL FOR UPDATE`, k.AccountID).Scan(&one); err != nil {
			return err
		}
		if err := checkLive(ctx, tx, k.AccountID, maxLive); err != nil {
			return err
		}
		var err error
		k, err = createKey(ctx, tx, k)
		return err
	})
	if err != nil {
		return store.Key{}, wrap("create key", err)
	}
	return k, nil
}

// checkLive returns ErrKeyLimit when an account, whose row the caller
// locked, has maxLive (> 0) live keys.
func checkLive(ctx context.Context, tx pgx.Tx, accountID int64, maxLive int) error {
	if maxLive <= 0 {
		return nil
	}
	var n int
	if err := tx.QueryRow(ctx,
		`SELECT count(*) FROM api_keys WHERE account_id = $1 AND revoked_at IS NULL`, accountID).Scan(&n); err != nil {
		return err
	}
	if n >= maxLive {
		return store.ErrKeyLimit
	}
	return nil
}

// takeToken deletes an unexpired token of a purpose and returns it.
func takeToken(ctx context.Context, tx pgx.Tx, hash, purpose string, now time.Time) (store.Token, error) {
	var (
		t   store.Token
		exp *time.Time
	)
	err := tx.QueryRow(ctx,
		`DELETE FROM tokens WHERE hash = $1 AND purpose = $2 AND expires_at > $3
		RETURNING hash, purpose, account_id, key_id, email, expires_at`, hash, purpose, normTime(now),
	).Scan(&t.Hash, &t.Purpose, &t.AccountID, &t.KeyID, &t.Email, &exp)
	t.ExpiresAt = fromNull(exp)
	return t, err
}

// confirmedAccount finds the account of an address, or makes one on the
// Free plan, marks the address confirmed, and locks the account's row.
func confirmedAccount(ctx context.Context, tx pgx.Tx, mail string, now time.Time) (store.Account, error) {
	if mail == "" {
		return store.Account{}, store.ErrNotFound
	}
	var id int64
	if err := tx.QueryRow(ctx,
		`INSERT INTO accounts AS a (email, plan, email_confirmed, monthly_cap, created_at) VALUES ($1, $2, true, 0, $3)
		ON CONFLICT (email) DO UPDATE SET email_confirmed = true RETURNING a.id`,
		email(mail), string(store.PlanFree), normTime(now)).Scan(&id); err != nil {
		return store.Account{}, err
	}
	return scanAccount(tx.QueryRow(ctx, `SELECT `+accountCols+` FROM accounts a WHERE a.id = $1`, id))
}

// ConfirmSignUp implements [store.Store].
func (s *Store) ConfirmSignUp(ctx context.Context, tokenHash string, now time.Time, k store.Key, maxLive int) (store.Account, store.Key, error) {
	var a store.Account
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		t, err := takeToken(ctx, tx, tokenHash, store.PurposeSignUp, now)
		if err != nil {
			return err
		}
		if a, err = confirmedAccount(ctx, tx, t.Email, now); err != nil {
			return err
		}
		if err := checkLive(ctx, tx, a.ID, maxLive); err != nil {
			return err
		}
		k.AccountID = a.ID
		k, err = createKey(ctx, tx, k)
		return err
	})
	if err != nil {
		return store.Account{}, store.Key{}, wrap("confirm sign-up", err)
	}
	return a, k, nil
}

// ConfirmClaim implements [store.Store]. It locks the key's row, so that
// a second claim of the key waits for the first and then sees the key
// gone from the trial account.
func (s *Store) ConfirmClaim(ctx context.Context, tokenHash string, now time.Time, maxLive int) (store.Claim, error) {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return store.Claim{}, wrap("confirm claim", err)
	}
	defer tx.Rollback(ctx)
	t, err := takeToken(ctx, tx, tokenHash, store.PurposeClaim, now)
	if err != nil {
		return store.Claim{}, wrap("confirm claim", err)
	}
	var keyAccount int64
	err = tx.QueryRow(ctx, `SELECT account_id FROM api_keys WHERE id = $1 FOR UPDATE`, t.KeyID).Scan(&keyAccount)
	if err != nil && !errors.Is(err, pgx.ErrNoRows) {
		return store.Claim{}, wrap("confirm claim", err)
	}
	still := err == nil && keyAccount == t.AccountID
	if still {
		var plan string
		err := tx.QueryRow(ctx, `SELECT plan FROM accounts WHERE id = $1 AND deleted_at IS NULL FOR UPDATE`, t.AccountID).Scan(&plan)
		if err != nil && !errors.Is(err, pgx.ErrNoRows) {
			return store.Claim{}, wrap("confirm claim", err)
		}
		still = err == nil && plan == string(store.PlanTrial)
	}
	if !still {
		// The link is used up all the same.
		if err := tx.Commit(ctx); err != nil {
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
	if _, err := tx.Exec(ctx, `UPDATE api_keys SET account_id = $1 WHERE id = $2`, a.ID, t.KeyID); err != nil {
		return store.Claim{}, wrap("confirm claim", err)
	}
	// The trial account keeps no key; it ends, so it can't be claimed again.
	if _, err := tx.Exec(ctx, `UPDATE accounts SET plan = $1, trial_expires_at = NULL WHERE id = $2`,
		string(store.PlanFree), t.AccountID); err != nil {
		return store.Claim{}, wrap("confirm claim", err)
	}
	var k store.Key
	dest, finish := keyDest(&k)
	if err := tx.QueryRow(ctx, `SELECT `+keyCols+` FROM api_keys k WHERE k.id = $1`, t.KeyID).Scan(dest...); err != nil {
		return store.Claim{}, wrap("confirm claim", err)
	}
	finish()
	if err := tx.Commit(ctx); err != nil {
		return store.Claim{}, wrap("confirm claim", err)
	}
	return store.Claim{Account: a, Key: k, From: t.AccountID}, nil
}

// SignIn implements [store.Store].
func (s *Store) SignIn(ctx context.Context, tokenHash string, now time.Time, ses store.Session) (store.Account, error) {
	var a store.Account
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		t, err := takeToken(ctx, tx, tokenHash, store.PurposeSignIn, now)
		if err != nil {
			return err
		}
		// FOR SHARE waits for a DeleteAccount in progress.
		a, err = scanAccount(tx.QueryRow(ctx, `SELECT `+accountCols+` FROM accounts a
			WHERE a.id = $1 AND a.deleted_at IS NULL AND a.email = $2 FOR SHARE`, t.AccountID, email(t.Email)))
		if err != nil {
			return err
		}
		if ses.CreatedAt.IsZero() {
			ses.CreatedAt = now
		}
		_, err = tx.Exec(ctx, `INSERT INTO sessions (hash, account_id, created_at, expires_at) VALUES ($1, $2, $3, $4)`,
			ses.Hash, a.ID, normTime(ses.CreatedAt), normTime(ses.ExpiresAt))
		return err
	})
	if err != nil {
		return store.Account{}, wrap("sign in", err)
	}
	return a, nil
}

// Session implements [store.Store].
func (s *Store) Session(ctx context.Context, hash string, now time.Time) (store.Session, store.Account, error) {
	var ses store.Session
	a, err := scanAccount(s.pool.QueryRow(ctx, `SELECT `+accountCols+`, s.hash, s.account_id, s.created_at, s.expires_at
		FROM sessions s JOIN accounts a ON a.id = s.account_id
		WHERE s.hash = $1 AND s.expires_at > $2 AND a.deleted_at IS NULL`, hash, normTime(now)),
		&ses.Hash, &ses.AccountID, &ses.CreatedAt, &ses.ExpiresAt)
	if err != nil {
		return store.Session{}, store.Account{}, wrap("session", err)
	}
	ses.CreatedAt, ses.ExpiresAt = ses.CreatedAt.UTC(), ses.ExpiresAt.UTC()
	return ses, a, nil
}

// DeleteSession implements [store.Store].
func (s *Store) DeleteSession(ctx context.Context, hash string) error {
	if _, err := s.pool.Exec(ctx, `DELETE FROM sessions WHERE hash = $1`, hash); err != nil {
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
	err := s.pool.QueryRow(ctx,
		`INSERT INTO plan_requests (account_id, plan, monthly_cap, created_at)
		SELECT a.id, $2, $3, $4::timestamptz FROM accounts a WHERE a.id = $1 AND a.deleted_at IS NULL FOR SHARE RETURNING id`,
		r.AccountID, string(r.Plan), r.MonthlyCap, r.CreatedAt).Scan(&r.ID)
	if err != nil {
		return store.PlanRequest{}, wrap("create plan request", err)
	}
	return r, nil
}

// ListPlanRequests implements [store.Store].
func (s *Store) ListPlanRequests(ctx context.Context, accountID int64) ([]store.PlanRequest, error) {
	rows, err := s.pool.Query(ctx, `SELECT id, account_id, plan, monthly_cap, created_at FROM plan_requests
		WHERE $1::bigint = 0 OR account_id = $1 ORDER BY id`, accountID)
	if err != nil {
		return nil, wrap("list plan requests", err)
	}
	list, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (store.PlanRequest, error) {
		var r store.PlanRequest
		err := row.Scan(&r.ID, &r.AccountID, &r.Plan, &r.MonthlyCap, &r.CreatedAt)
		r.CreatedAt = r.CreatedAt.UTC()
		return r, err
	})
	if err != nil {
		return nil, wrap("list plan requests", err)
	}
	return list, nil
}
