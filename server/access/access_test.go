package access

import (
	"context"
	"net/http"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/textanalysis/go-textanalysis/server/store"
	"github.com/textanalysis/go-textanalysis/server/store/sqlite"
)

// clock is a test clock the gate reads.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

func newGate(t *testing.T, cfg Config) (*Gate, *clock) {
	t.Helper()
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "test.db"))
	require.NoError(t, err)
	t.Cleanup(func() { st.Close() })
	clk := &clock{t: time.Date(2026, 3, 30, 12, 0, 0, 0, time.UTC)}
	cfg.Store = st
	cfg.Now = clk.now
	if cfg.Rates == nil {
		// No per-second limit unless a test asks for one.
		cfg.Rates = map[store.Plan]Rate{store.PlanTrial: {}, store.PlanFree: {}, store.PlanPayg: {}, store.PlanSandbox: {}}
	}
	g, err := New(context.Background(), cfg)
	require.NoError(t, err)
	return g, clk
}

func account(t *testing.T, g *Gate, a store.Account) Issued {
	t.Helper()
	if a.CreatedAt.IsZero() {
		a.CreatedAt = g.now()
	}
	acct, err := g.Store().CreateAccount(context.Background(), a)
	require.NoError(t, err)
	kind := KindLive
	if a.Plan == store.PlanTrial {
		kind = KindTrial
	}
	iss, err := g.IssueKey(context.Background(), acct, kind, "")
	require.NoError(t, err)
	return iss
}

func TestKeys(t *testing.T) {
	key, prefix, hash, err := NewKey(KindLive)
	require.NoError(t, err)
	assert.Regexp(t, `^ta_live_[0-9A-Za-z]{32}$`, key)
	assert.Equal(t, key[:len("ta_live_")+6], prefix)
	assert.Equal(t, HashKey(key), hash)
	assert.Len(t, hash, 64)
	assert.True(t, ours(key))
	other, _, _, err := NewKey(KindLive)
	require.NoError(t, err)
	assert.NotEqual(t, key, other)
	for _, bad := range []string{"", "sk_live_abc", "ta_live_short", "ta_gold_" + key[8:], key + "x", key[:39] + "!"} {
		assert.False(t, ours(bad), bad)
	}
}

func TestAdmitRefusals(t *testing.T) {
	g, _ := newGate(t, Config{})
	ctx := context.Background()
	live := account(t, g, store.Account{Plan: store.PlanFree, Email: "a@example.com"})
	revoked := account(t, g, store.Account{Plan: store.PlanFree, Email: "b@example.com"})
	require.NoError(t, g.Store().RevokeKey(ctx, revoked.Key.ID, g.now()))
	foreign, _, _, _ := NewKey(KindLive)
	otherAPI := account(t, g, store.Account{Plan: store.PlanFree, Email: "c@example.com"})
	// A key the store knows but that was issued for another API.
	secret, prefix, hash, _ := NewKey(KindLive)
	_, err := g.Store().CreateKey(ctx, store.Key{AccountID: otherAPI.Account.ID, Prefix: prefix, Hash: hash, Kind: KindLive, API: "weather", CreatedAt: g.now()})
	require.NoError(t, err)

	tests := []struct {
		name, key, code string
	}{
		{"missing", "", "missing_key"},
		{"not our shape", "sk_test_123", "invalid_key"},
		{"unknown", foreign, "invalid_key"},
		{"revoked", revoked.Secret, "revoked_key"},
		{"other API", secret, "invalid_key"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := g.Admit(ctx, tt.key)
			require.NoError(t, err)
			assert.Equal(t, http.StatusUnauthorized, d.Status)
			assert.Equal(t, tt.code, d.Code)
			assert.NotEmpty(t, d.Detail)
			assert.False(t, d.Metered)
		})
	}
	d, err := g.Admit(ctx, live.Secret)
	require.NoError(t, err)
	assert.False(t, d.Refused())
	assert.Equal(t, int64(DefaultFreeAllowance-1), d.Remaining)
	assert.Equal(t, time.Date(2026, 4, 1, 0, 0, 0, 0, time.UTC), d.Reset)
}

func TestFreePlanMonth(t *testing.T) {
	g, clk := newGate(t, Config{FreeAllowance: 3})
	ctx := context.Background()
	k := account(t, g, store.Account{Plan: store.PlanFree, Email: "a@example.com"})
	for want := int64(2); want >= 0; want-- {
		d, err := g.Admit(ctx, k.Secret)
		require.NoError(t, err)
		require.False(t, d.Refused())
		assert.Equal(t, want, d.Remaining)
	}
	d, err := g.Admit(ctx, k.Secret)
	require.NoError(t, err)
	assert.Equal(t, http.StatusTooManyRequests, d.Status)
	assert.Equal(t, "wait", d.Action)
	assert.Equal(t, int64(0), d.Remaining)
	assert.Equal(t, time.Date(2026, 4, 1, 0, 0, 0, 0, time.UTC), d.Reset)
	assert.Equal(t, 36*time.Hour, d.RetryAfter)

	// The allowance belongs to the account: a second key shares it.
	second, err := g.IssueKey(ctx, k.Account, KindLive, "")
	require.NoError(t, err)
	d, err = g.Admit(ctx, second.Secret)
	require.NoError(t, err)
	assert.Equal(t, http.StatusTooManyRequests, d.Status)

	clk.add(36 * time.Hour) // 1 April
	d, err = g.Admit(ctx, k.Secret)
	require.NoError(t, err)
	assert.False(t, d.Refused())
	assert.Equal(t, int64(2), d.Remaining)
	assert.Equal(t, time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC), d.Reset)
}

func TestTrialLifecycle(t *testing.T) {
	g, clk := newGate(t, Config{TrialAllowance: 2, DeveloperURL: "https://dev.example.com"})
	ctx := context.Background()
	iss, err := g.IssueTrial(ctx, "203.0.113.7")
	require.NoError(t, err)
	assert.Regexp(t, `^ta_trial_`, iss.Secret)
	assert.Equal(t, g.now().Add(DefaultTrialDuration), iss.Account.TrialExpiresAt)

	for range 2 {
		d, err := g.Admit(ctx, iss.Secret)
		require.NoError(t, err)
		require.False(t, d.Refused())
		assert.Equal(t, iss.Account.TrialExpiresAt, d.Reset)
	}
	d, err := g.Admit(ctx, iss.Secret)
	require.NoError(t, err)
	assert.Equal(t, http.StatusTooManyRequests, d.Status)
	assert.Equal(t, "claim", d.Action)
	assert.Equal(t, g.ClaimURL(iss.Key), d.ClaimURL)
	assert.Regexp(t, `^https://dev.example.com/claim\?key=\d+&sig=[0-9a-f]{32}$`, d.ClaimURL)

	clk.add(DefaultTrialDuration)
	d, err = g.Admit(ctx, iss.Secret)
	require.NoError(t, err)
	assert.Equal(t, http.StatusUnauthorized, d.Status)
	assert.Equal(t, "trial_expired", d.Code)
	assert.NotEmpty(t, d.ClaimURL)

	// Claiming moves the same key to the Free plan of the address.
	token, err := g.StartClaim(ctx, iss.Key.ID, g.claimSig(iss.Key.ID), "Ada@Example.com")
	require.NoError(t, err)
	_, err = g.StartClaim(ctx, iss.Key.ID, "00000000000000000000000000000000", "ada@example.com")
	assert.ErrorIs(t, err, ErrBadToken)
	_, err = g.ConfirmClaim(ctx, "wrong")
	assert.ErrorIs(t, err, ErrBadToken)
	a, err := g.ConfirmClaim(ctx, token)
	require.NoError(t, err)
	assert.Equal(t, "ada@example.com", a.Email)
	assert.Equal(t, store.PlanFree, a.Plan)
	assert.True(t, a.EmailConfirmed)
	d, err = g.Admit(ctx, iss.Secret)
	require.NoError(t, err)
	require.False(t, d.Refused(), d.Detail)
	assert.Equal(t, int64(DefaultFreeAllowance-1), d.Remaining)
	// A confirmation link works once.
	_, err = g.ConfirmClaim(ctx, token)
	assert.ErrorIs(t, err, ErrBadToken)
}

func TestTrialsPerAddress(t *testing.T) {
	g, clk := newGate(t, Config{})
	ctx := context.Background()
	for range 3 {
		_, err := g.IssueTrial(ctx, "198.51.100.1")
		require.NoError(t, err)
	}
	_, err := g.IssueTrial(ctx, "198.51.100.1")
	assert.ErrorIs(t, err, ErrTrialLimit)
	_, err = g.IssueTrial(ctx, "198.51.100.2")
	assert.NoError(t, err, "another address has its own limit")
	clk.add(24 * time.Hour)
	_, err = g.IssueTrial(ctx, "198.51.100.1")
	assert.NoError(t, err, "a new UTC day")
}

func TestRateLimitIsNotMetered(t *testing.T) {
	g, _ := newGate(t, Config{Rates: map[store.Plan]Rate{store.PlanFree: {PerSecond: 1, Burst: 2}}})
	ctx := context.Background()
	k := account(t, g, store.Account{Plan: store.PlanFree, Email: "a@example.com"})
	for range 2 {
		d, err := g.Admit(ctx, k.Secret)
		require.NoError(t, err)
		require.False(t, d.Refused())
	}
	d, err := g.Admit(ctx, k.Secret)
	require.NoError(t, err)
	assert.Equal(t, http.StatusTooManyRequests, d.Status)
	assert.Equal(t, "rate_limited", d.Code)
	assert.Equal(t, "wait", d.Action)
	assert.Equal(t, int64(1), RetryAfterSeconds(d.RetryAfter))
	assert.Equal(t, int64(DefaultFreeAllowance-2), d.Remaining, "the refused request was not counted")
	used, err := g.Store().Used(ctx, k.Account.ID, MonthStart(g.now()))
	require.NoError(t, err)
	assert.Equal(t, int64(2), used)
}

func TestPaygCapAndInvoice(t *testing.T) {
	g, _ := newGate(t, Config{})
	ctx := context.Background()
	k := account(t, g, store.Account{Plan: store.PlanPayg, Email: "p@example.com", MonthlyCap: 3})
	free := account(t, g, store.Account{Plan: store.PlanFree, Email: "f@example.com"})
	for range 4 {
		_, err := g.Admit(ctx, k.Secret)
		require.NoError(t, err)
	}
	d, err := g.Admit(ctx, k.Secret)
	require.NoError(t, err)
	assert.Equal(t, "upgrade", d.Action)
	_, err = g.Admit(ctx, free.Secret)
	require.NoError(t, err)

	lines, err := g.Invoice(ctx, g.now())
	require.NoError(t, err)
	require.Len(t, lines, 2)
	assert.Equal(t, InvoiceLine{Month: "2026-03", AccountID: k.Account.ID, Email: "p@example.com", Plan: "payg", Requests: 3, AmountUSD: 0}, lines[0])
	assert.Equal(t, int64(1), lines[1].Requests)
}

func TestInvoiceRoundsToTheCent(t *testing.T) {
	g, _ := newGate(t, Config{})
	ctx := context.Background()
	k := account(t, g, store.Account{Plan: store.PlanPayg, Email: "p@example.com"})
	for range 151 {
		_, ok, err := g.Store().Consume(ctx, k.Account.ID, MonthStart(g.now()), 1_000_000)
		require.NoError(t, err)
		require.True(t, ok)
	}
	lines, err := g.Invoice(ctx, g.now())
	require.NoError(t, err)
	require.Len(t, lines, 1)
	assert.Equal(t, 0.02, lines[0].AmountUSD) // 151 × 0.0001 = 0.0151 → 0.02
}

func TestSandboxKeyIsStable(t *testing.T) {
	g, _ := newGate(t, Config{SandboxAllowance: 1})
	ctx := context.Background()
	k1, err := g.SandboxKey(ctx)
	require.NoError(t, err)
	k2, err := g.SandboxKey(ctx)
	require.NoError(t, err)
	assert.Equal(t, k1, k2)
	assert.Regexp(t, `^ta_sbx_[0-9A-Za-z]{32}$`, k1)
	d, err := g.Admit(ctx, k1)
	require.NoError(t, err)
	assert.False(t, d.Refused())
	d, err = g.Admit(ctx, k1)
	require.NoError(t, err)
	assert.Equal(t, http.StatusTooManyRequests, d.Status)
}

func TestSignUp(t *testing.T) {
	g, _ := newGate(t, Config{})
	ctx := context.Background()
	iss, existed, err := g.SignUp(ctx, " Grace@Example.com ")
	require.NoError(t, err)
	assert.False(t, existed)
	assert.Equal(t, "grace@example.com", iss.Account.Email)
	assert.Equal(t, store.PlanFree, iss.Account.Plan)
	again, existed, err := g.SignUp(ctx, "grace@example.com")
	require.NoError(t, err)
	assert.True(t, existed)
	assert.Equal(t, iss.Account.ID, again.Account.ID)
	_, _, err = g.SignUp(ctx, "not an address")
	assert.ErrorIs(t, err, ErrBadEmail)
}
