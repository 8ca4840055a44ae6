package store

import (
	"cmp"
	"context"
	"errors"
	"slices"
	"time"
)

// A Plan decides an account's allowance and rate limit.
type Plan string

// The plans an account can be on.
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
	// LastUsedAt is when the key was last admitted, to within
	// [KeyTouchInterval]; zero when never.
	LastUsedAt time.Time
}

// KeyTouchInterval is how stale [Key.LastUsedAt] may be: a key's last use
// is written at most about once per interval (see [Store.TouchKey]), so
// that admitting a request costs no extra write.
const KeyTouchInterval = time.Minute

// Revoked reports whether the key was revoked.
func (k Key) Revoked() bool { return !k.RevokedAt.IsZero() }

// A Take asks [Store.ConsumeBatch] to count N requests against an
// account's period, of which at most Limit may be counted in all. Plan is
// the plan the requests were admitted on: the period's one count is the
// allowance, whatever the plan, and the requests counted on Pay as you go
// are also counted apart ([Usage.Payg]) so that only they are billed. An
// empty Plan counts them as of no plan, as a release before per-plan
// counts did ([Usage.Unattributed]).
type Take struct {
	AccountID int64
	Period    time.Time
	N         int64
	Limit     int64
	Plan      Plan
}

// A Taken is what [Store.ConsumeBatch] did with one [Take]: Granted of its
// N requests were counted, min(N, Limit − the count before), never
// negative, and Count is the period's count after them. Err is ErrNotFound
// for an unknown account, and nothing was counted for it.
type Taken struct {
	Granted int64
	Count   int64
	Err     error
}

// TakeOrder returns the indexes of takes sorted by account and period,
// stably: the order a store applies them in, so that concurrent batches
// lock rows in one order and never deadlock.
func TakeOrder(takes []Take) []int {
	order := make([]int, len(takes))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		return cmp.Or(cmp.Compare(takes[a].AccountID, takes[b].AccountID), takes[a].Period.Compare(takes[b].Period))
	})
	return order
}

// Usage is one account's count for one period, for reports and invoices.
type Usage struct {
	AccountID int64
	Email     string
	Plan      Plan      // the account's plan now
	Period    time.Time // start of the period (UTC)
	// Count is every request of the period, on any plan: the allowance.
	Count int64
	// Payg is the requests of Count admitted while the account was on Pay
	// as you go, Other those admitted on another plan (trial, free,
	// sandbox). Count − Payg − Other, [Usage.Unattributed], were counted
	// without a plan: before the schema kept per-plan counts, or by the
	// previous release during a rolling deploy or after a rollback.
	Payg  int64
	Other int64
}

// Unattributed is the requests of the period counted without a plan.
func (u Usage) Unattributed() int64 { return max(0, u.Count-u.Payg-u.Other) }

// Billed is the requests of the period charged as Pay as you go: those
// admitted on it, and those counted without a plan when the account is on
// it now (the best that is known of them).
func (u Usage) Billed() int64 {
	if u.Plan == PlanPayg {
		return u.Payg + u.Unattributed()
	}
	return u.Payg
}

// A Token backs a link sent to a person: the confirmation of a claim or a
// sign-up, or a sign-in. Only its hash is stored. Each link works once:
// the store method that acts on a token deletes it in the same
// transaction.
type Token struct {
	Hash      string
	Purpose   string // one of the Purpose constants
	AccountID int64
	KeyID     int64
	Email     string
	ExpiresAt time.Time
}

// Purposes of tokens.
const (
	// PurposeClaim confirms the e-mail address a trial key is claimed for:
	// AccountID is the trial account, KeyID its key, Email the address.
	PurposeClaim = "confirm"
	// PurposeSignUp confirms the e-mail address of a sign-up (Email).
	PurposeSignUp = "signup"
	// PurposeSignIn signs in to the account AccountID of Email.
	PurposeSignIn = "signin"
)

// A Counter counts events of one purpose for one subject in one window,
// such as the trial keys of a client address on a UTC day or the mails
// sent to an e-mail address in an hour. Subject is an HMAC of the client
// or e-mail address, never the address itself.
type Counter struct {
	Purpose string
	Subject string
	Window  time.Time // start of the window
	Expires time.Time // end of the window; Purge removes the counter from then
}

// A Claim says what [Store.ConfirmClaim] did: Key (as it is now) moved
// into Account, the account of the confirmed address, made on the Free
// plan when there was none.
type Claim struct {
	Account Account
	Key     Key
	// From is the trial account the key left.
	From int64
}

// A Session is a signed-in browser on the account page. Only a hash of
// its cookie is stored.
type Session struct {
	Hash      string
	AccountID int64
	CreatedAt time.Time
	ExpiresAt time.Time
}

// A PlanRequest is an account holder's request for Pay as you go, or for
// a higher monthly cap (Plan payg with MonthlyCap). The operator grants it
// by hand (textanalysis keys plan); requests are kept as a record.
type PlanRequest struct {
	ID         int64
	AccountID  int64
	Plan       Plan
	MonthlyCap int64 // requested cap in requests per month; 0: the default
	CreatedAt  time.Time
}

// A Mail is an e-mail in the outbox: the developer site's requests
// enqueue it ([Store.EnqueueMail]) and a worker sends it, on any instance
// ([Store.ClaimMails]). Its body may hold a link with a live token, so a
// row lives only until the mail is sent, given up, or expires.
type Mail struct {
	ID      int64
	To      string
	Subject string
	Body    string
	// Attempts is how many times the mail was claimed to be sent.
	Attempts  int
	CreatedAt time.Time
	// NextAt is when the mail may be claimed: at once when enqueued, then
	// the end of a claim's lease, or the time of the next attempt.
	NextAt time.Time
	// ExpiresAt is when the mail is no use any more (its link expired):
	// it is not claimed from then, and Purge deletes it.
	ExpiresAt time.Time
}

// MailRetention is how long a mail stays in the outbox when it is given no
// expiry: a day, the longest a link in it works.
const MailRetention = 24 * time.Hour

// NewMail returns m as [Store.EnqueueMail] stores it: CreatedAt now when
// zero, NextAt CreatedAt when zero, ExpiresAt CreatedAt+MailRetention when
// zero, Attempts 0, all in UTC.
func NewMail(m Mail) Mail {
	if m.CreatedAt.IsZero() {
		m.CreatedAt = time.Now()
	}
	if m.NextAt.IsZero() {
		m.NextAt = m.CreatedAt
	}
	if m.ExpiresAt.IsZero() {
		m.ExpiresAt = m.CreatedAt.Add(MailRetention)
	}
	m.Attempts = 0
	m.CreatedAt, m.NextAt, m.ExpiresAt = m.CreatedAt.UTC(), m.NextAt.UTC(), m.ExpiresAt.UTC()
	return m
}

// SortMails sorts claimed mails by ID, the order they were enqueued in.
func SortMails(list []Mail) {
	slices.SortFunc(list, func(a, b Mail) int { return cmp.Compare(a.ID, b.ID) })
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
	// it is deleted and answers 401 invalid_key. 30 days gives an agent's
	// owner a month to notice.
	TrialRetention = 30 * 24 * time.Hour
)

// PurgeStats counts what one [Store.Purge] removed.
type PurgeStats struct {
	Tokens   int64 // expired tokens of every purpose
	Counters int64 // counters whose window ended (trial slots, mail caps)
	Sessions int64 // expired account-page sessions
	Mails    int64 // outbox mails expired unsent
	// TrialKeys and TrialAccounts are unclaimed trials expired for
	// TrialRetention or more: their keys were deleted, and their accounts
	// too, or kept as anonymous records when they have usage rows.
	TrialKeys     int64
	TrialAccounts int64
}

// Total is the number of rows Purge deleted or anonymised.
func (p PurgeStats) Total() int64 {
	return p.Tokens + p.Counters + p.Sessions + p.Mails + p.TrialKeys + p.TrialAccounts
}

// Errors the implementations return; test with errors.Is.
var (
	ErrNotFound = errors.New("store: not found")
	ErrExists   = errors.New("store: already exists")
	// ErrKeyLimit: the account has as many live (unrevoked) keys as the
	// limit allows.
	ErrKeyLimit = errors.New("store: the account has its most live keys")
	// ErrAlreadyClaimed: the key of a claim left its trial account before
	// the claim was confirmed (another claim was confirmed first).
	ErrAlreadyClaimed = errors.New("store: the key was claimed already")
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
	// DeleteAccount erases an account: it deletes its keys, sessions and
	// plan requests, every token of the account, its keys or its e-mail
	// address, and the outbox's mails to that address, and removes the
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
	// CreateKeyLimited is CreateKey for an account that may hold at most
	// maxLive unrevoked keys: ErrKeyLimit, and nothing stored, when it has
	// that many already; maxLive 0 or less means no limit. Concurrent
	// calls never pass the limit together.
	CreateKeyLimited(ctx context.Context, k Key, maxLive int) (Key, error)
	// TouchKey records that a key was used at the given time: LastUsedAt
	// becomes at unless it is already later than at-KeyTouchInterval, so
	// that calling it for every request writes about once per interval.
	// An unknown key is not an error.
	TouchKey(ctx context.Context, keyID int64, at time.Time) error
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
	// returned; otherwise (current count, false) and nothing changes. The
	// request is counted without a plan (see [Take.Plan]); the server
	// counts with ConsumeBatch.
	Consume(ctx context.Context, accountID int64, period time.Time, limit int64) (int64, bool, error)
	// ConsumeBatch counts several takes (see [Take]) in one transaction:
	// when it returns without error every Granted count is durable, and
	// when it returns an error none was made. It returns one Taken per
	// take, in order; takes of one account and period are applied in
	// order, each seeing the counts of those before it. Concurrent calls,
	// from any process, never count past a take's Limit together. It is the
	// group commit of [access]'s batcher: one transaction for many requests.
	ConsumeBatch(ctx context.Context, takes []Take) ([]Taken, error)
	// Used returns the count of an account's period (0 when none).
	Used(ctx context.Context, accountID int64, period time.Time) (int64, error)
	// UsageSince returns every account's counts for periods starting at or
	// after since, with the per-plan counts (see [Usage]), by period then
	// account.
	UsageSince(ctx context.Context, since time.Time) ([]Usage, error)

	// TakeSlot counts one event on a counter (its purpose, subject and
	// window) atomically, up to limit; it reports whether a slot was left.
	// A refused event is not counted.
	TakeSlot(ctx context.Context, c Counter, limit int) (bool, error)

	// CreateToken stores a token. ErrExists when the hash is taken.
	CreateToken(ctx context.Context, t Token) error
	// Token returns an unexpired token by hash and purpose, or ErrNotFound.
	// It changes nothing: pages that show a link's button use it.
	Token(ctx context.Context, hash, purpose string, now time.Time) (Token, error)
	// DeleteToken removes a token; deleting a missing one is not an error.
	DeleteToken(ctx context.Context, hash string) error

	// ConfirmSignUp acts on a sign-up's confirmation link, in one
	// transaction: it takes the unexpired PurposeSignUp token (ErrNotFound
	// when there is none) and deletes it, finds the account of its e-mail
	// address or makes one on the Free plan, marks the address confirmed,
	// and stores k in that account (k.AccountID is ignored) unless the
	// account has maxLive live keys already: then ErrKeyLimit, and nothing
	// changes (the link still works). Of two concurrent calls with one
	// token exactly one succeeds.
	ConfirmSignUp(ctx context.Context, tokenHash string, now time.Time, k Key, maxLive int) (Account, Key, error)
	// ConfirmClaim acts on a claim's confirmation link, in one
	// transaction: it takes the unexpired PurposeClaim token (ErrNotFound
	// when there is none) and deletes it; checks that the token's key is
	// still in the token's trial account (else ErrAlreadyClaimed, and the
	// token stays deleted); finds the account of the token's e-mail
	// address or makes one on the Free plan, and marks the address
	// confirmed; moves the key there; and ends the trial account (Free,
	// no expiry). When the target account has maxLive live keys already it
	// returns ErrKeyLimit and changes nothing. Of two concurrent calls for
	// one key, with one token or two, exactly one succeeds.
	ConfirmClaim(ctx context.Context, tokenHash string, now time.Time, maxLive int) (Claim, error)

	// SignIn acts on a sign-in link, in one transaction: it takes the
	// unexpired PurposeSignIn token (ErrNotFound when there is none, or
	// when its account was deleted or no longer has the token's address)
	// and deletes it, and stores s for the token's account (s.AccountID is
	// ignored). It returns the account.
	SignIn(ctx context.Context, tokenHash string, now time.Time, s Session) (Account, error)
	// Session returns an unexpired session by hash and its account, or
	// ErrNotFound (also when the account was deleted).
	Session(ctx context.Context, hash string, now time.Time) (Session, Account, error)
	// DeleteSession removes a session; deleting a missing one is not an
	// error.
	DeleteSession(ctx context.Context, hash string) error

	// CreatePlanRequest records a request for a plan and returns it with
	// its ID and CreatedAt set. ErrNotFound for an unknown or deleted
	// account.
	CreatePlanRequest(ctx context.Context, r PlanRequest) (PlanRequest, error)
	// ListPlanRequests returns the requests of an account, or of all
	// accounts when accountID is 0, by ID.
	ListPlanRequests(ctx context.Context, accountID int64) ([]PlanRequest, error)

	// EnqueueMail puts a mail in the outbox and returns it with its ID set,
	// CreatedAt set when zero, NextAt CreatedAt when zero (to be sent at
	// once) and ExpiresAt CreatedAt+MailRetention when zero. Attempts is
	// ignored (0).
	EnqueueMail(ctx context.Context, m Mail) (Mail, error)
	// ClaimMails takes up to n mails of the outbox due at now (NextAt at
	// or before now, ExpiresAt after now), oldest NextAt first, for one
	// attempt each: it adds one to their Attempts and sets their NextAt to
	// now+lease, and returns them so. Concurrent callers, from any
	// process, never claim one mail together while its lease runs; a mail
	// whose sender died is claimed again when its lease ends.
	ClaimMails(ctx context.Context, now time.Time, lease time.Duration, n int) ([]Mail, error)
	// RetryMail sets when a claimed mail may be claimed again, after a
	// failed attempt. An unknown ID is not an error.
	RetryMail(ctx context.Context, id int64, at time.Time) error
	// DeleteMail removes a mail from the outbox: sent, or given up. An
	// unknown ID is not an error.
	DeleteMail(ctx context.Context, id int64) error

	// Purge deletes what can no longer matter at time now, in transactions
	// of at most PurgeBatch rows: tokens and sessions expired at now (or
	// tokens with no expiry), outbox mails expired at now, counters whose
	// window ended at or before now, and unclaimed trial
	// accounts expired for TrialRetention or more, with their keys and
	// tokens (an account with usage rows is kept as an anonymous record;
	// one with an unexpired token is left for a later purge). Usage rows
	// are billing records and are never deleted. Purge is idempotent, and
	// safe to run from several processes at once on one database.
	Purge(ctx context.Context, now time.Time) (PurgeStats, error)

	// Secret returns the named server secret, creating it with generate
	// when it does not exist yet; concurrent callers all get the same value.
	Secret(ctx context.Context, name string, generate func() ([]byte, error)) ([]byte, error)

	// Ping checks that the database answers, for a readiness probe.
	Ping(ctx context.Context) error

	// Close releases the database.
	Close() error
}
