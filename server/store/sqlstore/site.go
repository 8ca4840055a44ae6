package sqlstore

import (
	"context"
	"time"

	"github.com/textanalysis/go-textanalysis/server/store"
)

// The developer site's operations: the live-key limit, links that act
// once, sessions and plan requests. Each runs in one transaction ([DB.Tx])
// that, on PostgreSQL, locks the rows it decides on (READ COMMITTED: each
// statement after a lock sees what the transaction it waited for
// committed); on SQLite the transaction is IMMEDIATE: no other writer
// comes between its statements.

// CreateKeyLimited implements [store.Store]. It locks the account's row,
// so that concurrent calls for one account count in turn.
func (c *Core) CreateKeyLimited(ctx context.Context, k store.Key, maxLive int) (store.Key, error) {
	err := c.W.Tx(ctx, func(tx DB) error {
		var one int
		if err := tx.QueryRow(ctx, `SELECT 1 FROM accounts WHERE id = $1 AND deleted_at IS NULL`+c.ForUpdate, k.AccountID).Scan(&one); err != nil {
			return err
		}
		if err := checkLive(ctx, tx, k.AccountID, maxLive); err != nil {
			return err
		}
		var err error
		k, err = c.CreateKeyIn(ctx, tx, k)
		return err
	})
	if err != nil {
		return store.Key{}, c.W.Wrap("create key", err)
	}
	return k, nil
}

// checkLive returns ErrKeyLimit when an account, whose row the caller
// locked, has maxLive (> 0) live keys.
func checkLive(ctx context.Context, tx DB, accountID int64, maxLive int) error {
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
func takeToken(ctx context.Context, tx DB, hash, purpose string, now time.Time) (store.Token, error) {
	var t store.Token
	err := tx.QueryRow(ctx, `DELETE FROM tokens WHERE hash = $1 AND purpose = $2 AND expires_at > $3
		RETURNING `+TokenCols, hash, purpose, NormTime(now)).Scan(TokenDest(&t)...)
	return t, err
}

// confirmedAccount finds the account of an address, or makes one on the
// Free plan, marks the address confirmed, and locks the account's row.
func confirmedAccount(ctx context.Context, tx DB, mail string, now time.Time) (store.Account, error) {
	if mail == "" {
		return store.Account{}, store.ErrNotFound
	}
	var id int64
	if err := tx.QueryRow(ctx,
		`INSERT INTO accounts (email, plan, email_confirmed, monthly_cap, created_at) VALUES ($1, $2, TRUE, 0, $3)
		ON CONFLICT (email) DO UPDATE SET email_confirmed = TRUE RETURNING id`,
		Email(mail), string(store.PlanFree), NormTime(now)).Scan(&id); err != nil {
		return store.Account{}, err
	}
	return ScanAccount(tx.QueryRow(ctx, `SELECT `+AccountCols+` FROM accounts a WHERE a.id = $1`, id))
}

// ConfirmSignUp implements [store.Store].
func (c *Core) ConfirmSignUp(ctx context.Context, tokenHash string, now time.Time, k store.Key, maxLive int) (store.Account, store.Key, error) {
	var a store.Account
	err := c.W.Tx(ctx, func(tx DB) error {
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
		k, err = c.CreateKeyIn(ctx, tx, k)
		return err
	})
	if err != nil {
		return store.Account{}, store.Key{}, c.W.Wrap("confirm sign-up", err)
	}
	return a, k, nil
}

// ConfirmClaim implements [store.Store]. It locks the key's row, so that
// a second claim of the key waits for the first and then sees the key
// gone from the trial account.
func (c *Core) ConfirmClaim(ctx context.Context, tokenHash string, now time.Time, maxLive int) (store.Claim, error) {
	var (
		claim store.Claim
		still bool
	)
	err := c.W.Tx(ctx, func(tx DB) error {
		t, err := takeToken(ctx, tx, tokenHash, store.PurposeClaim, now)
		if err != nil {
			return err
		}
		var keyAccount int64
		err = tx.QueryRow(ctx, `SELECT account_id FROM api_keys WHERE id = $1`+c.ForUpdate, t.KeyID).Scan(&keyAccount)
		if err != nil && !NoRows(err) {
			return err
		}
		still = err == nil && keyAccount == t.AccountID
		if still {
			var plan string
			err := tx.QueryRow(ctx, `SELECT plan FROM accounts WHERE id = $1 AND deleted_at IS NULL`+c.ForUpdate, t.AccountID).Scan(&plan)
			if err != nil && !NoRows(err) {
				return err
			}
			still = err == nil && plan == string(store.PlanTrial)
		}
		if !still {
			return nil // the link is used up all the same: commit
		}
		a, err := confirmedAccount(ctx, tx, t.Email, now)
		if err != nil {
			return err
		}
		if err := checkLive(ctx, tx, a.ID, maxLive); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE api_keys SET account_id = $1 WHERE id = $2`, a.ID, t.KeyID); err != nil {
			return err
		}
		// The trial account keeps no key; it ends, so it can't be claimed again.
		if _, err := tx.Exec(ctx, `UPDATE accounts SET plan = $1, trial_expires_at = NULL WHERE id = $2`,
			string(store.PlanFree), t.AccountID); err != nil {
			return err
		}
		var k store.Key
		if err := tx.QueryRow(ctx, `SELECT `+KeyCols+` FROM api_keys k WHERE k.id = $1`, t.KeyID).Scan(KeyDest(&k)...); err != nil {
			return err
		}
		claim = store.Claim{Account: a, Key: k, From: t.AccountID}
		return nil
	})
	if err != nil {
		return store.Claim{}, c.W.Wrap("confirm claim", err)
	}
	if !still {
		return store.Claim{}, store.ErrAlreadyClaimed
	}
	return claim, nil
}

// SignIn implements [store.Store].
func (c *Core) SignIn(ctx context.Context, tokenHash string, now time.Time, ses store.Session) (store.Account, error) {
	var a store.Account
	err := c.W.Tx(ctx, func(tx DB) error {
		t, err := takeToken(ctx, tx, tokenHash, store.PurposeSignIn, now)
		if err != nil {
			return err
		}
		// On PostgreSQL, FOR SHARE waits for a DeleteAccount in progress.
		a, err = ScanAccount(tx.QueryRow(ctx, `SELECT `+AccountCols+` FROM accounts a
			WHERE a.id = $1 AND a.deleted_at IS NULL AND a.email = $2`+c.ForShare, t.AccountID, Email(t.Email)))
		if err != nil {
			return err
		}
		if ses.CreatedAt.IsZero() {
			ses.CreatedAt = now
		}
		_, err = tx.Exec(ctx, `INSERT INTO sessions (hash, account_id, created_at, expires_at) VALUES ($1, $2, $3, $4)`,
			ses.Hash, a.ID, NormTime(ses.CreatedAt), NormTime(ses.ExpiresAt))
		return err
	})
	if err != nil {
		return store.Account{}, c.W.Wrap("sign in", err)
	}
	return a, nil
}

// Session implements [store.Store].
func (c *Core) Session(ctx context.Context, hash string, now time.Time) (store.Session, store.Account, error) {
	var ses store.Session
	a, err := ScanAccount(c.R.QueryRow(ctx, `SELECT `+AccountCols+`, s.hash, s.account_id, s.created_at, s.expires_at
		FROM sessions s JOIN accounts a ON a.id = s.account_id
		WHERE s.hash = $1 AND s.expires_at > $2 AND a.deleted_at IS NULL`, hash, NormTime(now)),
		&ses.Hash, &ses.AccountID, &ses.CreatedAt, &ses.ExpiresAt)
	if err != nil {
		return store.Session{}, store.Account{}, c.R.Wrap("session", err)
	}
	return ses, a, nil
}

// DeleteSession implements [store.Store].
func (c *Core) DeleteSession(ctx context.Context, hash string) error {
	if _, err := c.W.Exec(ctx, `DELETE FROM sessions WHERE hash = $1`, hash); err != nil {
		return c.W.Wrap("delete session", err)
	}
	return nil
}

// CreatePlanRequest implements [store.Store].
func (c *Core) CreatePlanRequest(ctx context.Context, r store.PlanRequest) (store.PlanRequest, error) {
	if r.CreatedAt.IsZero() {
		r.CreatedAt = time.Now()
	}
	r.CreatedAt = NormTime(r.CreatedAt)
	err := c.W.QueryRow(ctx,
		`INSERT INTO plan_requests (account_id, plan, monthly_cap, created_at)
		SELECT a.id, $2, $3, CAST($4 AS `+c.Time+`) FROM accounts a WHERE a.id = $1 AND a.deleted_at IS NULL`+c.ForShare+` RETURNING id`,
		r.AccountID, string(r.Plan), r.MonthlyCap, r.CreatedAt).Scan(&r.ID)
	if err != nil {
		return store.PlanRequest{}, c.W.Wrap("create plan request", err)
	}
	return r, nil
}

// ListPlanRequests implements [store.Store].
func (c *Core) ListPlanRequests(ctx context.Context, accountID int64) ([]store.PlanRequest, error) {
	rs, err := c.R.Query(ctx, `SELECT id, account_id, plan, monthly_cap, created_at FROM plan_requests
		WHERE CAST($1 AS BIGINT) = 0 OR account_id = $1 ORDER BY id`, accountID)
	list, err := collect(rs, err, func(rs Rows) (store.PlanRequest, error) {
		var r store.PlanRequest
		err := rs.Scan(&r.ID, &r.AccountID, &r.Plan, &r.MonthlyCap, &r.CreatedAt)
		return r, err
	})
	if err != nil {
		return nil, c.R.Wrap("list plan requests", err)
	}
	return list, nil
}
