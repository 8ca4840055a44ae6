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
	// ErrBadToken: a claim or confirmation link is wrong or expired.
	ErrBadToken = errors.New("access: invalid or expired link")
)

// An Issued key is shown to its holder once; only Key.Hash is kept.
type Issued struct {
	Secret  string // the key itself
	Key     store.Key
	Account store.Account
}

// NormalizeEmail checks an address and returns it lower-cased, without a
// display name.
func NormalizeEmail(s string) (string, error) {
	s = strings.TrimSpace(s)
	if s == "" || len(s) > 254 {
		return "", ErrBadEmail
	}
	addr, err := mail.ParseAddress(s)
	if err != nil || addr.Address != s || !strings.Contains(addr.Address[strings.LastIndexByte(addr.Address, '@'):], ".") {
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

// IssueTrial makes a trial key for a client address (its HMAC is what the
// store sees), at most Config.TrialsPerAddress per UTC day.
func (g *Gate) IssueTrial(ctx context.Context, clientAddr string) (Issued, error) {
	now := g.now().UTC()
	day := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
	ok, err := g.st.TakeTrialSlot(ctx, g.AddressHMAC(clientAddr), day, g.cfg.TrialsPerAddress)
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

// SignUp gives an e-mail address a Free key. A new address gets a new
// account and the key is shown at once (existed false). An address that
// already has an account gets a new key too, but the caller must only
// send it to the address (existed true): showing it would hand anyone a
// key to someone else's allowance.
func (g *Gate) SignUp(ctx context.Context, email string) (iss Issued, existed bool, err error) {
	email, err = NormalizeEmail(email)
	if err != nil {
		return Issued{}, false, err
	}
	a, err := g.st.AccountByEmail(ctx, email)
	switch {
	case err == nil:
		existed = true
	case errors.Is(err, store.ErrNotFound):
		a, err = g.st.CreateAccount(ctx, store.Account{Email: email, Plan: store.PlanFree, CreatedAt: g.now().UTC()})
		if errors.Is(err, store.ErrExists) {
			// Another request signed the same address up just now.
			a, err = g.st.AccountByEmail(ctx, email)
			existed = true
		}
		if err != nil {
			return Issued{}, false, fmt.Errorf("access: account: %w", err)
		}
	default:
		return Issued{}, false, fmt.Errorf("access: account: %w", err)
	}
	iss, err = g.IssueKey(ctx, a, KindLive, "developer site")
	return iss, existed, err
}

// StartClaim checks a claim link and records the e-mail address to
// confirm; it returns the token for the confirmation link sent there.
func (g *Gate) StartClaim(ctx context.Context, keyID int64, sig, email string) (string, error) {
	if !g.CheckClaim(keyID, sig) {
		return "", ErrBadToken
	}
	email, err := NormalizeEmail(email)
	if err != nil {
		return "", err
	}
	k, err := g.keyByID(ctx, keyID)
	if err != nil {
		return "", err
	}
	a, err := g.st.Account(ctx, k.AccountID)
	if err != nil {
		return "", fmt.Errorf("access: claim: %w", err)
	}
	if a.Plan != store.PlanTrial {
		return "", fmt.Errorf("%w: this key was claimed already", ErrBadToken)
	}
	token := randomToken()
	err = g.st.CreateToken(ctx, store.Token{
		Hash: HashKey(token), Purpose: "confirm", AccountID: k.AccountID, KeyID: k.ID, Email: email,
		ExpiresAt: g.now().UTC().Add(48 * time.Hour),
	})
	if err != nil {
		return "", fmt.Errorf("access: claim: %w", err)
	}
	return token, nil
}

// ConfirmClaim completes a claim from its confirmation link: the key moves
// into the account of the confirmed address (made on the Free plan when
// new) and keeps working unchanged.
func (g *Gate) ConfirmClaim(ctx context.Context, token string) (store.Account, error) {
	t, err := g.st.Token(ctx, HashKey(token), "confirm", g.now().UTC())
	if errors.Is(err, store.ErrNotFound) {
		return store.Account{}, ErrBadToken
	}
	if err != nil {
		return store.Account{}, fmt.Errorf("access: confirm: %w", err)
	}
	a, err := g.st.AccountByEmail(ctx, t.Email)
	if errors.Is(err, store.ErrNotFound) {
		a, err = g.st.CreateAccount(ctx, store.Account{Email: t.Email, Plan: store.PlanFree, EmailConfirmed: true, CreatedAt: g.now().UTC()})
		if errors.Is(err, store.ErrExists) {
			a, err = g.st.AccountByEmail(ctx, t.Email)
		}
	}
	if err != nil {
		return store.Account{}, fmt.Errorf("access: confirm: %w", err)
	}
	if !a.EmailConfirmed {
		a.EmailConfirmed = true
		if err := g.st.UpdateAccount(ctx, a); err != nil {
			return store.Account{}, fmt.Errorf("access: confirm: %w", err)
		}
	}
	if err := g.st.MoveKey(ctx, t.KeyID, a.ID); err != nil {
		return store.Account{}, fmt.Errorf("access: confirm: %w", err)
	}
	// The old trial account keeps no key; end it so it can't be claimed
	// twice.
	if old, err := g.st.Account(ctx, t.AccountID); err == nil && old.Plan == store.PlanTrial {
		old.Plan = store.PlanFree
		old.TrialExpiresAt = time.Time{}
		_ = g.st.UpdateAccount(ctx, old)
	}
	if err := g.st.DeleteToken(ctx, t.Hash); err != nil {
		return store.Account{}, fmt.Errorf("access: confirm: %w", err)
	}
	return a, nil
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
	Month     string  `json:"month"` // YYYY-MM
	AccountID int64   `json:"account_id"`
	Email     string  `json:"email"`
	Plan      string  `json:"plan"`
	Requests  int64   `json:"requests"`
	AmountUSD float64 `json:"amount_usd"` // Pay as you go only, rounded to the cent
}

// Invoice lists every account's usage in the calendar month of month.
// Only Pay as you go is charged: 0.0001 USD a request, the month's total
// rounded to the cent.
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
	}
	out := make([]InvoiceLine, 0, len(order))
	for _, id := range order {
		line := byAccount[id]
		if line.Plan == string(store.PlanPayg) {
			line.AmountUSD = math.Round(float64(line.Requests)*PricePerRequestUSD*100) / 100
		}
		out = append(out, *line)
	}
	return out, nil
}
