package access

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"net/http"
	"strings"
	"sync"
	"time"

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
	// KeyCacheTTL is how long a key, its account and plan are remembered
	// in this process: a revoked key or a changed plan takes effect on
	// every instance within it. 0 means DefaultKeyCacheTTL; negative, no
	// cache (a store read per request).
	KeyCacheTTL time.Duration
	// BatchWait is how long the batcher waits for more requests before it
	// commits their counts, on top of the natural batch (the requests that
	// arrived while the previous commit ran); 0 means it lets the other
	// goroutines run while more keep coming, negative no wait.
	BatchWait time.Duration
	// RedisURL (redis:// or rediss://) shares the per-second rate limits
	// of all instances through that Redis; "" keeps them per process. When
	// Redis fails, the gate falls back to per-process limits (fail open)
	// and logs it, at most once per RedisLogInterval.
	RedisURL string
	// Logger receives the gate's own events (Redis down or back); nil
	// discards.
	Logger *slog.Logger
}

// A Gate authenticates keys, applies rate limits and counts requests.
type Gate struct {
	cfg    Config
	st     store.Store
	now    func() time.Time
	secret []byte

	keys   *keyCache
	meter  *meter
	local  *localLimits
	shared *sharedLimits // nil without Redis

	// counts are the last counts this process saw per account, for the
	// X-Gw-Remaining of a request refused by the rate limit, which must
	// not cost a store read.
	countsMu sync.Mutex
	counts   map[int64]knownCount
}

type knownCount struct {
	period time.Time
	count  int64
}

// maxKnownCounts bounds Gate.counts; past it the map starts afresh.
const maxKnownCounts = 100_000

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
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	ttl := cfg.KeyCacheTTL
	if ttl == 0 {
		ttl = DefaultKeyCacheTTL
	}
	g := &Gate{
		cfg: cfg, st: cfg.Store, now: cfg.Now, secret: secret,
		keys:   newKeyCache(cfg.Store, ttl, cfg.Now),
		meter:  newMeter(cfg.Store, cfg.BatchWait),
		local:  newLocalLimits(),
		counts: map[int64]knownCount{},
	}
	if cfg.RedisURL != "" {
		if g.shared, err = newSharedLimits(cfg.RedisURL, g.local, cfg.Logger); err != nil {
			return nil, err
		}
	}
	return g, nil
}

// Close releases the gate's connection to Redis, if any. The store is the
// caller's to close.
func (g *Gate) Close() error {
	if g.shared != nil {
		return g.shared.close()
	}
	return nil
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
// the account's allowance. An error means the store failed. It is Begin
// and Wait in one.
func (g *Gate) Admit(ctx context.Context, key string) (Decision, error) {
	adm, err := g.Begin(ctx, key)
	if err != nil {
		return Decision{}, err
	}
	return adm.Wait()
}

// An Admission is a metered request on its way through the gate: its key
// and rate limit are checked, and its count is being committed (see
// [Gate.Begin]).
type Admission struct {
	g      *Gate
	d      Decision
	w      window
	t      ticket
	queued bool // false when d is final
	waited bool
	err    error
}

// Begin starts deciding a metered request, as Admit does, without waiting
// for its count to be committed: the caller may do the request's work
// meanwhile, and must not answer before [Admission.Wait] says it was
// admitted. Refusals that need no count (a bad key, the rate limit, an
// allowance this process knows is used up) are final at once (see
// [Admission.Final]). The rate limit comes before any store call, so a
// flood of refused requests costs the database nothing. An error means
// the store failed.
func (g *Gate) Begin(ctx context.Context, key string) (*Admission, error) {
	d, w, e, err := g.authenticate(ctx, key)
	if err != nil {
		return nil, err
	}
	adm := &Admission{g: g, d: d, w: w}
	if d.Refused() {
		return adm, nil
	}
	if ok, wait := g.allow(ctx, d.Account); !ok {
		used, err := g.knownUsed(ctx, d.Account.ID, w.start)
		if err != nil {
			return nil, err
		}
		adm.d.Remaining = max(w.allowance-used, 0)
		adm.d.Status, adm.d.Code, adm.d.Action, adm.d.RetryAfter = http.StatusTooManyRequests, "rate_limited", "wait", wait
		adm.d.RetryAt = g.now().Add(wait)
		adm.d.Detail = fmt.Sprintf("Too many requests per second for the %s plan; wait %d s and try again.", d.Account.Plan, ceilSeconds(wait))
		return adm, nil
	}
	g.touch(ctx, e)
	g.meter.enqueue(&adm.t, ctx, d.Account.ID, w.start, w.allowance, d.Account.Plan)
	adm.queued = true
	if g.usedUp(d.Account.ID, w.start, w.allowance) {
		// Most likely a refusal: decide it before any work is done.
		adm.Wait()
	}
	return adm, nil
}

// Final returns the decision when it is known without waiting: a refusal
// before any count, or a count already waited for.
func (a *Admission) Final() (Decision, bool) {
	return a.d, !a.queued || a.waited
}

// Wait waits until the request's count is durable and returns the
// decision: admitted, or refused because the allowance is used up. An
// error means the store failed. Calling it again returns the same.
func (a *Admission) Wait() (Decision, error) {
	if !a.queued || a.waited {
		return a.d, a.err
	}
	a.waited = true
	g, d, w := a.g, &a.d, a.w
	count, ok, err := a.t.wait()
	if err != nil {
		a.d, a.err = Decision{}, err
		return a.d, a.err
	}
	g.noteCount(d.Account.ID, w.start, count)
	d.Remaining = max(w.allowance-count, 0)
	if ok {
		return *d, nil
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
	return *d, nil
}

// Peek reports a key's allowance without counting, for responses that are
// not metered but presented a key. A refusal (bad key) is returned as is.
func (g *Gate) Peek(ctx context.Context, key string) (Decision, error) {
	d, w, _, err := g.authenticate(ctx, key)
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

// PeekKnown is Peek with the count this instance last saw (one store read
// only when it has seen none), as a rate-limited refusal reports it: for
// answers given under pressure, such as the server's 503 when it is busy,
// which must not add a store round trip to every refusal.
func (g *Gate) PeekKnown(ctx context.Context, key string) (Decision, error) {
	d, w, _, err := g.authenticate(ctx, key)
	if err != nil || d.Refused() {
		return d, err
	}
	used, err := g.knownUsed(ctx, d.Account.ID, w.start)
	if err != nil {
		return Decision{}, err
	}
	d.Remaining = max(w.allowance-used, 0)
	return d, nil
}

func (g *Gate) authenticate(ctx context.Context, key string) (Decision, window, *keyEntry, error) {
	refuse := func(code, detail string) (Decision, window, *keyEntry, error) {
		return Decision{Status: http.StatusUnauthorized, Code: code, Detail: detail}, window{}, nil, nil
	}
	if key == "" {
		return refuse("missing_key", "An API key is required: send it in the X-API-Key header or as Authorization: Bearer <key>.")
	}
	if !ours(key) {
		return refuse("invalid_key", "This is not a key of this API. Keys start with ta_live_, ta_trial_ or ta_sbx_.")
	}
	e, err := g.keys.get(ctx, key)
	if errors.Is(err, store.ErrNotFound) {
		return refuse("invalid_key", "Unknown API key.")
	}
	var flood *UnknownKeysError
	if errors.As(err, &flood) {
		return Decision{Status: http.StatusTooManyRequests, Code: "too_many_unknown_keys", Action: "wait",
			Detail:     "Too many unknown API keys came from your address; wait a moment, then send a valid key.",
			RetryAfter: flood.RetryAfter, RetryAt: g.now().Add(flood.RetryAfter)}, window{}, nil, nil
	}
	if err != nil {
		return Decision{}, window{}, nil, err
	}
	k, a := e.key, e.account
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
		return d, w, e, nil
	}
	return d, w, e, nil
}

// allow applies the plan's per-second rate limit of an account: shared
// through Redis when configured, else (or while Redis fails) kept in this
// process.
func (g *Gate) allow(ctx context.Context, a store.Account) (bool, time.Duration) {
	r := g.cfg.Rates[a.Plan]
	if r.PerSecond <= 0 {
		return true, 0
	}
	if g.shared != nil {
		return g.shared.allow(ctx, a, r, g.now())
	}
	return g.local.allow(a, r, g.now())
}

// touch records the key's last use, for the account page: at most once
// per KeyTouchInterval per key and process (the cache remembers when), so
// that a busy key costs one write a minute, not one a request. A failed
// write must not refuse the request; the next interval tries again.
func (g *Gate) touch(ctx context.Context, e *keyEntry) {
	now := g.now()
	last := e.touched.Load()
	if last != 0 && now.Sub(time.Unix(0, last)) < store.KeyTouchInterval {
		return
	}
	if !e.touched.CompareAndSwap(last, now.UnixNano()) {
		return // another request of this key writes it
	}
	_ = g.st.TouchKey(ctx, e.key.ID, now.UTC())
}

// noteCount remembers an account's count as the batcher reported it.
func (g *Gate) noteCount(accountID int64, period time.Time, count int64) {
	g.countsMu.Lock()
	defer g.countsMu.Unlock()
	if len(g.counts) >= maxKnownCounts {
		g.counts = map[int64]knownCount{}
	}
	if c, ok := g.counts[accountID]; !ok || !c.period.Equal(period) || c.count < count {
		g.counts[accountID] = knownCount{period, count}
	}
}

// usedUp reports whether this process saw the account's allowance used up
// in this period: counts only grow within a period, so the next count
// will be refused unless the allowance was raised.
func (g *Gate) usedUp(accountID int64, period time.Time, allowance int64) bool {
	g.countsMu.Lock()
	defer g.countsMu.Unlock()
	c, ok := g.counts[accountID]
	return ok && c.period.Equal(period) && c.count >= allowance
}

// knownUsed is the count this process last saw for an account's period,
// read from the store only when it has seen none. Other instances' counts
// since then are missing: a refused request's X-Gw-Remaining may be a
// little high, never the allowance itself.
func (g *Gate) knownUsed(ctx context.Context, accountID int64, period time.Time) (int64, error) {
	g.countsMu.Lock()
	c, ok := g.counts[accountID]
	g.countsMu.Unlock()
	if ok && c.period.Equal(period) {
		return c.count, nil
	}
	used, err := g.st.Used(ctx, accountID, period)
	if err != nil {
		return 0, err
	}
	g.noteCount(accountID, period, used)
	return used, nil
}

// Known reports whether key is a key of this API that is known and not
// revoked, from the key cache (see KeyCacheTTL). An error means the store
// failed.
func (g *Gate) Known(ctx context.Context, key string) (bool, error) {
	if !ours(key) {
		return false, nil
	}
	e, err := g.keys.get(ctx, key)
	if errors.Is(err, store.ErrNotFound) || errors.Is(err, ErrUnknownKeys) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return e.key.API == API && !e.key.Revoked(), nil
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
