package postgres

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/textanalysis/go-textanalysis/server/store"
)

// Store is a [store.Store] on a PostgreSQL database. Build it with [Open].
type Store struct {
	pool      *pgxpool.Pool
	closeOnce sync.Once
}

var _ store.Store = (*Store)(nil)

// Open connects to the database at url (a postgres:// URL or key=value
// connection string, as pgx reads it) and migrates its schema to the
// current version (a newer schema that declares itself compatible with
// this program is used as it is). Several processes may open one database
// at once. The pool holds up to max(16, 4×GOMAXPROCS) connections unless
// the URL sets pool_max_conns.
func Open(ctx context.Context, url string) (*Store, error) {
	s, _, _, err := open(ctx, url, true)
	return s, err
}

// OpenNoMigrate is Open for a deployment that migrates as its own step
// (textanalysis migrate): it changes no schema, and returns
// store.ErrSchemaOld when the schema is older than this program's.
func OpenNoMigrate(ctx context.Context, url string) (*Store, error) {
	s, _, _, err := open(ctx, url, false)
	return s, err
}

// Migrate brings the schema of the database at url to this program's
// version and returns the versions before and after.
func Migrate(ctx context.Context, url string) (from, to int, err error) {
	s, from, to, err := open(ctx, url, true)
	if err != nil {
		return from, to, err
	}
	return from, to, s.Close()
}

func open(ctx context.Context, url string, apply bool) (_ *Store, from, to int, _ error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		// pgx's message may quote the URL, password included.
		return nil, 0, 0, errors.New("postgres: open: cannot parse the connection URL")
	}
	if !strings.Contains(url, "pool_max_conns") {
		// pgxpool's default, max(4, NumCPU), starves a server whose every
		// request waits on the database twice.
		cfg.MaxConns = int32(max(16, 4*runtime.GOMAXPROCS(0)))
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, 0, 0, fmt.Errorf("postgres: open: %w", err)
	}
	if from, to, err = migrate(ctx, pool, apply); err != nil {
		pool.Close()
		return nil, from, to, err
	}
	return &Store{pool: pool}, from, to, nil
}

// Close closes the pool's connections. Calling it again does nothing.
func (s *Store) Close() error {
	s.closeOnce.Do(s.pool.Close)
	return nil
}

// wrap turns constraint violations into the store's sentinel errors and
// prefixes anything else with the operation.
func wrap(op string, err error) error {
	if errors.Is(err, pgx.ErrNoRows) {
		return store.ErrNotFound
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		switch pe.Code {
		case "23505": // unique_violation
			return store.ErrExists
		case "23503": // foreign_key_violation
			return store.ErrNotFound
		}
	}
	return fmt.Errorf("postgres: %s: %w", op, err)
}

// normTime is t as PostgreSQL keeps it: in UTC, to the microsecond.
func normTime(t time.Time) time.Time {
	if t.IsZero() {
		return time.Time{}
	}
	return time.UnixMicro(t.UnixMicro()).UTC()
}

// nullTime stores a zero time as NULL.
func nullTime(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	t = normTime(t)
	return &t
}

func fromNull(t *time.Time) time.Time {
	if t == nil {
		return time.Time{}
	}
	return t.UTC()
}

// An e-mail is stored lower-cased, and none as NULL so that accounts
// without one never collide on the unique index.
func email(e string) *string {
	if e == "" {
		return nil
	}
	e = strings.ToLower(e)
	return &e
}

const accountCols = `a.id, a.email, a.plan, a.email_confirmed, a.monthly_cap, a.created_at, a.trial_expires_at, a.deleted_at`

func scanAccount(row pgx.Row, extra ...any) (store.Account, error) {
	var (
		a            store.Account
		mail         *string
		created      time.Time
		exp, deleted *time.Time
	)
	dest := append([]any{&a.ID, &mail, &a.Plan, &a.EmailConfirmed, &a.MonthlyCap, &created, &exp, &deleted}, extra...)
	if err := row.Scan(dest...); err != nil {
		return store.Account{}, err
	}
	if mail != nil {
		a.Email = *mail
	}
	a.CreatedAt = created.UTC()
	a.TrialExpiresAt = fromNull(exp)
	a.DeletedAt = fromNull(deleted)
	return a, nil
}

const keyCols = `k.id, k.account_id, k.prefix, k.hash, k.kind, k.api, k.name, k.created_at, k.revoked_at, k.last_used_at`

// keyDest returns the scan destinations of keyCols and a function that
// finishes k after the scan.
func keyDest(k *store.Key) ([]any, func()) {
	var revoked, used *time.Time
	return []any{&k.ID, &k.AccountID, &k.Prefix, &k.Hash, &k.Kind, &k.API, &k.Name, &k.CreatedAt, &revoked, &used}, func() {
		k.CreatedAt = k.CreatedAt.UTC()
		k.RevokedAt = fromNull(revoked)
		k.LastUsedAt = fromNull(used)
	}
}

// CreateAccount implements [store.Store].
func (s *Store) CreateAccount(ctx context.Context, a store.Account) (store.Account, error) {
	if a.CreatedAt.IsZero() {
		a.CreatedAt = time.Now()
	}
	a.CreatedAt = normTime(a.CreatedAt)
	a.TrialExpiresAt = normTime(a.TrialExpiresAt)
	a.Email = strings.ToLower(a.Email)
	err := s.pool.QueryRow(ctx,
		`INSERT INTO accounts (email, plan, email_confirmed, monthly_cap, created_at, trial_expires_at)
		VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
		email(a.Email), string(a.Plan), a.EmailConfirmed, a.MonthlyCap, a.CreatedAt, nullTime(a.TrialExpiresAt),
	).Scan(&a.ID)
	if err != nil {
		return store.Account{}, wrap("create account", err)
	}
	return a, nil
}

// Account implements [store.Store].
func (s *Store) Account(ctx context.Context, id int64) (store.Account, error) {
	a, err := scanAccount(s.pool.QueryRow(ctx, `SELECT `+accountCols+` FROM accounts a WHERE a.id = $1`, id))
	if err != nil {
		return store.Account{}, wrap("account", err)
	}
	return a, nil
}

// AccountByEmail implements [store.Store].
func (s *Store) AccountByEmail(ctx context.Context, mail string) (store.Account, error) {
	if mail == "" {
		return store.Account{}, store.ErrNotFound
	}
	a, err := scanAccount(s.pool.QueryRow(ctx, `SELECT `+accountCols+` FROM accounts a WHERE a.email = $1`, email(mail)))
	if err != nil {
		return store.Account{}, wrap("account by email", err)
	}
	return a, nil
}

// UpdateAccount implements [store.Store].
func (s *Store) UpdateAccount(ctx context.Context, a store.Account) error {
	tag, err := s.pool.Exec(ctx,
		`UPDATE accounts SET email = $1, plan = $2, email_confirmed = $3, monthly_cap = $4, trial_expires_at = $5
		WHERE id = $6 AND deleted_at IS NULL`,
		email(a.Email), string(a.Plan), a.EmailConfirmed, a.MonthlyCap, nullTime(a.TrialExpiresAt), a.ID)
	return affected("update account", tag, err)
}

// affected maps an UPDATE that touched no row to ErrNotFound.
func affected(op string, tag pgconn.CommandTag, err error) error {
	if err != nil {
		return wrap(op, err)
	}
	if tag.RowsAffected() == 0 {
		return store.ErrNotFound
	}
	return nil
}

// ListAccounts implements [store.Store].
func (s *Store) ListAccounts(ctx context.Context) ([]store.Account, error) {
	rows, err := s.pool.Query(ctx, `SELECT `+accountCols+` FROM accounts a ORDER BY a.id`)
	if err != nil {
		return nil, wrap("list accounts", err)
	}
	list, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (store.Account, error) { return scanAccount(row) })
	if err != nil {
		return nil, wrap("list accounts", err)
	}
	return list, nil
}

// CreateKey implements [store.Store].
func (s *Store) CreateKey(ctx context.Context, k store.Key) (store.Key, error) {
	k, err := createKey(ctx, s.pool, k)
	if err != nil {
		return store.Key{}, wrap("create key", err)
	}
	return k, nil
}

// querier is a pool or a transaction.
type querier interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// createKey stores k with q.
func createKey(ctx context.Context, q querier, k store.Key) (store.Key, error) {
	if k.CreatedAt.IsZero() {
		k.CreatedAt = time.Now()
	}
	k.CreatedAt = normTime(k.CreatedAt)
	k.RevokedAt = normTime(k.RevokedAt)
	k.LastUsedAt = time.Time{}
	// No row comes back for an unknown or deleted account: ErrNotFound.
	// FOR SHARE waits for a DeleteAccount of the account in progress and
	// then sees it deleted, so that no key is added behind its back.
	err := q.QueryRow(ctx,
		`INSERT INTO api_keys (account_id, prefix, hash, kind, api, name, created_at, revoked_at)
		SELECT a.id, $2, $3, $4, $5, $6, $7::timestamptz, $8::timestamptz FROM accounts a WHERE a.id = $1 AND a.deleted_at IS NULL
		FOR SHARE
		RETURNING id`,
		k.AccountID, k.Prefix, k.Hash, k.Kind, k.API, k.Name, k.CreatedAt, nullTime(k.RevokedAt),
	).Scan(&k.ID)
	return k, err
}

// KeyByHash implements [store.Store].
func (s *Store) KeyByHash(ctx context.Context, hash string) (store.Key, store.Account, error) {
	var k store.Key
	dest, finish := keyDest(&k)
	a, err := scanAccount(s.pool.QueryRow(ctx,
		`SELECT `+accountCols+`, `+keyCols+` FROM api_keys k JOIN accounts a ON a.id = k.account_id WHERE k.hash = $1`,
		hash), dest...)
	if err != nil {
		return store.Key{}, store.Account{}, wrap("key by hash", err)
	}
	finish()
	return k, a, nil
}

// Key implements [store.Store].
func (s *Store) Key(ctx context.Context, id int64) (store.Key, error) {
	var k store.Key
	dest, finish := keyDest(&k)
	if err := s.pool.QueryRow(ctx, `SELECT `+keyCols+` FROM api_keys k WHERE k.id = $1`, id).Scan(dest...); err != nil {
		return store.Key{}, wrap("key", err)
	}
	finish()
	return k, nil
}

// ListKeys implements [store.Store].
func (s *Store) ListKeys(ctx context.Context, accountID int64) ([]store.Key, error) {
	rows, err := s.pool.Query(ctx,
		`SELECT `+keyCols+` FROM api_keys k WHERE $1::bigint = 0 OR k.account_id = $1 ORDER BY k.id`, accountID)
	if err != nil {
		return nil, wrap("list keys", err)
	}
	list, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (store.Key, error) {
		var k store.Key
		dest, finish := keyDest(&k)
		if err := row.Scan(dest...); err != nil {
			return store.Key{}, err
		}
		finish()
		return k, nil
	})
	if err != nil {
		return nil, wrap("list keys", err)
	}
	return list, nil
}

// RevokeKey implements [store.Store].
func (s *Store) RevokeKey(ctx context.Context, keyID int64, at time.Time) error {
	if at.IsZero() {
		return errors.New("postgres: revoke key: zero time")
	}
	tag, err := s.pool.Exec(ctx,
		`UPDATE api_keys SET revoked_at = COALESCE(revoked_at, $1) WHERE id = $2`, nullTime(at), keyID)
	return affected("revoke key", tag, err)
}

// MoveKey implements [store.Store].
func (s *Store) MoveKey(ctx context.Context, keyID, toAccountID int64) error {
	tag, err := s.pool.Exec(ctx, `WITH a AS (SELECT id FROM accounts WHERE id = $1 AND deleted_at IS NULL FOR SHARE)
		UPDATE api_keys SET account_id = $1 WHERE id = $2 AND EXISTS (SELECT 1 FROM a)`, toAccountID, keyID)
	return affected("move key", tag, err)
}

// Consume implements [store.Store]. It returns ErrNotFound for an unknown
// account.
func (s *Store) Consume(ctx context.Context, accountID int64, period time.Time, limit int64) (int64, bool, error) {
	if limit <= 0 {
		n, err := s.Used(ctx, accountID, period)
		return n, false, err
	}
	var n int64
	err := s.pool.QueryRow(ctx,
		`INSERT INTO usage_counts AS u (account_id, period, count) VALUES ($1, $2, 1)
		ON CONFLICT (account_id, period) DO UPDATE SET count = u.count + 1 WHERE u.count < $3
		RETURNING u.count`,
		accountID, normTime(period), limit).Scan(&n)
	switch {
	case err == nil:
		return n, true, nil
	case errors.Is(err, pgx.ErrNoRows):
		// At the limit: nothing changed. Read the count as it is now.
		n, err := s.Used(ctx, accountID, period)
		return n, false, err
	}
	return 0, false, wrap("consume", err)
}

// The statements of ConsumeBatch. batchLockSQL makes the period's row
// (at 0) when there is none, locks it until the transaction ends and
// returns its count; no row comes back for an unknown account.
// batchAddSQL then adds up to $3 requests without passing $4 (nor lowering
// a count already past it), and as many to payg_count times $5 and to
// other_count times $6 (see [planShares]).
const (
	batchLockSQL = `INSERT INTO usage_counts AS u (account_id, period, count)
	SELECT id, $2, 0 FROM accounts WHERE id = $1
	ON CONFLICT (account_id, period) DO UPDATE SET count = u.count
	RETURNING u.count`
	batchAddSQL = `UPDATE usage_counts SET count = LEAST(count + $3, GREATEST(count, $4)),
		payg_count = payg_count + (LEAST(count + $3, GREATEST(count, $4)) - count) * $5,
		other_count = other_count + (LEAST(count + $3, GREATEST(count, $4)) - count) * $6
	WHERE account_id = $1 AND period = $2 RETURNING count`
)

// batchAllSQL counts all $3 requests when they fit under $4, in one
// statement, and as many in payg_count times $5 and other_count times $6;
// no row comes back when they don't fit (or for an unknown account), and
// nothing changes.
const batchAllSQL = `INSERT INTO usage_counts AS u (account_id, period, count, payg_count, other_count)
	SELECT id, $2, $3::bigint, $3::bigint * $5::bigint, $3::bigint * $6::bigint FROM accounts WHERE id = $1 AND $3::bigint <= $4::bigint
	ON CONFLICT (account_id, period) DO UPDATE SET count = u.count + $3::bigint,
		payg_count = u.payg_count + EXCLUDED.payg_count, other_count = u.other_count + EXCLUDED.other_count
	WHERE u.count + $3::bigint <= $4::bigint
	RETURNING u.count`

// planShares returns what one request of plan adds to payg_count and to
// other_count: (1, 0) on Pay as you go, (0, 1) on another plan, (0, 0)
// for none.
func planShares(p store.Plan) (payg, other int64) {
	switch p {
	case "":
		return 0, 0
	case store.PlanPayg:
		return 1, 0
	}
	return 0, 1
}

// ConsumeBatch implements [store.Store]. A batch of one take that fits
// (the usual case: one busy account, far from its limit) is one statement;
// otherwise its statements go in one pipeline, one round trip, which
// PostgreSQL runs as one implicit transaction: committed, durably, when
// the batch's results are all read.
func (s *Store) ConsumeBatch(ctx context.Context, takes []store.Take) ([]store.Taken, error) {
	out := make([]store.Taken, len(takes))
	if len(takes) == 0 {
		return out, nil
	}
	if t := takes[0]; len(takes) == 1 && t.N > 0 && t.Limit > 0 {
		var after int64
		payg, other := planShares(t.Plan)
		err := s.pool.QueryRow(ctx, batchAllSQL, t.AccountID, normTime(t.Period), t.N, t.Limit, payg, other).Scan(&after)
		if err == nil {
			out[0] = store.Taken{Granted: t.N, Count: after}
			return out, nil
		}
		if !errors.Is(err, pgx.ErrNoRows) {
			return nil, wrap("consume batch", err)
		}
	}
	order := store.TakeOrder(takes)
	b := &pgx.Batch{}
	for _, i := range order {
		t := takes[i]
		if t.N <= 0 || t.Limit <= 0 {
			b.Queue(`SELECT count FROM usage_counts WHERE account_id = $1 AND period = $2`, t.AccountID, normTime(t.Period))
			continue
		}
		payg, other := planShares(t.Plan)
		b.Queue(batchLockSQL, t.AccountID, normTime(t.Period))
		b.Queue(batchAddSQL, t.AccountID, normTime(t.Period), t.N, t.Limit, payg, other)
	}
	br := s.pool.SendBatch(ctx, b)
	defer br.Close()
	for _, i := range order {
		t := takes[i]
		var before, after int64
		err := br.QueryRow().Scan(&before)
		if t.N <= 0 || t.Limit <= 0 {
			if err != nil && !errors.Is(err, pgx.ErrNoRows) {
				return nil, wrap("consume batch", err)
			}
			out[i].Count = before
			continue
		}
		missing := errors.Is(err, pgx.ErrNoRows)
		if err != nil && !missing {
			return nil, wrap("consume batch", err)
		}
		err = br.QueryRow().Scan(&after)
		if missing || errors.Is(err, pgx.ErrNoRows) {
			out[i].Err = store.ErrNotFound
			continue
		}
		if err != nil {
			return nil, wrap("consume batch", err)
		}
		out[i].Granted, out[i].Count = after-before, after
	}
	// Close reads to the end of the pipeline: the commit.
	if err := br.Close(); err != nil {
		return nil, wrap("consume batch", err)
	}
	return out, nil
}

// Ping implements [store.Store].
func (s *Store) Ping(ctx context.Context) error {
	if err := s.pool.Ping(ctx); err != nil {
		return wrap("ping", err)
	}
	return nil
}

// Used implements [store.Store].
func (s *Store) Used(ctx context.Context, accountID int64, period time.Time) (int64, error) {
	var n int64
	err := s.pool.QueryRow(ctx,
		`SELECT count FROM usage_counts WHERE account_id = $1 AND period = $2`, accountID, normTime(period)).Scan(&n)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, wrap("used", err)
	}
	return n, nil
}

// UsageSince implements [store.Store].
func (s *Store) UsageSince(ctx context.Context, since time.Time) ([]store.Usage, error) {
	rows, err := s.pool.Query(ctx,
		`SELECT u.account_id, a.email, a.plan, u.period, u.count, u.payg_count, u.other_count
		FROM usage_counts u JOIN accounts a ON a.id = u.account_id
		WHERE u.period >= $1 ORDER BY u.period, u.account_id`, normTime(since))
	if err != nil {
		return nil, wrap("usage since", err)
	}
	list, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (store.Usage, error) {
		var (
			u    store.Usage
			mail *string
		)
		if err := row.Scan(&u.AccountID, &mail, &u.Plan, &u.Period, &u.Count, &u.Payg, &u.Other); err != nil {
			return store.Usage{}, err
		}
		if mail != nil {
			u.Email = *mail
		}
		u.Period = u.Period.UTC()
		return u, nil
	})
	if err != nil {
		return nil, wrap("usage since", err)
	}
	return list, nil
}

// TakeSlot implements [store.Store].
func (s *Store) TakeSlot(ctx context.Context, c store.Counter, limit int) (bool, error) {
	if limit <= 0 {
		return false, nil
	}
	var n int64
	err := s.pool.QueryRow(ctx,
		`INSERT INTO counters AS c (purpose, subject, window_start, expires_at, count) VALUES ($1, $2, $3, $4, 1)
		ON CONFLICT (purpose, subject, window_start) DO UPDATE SET count = c.count + 1 WHERE c.count < $5
		RETURNING c.count`,
		c.Purpose, c.Subject, normTime(c.Window), normTime(c.Expires), limit).Scan(&n)
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, pgx.ErrNoRows):
		return false, nil
	}
	return false, wrap("take slot", err)
}

// CreateToken implements [store.Store].
func (s *Store) CreateToken(ctx context.Context, t store.Token) error {
	_, err := s.pool.Exec(ctx,
		`INSERT INTO tokens (hash, purpose, account_id, key_id, email, expires_at) VALUES ($1, $2, $3, $4, $5, $6)`,
		t.Hash, t.Purpose, t.AccountID, t.KeyID, t.Email, nullTime(t.ExpiresAt))
	if err != nil {
		return wrap("create token", err)
	}
	return nil
}

// Token implements [store.Store].
func (s *Store) Token(ctx context.Context, hash, purpose string, now time.Time) (store.Token, error) {
	var (
		t   store.Token
		exp *time.Time
	)
	err := s.pool.QueryRow(ctx,
		`SELECT hash, purpose, account_id, key_id, email, expires_at FROM tokens
		WHERE hash = $1 AND purpose = $2 AND expires_at > $3`, hash, purpose, normTime(now),
	).Scan(&t.Hash, &t.Purpose, &t.AccountID, &t.KeyID, &t.Email, &exp)
	if err != nil {
		return store.Token{}, wrap("token", err)
	}
	t.ExpiresAt = fromNull(exp)
	return t, nil
}

// DeleteToken implements [store.Store].
func (s *Store) DeleteToken(ctx context.Context, hash string) error {
	if _, err := s.pool.Exec(ctx, `DELETE FROM tokens WHERE hash = $1`, hash); err != nil {
		return wrap("delete token", err)
	}
	return nil
}

// Secret implements [store.Store]. A generated value must not be empty.
func (s *Store) Secret(ctx context.Context, name string, generate func() ([]byte, error)) ([]byte, error) {
	var v []byte
	err := s.pool.QueryRow(ctx, `SELECT value FROM secrets WHERE name = $1`, name).Scan(&v)
	if err == nil {
		return v, nil
	}
	if !errors.Is(err, pgx.ErrNoRows) {
		return nil, wrap("secret", err)
	}
	gen, err := generate()
	if err != nil {
		return nil, fmt.Errorf("postgres: secret: generate: %w", err)
	}
	if len(gen) == 0 {
		return nil, errors.New("postgres: secret: generate returned an empty value")
	}
	// When another caller stored the secret first, the no-op update
	// returns its value, and this caller's is dropped.
	err = s.pool.QueryRow(ctx,
		`INSERT INTO secrets AS s (name, value) VALUES ($1, $2)
		ON CONFLICT (name) DO UPDATE SET name = s.name RETURNING s.value`, name, gen).Scan(&v)
	if err != nil {
		return nil, wrap("secret", err)
	}
	return v, nil
}
