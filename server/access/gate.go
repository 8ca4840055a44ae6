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
	"net/http"
	"strings"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"github.com/textanalysis/go-textanalysis/server/store"
)

// Config configures a Gate. Zero fields mean the documented defaults.
type Config struct {
	// Store keeps accounts, keys and counts. Required.
	Store store.Store
	// Now tells the time; nil means time.Now. Tests move it.
	Now func() time.Time
	// TrialAllowance, TrialDuration, FreeAllowance, SandboxAllowance and
	// PaygCap: 0 means DefaultTrialAllowance and so on.
	TrialAllowance   int64
	TrialDuration    time.Duration
	FreeAllowance    int64
	SandboxAllowance int64
	PaygCap          int64
	// Rates override DefaultRates per plan; a plan not listed keeps its
	// default.
	Rates map[store.Plan]Rate
	// TrialsPerAddress caps trial keys per client address per UTC day; 0
	// means DefaultTrialsPerAddress.
	TrialsPerAddress int
	// MailsPerClientHour, MailsPerClientDay and MailsPerAddressDay cap the
	// developer site's mails (see DefaultMailsPerClientHour); 0 means the
	// default.
	MailsPerClientHour int
	MailsPerClientDay  int
	MailsPerAddressDay int
	// MaxLiveKeys caps an account's unrevoked keys made on the developer
	// site or moved there by a claim; 0 means DefaultMaxLiveKeys. The
	// operator's keys create ignores it.
	MaxLiveKeys int
	// DeveloperURL is the developer site's public address, for claim and
	// upgrade links; "" leaves the links relative ("/developer").
	DeveloperURL string
}

// A Gate authenticates keys, applies rate limits and counts requests.
type Gate struct {
	cfg    Config
	st     store.Store
	now    func() time.Time
	secret []byte

	mu       sync.Mutex
	limiters map[int64]*limiterEntry
	lastGC   time.Time
}

type limiterEntry struct {
	lim  *rate.Limiter
	plan store.Plan
	seen time.Time
}

// New builds a Gate; it reads (or creates) the server's secret in the store.
func New(ctx context.Context, cfg Config) (*Gate, error) {
	if cfg.Store == nil {
		return nil, errors.New("access: Config.Store is required")
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.TrialAllowance <= 0 {
		cfg.TrialAllowance = DefaultTrialAllowance
	}
	if cfg.TrialDuration <= 0 {
		cfg.TrialDuration = DefaultTrialDuration
	}
	if cfg.FreeAllowance <= 0 {
		cfg.FreeAllowance = DefaultFreeAllowance
	}
	if cfg.SandboxAllowance <= 0 {
		cfg.SandboxAllowance = DefaultSandboxAllowance
	}
	if cfg.PaygCap <= 0 {
		cfg.PaygCap = DefaultPaygCap
	}
	for _, f := range []struct {
		v   *int
		def int
	}{
		{&cfg.TrialsPerAddress, DefaultTrialsPerAddress},
		{&cfg.MailsPerClientHour, DefaultMailsPerClientHour},
		{&cfg.MailsPerClientDay, DefaultMailsPerClientDay},
		{&cfg.MailsPerAddressDay, DefaultMailsPerAddressDay},
		{&cfg.MaxLiveKeys, DefaultMaxLiveKeys},
	} {
		if *f.v <= 0 {
			*f.v = f.def
		}
	}
	rates := map[store.Plan]Rate{}
	for p, r := range DefaultRates {
		rates[p] = r
	}
	for p, r := range cfg.Rates {
		rates[p] = r
	}
	cfg.Rates = rates
	cfg.DeveloperURL = strings.TrimRight(cfg.DeveloperURL, "/")
	if cfg.DeveloperURL == "" {
		cfg.DeveloperURL = "/developer"
	}
	secret, err := cfg.Store.Secret(ctx, "hmac", func() ([]byte, error) {
		b := make([]byte, 32)
		_, err := rand.Read(b)
		return b, err
	})
	if err != nil {
		return nil, fmt.Errorf("access: server secret: %w", err)
	}
	return &Gate{cfg: cfg, st: cfg.Store, now: cfg.Now, secret: secret, limiters: map[int64]*limiterEntry{}}, nil
}

// Store returns the store the gate counts in.
func (g *Gate) Store() store.Store { return g.st }

// A Decision is the gate's answer for one request: admitted (Status 0) or
// refused with a status and a body's worth of reasons, and the allowance
// after this request was counted.
type Decision struct {
	Status int    // 0 when admitted; else 401 or 429
	Code   string // machine code of a refusal
	Detail string // a sentence for a person
	Action string // on 429: "wait", "upgrade" or "claim"
	// ClaimURL and UpgradeURL point where Action says to go.
	ClaimURL   string
	UpgradeURL string
	RetryAfter time.Duration
	// RetryAt is when the next request will be allowed, for a rate_limited
	// refusal; zero otherwise (Reset is the allowance's refill).
	RetryAt time.Time
	// Metered says Remaining and Reset are known (a valid key's account).
	Metered   bool
	Remaining int64
	Reset     time.Time
	Account   store.Account
	Key       store.Key
}

// Refused reports whether the request must be answered with Status.
func (d Decision) Refused() bool { return d.Status != 0 }

// Admit decides one metered request presenting key ("" when none):
// authenticate, apply the rate limit (not metered), then count it against
// the account's allowance. An error means the store failed.
func (g *Gate) Admit(ctx context.Context, key string) (Decision, error) {
	d, w, err := g.authenticate(ctx, key)
	if err != nil || d.Refused() {
		return d, err
	}
	// The key's last use, for the account page: written only when the
	// stored time is a KeyTouchInterval old, so that a busy key costs one
	// write a minute, not one a request. A failed write must not refuse
	// the request; the next one tries again.
	if now := g.now(); now.Sub(d.Key.LastUsedAt) >= store.KeyTouchInterval {
		_ = g.st.TouchKey(ctx, d.Key.ID, now.UTC())
	}
	if ok, wait := g.allow(d.Account); !ok {
		used, err := g.st.Used(ctx, d.Account.ID, w.start)
		if err != nil {
			return Decision{}, err
		}
		d.Remaining = max(w.allowance-used, 0)
		d.Status, d.Code, d.Action, d.RetryAfter = http.StatusTooManyRequests, "rate_limited", "wait", wait
		d.RetryAt = g.now().Add(wait)
		d.Detail = fmt.Sprintf("Too many requests per second for the %s plan; wait %d s and try again.", d.Account.Plan, ceilSeconds(wait))
		return d, nil
	}
	count, ok, err := g.st.Consume(ctx, d.Account.ID, w.start, w.allowance)
	if err != nil {
		return Decision{}, err
	}
	d.Remaining = max(w.allowance-count, 0)
	if ok {
		return d, nil
	}
	d.Status, d.Code = http.StatusTooManyRequests, "allowance_exhausted"
	switch d.Account.Plan {
	case store.PlanTrial:
		d.Action, d.ClaimURL = "claim", g.ClaimURL(d.Key)
		d.Detail = fmt.Sprintf("This trial key has used its %d requests. Claim it with an e-mail address to move it to the Free plan; the key stays the same.", w.allowance)
	case store.PlanFree:
		d.Action, d.UpgradeURL = "wait", g.AccountURL()
		d.RetryAfter = w.reset.Sub(g.now())
		d.Detail = fmt.Sprintf("The Free plan's %d requests for this month are used up. Wait for the reset on %s, or ask for Pay as you go on the account page at upgrade_url.", w.allowance, w.reset.Format(time.RFC3339))
	case store.PlanPayg:
		d.Action, d.UpgradeURL = "upgrade", g.AccountURL()
		d.RetryAfter = w.reset.Sub(g.now())
		d.Detail = fmt.Sprintf("This account reached its monthly spending cap of %d requests. Ask for a higher cap on the account page at upgrade_url, or wait for the reset on %s.", w.allowance, w.reset.Format(time.RFC3339))
	default:
		d.Action = "wait"
		d.RetryAfter = w.reset.Sub(g.now())
		d.Detail = fmt.Sprintf("The console's sandbox allowance of %d requests is used up until %s. Get a free key of your own at the developer site.", w.allowance, w.reset.Format(time.RFC3339))
	}
	return d, nil
}

// Peek reports a key's allowance without counting, for responses that are
// not metered but presented a key. A refusal (bad key) is returned as is.
func (g *Gate) Peek(ctx context.Context, key string) (Decision, error) {
	d, w, err := g.authenticate(ctx, key)
	if err != nil || d.Refused() {
		return d, err
	}
	used, err := g.st.Used(ctx, d.Account.ID, w.start)
	if err != nil {
		return Decision{}, err
	}
	d.Remaining = max(w.allowance-used, 0)
	return d, nil
}

func (g *Gate) authenticate(ctx context.Context, key string) (Decision, window, error) {
	refuse := func(code, detail string) (Decision, window, error) {
		return Decision{Status: http.StatusUnauthorized, Code: code, Detail: detail}, window{}, nil
	}
	if key == "" {
		return refuse("missing_key", "An API key is required: send it in the X-API-Key header or as Authorization: Bearer <key>.")
	}
	if !ours(key) {
		return refuse("invalid_key", "This is not a key of this API. Keys start with ta_live_, ta_trial_ or ta_sbx_.")
	}
	k, a, err := g.st.KeyByHash(ctx, HashKey(key))
	if errors.Is(err, store.ErrNotFound) {
		return refuse("invalid_key", "Unknown API key.")
	}
	if err != nil {
		return Decision{}, window{}, err
	}
	if k.API != API {
		return refuse("invalid_key", "This key was issued for another API.")
	}
	if k.Revoked() {
		return refuse("revoked_key", "This API key was revoked.")
	}
	now := g.now()
	w := g.window(a, now)
	d := Decision{Metered: true, Reset: w.reset, Account: a, Key: k}
	if a.Plan == store.PlanTrial && !now.Before(a.TrialExpiresAt) {
		d.Status, d.Code, d.ClaimURL = http.StatusUnauthorized, "trial_expired", g.ClaimURL(k)
		d.Detail = "This trial key expired. Claim it with an e-mail address at claim_url to keep using it on the Free plan."
		d.Metered = false
		return d, w, nil
	}
	return d, w, nil
}

// allow applies the plan's per-second rate limit of an account, kept in
// this process.
func (g *Gate) allow(a store.Account) (bool, time.Duration) {
	r := g.cfg.Rates[a.Plan]
	if r.PerSecond <= 0 {
		return true, 0
	}
	now := g.now()
	g.mu.Lock()
	e := g.limiters[a.ID]
	if e == nil || e.plan != a.Plan {
		e = &limiterEntry{lim: rate.NewLimiter(rate.Limit(r.PerSecond), max(r.Burst, 1)), plan: a.Plan}
		g.limiters[a.ID] = e
	}
	e.seen = now
	// Forget idle accounts now and then, so the map stays the size of the
	// active set.
	if now.Sub(g.lastGC) > time.Minute {
		for id, e := range g.limiters {
			if now.Sub(e.seen) > 10*time.Minute {
				delete(g.limiters, id)
			}
		}
		g.lastGC = now
	}
	g.mu.Unlock()
	res := e.lim.ReserveN(now, 1)
	if !res.OK() {
		return false, time.Second
	}
	if delay := res.DelayFrom(now); delay > 0 {
		res.CancelAt(now)
		return false, delay
	}
	return true, 0
}

func ceilSeconds(d time.Duration) int64 {
	return int64(math.Ceil(d.Seconds()))
}

// RetryAfterSeconds is d rounded up to whole seconds, at least 1.
func RetryAfterSeconds(d time.Duration) int64 {
	return max(ceilSeconds(d), 1)
}

// ClaimURL is the page where the holder of a trial key claims it. Its
// token is an HMAC of the key's ID, so it needs no storage and can be
// given again in every refusal.
func (g *Gate) ClaimURL(k store.Key) string {
	return fmt.Sprintf("%s/claim?key=%d&sig=%s", g.cfg.DeveloperURL, k.ID, g.claimSig(k.ID))
}

func (g *Gate) claimSig(keyID int64) string {
	m := hmac.New(sha256.New, g.secret)
	fmt.Fprintf(m, "claim:%d", keyID)
	return hex.EncodeToString(m.Sum(nil))[:32]
}

// CheckClaim reports whether sig is the claim signature of a key.
func (g *Gate) CheckClaim(keyID int64, sig string) bool {
	return hmac.Equal([]byte(g.claimSig(keyID)), []byte(sig))
}

// AccountURL is the account page, where a holder signs in to see keys and
// usage and asks for Pay as you go or a higher cap; 429 refusals point
// there.
func (g *Gate) AccountURL() string { return g.cfg.DeveloperURL + "/account" }

// AddressHMAC keys the per-address limits without storing addresses. It
// counts addr as [ClientKey] does: an IPv6 address by its /64.
func (g *Gate) AddressHMAC(addr string) string {
	return g.hmacOf("addr:" + ClientKey(addr))
}

func (g *Gate) hmacOf(s string) string {
	m := hmac.New(sha256.New, g.secret)
	m.Write([]byte(s))
	return hex.EncodeToString(m.Sum(nil))
}
