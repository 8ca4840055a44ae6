package access

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/textanalysis/go-textanalysis/server/store"
	"github.com/textanalysis/go-textanalysis/server/store/sqlite"
)

// keyReads counts the store's key lookups.
type keyReads struct {
	store.Store
	n atomic.Int64
}

func (s *keyReads) KeyByHash(ctx context.Context, hash string) (store.Key, store.Account, error) {
	s.n.Add(1)
	return s.Store.KeyByHash(ctx, hash)
}

func madeUpKey(t *testing.T) string {
	t.Helper()
	k, _, _, err := NewKey(KindLive)
	require.NoError(t, err)
	return k
}

// A stranger's made-up keys cost the shared database a bounded number of
// reads: an unknown key is remembered like a known one, and each client
// address makes UnknownKeysPerSecond reads that find nothing, in bursts
// of UnknownKeysBurst; past that its uncached keys get 429 with no read,
// while other clients, and its own cached keys, are served as before.
func TestUnknownKeysPerClient(t *testing.T) {
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "test.db"))
	require.NoError(t, err)
	t.Cleanup(func() { st.Close() })
	reads := &keyReads{Store: st}
	clk := &clock{t: time.Date(2026, 3, 30, 12, 0, 0, 0, time.UTC)}
	g, err := New(context.Background(), Config{Store: reads, Now: clk.now,
		Rates: map[store.Plan]Rate{store.PlanFree: {}}})
	require.NoError(t, err)
	good := account(t, g, store.Account{Plan: store.PlanFree, Email: "u@example.com"})

	a := WithClient(context.Background(), "198.51.100.7")
	b := WithClient(context.Background(), "198.51.100.8")
	admit := func(ctx context.Context, key string) Decision {
		t.Helper()
		d, err := g.Admit(ctx, key)
		require.NoError(t, err)
		return d
	}
	require.False(t, admit(a, good.Secret).Refused(), "the valid key, now cached")
	base := reads.n.Load()

	junk := madeUpKey(t)
	for range 50 {
		d := admit(a, junk)
		assert.Equal(t, http.StatusUnauthorized, d.Status)
		assert.Equal(t, "invalid_key", d.Code)
	}
	assert.Equal(t, base+1, reads.n.Load(), "one unknown key presented again is not read again")

	for range UnknownKeysBurst - 1 {
		assert.Equal(t, "invalid_key", admit(a, madeUpKey(t)).Code)
	}
	assert.Equal(t, base+UnknownKeysBurst, reads.n.Load())
	d := admit(a, madeUpKey(t))
	assert.Equal(t, http.StatusTooManyRequests, d.Status)
	assert.Equal(t, "too_many_unknown_keys", d.Code)
	assert.Equal(t, "wait", d.Action)
	assert.Positive(t, d.RetryAfter)
	assert.LessOrEqual(t, d.RetryAfter, time.Second/UnknownKeysPerSecond)
	assert.False(t, d.Metered, "nothing is counted")
	assert.Equal(t, base+UnknownKeysBurst, reads.n.Load(), "refused without a read")
	known, err := g.Known(a, madeUpKey(t))
	require.NoError(t, err)
	assert.False(t, known)

	assert.False(t, admit(a, good.Secret).Refused(), "a cached key still works")
	assert.Equal(t, "invalid_key", admit(b, madeUpKey(t)).Code, "another client has its own bucket")
	assert.Equal(t, "too_many_unknown_keys", admit(WithClient(context.Background(), "::ffff:198.51.100.7"), madeUpKey(t)).Code,
		"the same address written as IPv4-mapped IPv6 is the same client")

	clk.add(time.Second / UnknownKeysPerSecond)
	assert.Equal(t, "invalid_key", admit(a, madeUpKey(t)).Code, "the bucket refills")
	assert.Equal(t, "too_many_unknown_keys", admit(a, madeUpKey(t)).Code)
}

func TestUnknownKeysIPv6Prefix(t *testing.T) {
	l := newUnknownKeyLimits()
	now := time.Date(2026, 3, 30, 12, 0, 0, 0, time.UTC)
	for range UnknownKeysBurst {
		l.miss(ClientKey("2001:db8:1:2::1"), now)
	}
	out, wait := l.exhausted(ClientKey("2001:db8:1:2:ffff::9"), now)
	assert.True(t, out, "one /64 is one client")
	assert.Equal(t, time.Second/UnknownKeysPerSecond, wait)
	out, _ = l.exhausted(ClientKey("2001:db8:1:3::1"), now)
	assert.False(t, out, "another /64")
	// Quiet clients are forgotten once their buckets have refilled.
	l.miss(ClientKey("192.0.2.1"), now.Add(2*time.Minute))
	assert.Len(t, l.clients, 1)
}

func TestClientAddr(t *testing.T) {
	proxies := []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}
	tests := []struct {
		remote, xff, want string
	}{
		{"198.51.100.7:5000", "", "198.51.100.7"},
		{"198.51.100.7:5000", "203.0.113.9", "198.51.100.7"}, // not from a trusted proxy: XFF ignored
		{"10.1.2.3:5000", "203.0.113.9", "203.0.113.9"},
		{"10.1.2.3:5000", "203.0.113.9, 10.4.4.4", "203.0.113.9"},
		{"10.1.2.3:5000", "", "10.1.2.3"},
		{"[::ffff:198.51.100.7]:5000", "", "198.51.100.7"},
	}
	for _, tt := range tests {
		r := httptest.NewRequest(http.MethodGet, "/", nil)
		r.RemoteAddr = tt.remote
		if tt.xff != "" {
			r.Header.Set("X-Forwarded-For", tt.xff)
		}
		assert.Equal(t, tt.want, ClientAddr(r, proxies), "%s %q", tt.remote, tt.xff)
	}
}

// ClientAddr reads X-Forwarded-For, which anyone can send: only a trusted
// proxy's is believed, and the answer is always one address.
func FuzzClientAddr(f *testing.F) {
	f.Add("198.51.100.7:5000", "203.0.113.9")
	f.Add("10.1.2.3:5000", "203.0.113.9, 10.4.4.4")
	f.Add("10.1.2.3:5000", " ,,x, 2001:db8::1")
	f.Add("[::ffff:10.0.0.1]:1", "::ffff:198.51.100.7")
	proxies := []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}
	f.Fuzz(func(t *testing.T, remote, xff string) {
		r := httptest.NewRequest(http.MethodGet, "/", nil)
		r.RemoteAddr = remote
		bare := ClientAddr(r, proxies)
		r.Header.Set("X-Forwarded-For", xff)
		got := ClientAddr(r, proxies)
		host, _, err := net.SplitHostPort(remote)
		if err != nil {
			host = remote
		}
		peer, err := netip.ParseAddr(host)
		if err != nil {
			if got != host {
				t.Fatalf("peer %q is no address: got %q", remote, got)
			}
			return
		}
		if !proxies[0].Contains(peer.Unmap()) && got != bare {
			t.Fatalf("X-Forwarded-For %q from an untrusted peer %q changed the client: %q, not %q", xff, remote, got, bare)
		}
		a, err := netip.ParseAddr(got)
		if err != nil || a.Is4In6() {
			t.Fatalf("ClientAddr(%q, %q) = %q: not one plain address", remote, xff, got)
		}
	})
}
