package access

import (
	"context"
	"fmt"
	"log/slog"
	"math"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-redis/redis_rate/v10"
	"github.com/redis/go-redis/v9"
	"golang.org/x/time/rate"

	"github.com/textanalysis/go-textanalysis/server/store"
)

// Redis limits of the shared per-second rate limit. A request waits on
// Redis for at most RedisTimeout; when Redis fails, the gate falls back to
// its per-process limit for RedisRetry before it asks Redis again, and says
// so in the log at most once per RedisLogInterval.
const (
	RedisTimeout     = 100 * time.Millisecond
	RedisRetry       = time.Second
	RedisLogInterval = time.Minute
	// RedisKeyPrefix starts the Redis key of each account's bucket:
	// RedisKeyPrefix + plan + ":" + account ID. A plan change starts a
	// fresh bucket, as the per-process limiter does.
	RedisKeyPrefix = "textanalysis:rate:"
)

// localLimits keeps a token bucket per account in this process: N
// processes allow N times a plan's rate.
type localLimits struct {
	mu       sync.Mutex
	limiters map[int64]*limiterEntry
	lastGC   time.Time
}

type limiterEntry struct {
	lim  *rate.Limiter
	plan store.Plan
	seen time.Time
}

func newLocalLimits() *localLimits {
	return &localLimits{limiters: map[int64]*limiterEntry{}}
}

// allow takes one token of the account's bucket, or says how long until
// one is there.
func (l *localLimits) allow(a store.Account, r Rate, now time.Time) (bool, time.Duration) {
	l.mu.Lock()
	e := l.limiters[a.ID]
	if e == nil || e.plan != a.Plan {
		e = &limiterEntry{lim: rate.NewLimiter(rate.Limit(r.PerSecond), max(r.Burst, 1)), plan: a.Plan}
		l.limiters[a.ID] = e
	}
	e.seen = now
	// Forget idle accounts now and then, so the map stays the size of the
	// active set.
	if now.Sub(l.lastGC) > time.Minute {
		for id, e := range l.limiters {
			if now.Sub(e.seen) > 10*time.Minute {
				delete(l.limiters, id)
			}
		}
		l.lastGC = now
	}
	l.mu.Unlock()
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

// sharedLimits keeps the buckets in Redis, with the GCRA of redis_rate,
// so that every instance draws on one bucket per account. When Redis
// fails it fails open to the per-process buckets: a plan's rate is then
// enforced per instance, not refused, and the allowance (in the store) is
// exact either way.
type sharedLimits struct {
	rdb     *redis.Client
	lim     *redis_rate.Limiter
	local   *localLimits
	log     *slog.Logger
	timeout time.Duration

	// downUntil is when to try Redis again (Unix nanoseconds; 0 when up);
	// lastLog when the last "unavailable" line was written.
	downUntil atomic.Int64
	lastLog   atomic.Int64
	down      atomic.Bool
}

// newSharedLimits connects to the Redis of url (redis:// or rediss://).
// It does not dial: the first request does, and fails open.
func newSharedLimits(url string, local *localLimits, log *slog.Logger) (*sharedLimits, error) {
	opts, err := redis.ParseURL(url)
	if err != nil {
		// The URL may hold a password: don't quote it.
		return nil, fmt.Errorf("access: redis URL: cannot parse it")
	}
	opts.DialTimeout, opts.ReadTimeout, opts.WriteTimeout = RedisTimeout, RedisTimeout, RedisTimeout
	opts.MaxRetries = -1 // fail over at once; the next request tries again
	opts.ContextTimeoutEnabled = true
	rdb := redis.NewClient(opts)
	return &sharedLimits{rdb: rdb, lim: redis_rate.NewLimiter(rdb), local: local, log: log, timeout: RedisTimeout}, nil
}

// redisLimit expresses r for redis_rate: whole rates per second as they
// are, fractional ones over 1,000 s (the same emission interval).
func redisLimit(r Rate) redis_rate.Limit {
	l := redis_rate.Limit{Rate: int(r.PerSecond), Period: time.Second, Burst: max(r.Burst, 1)}
	if r.PerSecond != math.Trunc(r.PerSecond) || r.PerSecond < 1 {
		l.Rate, l.Period = max(int(math.Round(r.PerSecond*1000)), 1), 1000*time.Second
	}
	return l
}

func (s *sharedLimits) allow(ctx context.Context, a store.Account, r Rate, now time.Time) (bool, time.Duration) {
	if until := s.downUntil.Load(); until != 0 && time.Now().UnixNano() < until {
		return s.local.allow(a, r, now)
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), s.timeout)
	defer cancel()
	res, err := s.lim.Allow(ctx, RedisKeyPrefix+string(a.Plan)+":"+strconv.FormatInt(a.ID, 10), redisLimit(r))
	if err != nil {
		s.failed(err)
		return s.local.allow(a, r, now)
	}
	if s.down.CompareAndSwap(true, false) {
		s.downUntil.Store(0)
		s.log.Info("redis rate limit available again; per-second limits are shared")
	}
	if res.Allowed > 0 {
		return true, 0
	}
	return false, max(res.RetryAfter, time.Millisecond)
}

// failed notes a Redis error: the local limiter answers for RedisRetry,
// and the log hears of it once per RedisLogInterval.
func (s *sharedLimits) failed(err error) {
	now := time.Now()
	s.downUntil.Store(now.Add(RedisRetry).UnixNano())
	s.down.Store(true)
	last := s.lastLog.Load()
	if now.UnixNano()-last >= int64(RedisLogInterval) && s.lastLog.CompareAndSwap(last, now.UnixNano()) {
		s.log.Warn("redis rate limit unavailable; per-second limits are per process until it answers", "err", err)
	}
}

func (s *sharedLimits) close() error { return s.rdb.Close() }
