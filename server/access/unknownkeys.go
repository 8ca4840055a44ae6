package access

import (
	"errors"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// Unknown keys. A key the store does not know costs a store read, and a
// stranger needs no key of ours to send one: a flood of made-up keys
// would land on the database that every instance shares. So the key
// cache remembers unknown keys too (for KeyCacheTTL, like known ones: a
// key that did not exist when it was presented cannot have been issued
// since, as issued keys carry 190 random bits), and each client address
// (an IPv6 /64) may make UnknownKeysPerSecond store reads that find no
// key, in bursts of UnknownKeysBurst. Past that, a key this process has
// not cached is refused with 429 without a store read until the bucket
// refills; a key it has cached still works.
const (
	UnknownKeysPerSecond = 5
	UnknownKeysBurst     = 20
	// UnknownKeyClients is the most clients whose unknown-key buckets a
	// process keeps (a few MB). When that many have sent unknown keys
	// within the last few seconds, the lookups of keys this process has
	// not cached from any other client are refused too, until some
	// buckets refill: many addresses flooding at once cost memory and
	// database reads only up to a bound.
	UnknownKeyClients = 1 << 16
)

// ErrUnknownKeys is the refusal of a key lookup from a client that sent
// too many unknown keys (see UnknownKeysPerSecond); the error is an
// *UnknownKeysError that says when to try again.
var ErrUnknownKeys = errors.New("access: too many unknown keys from this client")

// An UnknownKeysError refuses a key lookup: its client sent too many
// unknown keys. It wraps ErrUnknownKeys.
type UnknownKeysError struct {
	RetryAfter time.Duration
}

func (e *UnknownKeysError) Error() string { return ErrUnknownKeys.Error() }
func (e *UnknownKeysError) Unwrap() error { return ErrUnknownKeys }

// unknownKeyLimits keeps a token bucket of unknown-key lookups per client.
type unknownKeyLimits struct {
	mu      sync.Mutex
	clients map[string]*unknownKeyEntry
	lastGC  time.Time
}

type unknownKeyEntry struct {
	lim  *rate.Limiter
	seen time.Time
}

func newUnknownKeyLimits() *unknownKeyLimits {
	return &unknownKeyLimits{clients: map[string]*unknownKeyEntry{}}
}

// exhausted reports whether client has no unknown-key lookup left now,
// and how long until it has one.
func (l *unknownKeyLimits) exhausted(client string, now time.Time) (bool, time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	e := l.clients[client]
	if e == nil {
		if len(l.clients) >= UnknownKeyClients {
			l.gcLocked(now)
			if len(l.clients) >= UnknownKeyClients {
				return true, time.Second
			}
		}
		return false, 0
	}
	if e.lim.TokensAt(now) >= 1 {
		return false, 0
	}
	r := e.lim.ReserveN(now, 1)
	wait := r.DelayFrom(now)
	r.CancelAt(now)
	return true, max(wait, time.Millisecond)
}

// miss takes one unknown-key lookup from client's bucket.
func (l *unknownKeyLimits) miss(client string, now time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	e := l.clients[client]
	if e == nil {
		e = &unknownKeyEntry{lim: rate.NewLimiter(UnknownKeysPerSecond, UnknownKeysBurst)}
		l.clients[client] = e
	}
	e.seen = now
	e.lim.AllowN(now, 1)
	if now.Sub(l.lastGC) > time.Minute {
		l.gcLocked(now)
	}
}

// refill is how long an emptied bucket takes to be full again.
const refill = UnknownKeysBurst * time.Second / UnknownKeysPerSecond

// gcLocked forgets the clients whose buckets have refilled: a full bucket
// is the same as none, so the map stays the size of the clients sending
// unknown keys now.
func (l *unknownKeyLimits) gcLocked(now time.Time) {
	for c, e := range l.clients {
		if now.Sub(e.seen) >= refill {
			delete(l.clients, c)
		}
	}
	l.lastGC = now
}
