package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"time"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/textanalysis/go-textanalysis/server/store"
)

// DefaultPath is the file [Open] uses when given an empty path.
const DefaultPath = "textanalysis.db"

// BusyTimeout is how long a statement waits for another process's write
// lock before it fails with SQLITE_BUSY.
const BusyTimeout = 10 * time.Second

// Store is a [store.Store] on one SQLite file. Build it with [Open].
type Store struct {
	w *sql.DB // exactly one connection: every write, in turn
	r *sql.DB // read-only connections

	// The statements of every request, prepared once.
	consume, used, keyByHash *sql.Stmt
	// ConsumeBatch's, on the writer: the whole take in one statement, or
	// the count before, and the upsert.
	batchAll, batchUsed, batchAdd *sql.Stmt

	closeOnce sync.Once
	closeErr  error
}

var _ store.Store = (*Store)(nil)

// Open opens the SQLite database at path (DefaultPath when empty),
// creating it when it does not exist, and migrates its schema to the
// current version (a newer schema that declares itself compatible with
// this program is used as it is). Several processes may open one file at
// once.
func Open(ctx context.Context, path string) (*Store, error) {
	s, _, _, err := open(ctx, path, true)
	return s, err
}

// OpenNoMigrate is Open for a deployment that migrates as its own step
// (textanalysis migrate): it changes no schema, and returns
// store.ErrSchemaOld when the schema is older than this program's.
func OpenNoMigrate(ctx context.Context, path string) (*Store, error) {
	s, _, _, err := open(ctx, path, false)
	return s, err
}

// Migrate brings the schema of the database at path to this program's
// version and returns the versions before and after.
func Migrate(ctx context.Context, path string) (from, to int, err error) {
	s, from, to, err := open(ctx, path, true)
	if err != nil {
		return from, to, err
	}
	return from, to, s.Close()
}

func open(ctx context.Context, path string, apply bool) (_ *Store, from, to int, _ error) {
	if path == "" {
		path = DefaultPath
	}
	// The driver reads parameters after the first '?', and ":memory:"
	// would give the two pools two different databases.
	if strings.ContainsRune(path, '?') || path == ":memory:" || strings.HasPrefix(path, "file:") {
		return nil, from, to, fmt.Errorf("sqlite: open %q: the path must name a file", path)
	}
	busy := fmt.Sprint(BusyTimeout.Milliseconds())
	// secure_delete overwrites what DeleteAccount and Purge remove, so an
	// erased e-mail address does not linger in free pages of the file.
	w, err := sql.Open("sqlite", path+"?_busy_timeout="+busy+
		"&_synchronous=NORMAL&_foreign_keys=1&_txlock=immediate&_pragma=secure_delete(1)")
	if err != nil {
		return nil, from, to, fmt.Errorf("sqlite: open: %w", err)
	}
	w.SetMaxOpenConns(1)
	w.SetMaxIdleConns(1)
	w.SetConnMaxIdleTime(0)
	w.SetConnMaxLifetime(0)
	if err := retryBusy(ctx, func() (err error) {
		from, to, err = setup(ctx, w, apply)
		return err
	}); err != nil {
		w.Close()
		return nil, from, to, err
	}
	r, err := sql.Open("sqlite", path+"?_busy_timeout="+busy+"&_foreign_keys=1&_query_only=1")
	if err != nil {
		w.Close()
		return nil, from, to, fmt.Errorf("sqlite: open: %w", err)
	}
	n := max(4, runtime.GOMAXPROCS(0))
	r.SetMaxOpenConns(n)
	r.SetMaxIdleConns(n)
	if err := r.PingContext(ctx); err != nil {
		r.Close()
		w.Close()
		return nil, from, to, fmt.Errorf("sqlite: open: %w", err)
	}
	s := &Store{w: w, r: r}
	for _, p := range []struct {
		db   *sql.DB
		stmt **sql.Stmt
		sql  string
	}{
		{w, &s.consume, consumeSQL},
		{r, &s.used, usedSQL},
		{r, &s.keyByHash, keyByHashSQL},
		{w, &s.batchAll, batchAllSQL},
		{w, &s.batchUsed, usedSQL},
		{w, &s.batchAdd, batchAddSQL},
	} {
		if *p.stmt, err = p.db.PrepareContext(ctx, p.sql); err != nil {
			s.Close()
			return nil, from, to, fmt.Errorf("sqlite: open: prepare: %w", err)
		}
	}
	return s, from, to, nil
}

// Close closes the database. Calling it again returns the first result.
func (s *Store) Close() error {
	s.closeOnce.Do(func() {
		for _, st := range []*sql.Stmt{s.consume, s.used, s.keyByHash, s.batchAll, s.batchUsed, s.batchAdd} {
			if st != nil {
				st.Close()
			}
		}
		s.closeErr = errors.Join(s.r.Close(), s.w.Close())
		if s.closeErr != nil {
			s.closeErr = fmt.Errorf("sqlite: close: %w", s.closeErr)
		}
	})
	return s.closeErr
}

// setup switches the file to WAL mode and migrates its schema (or with
// apply false checks it).
func setup(ctx context.Context, w *sql.DB, apply bool) (from, to int, err error) {
	var mode string
	if err := w.QueryRowContext(ctx, `PRAGMA journal_mode = WAL`).Scan(&mode); err != nil {
		return 0, 0, fmt.Errorf("sqlite: open: set WAL mode: %w", err)
	}
	if !strings.EqualFold(mode, "wal") {
		return 0, 0, fmt.Errorf("sqlite: open: journal mode is %q, not WAL", mode)
	}
	return migrate(ctx, w, apply)
}

// retryBusy calls f until it succeeds, fails with another error than
// SQLITE_BUSY or SQLITE_LOCKED, or BusyTimeout passes. SQLite returns
// SQLITE_BUSY without waiting in a few cases, such as a new file being
// switched to WAL mode by another process at the same moment.
func retryBusy(ctx context.Context, f func() error) error {
	deadline := time.Now().Add(BusyTimeout)
	for wait := time.Millisecond; ; wait = min(2*wait, 50*time.Millisecond) {
		err := f()
		var se *sqlite.Error
		if err == nil || !errors.As(err, &se) || time.Now().After(deadline) {
			return err
		}
		if code := se.Code() & 0xff; code != sqlite3.SQLITE_BUSY && code != sqlite3.SQLITE_LOCKED {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(wait):
		}
	}
}

// wrap turns constraint violations into the store's sentinel errors and
// prefixes anything else with the operation.
func wrap(op string, err error) error {
	if errors.Is(err, sql.ErrNoRows) {
		return store.ErrNotFound
	}
	var se *sqlite.Error
	if errors.As(err, &se) {
		switch se.Code() {
		case sqlite3.SQLITE_CONSTRAINT_UNIQUE, sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY:
			return store.ErrExists
		case sqlite3.SQLITE_CONSTRAINT_FOREIGNKEY:
			return store.ErrNotFound
		}
	}
	return fmt.Errorf("sqlite: %s: %w", op, err)
}

// Times are kept as Unix microseconds, zero as NULL.

func micros(t time.Time) sql.NullInt64 {
	if t.IsZero() {
		return sql.NullInt64{}
	}
	return sql.NullInt64{Int64: t.UnixMicro(), Valid: true}
}

func fromMicros(n sql.NullInt64) time.Time {
	if !n.Valid {
		return time.Time{}
	}
	return time.UnixMicro(n.Int64).UTC()
}

// normTime is t as it is stored and read back.
func normTime(t time.Time) time.Time { return fromMicros(micros(t)) }

// An e-mail is stored lower-cased, and none as NULL so that accounts
// without one never collide on the unique index.
func email(e string) sql.NullString {
	if e == "" {
		return sql.NullString{}
	}
	return sql.NullString{String: strings.ToLower(e), Valid: true}
}

type scanner interface{ Scan(dest ...any) error }

const accountCols = `a.id, a.email, a.plan, a.email_confirmed, a.monthly_cap, a.created_at, a.trial_expires_at, a.deleted_at`

func scanAccount(row scanner, extra ...any) (store.Account, error) {
	var (
		a                     store.Account
		mail                  sql.NullString
		created, exp, deleted sql.NullInt64
	)
	dest := append([]any{&a.ID, &mail, &a.Plan, &a.EmailConfirmed, &a.MonthlyCap, &created, &exp, &deleted}, extra...)
	if err := row.Scan(dest...); err != nil {
		return store.Account{}, err
	}
	a.Email = mail.String
	a.CreatedAt = fromMicros(created)
	a.TrialExpiresAt = fromMicros(exp)
	a.DeletedAt = fromMicros(deleted)
	return a, nil
}

const keyCols = `k.id, k.account_id, k.prefix, k.hash, k.kind, k.api, k.name, k.created_at, k.revoked_at, k.last_used_at`

// keyDest returns the scan destinations of keyCols and a function that
// finishes k after the scan.
func keyDest(k *store.Key) ([]any, func()) {
	var created, revoked, used sql.NullInt64
	return []any{&k.ID, &k.AccountID, &k.Prefix, &k.Hash, &k.Kind, &k.API, &k.Name, &created, &revoked, &used}, func() {
		k.CreatedAt = fromMicros(created)
		k.RevokedAt = fromMicros(revoked)
		k.LastUsedAt = fromMicros(used)
	}
}

// CreateAccount implements [store.Store].
func (s *Store) CreateAccount(ctx context.Context, a store.Account) (store.Account, error) {
	if a.CreatedAt.IsZero() {
		a.CreatedAt = time.Now()
	}
	a.CreatedAt = normTime(a.CreatedAt)
	a.TrialExpiresAt = normTime(a.TrialExpiresAt)
	a.Email = email(a.Email).String
	err := s.w.QueryRowContext(ctx,
		`INSERT INTO accounts (email, plan, email_confirmed, monthly_cap, created_at, trial_expires_at)
		VALUES (?, ?, ?, ?, ?, ?) RETURNING id`,
		email(a.Email), a.Plan, a.EmailConfirmed, a.MonthlyCap, micros(a.CreatedAt), micros(a.TrialExpiresAt),
	).Scan(&a.ID)
	if err != nil {
		return store.Account{}, wrap("create account", err)
	}
	return a, nil
}

// Account implements [store.Store].
func (s *Store) Account(ctx context.Context, id int64) (store.Account, error) {
	a, err := scanAccount(s.r.QueryRowContext(ctx, `SELECT `+accountCols+` FROM accounts a WHERE a.id = ?`, id))
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
	a, err := scanAccount(s.r.QueryRowContext(ctx, `SELECT `+accountCols+` FROM accounts a WHERE a.email = ?`, email(mail)))
	if err != nil {
		return store.Account{}, wrap("account by email", err)
	}
	return a, nil
}

// UpdateAccount implements [store.Store].
func (s *Store) UpdateAccount(ctx context.Context, a store.Account) error {
	res, err := s.w.ExecContext(ctx,
		`UPDATE accounts SET email = ?, plan = ?, email_confirmed = ?, monthly_cap = ?, trial_expires_at = ?
		WHERE id = ? AND deleted_at IS NULL`,
		email(a.Email), a.Plan, a.EmailConfirmed, a.MonthlyCap, micros(a.TrialExpiresAt), a.ID)
	return affected("update account", res, err)
}

// affected maps an UPDATE that touched no row to ErrNotFound.
func affected(op string, res sql.Result, err error) error {
	if err != nil {
		return wrap(op, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return wrap(op, err)
	}
	if n == 0 {
		return store.ErrNotFound
	}
	return nil
}

// ListAccounts implements [store.Store].
func (s *Store) ListAccounts(ctx context.Context) ([]store.Account, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT `+accountCols+` FROM accounts a ORDER BY a.id`)
	if err != nil {
		return nil, wrap("list accounts", err)
	}
	defer rows.Close()
	var list []store.Account
	for rows.Next() {
		a, err := scanAccount(rows)
		if err != nil {
			return nil, wrap("list accounts", err)
		}
		list = append(list, a)
	}
	if err := rows.Err(); err != nil {
		return nil, wrap("list accounts", err)
	}
	return list, nil
}

// CreateKey implements [store.Store].
func (s *Store) CreateKey(ctx context.Context, k store.Key) (store.Key, error) {
	k, err := createKey(ctx, s.w, k)
	if err != nil {
		return store.Key{}, wrap("create key", err)
	}
	return k, nil
}

type queryer interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// createKey stores k with q, a connection or a transaction.
func createKey(ctx context.Context, q queryer, k store.Key) (store.Key, error) {
	if k.CreatedAt.IsZero() {
		k.CreatedAt = time.Now()
	}
	k.CreatedAt = normTime(k.CreatedAt)
	k.RevokedAt = normTime(k.RevokedAt)
	k.LastUsedAt = time.Time{}
	// No row comes back for an unknown or deleted account: ErrNotFound.
	err := q.QueryRowContext(ctx,
		`INSERT INTO api_keys (account_id, prefix, hash, kind, api, name, created_at, revoked_at)
		SELECT a.id, ?, ?, ?, ?, ?, ?, ? FROM accounts a WHERE a.id = ? AND a.deleted_at IS NULL
		RETURNING id`,
		k.Prefix, k.Hash, k.Kind, k.API, k.Name, micros(k.CreatedAt), micros(k.RevokedAt), k.AccountID,
	).Scan(&k.ID)
	return k, err
}

const keyByHashSQL = `SELECT ` + accountCols + `, ` + keyCols + `
	FROM api_keys k JOIN accounts a ON a.id = k.account_id WHERE k.hash = ?`

// KeyByHash implements [store.Store].
func (s *Store) KeyByHash(ctx context.Context, hash string) (store.Key, store.Account, error) {
	var k store.Key
	dest, finish := keyDest(&k)
	a, err := scanAccount(s.keyByHash.QueryRowContext(ctx, hash), dest...)
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
	if err := s.r.QueryRowContext(ctx, `SELECT `+keyCols+` FROM api_keys k WHERE k.id = ?`, id).Scan(dest...); err != nil {
		return store.Key{}, wrap("key", err)
	}
	finish()
	return k, nil
}

// ListKeys implements [store.Store].
func (s *Store) ListKeys(ctx context.Context, accountID int64) ([]store.Key, error) {
	rows, err := s.r.QueryContext(ctx,
		`SELECT `+keyCols+` FROM api_keys k WHERE ? = 0 OR k.account_id = ? ORDER BY k.id`, accountID, accountID)
	if err != nil {
		return nil, wrap("list keys", err)
	}
	defer rows.Close()
	var list []store.Key
	for rows.Next() {
		var k store.Key
		dest, finish := keyDest(&k)
		if err := rows.Scan(dest...); err != nil {
			return nil, wrap("list keys", err)
		}
		finish()
		list = append(list, k)
	}
	if err := rows.Err(); err != nil {
		return nil, wrap("list keys", err)
	}
	return list, nil
}

// RevokeKey implements [store.Store].
func (s *Store) RevokeKey(ctx context.Context, keyID int64, at time.Time) error {
	if at.IsZero() {
		return errors.New("sqlite: revoke key: zero time")
	}
	res, err := s.w.ExecContext(ctx,
		`UPDATE api_keys SET revoked_at = COALESCE(revoked_at, ?) WHERE id = ?`, micros(at), keyID)
	return affected("revoke key", res, err)
}

// MoveKey implements [store.Store].
func (s *Store) MoveKey(ctx context.Context, keyID, toAccountID int64) error {
	res, err := s.w.ExecContext(ctx, `UPDATE api_keys SET account_id = ?1 WHERE id = ?2
		AND EXISTS (SELECT 1 FROM accounts WHERE id = ?1 AND deleted_at IS NULL)`, toAccountID, keyID)
	return affected("move key", res, err)
}

// consumeSQL counts one request in one statement: the row is created at 1,
// or incremented while under the limit; no row comes back at the limit.
const consumeSQL = `INSERT INTO usage_counts (account_id, period, count) VALUES (?1, ?2, 1)
	ON CONFLICT (account_id, period) DO UPDATE SET count = count + 1 WHERE count < ?3
	RETURNING count`

// Consume implements [store.Store]. It returns ErrNotFound for an unknown
// account.
func (s *Store) Consume(ctx context.Context, accountID int64, period time.Time, limit int64) (int64, bool, error) {
	if limit <= 0 {
		n, err := s.Used(ctx, accountID, period)
		return n, false, err
	}
	var n int64
	err := s.consume.QueryRowContext(ctx, accountID, period.UnixMicro(), limit).Scan(&n)
	switch {
	case err == nil:
		return n, true, nil
	case errors.Is(err, sql.ErrNoRows):
		// At the limit: nothing changed. Read the count as it is now.
		n, err := s.Used(ctx, accountID, period)
		return n, false, err
	}
	return 0, false, wrap("consume", err)
}

// batchAddSQL adds up to ?3 requests to a period's count without passing
// ?4 (nor lowering a count already past it), and as many to payg_count
// times ?5 and to other_count times ?6 (see [planShares]); no row comes
// back for an unknown account.
const batchAddSQL = `INSERT INTO usage_counts (account_id, period, count, payg_count, other_count)
	SELECT id, ?2, MIN(?3, ?4), MIN(?3, ?4) * ?5, MIN(?3, ?4) * ?6 FROM accounts WHERE id = ?1
	ON CONFLICT (account_id, period) DO UPDATE SET count = MIN(count + ?3, MAX(count, ?4)),
		payg_count = payg_count + (MIN(count + ?3, MAX(count, ?4)) - count) * ?5,
		other_count = other_count + (MIN(count + ?3, MAX(count, ?4)) - count) * ?6
	RETURNING count`

// batchAllSQL counts all ?3 requests when they fit under ?4, in one
// statement, and as many in payg_count times ?5 and other_count times ?6;
// no row comes back when they don't fit (or for an unknown account), and
// nothing changes.
const batchAllSQL = `INSERT INTO usage_counts (account_id, period, count, payg_count, other_count)
	SELECT id, ?2, ?3, ?3 * ?5, ?3 * ?6 FROM accounts WHERE id = ?1 AND ?3 <= ?4
	ON CONFLICT (account_id, period) DO UPDATE SET count = count + ?3,
		payg_count = payg_count + excluded.payg_count, other_count = other_count + excluded.other_count
	WHERE count + ?3 <= ?4
	RETURNING count`

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
// otherwise the writer's transaction holds the file's write lock, so the
// count read first cannot change before the upsert.
func (s *Store) ConsumeBatch(ctx context.Context, takes []store.Take) ([]store.Taken, error) {
	out := make([]store.Taken, len(takes))
	if len(takes) == 0 {
		return out, nil
	}
	if t := takes[0]; len(takes) == 1 && t.N > 0 && t.Limit > 0 {
		var after int64
		payg, other := planShares(t.Plan)
		err := s.batchAll.QueryRowContext(ctx, t.AccountID, t.Period.UnixMicro(), t.N, t.Limit, payg, other).Scan(&after)
		if err == nil {
			out[0] = store.Taken{Granted: t.N, Count: after}
			return out, nil
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return nil, wrap("consume batch", err)
		}
	}
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return nil, wrap("consume batch", err)
	}
	defer tx.Rollback()
	used, add := tx.StmtContext(ctx, s.batchUsed), tx.StmtContext(ctx, s.batchAdd)
	for _, i := range store.TakeOrder(takes) {
		t := takes[i]
		var before int64
		err := used.QueryRowContext(ctx, t.AccountID, t.Period.UnixMicro()).Scan(&before)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return nil, wrap("consume batch", err)
		}
		out[i].Count = before
		if t.N <= 0 || t.Limit <= 0 || before >= t.Limit {
			continue
		}
		var after int64
		payg, other := planShares(t.Plan)
		err = add.QueryRowContext(ctx, t.AccountID, t.Period.UnixMicro(), t.N, t.Limit, payg, other).Scan(&after)
		if errors.Is(err, sql.ErrNoRows) {
			out[i].Err = store.ErrNotFound
			continue
		}
		if err != nil {
			return nil, wrap("consume batch", err)
		}
		out[i].Granted, out[i].Count = after-before, after
	}
	if err := tx.Commit(); err != nil {
		return nil, wrap("consume batch", err)
	}
	return out, nil
}

// Ping implements [store.Store].
func (s *Store) Ping(ctx context.Context) error {
	var v int
	if err := s.r.QueryRowContext(ctx, `SELECT COALESCE(MAX(version), 0) FROM schema_version`).Scan(&v); err != nil {
		return wrap("ping", err)
	}
	return nil
}

const usedSQL = `SELECT count FROM usage_counts WHERE account_id = ? AND period = ?`

// Used implements [store.Store].
func (s *Store) Used(ctx context.Context, accountID int64, period time.Time) (int64, error) {
	var n int64
	err := s.used.QueryRowContext(ctx, accountID, period.UnixMicro()).Scan(&n)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, wrap("used", err)
	}
	return n, nil
}

// UsageSince implements [store.Store].
func (s *Store) UsageSince(ctx context.Context, since time.Time) ([]store.Usage, error) {
	// A zero since means every period; its UnixMicro is far in the past.
	rows, err := s.r.QueryContext(ctx,
		`SELECT u.account_id, a.email, a.plan, u.period, u.count, u.payg_count, u.other_count
		FROM usage_counts u JOIN accounts a ON a.id = u.account_id
		WHERE u.period >= ? ORDER BY u.period, u.account_id`, since.UnixMicro())
	if err != nil {
		return nil, wrap("usage since", err)
	}
	defer rows.Close()
	var list []store.Usage
	for rows.Next() {
		var (
			u      store.Usage
			mail   sql.NullString
			period int64
		)
		if err := rows.Scan(&u.AccountID, &mail, &u.Plan, &period, &u.Count, &u.Payg, &u.Other); err != nil {
			return nil, wrap("usage since", err)
		}
		u.Email = mail.String
		u.Period = time.UnixMicro(period).UTC()
		list = append(list, u)
	}
	if err := rows.Err(); err != nil {
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
	err := s.w.QueryRowContext(ctx,
		`INSERT INTO counters (purpose, subject, window_start, expires_at, count) VALUES (?1, ?2, ?3, ?4, 1)
		ON CONFLICT (purpose, subject, window_start) DO UPDATE SET count = count + 1 WHERE count < ?5
		RETURNING count`,
		c.Purpose, c.Subject, c.Window.UnixMicro(), c.Expires.UnixMicro(), limit).Scan(&n)
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, sql.ErrNoRows):
		return false, nil
	}
	return false, wrap("take slot", err)
}

// CreateToken implements [store.Store].
func (s *Store) CreateToken(ctx context.Context, t store.Token) error {
	_, err := s.w.ExecContext(ctx,
		`INSERT INTO tokens (hash, purpose, account_id, key_id, email, expires_at) VALUES (?, ?, ?, ?, ?, ?)`,
		t.Hash, t.Purpose, t.AccountID, t.KeyID, t.Email, micros(t.ExpiresAt))
	if err != nil {
		return wrap("create token", err)
	}
	return nil
}

// Token implements [store.Store].
func (s *Store) Token(ctx context.Context, hash, purpose string, now time.Time) (store.Token, error) {
	var (
		t   store.Token
		exp sql.NullInt64
	)
	err := s.r.QueryRowContext(ctx,
		`SELECT hash, purpose, account_id, key_id, email, expires_at FROM tokens
		WHERE hash = ? AND purpose = ? AND expires_at > ?`, hash, purpose, now.UnixMicro(),
	).Scan(&t.Hash, &t.Purpose, &t.AccountID, &t.KeyID, &t.Email, &exp)
	if err != nil {
		return store.Token{}, wrap("token", err)
	}
	t.ExpiresAt = fromMicros(exp)
	return t, nil
}

// DeleteToken implements [store.Store].
func (s *Store) DeleteToken(ctx context.Context, hash string) error {
	if _, err := s.w.ExecContext(ctx, `DELETE FROM tokens WHERE hash = ?`, hash); err != nil {
		return wrap("delete token", err)
	}
	return nil
}

// Secret implements [store.Store]. A generated value must not be empty.
func (s *Store) Secret(ctx context.Context, name string, generate func() ([]byte, error)) ([]byte, error) {
	var v []byte
	err := s.r.QueryRowContext(ctx, `SELECT value FROM secrets WHERE name = ?`, name).Scan(&v)
	if err == nil {
		return v, nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return nil, wrap("secret", err)
	}
	gen, err := generate()
	if err != nil {
		return nil, fmt.Errorf("sqlite: secret: generate: %w", err)
	}
	if len(gen) == 0 {
		return nil, errors.New("sqlite: secret: generate returned an empty value")
	}
	// When another caller stored the secret first, the no-op update
	// returns its value, and this caller's is dropped.
	err = s.w.QueryRowContext(ctx,
		`INSERT INTO secrets (name, value) VALUES (?, ?)
		ON CONFLICT (name) DO UPDATE SET name = excluded.name RETURNING value`, name, gen).Scan(&v)
	if err != nil {
		return nil, wrap("secret", err)
	}
	return v, nil
}
