package store

import (
	"context"
	"errors"
	"time"
)

// A Plan decides an account's allowance and rate limit.
type Plan string

// The plans of DESIGN.md §5.
const (
	PlanTrial   Plan = "trial"   // 100 requests over 7 days from issue
	PlanFree    Plan = "free"    // 1,000 requests per calendar month (UTC)
	PlanPayg    Plan = "payg"    // metered; a monthly spending cap plays the allowance's role
	PlanSandbox Plan = "sandbox" // the docs console's key: 200 requests per month
)

// Valid reports whether p is one of the plans.
func (p Plan) Valid() bool {
	switch p {
	case PlanTrial, PlanFree, PlanPayg, PlanSandbox:
		return true
	}
	return false
}

// An Account owns keys and an allowance. Trial accounts have no e-mail
// until claimed; there is one account per confirmed e-mail address.
type Account struct {
	ID    int64
	Email string // "" for trial and sandbox accounts; stored lower-cased
	Plan  Plan
	// EmailConfirmed is set when the holder clicked a link sent to Email.
	EmailConfirmed bool
	// MonthlyCap is the Pay-as-you-go cap in requests per month; 0 means
	// the server's default.
	MonthlyCap int64
	CreatedAt  time.Time
	// TrialExpiresAt is when a trial account's keys stop working.
	TrialExpiresAt time.Time
	// DeletedAt is zero while the account exists. A deleted account
	// ([Store.DeleteAccount], or an unclaimed trial removed by
	// [Store.Purge]) that has usage rows stays as an anonymous record for
	// invoices: ID, Plan, MonthlyCap, CreatedAt and TrialExpiresAt are kept,
	// Email is empty, EmailConfirmed false, and it has no keys.
	DeletedAt time.Time
}

// Deleted reports whether the account was deleted.
func (a Account) Deleted() bool { return !a.DeletedAt.IsZero() }

// A Key is an API key as stored: never the key itself, only its hash.
type Key struct {
	ID        int64
	AccountID int64
	// Prefix is the readable start of the key (e.g. "ta_live_3fA9x"),
	// enough to recognise it in a list, too short to use.
	Prefix string
	// Hash is the hex SHA-256 of the whole key; unique.
	Hash string
	// Kind is "live", "trial" or "sbx".
	Kind string
	// API names the API the key was issued for; a key of another API gets 401.
	API       string
	Name      string
	CreatedAt time.Time
	// RevokedAt is zero while the key works.
	RevokedAt time.Time
}

// Revoked reports whether the key was revoked.
func (k Key) Revoked() bool { return !k.RevokedAt.IsZero() }

// Usage is one account's count for one period, for reports and invoices.
type Usage struct {
	AccountID int64
	Email     string
	Plan      Plan
	Period    time.Time // start of the period (UTC)
	Count     int64
}

// A Token backs a link sent to a person: the claim page of a trial key, or
// the confirmation of an e-mail address. Only its hash is stored.
type Token struct {
	Hash      string
	Purpose   string // "claim" or "confirm"
	AccountID int64
	KeyID     int64
	Email     string
	ExpiresAt time.Time
}

// A Deletion says what [Store.DeleteAccount] removed.
type Deletion struct {
	Keys   int64 // the account's keys, deleted (a deleted key answers 401 invalid_key)
	Tokens int64 // claim and confirmation tokens of the account or its e-mail address
	// Kept is true when usage rows refer to the account: its row stays as
	// an anonymous record (see [Account.DeletedAt]) so that the rows can
	// still be invoiced. Otherwise the row is gone too.
	Kept bool
}

// InBatches calls batch until it removes fewer than [PurgeBatch] rows,
// checking ctx before each call, and returns the rows removed in all. It is
// the loop every store's Purge runs each of its deletions in.
func InBatches(ctx context.Context, batch func(context.Context) (int64, error)) (int64, error) {
	var total int64
	for {
		if err := ctx.Err(); err != nil {
			return total, err
		}
		n, err := batch(ctx)
		total += n
		if err != nil || n < PurgeBatch {
			return total, err
		}
	}
}

// Retention limits of [Store.Purge].
const (
	// PurgeBatch is the most rows one transaction of Purge deletes, so that
	// a purge never holds the database's locks for long: a SQLite writer
	// is free again within milliseconds, and counting never waits behind a
	// large delete.
	PurgeBatch = 500
	// TrialRetention is how long an unclaimed trial account and its key are
	// kept after the trial expired. For that long the key answers 401
	// trial_expired with its claim_url and can still be claimed; after it,
	// it is deleted and answers 401 invalid_key. DESIGN.md §5 promises
	// trial_expired with no bound; 30 days gives an agent's owner a month to
	// notice.
	TrialRetention = 30 * 24 * time.Hour
)

// PurgeStats counts what one [Store.Purge] removed.
type PurgeStats struct {
	Tokens     int64 // expired claim and confirmation tokens
	TrialSlots int64 // per-address trial counters of past UTC days
	// TrialKeys and TrialAccounts are unclaimed trials expired for
	// TrialRetention or more: their keys were deleted, and their accounts
	// too, or kept as anonymous records when they have usage rows.
	TrialKeys     int64
	TrialAccounts int64
}

// Total is the number of rows Purge deleted or anonymised.
func (p PurgeStats) Total() int64 { return p.Tokens + p.TrialSlots + p.TrialKeys + p.TrialAccounts }

// Errors the implementations return; test with errors.Is.
var (
	ErrNotFound = errors.New("store: not found")
	ErrExists   = errors.New("store: already exists")
)

// Store is what the server needs from a database. Every method is safe for
// concurrent use, from many goroutines and many processes sharing one
// database. Times are stored and returned in UTC.
type Store interface {
	// CreateAccount stores a new account and returns it with its ID and
	// CreatedAt set (CreatedAt is kept when given). ErrExists when Email
	// is not empty and already has an account.
	CreateAccount(ctx context.Context, a Account) (Account, error)
	// Account returns an account by ID, or ErrNotFound.
	Account(ctx context.Context, id int64) (Account, error)
	// AccountByEmail returns the account of a (case-insensitive) e-mail
	// address, or ErrNotFound.
	AccountByEmail(ctx context.Context, email string) (Account, error)
	// UpdateAccount changes an account's Email, Plan, EmailConfirmed,
	// MonthlyCap and TrialExpiresAt. ErrNotFound for an unknown or deleted
	// ID; ErrExists when the e-mail belongs to another account.
	UpdateAccount(ctx context.Context, a Account) error
	// ListAccounts returns every account, deleted ones kept for their usage
	// included, by ID.
	ListAccounts(ctx context.Context) ([]Account, error)
	// DeleteAccount erases an account: it deletes its keys and every token
	// of the account, its keys or its e-mail address, and removes the
	// account's row, or, when usage rows refer to it, keeps the row without
	// e-mail and with DeletedAt set to at (see [Account.DeletedAt]). Usage
	// rows are never deleted. Deleting a deleted account changes nothing.
	// ErrNotFound for an unknown ID. IDs of deleted accounts and keys are
	// never given again.
	DeleteAccount(ctx context.Context, id int64, at time.Time) (Deletion, error)

	// CreateKey stores a key and returns it with its ID and CreatedAt set.
	// ErrExists when the hash is taken; ErrNotFound for an unknown or
	// deleted account.
	CreateKey(ctx context.Context, k Key) (Key, error)
	// KeyByHash returns a key, revoked or not, and its account, or
	// ErrNotFound.
	KeyByHash(ctx context.Context, hash string) (Key, Account, error)
	// Key returns a key, revoked or not, by ID, or ErrNotFound.
	Key(ctx context.Context, id int64) (Key, error)
	// ListKeys returns the keys of an account, or of all accounts when
	// accountID is 0, by ID.
	ListKeys(ctx context.Context, accountID int64) ([]Key, error)
	// RevokeKey marks a key revoked at the given time; revoking twice keeps
	// the first time. ErrNotFound for an unknown ID.
	RevokeKey(ctx context.Context, keyID int64, at time.Time) error
	// MoveKey moves a key to another account (a claimed trial key joins
	// the e-mail's account). ErrNotFound for an unknown key, or an unknown
	// or deleted account.
	MoveKey(ctx context.Context, keyID, toAccountID int64) error

	// Consume counts one request against an account's period, atomically:
	// when the count is below limit it is incremented and (new count, true)
	// returned; otherwise (current count, false) and nothing changes.
	Consume(ctx context.Context, accountID int64, period time.Time, limit int64) (int64, bool, error)
	// Used returns the count of an account's period (0 when none).
	Used(ctx context.Context, accountID int64, period time.Time) (int64, error)
	// UsageSince returns every account's counts for periods starting at or
	// after since, by period then account.
	UsageSince(ctx context.Context, since time.Time) ([]Usage, error)

	// TakeTrialSlot counts one trial key issued to a client address (an
	// HMAC, never the address) on a UTC day, atomically, up to limit; it
	// reports whether a slot was left.
	TakeTrialSlot(ctx context.Context, addrHMAC string, day time.Time, limit int) (bool, error)

	// CreateToken stores a token. ErrExists when the hash is taken.
	CreateToken(ctx context.Context, t Token) error
	// Token returns an unexpired token by hash and purpose, or ErrNotFound.
	Token(ctx context.Context, hash, purpose string, now time.Time) (Token, error)
	// DeleteToken removes a token; deleting a missing one is not an error.
	DeleteToken(ctx context.Context, hash string) error

	// Purge deletes what can no longer matter at time now, in transactions
	// of at most PurgeBatch rows: tokens expired at now (or with no
	// expiry), trial slots of UTC days before now's, and unclaimed trial
	// accounts expired for TrialRetention or more, with their keys and
	// tokens (an account with usage rows is kept as an anonymous record;
	// one with an unexpired token is left for a later purge). Usage rows
	// are billing records and are never deleted. Purge is idempotent, and
	// safe to run from several processes at once on one database.
	Purge(ctx context.Context, now time.Time) (PurgeStats, error)

	// Secret returns the named server secret, creating it with generate
	// when it does not exist yet; concurrent callers all get the same value.
	Secret(ctx context.Context, name string, generate func() ([]byte, error)) ([]byte, error)

	// Close releases the database.
	Close() error
}
