package access

import (
	"context"
	"fmt"
	"net/http"
	"net/netip"
	"path/filepath"
	"strings"
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
	start, err := g.StartClaim(ctx, "203.0.113.7", iss.Key.ID, g.claimSig(iss.Key.ID), "Ada@Example.com")
	require.NoError(t, err)
	assert.Nil(t, start.Target, "a new account")
	token := start.Token
	_, err = g.StartClaim(ctx, "203.0.113.7", iss.Key.ID, "00000000000000000000000000000000", "ada@example.com")
	assert.ErrorIs(t, err, ErrBadToken)
	_, err = g.ConfirmClaim(ctx, "wrong")
	assert.ErrorIs(t, err, ErrBadToken)
	c, err := g.ConfirmClaim(ctx, token)
	require.NoError(t, err)
	a := c.Account
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
	assert.Equal(t, InvoiceLine{Month: "2026-03", AccountID: k.Account.ID, Email: "p@example.com", Plan: "payg", Requests: 3, PaygRequests: 3, AmountUSD: 0}, lines[0])
	assert.Equal(t, int64(1), lines[1].Requests)
	assert.Equal(t, int64(0), lines[1].PaygRequests)
}

// TestInvoiceBillsOnlyPaygRequests: a month begun on Free and moved to Pay
// as you go is billed for the requests made after the move only (issue
// 13), and one moved back is still billed for them.
func TestInvoiceBillsOnlyPaygRequests(t *testing.T) {
	g, clk := newGate(t, Config{})
	ctx := context.Background()
	k := account(t, g, store.Account{Plan: store.PlanFree, Email: "f@example.com"})
	admit := func(n int) {
		for range n {
			d, err := g.Admit(ctx, k.Secret)
			require.NoError(t, err)
			require.False(t, d.Refused(), d.Detail)
		}
	}
	setPlan := func(p store.Plan) {
		a, err := g.Store().Account(ctx, k.Account.ID)
		require.NoError(t, err)
		a.Plan = p
		require.NoError(t, g.Store().UpdateAccount(ctx, a))
		clk.add(2 * DefaultKeyCacheTTL) // past the key cache
	}
	admit(999)
	setPlan(store.PlanPayg)
	admit(2)

	lines, err := g.Invoice(ctx, g.now())
	require.NoError(t, err)
	require.Len(t, lines, 1)
	assert.Equal(t, InvoiceLine{Month: "2026-03", AccountID: k.Account.ID, Email: "f@example.com", Plan: "payg", Requests: 1001, PaygRequests: 2, AmountUSD: 0}, lines[0],
		"1,001 requests at 0.0001 USD would be 0.10 USD")

	setPlan(store.PlanFree)
	lines, err = g.Invoice(ctx, g.now())
	require.NoError(t, err)
	assert.Equal(t, int64(2), lines[0].PaygRequests, "moving back to Free keeps the Pay as you go requests billed")
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

func TestSignUpNeedsConfirmation(t *testing.T) {
	g, clk := newGate(t, Config{})
	ctx := context.Background()
	start, err := g.StartSignUp(ctx, "198.51.100.1", " Grace@Example.com ")
	require.NoError(t, err)
	assert.Equal(t, "grace@example.com", start.Email)
	_, err = g.Store().AccountByEmail(ctx, "grace@example.com")
	assert.ErrorIs(t, err, store.ErrNotFound, "no account before confirmation")
	keys, err := g.Store().ListKeys(ctx, 0)
	require.NoError(t, err)
	assert.Empty(t, keys, "no key before confirmation")

	// Showing the link's page changes nothing.
	tok, err := g.PendingLink(ctx, start.Token, store.PurposeSignUp)
	require.NoError(t, err)
	assert.Equal(t, "grace@example.com", tok.Email)
	_, err = g.PendingLink(ctx, start.Token, store.PurposeSignIn)
	assert.ErrorIs(t, err, ErrBadToken, "a sign-up link is no sign-in link")

	iss, err := g.ConfirmSignUp(ctx, start.Token)
	require.NoError(t, err)
	assert.Equal(t, "grace@example.com", iss.Account.Email)
	assert.Equal(t, store.PlanFree, iss.Account.Plan)
	assert.True(t, iss.Account.EmailConfirmed)
	d, err := g.Admit(ctx, iss.Secret)
	require.NoError(t, err)
	assert.False(t, d.Refused())
	_, err = g.ConfirmSignUp(ctx, start.Token)
	assert.ErrorIs(t, err, ErrBadToken, "a link works once")

	// Links expire after ConfirmLinkTTL.
	late, err := g.StartSignUp(ctx, "198.51.100.1", "late@example.com")
	require.NoError(t, err)
	clk.add(ConfirmLinkTTL)
	_, err = g.ConfirmSignUp(ctx, late.Token)
	assert.ErrorIs(t, err, ErrBadToken)

	_, err = g.StartSignUp(ctx, "198.51.100.1", "not an address")
	assert.ErrorIs(t, err, ErrBadEmail)
}

func TestMailCaps(t *testing.T) {
	t.Run("per client address", func(t *testing.T) {
		g, clk := newGate(t, Config{})
		ctx := context.Background()
		// Every address of one IPv6 /64 is one client.
		for i := range DefaultMailsPerClientHour {
			_, err := g.StartSignUp(ctx, fmt.Sprintf("2001:db8:1:2::%x", i+1), fmt.Sprintf("user%d@example.com", i))
			require.NoError(t, err, "mail %d", i)
		}
		_, err := g.StartSignUp(ctx, "2001:db8:1:2:ffff::1", "other@example.com")
		var limit *MailLimitError
		require.ErrorAs(t, err, &limit)
		assert.ErrorIs(t, err, ErrMailLimit)
		assert.False(t, limit.PerEmail)
		assert.Equal(t, time.Date(2026, 3, 30, 13, 0, 0, 0, time.UTC), limit.Reset)
		_, err = g.StartSignIn(ctx, "2001:db8:1:2::99", "other@example.com")
		assert.ErrorIs(t, err, ErrMailLimit, "sign-in links share the cap")
		_, err = g.StartSignUp(ctx, "2001:db8:1:3::1", "other@example.com")
		assert.NoError(t, err, "another /64")
		_, err = g.StartSignUp(ctx, "198.51.100.1", "v4@example.com")
		assert.NoError(t, err, "an IPv4 client")

		// The next hour gives more, up to the day's cap.
		sent := DefaultMailsPerClientHour
		for h := 1; sent < DefaultMailsPerClientDay; h++ {
			clk.add(time.Hour)
			for range DefaultMailsPerClientHour {
				if sent == DefaultMailsPerClientDay {
					break
				}
				_, err := g.StartSignUp(ctx, "2001:db8:1:2::1", fmt.Sprintf("u%d@example.com", sent))
				require.NoError(t, err, "mail %d", sent)
				sent++
			}
		}
		clk.add(time.Hour)
		_, err = g.StartSignUp(ctx, "2001:db8:1:2::1", "more@example.com")
		require.ErrorAs(t, err, &limit)
		assert.Equal(t, time.Date(2026, 3, 31, 0, 0, 0, 0, time.UTC), limit.Reset, "the day's cap")
	})

	t.Run("per e-mail address, in canonical form", func(t *testing.T) {
		g, _ := newGate(t, Config{})
		ctx := context.Background()
		variants := []string{"abuser@gmail.com", "Abuser+1@gmail.com", "a.b.u.s.e.r@googlemail.com", "ABUSER+x@GMAIL.COM"}
		for i, v := range variants {
			_, err := g.StartSignUp(ctx, fmt.Sprintf("198.51.100.%d", i+1), v)
			if i < DefaultMailsPerAddressDay {
				require.NoError(t, err, v)
				continue
			}
			var limit *MailLimitError
			require.ErrorAs(t, err, &limit, v)
			assert.True(t, limit.PerEmail)
		}
	})
}

func TestClientKey(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"198.51.100.7", "198.51.100.7"},
		{"::ffff:198.51.100.7", "198.51.100.7"},
		{"2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"},
		{"2001:db8:1:2::1", "2001:db8:1:2::/64"},
		{"2001:DB8:1:2::ffff", "2001:db8:1:2::/64"},
		{"fe80::1%eth0", "fe80::/64"},
		{"2001:db8:1:2::/64", "2001:db8:1:2::/64"},
		{"2001:db8:1:2::7/128", "2001:db8:1:2::/64"},
		{"not an address", "not an address"},
	} {
		t.Run(tt.in, func(t *testing.T) {
			assert.Equal(t, tt.want, ClientKey(tt.in))
		})
	}
}

func TestCanonicalEmail(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"ada@example.com", "ada@example.com"},
		{"Ada@Example.COM", "ada@example.com"},
		{"ada+news@example.com", "ada@example.com"},
		{"a.da@example.com", "a.da@example.com"}, // dots matter elsewhere
		{"a.d.a+1@gmail.com", "ada@gmail.com"},
		{"A.DA@googlemail.com", "ada@gmail.com"},
		{"+tag@example.com", "+tag@example.com"},
		{"no-at-sign", "no-at-sign"},
	} {
		t.Run(tt.in, func(t *testing.T) {
			assert.Equal(t, tt.want, CanonicalEmail(tt.in))
		})
	}
}

// NormalizeEmail takes the addresses people have and refuses those
// whose domain is an IP address: a mail to user@[10.0.0.5] or
// user@127.0.0.1 would have the operator's mail server deliver to an
// address of its own network, not to a mailbox found through DNS.
func TestNormalizeEmail(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Ada@Example.COM", "ada@example.com"},
		{"  ada+news@example.com ", "ada+news@example.com"},
		{"jörg@bücher.example", "jörg@bücher.example"},
		{"ada@mail.example.co.uk", "ada@mail.example.co.uk"},
		{"ada@xn--bcher-kva.example", "ada@xn--bcher-kva.example"},
		{"x@[127.0.0.1]", ""},
		{"x@[10.0.0.5]", ""},
		{"x@127.0.0.1", ""},
		{"x@0x7f.1", ""},
		{"x@169.254.169.254", ""},
		{"x@example.123", ""},
		{"Ada <ada@example.com>", ""},
		{"ada@localhost", ""},
		{"", ""},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := NormalizeEmail(tt.in)
			if tt.want == "" {
				assert.ErrorIs(t, err, ErrBadEmail, "got %q", got)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func FuzzClientKey(f *testing.F) {
	for _, s := range []string{"198.51.100.7", "2001:db8::1", "::ffff:1.2.3.4", "fe80::1%eth0", "2001:db8::/48", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, addr string) {
		k := ClientKey(addr)
		if again := ClientKey(k); again != k {
			t.Fatalf("ClientKey(%q) = %q, but ClientKey(%q) = %q", addr, k, k, again)
		}
		if a, err := netip.ParseAddr(addr); err == nil && a.Unmap().Is6() {
			// Every address of the /64 has the same key.
			b := a.WithZone("").As16()
			b[15] ^= 0xff
			if other := ClientKey(netip.AddrFrom16(b).String()); other != k {
				t.Fatalf("%q and its neighbour have keys %q and %q", addr, k, other)
			}
		}
	})
}

func FuzzCanonicalEmail(f *testing.F) {
	for _, s := range []string{"ada@example.com", "A.d.a+x@GoogleMail.com", "+@", "a@b@c"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, email string) {
		c := CanonicalEmail(email)
		if again := CanonicalEmail(c); again != c {
			t.Fatalf("CanonicalEmail(%q) = %q, but CanonicalEmail(%q) = %q", email, c, c, again)
		}
		if c != strings.ToLower(c) {
			t.Fatalf("CanonicalEmail(%q) = %q is not lower-case", email, c)
		}
	})
}

// Revoking frees a place among the live keys, but making and revoking in
// a loop must not make keys (rows, and a notice mail each) without end:
// at most NewKeysPerDay a UTC day per account.
func TestNewAccountKeysPerDay(t *testing.T) {
	g, clk := newGate(t, Config{MaxLiveKeys: 2})
	ctx := context.Background()
	ada := account(t, g, store.Account{Plan: store.PlanFree, Email: "ada@example.com"})
	bob := account(t, g, store.Account{Plan: store.PlanFree, Email: "bob@example.com"})
	for i := range NewKeysPerDay {
		iss, err := g.NewAccountKey(ctx, ada.Account, "loop")
		require.NoError(t, err, "key %d", i+1)
		require.NoError(t, g.RevokeAccountKey(ctx, ada.Account, iss.Key.ID))
	}
	_, err := g.NewAccountKey(ctx, ada.Account, "one more")
	require.ErrorIs(t, err, ErrMailLimit)
	var lim *MailLimitError
	require.ErrorAs(t, err, &lim)
	assert.Equal(t, time.Date(2026, 3, 31, 0, 0, 0, 0, time.UTC), lim.Reset)
	keys, err := g.AccountKeys(ctx, ada.Account)
	require.NoError(t, err)
	assert.Len(t, keys, NewKeysPerDay+1, "the sign-up's key and the day's")

	_, err = g.NewAccountKey(ctx, bob.Account, "other account")
	assert.NoError(t, err, "the cap is per account")
	clk.add(12 * time.Hour)
	_, err = g.NewAccountKey(ctx, ada.Account, "next day")
	assert.NoError(t, err)
}

func TestAccountKeys(t *testing.T) {
	g, clk := newGate(t, Config{MaxLiveKeys: 2})
	ctx := context.Background()
	first := account(t, g, store.Account{Plan: store.PlanFree, Email: "ada@example.com"})
	other := account(t, g, store.Account{Plan: store.PlanFree, Email: "bob@example.com"})
	second, err := g.NewAccountKey(ctx, first.Account, "laptop")
	require.NoError(t, err)
	_, err = g.NewAccountKey(ctx, first.Account, "third")
	assert.ErrorIs(t, err, ErrKeyLimit)

	assert.ErrorIs(t, g.RevokeAccountKey(ctx, first.Account, other.Key.ID), ErrNoKey, "not this account's key")
	d, err := g.Admit(ctx, other.Secret)
	require.NoError(t, err)
	assert.False(t, d.Refused())
	require.NoError(t, g.RevokeAccountKey(ctx, first.Account, first.Key.ID))
	d, err = g.Admit(ctx, first.Secret)
	require.NoError(t, err)
	assert.Equal(t, "revoked_key", d.Code)
	_, err = g.NewAccountKey(ctx, first.Account, "third")
	assert.NoError(t, err, "a revoked key frees a place")

	// Last use is written once per KeyTouchInterval.
	used := func() time.Time {
		k, err := g.Store().Key(ctx, second.Key.ID)
		require.NoError(t, err)
		return k.LastUsedAt
	}
	assert.True(t, used().IsZero())
	t0 := g.now()
	_, err = g.Admit(ctx, second.Secret)
	require.NoError(t, err)
	assert.Equal(t, t0, used())
	clk.add(10 * time.Second)
	_, err = g.Admit(ctx, second.Secret)
	require.NoError(t, err)
	assert.Equal(t, t0, used())
	clk.add(store.KeyTouchInterval)
	_, err = g.Admit(ctx, second.Secret)
	require.NoError(t, err)
	assert.Equal(t, g.now(), used())

	u, err := g.Usage(ctx, first.Account)
	require.NoError(t, err)
	assert.Equal(t, AccountUsage{Used: 3, Allowance: DefaultFreeAllowance, Reset: NextMonth(g.now())}, u)
}

func TestSignIn(t *testing.T) {
	g, clk := newGate(t, Config{})
	ctx := context.Background()
	iss := account(t, g, store.Account{Plan: store.PlanFree, Email: "ada@example.com"})
	start, err := g.StartSignIn(ctx, "198.51.100.1", "Ada@example.com")
	require.NoError(t, err)
	require.NotEmpty(t, start.Token)
	none, err := g.StartSignIn(ctx, "198.51.100.1", "nobody@example.com")
	require.NoError(t, err)
	assert.Empty(t, none.Token, "no account, no link")

	secret, a, err := g.SignIn(ctx, start.Token)
	require.NoError(t, err)
	assert.Equal(t, iss.Account.ID, a.ID)
	_, _, err = g.SignIn(ctx, start.Token)
	assert.ErrorIs(t, err, ErrBadToken, "a link works once")
	got, err := g.Session(ctx, secret)
	require.NoError(t, err)
	assert.Equal(t, a.ID, got.ID)
	clk.add(SessionTTL)
	_, err = g.Session(ctx, secret)
	assert.ErrorIs(t, err, ErrBadToken, "expired")

	start, err = g.StartSignIn(ctx, "198.51.100.1", "ada@example.com")
	require.NoError(t, err)
	secret, _, err = g.SignIn(ctx, start.Token)
	require.NoError(t, err)
	require.NoError(t, g.SignOut(ctx, secret))
	_, err = g.Session(ctx, secret)
	assert.ErrorIs(t, err, ErrBadToken, "signed out")
}

func TestUpgradeURLIsTheAccountPage(t *testing.T) {
	g, _ := newGate(t, Config{FreeAllowance: 1, DeveloperURL: "https://dev.example.com"})
	ctx := context.Background()
	free := account(t, g, store.Account{Plan: store.PlanFree, Email: "f@example.com"})
	payg := account(t, g, store.Account{Plan: store.PlanPayg, Email: "p@example.com", MonthlyCap: 1})
	for _, k := range []Issued{free, payg} {
		_, err := g.Admit(ctx, k.Secret)
		require.NoError(t, err)
		d, err := g.Admit(ctx, k.Secret)
		require.NoError(t, err)
		assert.Equal(t, "https://dev.example.com/account", d.UpgradeURL, k.Account.Plan)
	}
	r, err := g.RequestPlan(ctx, free.Account, 0)
	require.NoError(t, err)
	assert.Equal(t, store.PlanPayg, r.Plan)
	for range PlanRequestsPerDay - 1 {
		_, err = g.RequestPlan(ctx, free.Account, 0)
		require.NoError(t, err)
	}
	_, err = g.RequestPlan(ctx, free.Account, 0)
	assert.ErrorIs(t, err, ErrMailLimit)
}
