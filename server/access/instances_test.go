package access

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/textanalysis/go-textanalysis/server/store"
	"github.com/textanalysis/go-textanalysis/server/store/postgres"
	"github.com/textanalysis/go-textanalysis/server/store/sqlite"
)

// instanceStores opens two stores on one database, as two server
// processes would: SQLite always, PostgreSQL when
// TEXTANALYSIS_TEST_POSTGRES_URL is set.
func instanceStores(t *testing.T) map[string][2]store.Store {
	t.Helper()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "shared.db")
	out := map[string][2]store.Store{}
	var pair [2]store.Store
	for i := range pair {
		st, err := sqlite.Open(ctx, path)
		require.NoError(t, err)
		t.Cleanup(func() { st.Close() })
		pair[i] = st
	}
	out["sqlite"] = pair
	if url := os.Getenv("TEXTANALYSIS_TEST_POSTGRES_URL"); url != "" {
		var pg [2]store.Store
		for i := range pg {
			st, err := postgres.Open(ctx, url)
			require.NoError(t, err)
			t.Cleanup(func() { st.Close() })
			pg[i] = st
		}
		out["postgres"] = pg
	}
	return out
}

func newInstanceGate(t *testing.T, st store.Store, cfg Config) *Gate {
	t.Helper()
	cfg.Store = st
	if cfg.Rates == nil {
		cfg.Rates = map[store.Plan]Rate{store.PlanTrial: {}, store.PlanFree: {}, store.PlanPayg: {}, store.PlanSandbox: {}}
	}
	g, err := New(context.Background(), cfg)
	require.NoError(t, err)
	t.Cleanup(func() { g.Close() })
	return g
}

// N goroutines × M requests against an allowance, through two gates
// (two processes) on one database: exactly the allowance is admitted,
// each admitted request saw its own count, and the store counted exactly
// the admitted ones.
func TestAdmitIsExactUnderConcurrency(t *testing.T) {
	const goroutines, requests, allowance = 24, 30, 500 // 720 asked
	for name, stores := range instanceStores(t) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			gates := [2]*Gate{
				newInstanceGate(t, stores[0], Config{FreeAllowance: allowance}),
				newInstanceGate(t, stores[1], Config{FreeAllowance: allowance}),
			}
			k := account(t, gates[0], store.Account{Plan: store.PlanFree, Email: "hot-" + strconv.FormatInt(time.Now().UnixNano(), 36) + "@example.com"})
			var admitted, exhausted atomic.Int64
			remaining := make([]map[int64]bool, goroutines)
			var wg sync.WaitGroup
			errs := make(chan error, goroutines)
			for i := range goroutines {
				remaining[i] = map[int64]bool{}
				wg.Go(func() {
					for range requests {
						d, err := gates[i%2].Admit(ctx, k.Secret)
						if err != nil {
							errs <- err
							return
						}
						switch {
						case !d.Refused():
							admitted.Add(1)
							remaining[i][d.Remaining] = true
						case d.Code == "allowance_exhausted":
							exhausted.Add(1)
						default:
							errs <- assert.AnError
							return
						}
					}
				})
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				require.NoError(t, err)
			}
			assert.Equal(t, int64(allowance), admitted.Load())
			assert.Equal(t, int64(goroutines*requests-allowance), exhausted.Load())
			seen := map[int64]bool{}
			for _, r := range remaining {
				for v := range r {
					assert.False(t, seen[v], "remaining %d given twice", v)
					seen[v] = true
				}
			}
			assert.Len(t, seen, allowance, "every count from 1 to the allowance once")
			used, err := stores[1].Used(ctx, k.Account.ID, MonthStart(time.Now()))
			require.NoError(t, err)
			assert.Equal(t, int64(allowance), used)
		})
	}
}

// A key revoked by another instance (or `textanalysis keys revoke`) is
// refused here within KeyCacheTTL; one revoked through this gate at once.
func TestRevocationReachesEveryInstanceWithinTheTTL(t *testing.T) {
	for name, stores := range instanceStores(t) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			clk := &clock{t: time.Date(2026, 3, 30, 12, 0, 0, 0, time.UTC)}
			const ttl = 5 * time.Second
			a := newInstanceGate(t, stores[0], Config{Now: clk.now, KeyCacheTTL: ttl})
			b := newInstanceGate(t, stores[1], Config{Now: clk.now, KeyCacheTTL: ttl})
			k := account(t, a, store.Account{Plan: store.PlanFree, Email: "revoke-" + strconv.FormatInt(time.Now().UnixNano(), 36) + "@example.com"})
			for _, g := range []*Gate{a, b} {
				d, err := g.Admit(ctx, k.Secret)
				require.NoError(t, err)
				require.False(t, d.Refused(), "both instances know the key")
			}
			require.NoError(t, a.RevokeAccountKey(ctx, k.Account, k.Key.ID))
			d, err := a.Admit(ctx, k.Secret)
			require.NoError(t, err)
			assert.Equal(t, "revoked_key", d.Code, "the revoking instance refuses at once")

			clk.add(ttl - time.Millisecond)
			d, err = b.Admit(ctx, k.Secret)
			require.NoError(t, err)
			assert.False(t, d.Refused(), "the other instance may serve it until the TTL ends")
			clk.add(time.Millisecond)
			d, err = b.Admit(ctx, k.Secret)
			require.NoError(t, err)
			assert.Equal(t, "revoked_key", d.Code, "and refuses it from then")
			ok, err := b.Known(ctx, k.Secret)
			require.NoError(t, err)
			assert.False(t, ok)
		})
	}
}

// Without a cache every request reads the key: revocation is immediate.
func TestNoKeyCache(t *testing.T) {
	g, _ := newGate(t, Config{KeyCacheTTL: -1})
	ctx := context.Background()
	k := account(t, g, store.Account{Plan: store.PlanFree, Email: "a@example.com"})
	d, err := g.Admit(ctx, k.Secret)
	require.NoError(t, err)
	require.False(t, d.Refused())
	require.NoError(t, g.Store().RevokeKey(ctx, k.Key.ID, g.now()))
	d, err = g.Admit(ctx, k.Secret)
	require.NoError(t, err)
	assert.Equal(t, "revoked_key", d.Code)
}

// syncBuffer is a log sink safe for concurrent writes.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// With Redis down (a closed port) the gate fails open to its own limiter:
// the plan's rate still holds per process, Retry-After is right, and the
// log says so once, not once per request.
func TestRedisDownFallsBackToTheLocalLimiter(t *testing.T) {
	var logs syncBuffer
	g, _ := newGate(t, Config{
		RedisURL: "redis://127.0.0.1:1/0",
		Rates:    map[store.Plan]Rate{store.PlanFree: {PerSecond: 1, Burst: 2}},
		Logger:   slog.New(slog.NewTextHandler(&logs, nil)),
	})
	ctx := context.Background()
	k := account(t, g, store.Account{Plan: store.PlanFree, Email: "a@example.com"})
	var codes []string
	for range 5 {
		d, err := g.Admit(ctx, k.Secret)
		require.NoError(t, err, "Redis being down is not an error")
		codes = append(codes, d.Code)
		if d.Code == "rate_limited" {
			assert.Equal(t, int64(1), RetryAfterSeconds(d.RetryAfter))
		}
	}
	assert.Equal(t, []string{"", "", "rate_limited", "rate_limited", "rate_limited"}, codes)
	assert.Equal(t, 1, strings.Count(logs.String(), "redis rate limit unavailable"), logs.String())
	assert.NotContains(t, logs.String(), k.Secret)
}

func TestRedisURLMustParse(t *testing.T) {
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "t.db"))
	require.NoError(t, err)
	defer st.Close()
	_, err = New(context.Background(), Config{Store: st, RedisURL: "http://user:secret@example.com"})
	require.Error(t, err)
	assert.NotContains(t, err.Error(), "secret")
}

// Two instances sharing Redis share one bucket per account: together
// they allow the plan's burst, not twice it. Needs Redis at
// 127.0.0.1:6379 (TEXTANALYSIS_TEST_REDIS_URL overrides); skipped without.
func TestRedisSharesTheRateLimit(t *testing.T) {
	url := os.Getenv("TEXTANALYSIS_TEST_REDIS_URL")
	if url == "" {
		url = "redis://127.0.0.1:6379/0"
	}
	opts, err := redis.ParseURL(url)
	require.NoError(t, err)
	rdb := redis.NewClient(opts)
	defer rdb.Close()
	if err := rdb.Ping(context.Background()).Err(); err != nil {
		t.Skipf("no Redis at %s: %v", url, err)
	}
	var logs syncBuffer
	path := filepath.Join(t.TempDir(), "shared.db")
	rates := map[store.Plan]Rate{store.PlanFree: {PerSecond: 1, Burst: 3}}
	var gates []*Gate
	for range 2 {
		st, err := sqlite.Open(context.Background(), path)
		require.NoError(t, err)
		t.Cleanup(func() { st.Close() })
		gates = append(gates, newInstanceGate(t, st, Config{RedisURL: url, Rates: rates, Logger: slog.New(slog.NewTextHandler(&logs, nil))}))
	}
	ctx := context.Background()
	k := account(t, gates[0], store.Account{Plan: store.PlanFree, Email: "shared@example.com"})
	// Account IDs repeat across test databases: start from a full bucket.
	require.NoError(t, gates[0].shared.lim.Reset(ctx, RedisKeyPrefix+"free:"+strconv.FormatInt(k.Account.ID, 10)))
	var admitted int
	var retry time.Duration
	for i := range 6 {
		d, err := gates[i%2].Admit(ctx, k.Secret)
		require.NoError(t, err)
		if !d.Refused() {
			admitted++
			continue
		}
		assert.Equal(t, "rate_limited", d.Code)
		assert.Equal(t, http.StatusTooManyRequests, d.Status)
		retry = d.RetryAfter
	}
	assert.Equal(t, 3, admitted, "one burst for both instances")
	assert.Greater(t, retry, time.Duration(0))
	assert.LessOrEqual(t, retry, time.Second)
	assert.Equal(t, int64(1), RetryAfterSeconds(retry))
	assert.Empty(t, logs.String(), "Redis answered")
}
