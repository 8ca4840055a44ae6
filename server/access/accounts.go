package access

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"net/mail"
	"strings"
	"time"

	"github.com/textanalysis/go-textanalysis/server/store"
)

// Errors of the account operations; test with errors.Is.
var (
	// ErrTrialLimit: the client address has had its trial keys for today.
	ErrTrialLimit = errors.New("access: trial keys for this address are used up for today")
	// ErrBadEmail: the e-mail address does not parse.
	ErrBadEmail = errors.New("access: invalid e-mail address")
	// ErrBadToken: a claim, confirmation or sign-in link, or a session, is
	// wrong, used or expired.
	ErrBadToken = errors.New("access: invalid or expired link")
	// ErrMailLimit: the client or e-mail address has had its mails for
	// now; the error is a [*MailLimitError] saying until when.
	ErrMailLimit = errors.New("access: too many mails for this address")
	// ErrKeyLimit: the account has Config.MaxLiveKeys unrevoked keys.
	ErrKeyLimit = errors.New("access: the account has its most live keys")
	// ErrAlreadyClaimed: a claim's key left its trial account before the
	// claim was confirmed.
	ErrAlreadyClaimed = errors.New("access: the key was claimed already")
	// ErrNoKey: the account has no such key.
	ErrNoKey = errors.New("access: no such key in this account")
)

// A MailLimitError says which cap refused a mail and when it refills.
type MailLimitError struct {
	// PerEmail is true when the e-mail address's cap refused, false when
	// the client address's did.
	PerEmail bool
	Reset    time.Time
}

func (e *MailLimitError) Error() string {
	return fmt.Sprintf("%v until %s", ErrMailLimit, e.Reset.UTC().Format(time.RFC3339))
}

// Unwrap makes errors.Is(err, ErrMailLimit) hold.
func (e *MailLimitError) Unwrap() error { return ErrMailLimit }

// An Issued key is shown to its holder once; only Key.Hash is kept.
type Issued struct {
	Secret  string // the key itself
	Key     store.Key
	Account store.Account
}

// NormalizeEmail checks an address and returns it lower-cased, without a
// display name. The domain must be a name with a dot whose last label is
// not a number: net/mail also takes IP addresses (user@[10.0.0.5],
// user@127.0.0.1), and a mail there would have the operator's mail server
// connect to whatever address a stranger named, its own network included.
func NormalizeEmail(s string) (string, error) {
	s = strings.TrimSpace(s)
	if s == "" || len(s) > 254 {
		return "", ErrBadEmail
	}
	addr, err := mail.ParseAddress(s)
	if err != nil || addr.Address != s {
		return "", ErrBadEmail
	}
	domain := addr.Address[strings.LastIndexByte(addr.Address, '@')+1:]
	dot := strings.LastIndexByte(domain, '.')
	if dot < 0 || strings.HasPrefix(domain, "[") || strings.Trim(domain[dot+1:], "0123456789") == "" {
		return "", ErrBadEmail
	}
	return strings.ToLower(addr.Address), nil
}

// IssueKey makes a new key of kind for an account.
func (g *Gate) IssueKey(ctx context.Context, a store.Account, kind, name string) (Issued, error) {
	secret, prefix, hash, err := NewKey(kind)
	if err != nil {
		return Issued{}, fmt.Errorf("access: new key: %w", err)
	}
	k, err := g.st.CreateKey(ctx, store.Key{AccountID: a.ID, Prefix: prefix, Hash: hash, Kind: kind, API: API, Name: name, CreatedAt: g.now().UTC()})
	if err != nil {
		return Issued{}, fmt.Errorf("access: store key: %w", err)
	}
	return Issued{Secret: secret, Key: k, Account: a}, nil
}

// IssueTrial makes a trial key for a client address (an HMAC of its
// [ClientKey] is what the store sees), at most Config.TrialsPerAddress per
// UTC day.
func (g *Gate) IssueTrial(ctx context.Context, clientAddr string) (Issued, error) {
	now := g.now().UTC()
	day := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
	ok, err := g.st.TakeSlot(ctx, store.Counter{Purpose: "trial", Subject: g.AddressHMAC(clientAddr), Window: day, Expires: day.AddDate(0, 0, 1)}, g.cfg.TrialsPerAddress)
	if err != nil {
		return Issued{}, fmt.Errorf("access: trial slot: %w", err)
	}
	if !ok {
		return Issued{}, ErrTrialLimit
	}
	a, err := g.st.CreateAccount(ctx, store.Account{Plan: store.PlanTrial, CreatedAt: now, TrialExpiresAt: now.Add(g.cfg.TrialDuration)})
	if err != nil {
		return Issued{}, fmt.Errorf("access: trial account: %w", err)
	}
	return g.IssueKey(ctx, a, KindTrial, "trial")
}

// TrialAllowance is the number of requests a trial key has.
func (g *Gate) TrialAllowance() int64 { return g.cfg.TrialAllowance }

// A ClaimStart is a claim waiting for its address to be confirmed.
type ClaimStart struct {
	Token string // for the confirmation link
	Email string // normalized
	// Target is the account of Email as it is now, if any: the key will
	// join it and spend its allowance (or its money, on Pay as you go).
	Target *store.Account
}

// StartClaim checks a claim link and the mail caps, and records the
// e-mail address to confirm; the caller mails the returned token's link
// there. ErrBadToken for a wrong signature or a key claimed already;
// ErrBadEmail; ErrMailLimit.
func (g *Gate) StartClaim(ctx context.Context, clientAddr string, keyID int64, sig, email string) (ClaimStart, error) {
	if !g.CheckClaim(keyID, sig) {
		return ClaimStart{}, ErrBadToken
	}
	email, err := NormalizeEmail(email)
	if err != nil {
		return ClaimStart{}, err
	}
	k, err := g.keyByID(ctx, keyID)
	if err != nil {
		return ClaimStart{}, err
	}
	a, err := g.st.Account(ctx, k.AccountID)
	if err != nil {
		return ClaimStart{}, fmt.Errorf("access: claim: %w", err)
	}
	if a.Plan != store.PlanTrial {
		return ClaimStart{}, fmt.Errorf("%w: this key was claimed already", ErrBadToken)
	}
	target, err := g.ClaimTarget(ctx, email)
	if err != nil {
		return ClaimStart{}, err
	}
	if err := g.takeMailSlots(ctx, clientAddr, email); err != nil {
		return ClaimStart{}, err
	}
	token := randomToken()
	err = g.st.CreateToken(ctx, store.Token{
		Hash: HashKey(token), Purpose: store.PurposeClaim, AccountID: k.AccountID, KeyID: k.ID, Email: email,
		ExpiresAt: g.now().UTC().Add(ConfirmLinkTTL),
	})
	if err != nil {
		return ClaimStart{}, fmt.Errorf("access: claim: %w", err)
	}
	return ClaimStart{Token: token, Email: email, Target: target}, nil
}

// ClaimTarget returns the account a key claimed for email would join, or
// nil when the claim would make a new Free account.
func (g *Gate) ClaimTarget(ctx context.Context, email string) (*store.Account, error) {
	a, err := g.st.AccountByEmail(ctx, email)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("access: claim: %w", err)
	}
	return &a, nil
}

// PendingLink returns the token behind an unused, unexpired link of a
// purpose without acting on it, for the page that shows the link's button.
// ErrBadToken when there is none.
func (g *Gate) PendingLink(ctx context.Context, token, purpose string) (store.Token, error) {
	if token == "" {
		return store.Token{}, ErrBadToken
	}
	t, err := g.st.Token(ctx, HashKey(token), purpose, g.now().UTC())
	if errors.Is(err, store.ErrNotFound) {
		return store.Token{}, ErrBadToken
	}
	if err != nil {
		return store.Token{}, fmt.Errorf("access: link: %w", err)
	}
	return t, nil
}

// ConfirmClaim completes a claim from its confirmation link, in one store
// transaction: the key moves into the account of the confirmed address
// (made on the Free plan when new) and keeps working unchanged. Each link
// works once. ErrBadToken for a wrong, used or expired link;
// ErrAlreadyClaimed when another claim of the key was confirmed first;
// ErrKeyLimit when the account has its most keys.
func (g *Gate) ConfirmClaim(ctx context.Context, token string) (store.Claim, error) {
	c, err := g.st.ConfirmClaim(ctx, HashKey(token), g.now().UTC(), g.cfg.MaxLiveKeys)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return store.Claim{}, ErrBadToken
	case errors.Is(err, store.ErrAlreadyClaimed):
		return store.Claim{}, ErrAlreadyClaimed
	case errors.Is(err, store.ErrKeyLimit):
		return store.Claim{}, ErrKeyLimit
	case err != nil:
		return store.Claim{}, fmt.Errorf("access: confirm claim: %w", err)
	}
	// The key changed account and plan: this instance sees it at once.
	g.keys.forget(c.From, c.Key.ID)
	return c, nil
}

func (g *Gate) keyByID(ctx context.Context, id int64) (store.Key, error) {
	k, err := g.st.Key(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return store.Key{}, ErrBadToken
	}
	return k, err
}

// sandboxEmail names the one sandbox account; the address can't receive
// mail (.invalid), it only makes the account unique in the store.
const sandboxEmail = "sandbox@console.invalid"

// SandboxKey returns the docs console's key. It is derived from the
// server's secret, so every process sharing a store gives the same key
// and the store still holds only its hash.
func (g *Gate) SandboxKey(ctx context.Context) (string, error) {
	m := hmac.New(sha256.New, g.secret)
	m.Write([]byte("sandbox-key"))
	sum := m.Sum(nil)
	var b strings.Builder
	b.WriteString(keyPrefix + KindSbx + "_")
	for i := range secretLen {
		b.WriteByte(secretChars[int(sum[i%len(sum)]^byte(i*7))%len(secretChars)])
	}
	key := b.String()
	if _, _, err := g.st.KeyByHash(ctx, HashKey(key)); err == nil {
		return key, nil
	} else if !errors.Is(err, store.ErrNotFound) {
		return "", err
	}
	a, err := g.st.AccountByEmail(ctx, sandboxEmail)
	if errors.Is(err, store.ErrNotFound) {
		a, err = g.st.CreateAccount(ctx, store.Account{Email: sandboxEmail, Plan: store.PlanSandbox, CreatedAt: g.now().UTC()})
		if errors.Is(err, store.ErrExists) {
			a, err = g.st.AccountByEmail(ctx, sandboxEmail)
		}
	}
	if err != nil {
		return "", fmt.Errorf("access: sandbox account: %w", err)
	}
	_, err = g.st.CreateKey(ctx, store.Key{AccountID: a.ID, Prefix: PrefixOf(key), Hash: HashKey(key), Kind: KindSbx, API: API, Name: "docs console", CreatedAt: g.now().UTC()})
	if err != nil && !errors.Is(err, store.ErrExists) {
		return "", fmt.Errorf("access: sandbox key: %w", err)
	}
	return key, nil
}

func randomToken() string {
	b := make([]byte, 24)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// An InvoiceLine is one account's usage in one month.
type InvoiceLine struct {
	Month     string `json:"month"` // YYYY-MM
	AccountID int64  `json:"account_id"`
	Email     string `json:"email"`
	Plan      string `json:"plan"`     // the account's plan now
	Requests  int64  `json:"requests"` // on any plan
	// PaygRequests is the requests made while the account was on Pay as
	// you go: the ones charged (see [store.Usage.Billed]).
	PaygRequests int64   `json:"payg_requests"`
	AmountUSD    float64 `json:"amount_usd"` // PaygRequests' price, rounded to the cent
}

// Invoice lists every account's usage in the calendar month of month.
// Only the requests made on Pay as you go are charged, whatever the
// account's plan is now: 0.0001 USD a request, the month's total rounded
// to the cent. 999 requests on Free and 2 after a move to Pay as you go
// are 1,001 requests, 2 of them charged.
func (g *Gate) Invoice(ctx context.Context, month time.Time) ([]InvoiceLine, error) {
	start, end := MonthStart(month), NextMonth(month)
	rows, err := g.st.UsageSince(ctx, start)
	if err != nil {
		return nil, err
	}
	byAccount := map[int64]*InvoiceLine{}
	var order []int64
	for _, u := range rows {
		if !u.Period.Before(end) {
			continue
		}
		line := byAccount[u.AccountID]
		if line == nil {
			line = &InvoiceLine{Month: start.Format("2006-01"), AccountID: u.AccountID, Email: u.Email, Plan: string(u.Plan)}
			byAccount[u.AccountID] = line
			order = append(order, u.AccountID)
		}
		line.Requests += u.Count
		line.PaygRequests += u.Billed()
	}
	out := make([]InvoiceLine, 0, len(order))
	for _, id := range order {
		line := byAccount[id]
		line.AmountUSD = math.Round(float64(line.PaygRequests)*PricePerRequestUSD*100) / 100
		out = append(out, *line)
	}
	return out, nil
}
