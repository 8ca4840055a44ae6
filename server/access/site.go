package access

import (
	"context"
	"errors"
	"fmt"
	"net/netip"
	"strings"
	"time"

	"github.com/textanalysis/go-textanalysis/server/store"
)

// ClientKey is the part of a client address that the per-address limits
// count: an IPv4 address whole, an IPv6 address by its /64 (one
// subscriber's network is usually a /64, and a host can take any address
// in it). An IPv4-mapped IPv6 address counts as IPv4. A prefix is returned
// as its /64 (or itself when longer is not possible), so ClientKey is
// idempotent; a string that is neither is returned unchanged.
func ClientKey(addr string) string {
	if a, err := netip.ParseAddr(addr); err == nil {
		a = a.Unmap().WithZone("")
		if a.Is4() {
			return a.String()
		}
		return netip.PrefixFrom(a, 64).Masked().String()
	}
	if p, err := netip.ParsePrefix(addr); err == nil && p.Addr().Is6() && !p.Addr().Is4In6() && p.Bits() >= 64 {
		return netip.PrefixFrom(p.Addr(), 64).Masked().String()
	}
	return addr
}

// CanonicalEmail is the form in which the per-address mail cap counts a
// normalized e-mail address ([NormalizeEmail]), so that variants that
// reach one mailbox share one cap: lower-cased; a "+tag" suffix of the
// local part removed; and for gmail.com and googlemail.com, which ignore
// dots, the dots of the local part removed and the domain gmail.com.
// Accounts are still kept per lower-cased address: this form only counts.
func CanonicalEmail(email string) string {
	email = strings.ToLower(email)
	at := strings.LastIndexByte(email, '@')
	if at < 0 {
		return email
	}
	local, domain := email[:at], email[at+1:]
	if i := strings.IndexByte(local, '+'); i > 0 {
		local = local[:i]
	}
	if domain == "googlemail.com" {
		domain = "gmail.com"
	}
	if domain == "gmail.com" {
		local = strings.ReplaceAll(local, ".", "")
	}
	return local + "@" + domain
}

// takeMailSlots counts one mail the site is about to send to email at
// the request of clientAddr, against Config.MailsPerClientHour,
// MailsPerClientDay and MailsPerAddressDay. Over a cap it returns a
// *MailLimitError and the mail must not be sent.
func (g *Gate) takeMailSlots(ctx context.Context, clientAddr, email string) error {
	now := g.now().UTC()
	hour := now.Truncate(time.Hour)
	day := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
	client := g.AddressHMAC(clientAddr)
	for _, c := range []struct {
		counter  store.Counter
		limit    int
		perEmail bool
	}{
		{store.Counter{Purpose: "mail-client-hour", Subject: client, Window: hour, Expires: hour.Add(time.Hour)}, g.cfg.MailsPerClientHour, false},
		{store.Counter{Purpose: "mail-client-day", Subject: client, Window: day, Expires: day.AddDate(0, 0, 1)}, g.cfg.MailsPerClientDay, false},
		{store.Counter{Purpose: "mail-address-day", Subject: g.hmacOf("email:" + CanonicalEmail(email)), Window: day, Expires: day.AddDate(0, 0, 1)}, g.cfg.MailsPerAddressDay, true},
	} {
		ok, err := g.st.TakeSlot(ctx, c.counter, c.limit)
		if err != nil {
			return fmt.Errorf("access: mail cap: %w", err)
		}
		if !ok {
			return &MailLimitError{PerEmail: c.perEmail, Reset: c.counter.Expires}
		}
	}
	return nil
}

// A LinkStart is a link to mail: Token goes into the link, Email (the
// normalized address) is where it goes.
type LinkStart struct {
	Token string
	Email string
}

// StartSignUp checks an address and the mail caps and records a sign-up
// waiting for the address to be confirmed; the caller mails the token's
// link there. No key exists until [Gate.ConfirmSignUp]. ErrBadEmail;
// ErrMailLimit.
func (g *Gate) StartSignUp(ctx context.Context, clientAddr, email string) (LinkStart, error) {
	email, err := NormalizeEmail(email)
	if err != nil {
		return LinkStart{}, err
	}
	if err := g.takeMailSlots(ctx, clientAddr, email); err != nil {
		return LinkStart{}, err
	}
	token := randomToken()
	err = g.st.CreateToken(ctx, store.Token{Hash: HashKey(token), Purpose: store.PurposeSignUp, Email: email, ExpiresAt: g.now().UTC().Add(ConfirmLinkTTL)})
	if err != nil {
		return LinkStart{}, fmt.Errorf("access: sign-up: %w", err)
	}
	return LinkStart{Token: token, Email: email}, nil
}

// ConfirmSignUp completes a sign-up from its confirmation link, in one
// store transaction: it finds the address's account or makes one on the
// Free plan, and issues a new live key there, to be shown once. Each link
// works once. ErrBadToken for a wrong, used or expired link; ErrKeyLimit
// when the account has its most keys (the link then still works).
func (g *Gate) ConfirmSignUp(ctx context.Context, token string) (Issued, error) {
	secret, prefix, hash, err := NewKey(KindLive)
	if err != nil {
		return Issued{}, fmt.Errorf("access: new key: %w", err)
	}
	now := g.now().UTC()
	a, k, err := g.st.ConfirmSignUp(ctx, HashKey(token), now,
		store.Key{Prefix: prefix, Hash: hash, Kind: KindLive, API: API, Name: "developer site", CreatedAt: now}, g.cfg.MaxLiveKeys)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return Issued{}, ErrBadToken
	case errors.Is(err, store.ErrKeyLimit):
		return Issued{}, ErrKeyLimit
	case err != nil:
		return Issued{}, fmt.Errorf("access: confirm sign-up: %w", err)
	}
	return Issued{Secret: secret, Key: k, Account: a}, nil
}

// StartSignIn checks an address and the mail caps, and when the address
// has an account records a sign-in link for it (Token is "" when it has
// none: the caller still mails, so that neither the page nor the timing
// tells whether an account exists). ErrBadEmail; ErrMailLimit.
func (g *Gate) StartSignIn(ctx context.Context, clientAddr, email string) (LinkStart, error) {
	email, err := NormalizeEmail(email)
	if err != nil {
		return LinkStart{}, err
	}
	if err := g.takeMailSlots(ctx, clientAddr, email); err != nil {
		return LinkStart{}, err
	}
	a, err := g.st.AccountByEmail(ctx, email)
	if errors.Is(err, store.ErrNotFound) || (err == nil && a.Plan == store.PlanSandbox) {
		return LinkStart{Email: email}, nil
	}
	if err != nil {
		return LinkStart{}, fmt.Errorf("access: sign-in: %w", err)
	}
	token := randomToken()
	err = g.st.CreateToken(ctx, store.Token{Hash: HashKey(token), Purpose: store.PurposeSignIn, AccountID: a.ID, Email: email, ExpiresAt: g.now().UTC().Add(SignInLinkTTL)})
	if err != nil {
		return LinkStart{}, fmt.Errorf("access: sign-in: %w", err)
	}
	return LinkStart{Token: token, Email: email}, nil
}

// SignIn exchanges a sign-in link's token for a session, in one store
// transaction, and returns the session's secret (for a cookie; only its
// hash is stored) and the account. Each link works once. ErrBadToken for
// a wrong, used or expired link.
func (g *Gate) SignIn(ctx context.Context, token string) (string, store.Account, error) {
	secret := randomToken()
	now := g.now().UTC()
	a, err := g.st.SignIn(ctx, HashKey(token), now, store.Session{Hash: HashKey(secret), CreatedAt: now, ExpiresAt: now.Add(SessionTTL)})
	if errors.Is(err, store.ErrNotFound) {
		return "", store.Account{}, ErrBadToken
	}
	if err != nil {
		return "", store.Account{}, fmt.Errorf("access: sign in: %w", err)
	}
	return secret, a, nil
}

// Session returns the account of a session's secret; ErrBadToken when the
// session is unknown, expired or signed out.
func (g *Gate) Session(ctx context.Context, secret string) (store.Account, error) {
	if secret == "" {
		return store.Account{}, ErrBadToken
	}
	_, a, err := g.st.Session(ctx, HashKey(secret), g.now().UTC())
	if errors.Is(err, store.ErrNotFound) {
		return store.Account{}, ErrBadToken
	}
	if err != nil {
		return store.Account{}, fmt.Errorf("access: session: %w", err)
	}
	return a, nil
}

// SignOut ends a session.
func (g *Gate) SignOut(ctx context.Context, secret string) error {
	if secret == "" {
		return nil
	}
	if err := g.st.DeleteSession(ctx, HashKey(secret)); err != nil {
		return fmt.Errorf("access: sign out: %w", err)
	}
	return nil
}

// MaxLiveKeys is the most unrevoked keys an account may hold.
func (g *Gate) MaxLiveKeys() int { return g.cfg.MaxLiveKeys }

// AccountKeys lists an account's keys, revoked ones included, by ID.
func (g *Gate) AccountKeys(ctx context.Context, a store.Account) ([]store.Key, error) {
	keys, err := g.st.ListKeys(ctx, a.ID)
	if err != nil {
		return nil, fmt.Errorf("access: keys: %w", err)
	}
	return keys, nil
}

// NewAccountKey issues a live key in an account, up to Config.MaxLiveKeys
// (ErrKeyLimit past it) and NewKeysPerDay a UTC day (a *MailLimitError
// past it: each key is announced by mail).
func (g *Gate) NewAccountKey(ctx context.Context, a store.Account, name string) (Issued, error) {
	now := g.now().UTC()
	day := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
	ok, err := g.st.TakeSlot(ctx, store.Counter{Purpose: "new-key", Subject: g.hmacOf(fmt.Sprintf("account:%d", a.ID)), Window: day, Expires: day.AddDate(0, 0, 1)}, NewKeysPerDay)
	if err != nil {
		return Issued{}, fmt.Errorf("access: new key: %w", err)
	}
	if !ok {
		return Issued{}, &MailLimitError{PerEmail: true, Reset: day.AddDate(0, 0, 1)}
	}
	secret, prefix, hash, err := NewKey(KindLive)
	if err != nil {
		return Issued{}, fmt.Errorf("access: new key: %w", err)
	}
	k, err := g.st.CreateKeyLimited(ctx, store.Key{AccountID: a.ID, Prefix: prefix, Hash: hash, Kind: KindLive, API: API, Name: name, CreatedAt: g.now().UTC()}, g.cfg.MaxLiveKeys)
	if errors.Is(err, store.ErrKeyLimit) {
		return Issued{}, ErrKeyLimit
	}
	if err != nil {
		return Issued{}, fmt.Errorf("access: new key: %w", err)
	}
	return Issued{Secret: secret, Key: k, Account: a}, nil
}

// RevokeAccountKey revokes one of an account's keys; ErrNoKey when the
// account has no key of that ID. Revoking twice keeps the first time.
func (g *Gate) RevokeAccountKey(ctx context.Context, a store.Account, keyID int64) error {
	k, err := g.st.Key(ctx, keyID)
	if errors.Is(err, store.ErrNotFound) || (err == nil && k.AccountID != a.ID) {
		return ErrNoKey
	}
	if err != nil {
		return fmt.Errorf("access: revoke: %w", err)
	}
	if err := g.st.RevokeKey(ctx, keyID, g.now().UTC()); err != nil {
		return fmt.Errorf("access: revoke: %w", err)
	}
	// This instance refuses the key at once; others within KeyCacheTTL.
	g.keys.forget(0, keyID)
	return nil
}

// AccountUsage is an account's count in its current period.
type AccountUsage struct {
	Used      int64
	Allowance int64     // the plan's allowance, or the Pay-as-you-go cap
	Reset     time.Time // when the period ends
}

// Usage returns an account's usage in its current period.
func (g *Gate) Usage(ctx context.Context, a store.Account) (AccountUsage, error) {
	w := g.window(a, g.now())
	used, err := g.st.Used(ctx, a.ID, w.start)
	if err != nil {
		return AccountUsage{}, fmt.Errorf("access: usage: %w", err)
	}
	return AccountUsage{Used: used, Allowance: w.allowance, Reset: w.reset}, nil
}

// PlanRequestsPerDay caps an account's requests for a plan per UTC day;
// each one mails the operator.
const PlanRequestsPerDay = 3

// NewKeysPerDay caps the keys an account makes on the account page per
// UTC day. Revoking a key frees its place among the live keys, so
// without it a signed-in loop of make and revoke wrote a key row and
// queued a notice mail per turn, as fast as it could post.
const NewKeysPerDay = 10

// MaxRequestedCap bounds the monthly cap one can ask for, in requests.
const MaxRequestedCap = 1_000_000_000

// RequestPlan records an account's request for Pay as you go (from Free)
// or for a higher monthly cap (on Pay as you go; monthlyCap 0 asks for the
// default). The operator grants it by hand with textanalysis keys plan,
// and the caller tells the operator. ErrMailLimit past PlanRequestsPerDay.
func (g *Gate) RequestPlan(ctx context.Context, a store.Account, monthlyCap int64) (store.PlanRequest, error) {
	if monthlyCap < 0 || monthlyCap > MaxRequestedCap {
		return store.PlanRequest{}, fmt.Errorf("access: monthly cap must be between 0 and %d", MaxRequestedCap)
	}
	now := g.now().UTC()
	day := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
	ok, err := g.st.TakeSlot(ctx, store.Counter{Purpose: "plan-request", Subject: g.hmacOf(fmt.Sprintf("account:%d", a.ID)), Window: day, Expires: day.AddDate(0, 0, 1)}, PlanRequestsPerDay)
	if err != nil {
		return store.PlanRequest{}, fmt.Errorf("access: plan request: %w", err)
	}
	if !ok {
		return store.PlanRequest{}, &MailLimitError{PerEmail: true, Reset: day.AddDate(0, 0, 1)}
	}
	r, err := g.st.CreatePlanRequest(ctx, store.PlanRequest{AccountID: a.ID, Plan: store.PlanPayg, MonthlyCap: monthlyCap, CreatedAt: now})
	if err != nil {
		return store.PlanRequest{}, fmt.Errorf("access: plan request: %w", err)
	}
	return r, nil
}

// PlanRequests lists an account's requests for a plan, oldest first.
func (g *Gate) PlanRequests(ctx context.Context, a store.Account) ([]store.PlanRequest, error) {
	list, err := g.st.ListPlanRequests(ctx, a.ID)
	if err != nil {
		return nil, fmt.Errorf("access: plan requests: %w", err)
	}
	return list, nil
}

// PaygCap is the monthly cap of a Pay-as-you-go account: its own, or the
// server's default.
func (g *Gate) PaygCap(a store.Account) int64 {
	if a.MonthlyCap > 0 {
		return a.MonthlyCap
	}
	return g.cfg.PaygCap
}
