package access

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sync/singleflight"

	"github.com/textanalysis/go-textanalysis/server/store"
)

// Key cache limits. A key and its account are read from the store at most
// once per KeyCacheTTL per process, so a revoked key, a deleted account or
// a plan changed by another process (or by `textanalysis keys`) takes
// effect on every instance within DefaultKeyCacheTTL. Changes made through
// this gate (revoking on the account page, a claim) take effect at once on
// this instance.
const (
	DefaultKeyCacheTTL = time.Second
	// KeyCacheSize is the most keys a process keeps; past it, expired
	// entries are dropped, then arbitrary ones.
	KeyCacheSize = 10_000
)

// keyCache remembers what KeyByHash said about a key for a short while,
// unknown keys included, and bounds the store reads that find no key per
// client (see UnknownKeysPerSecond).
type keyCache struct {
	st  store.Store
	ttl time.Duration // 0: every lookup reads the store
	now func() time.Time

	// entries are keyed by the key's SHA-256 digest: the hex form the
	// store wants is made only on a miss.
	mu      sync.RWMutex
	entries map[[sha256.Size]byte]*keyEntry
	// unknown holds when each unknown key was found unknown.
	unknown map[[sha256.Size]byte]time.Time
	group   singleflight.Group
	misses  *unknownKeyLimits
}

type keyEntry struct {
	key     store.Key
	account store.Account
	loaded  time.Time
	// touched is when this process last wrote (or read) the key's last
	// use, Unix nanoseconds; see Gate.touch.
	touched atomic.Int64
}

func newKeyCache(st store.Store, ttl time.Duration, now func() time.Time) *keyCache {
	return &keyCache{st: st, ttl: max(ttl, 0), now: now, entries: map[[sha256.Size]byte]*keyEntry{},
		unknown: map[[sha256.Size]byte]time.Time{}, misses: newUnknownKeyLimits()}
}

// get returns key's entry and account, from the cache when read less
// than ttl ago. store.ErrNotFound for an unknown key; ErrUnknownKeys
// (wrapped in an *UnknownKeysError) when the client of ctx (WithClient)
// has sent too many.
func (c *keyCache) get(ctx context.Context, key string) (*keyEntry, error) {
	now := c.now()
	digest := keyDigest(key)
	if c.ttl > 0 {
		c.mu.RLock()
		e := c.entries[digest]
		var at time.Time
		unknown := false
		if e == nil {
			at, unknown = c.unknown[digest]
		}
		c.mu.RUnlock()
		if e != nil && now.Sub(e.loaded) < c.ttl && !now.Before(e.loaded) {
			return e, nil
		}
		if unknown && now.Sub(at) < c.ttl && !now.Before(at) {
			return nil, store.ErrNotFound
		}
	}
	client := clientFrom(ctx)
	if client != "" {
		if out, wait := c.misses.exhausted(client, now); out {
			return nil, &UnknownKeysError{RetryAfter: wait}
		}
	}
	hash := hex.EncodeToString(digest[:]) // HashKey(key)
	// Requests for one key that miss together make one read.
	v, err, _ := c.group.Do(hash, func() (any, error) {
		k, a, err := c.st.KeyByHash(ctx, hash)
		if err != nil {
			c.mu.Lock()
			delete(c.entries, digest)
			if errors.Is(err, store.ErrNotFound) && c.ttl > 0 {
				if len(c.unknown) >= KeyCacheSize {
					c.evictUnknownLocked(now)
				}
				c.unknown[digest] = now
			}
			c.mu.Unlock()
			return nil, err
		}
		e := &keyEntry{key: k, account: a, loaded: now}
		e.touched.Store(k.LastUsedAt.UnixNano())
		if k.LastUsedAt.IsZero() {
			e.touched.Store(0)
		}
		if c.ttl == 0 {
			return e, nil
		}
		c.mu.Lock()
		if old := c.entries[digest]; old != nil && old.key.ID == k.ID {
			e.touched.Store(max(e.touched.Load(), old.touched.Load()))
		}
		if len(c.entries) >= KeyCacheSize {
			c.evictLocked(now)
		}
		c.entries[digest] = e
		c.mu.Unlock()
		return e, nil
	})
	if err != nil {
		if client != "" && errors.Is(err, store.ErrNotFound) {
			c.misses.miss(client, now)
		}
		return nil, err
	}
	return v.(*keyEntry), nil
}

// evictUnknownLocked drops the expired unknown keys, then arbitrary ones
// until there is room.
func (c *keyCache) evictUnknownLocked(now time.Time) {
	for h, at := range c.unknown {
		if now.Sub(at) >= c.ttl {
			delete(c.unknown, h)
		}
	}
	for h := range c.unknown {
		if len(c.unknown) < KeyCacheSize {
			break
		}
		delete(c.unknown, h)
	}
}

func (c *keyCache) evictLocked(now time.Time) {
	for h, e := range c.entries {
		if now.Sub(e.loaded) >= c.ttl {
			delete(c.entries, h)
		}
	}
	for h := range c.entries {
		if len(c.entries) < KeyCacheSize {
			break
		}
		delete(c.entries, h)
	}
}

// forget drops the cached keys of an account (accountID) or one key
// (keyID), after this gate changed them; 0 matches nothing.
func (c *keyCache) forget(accountID, keyID int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for h, e := range c.entries {
		if (accountID != 0 && e.key.AccountID == accountID) || (keyID != 0 && e.key.ID == keyID) {
			delete(c.entries, h)
		}
	}
}

// keyDigest is the SHA-256 of key, hashed from a copy on the stack: a
// []byte conversion of a key (longer than the 32 bytes the compiler keeps
// on the stack) would cost an allocation per request.
func keyDigest(key string) [sha256.Size]byte {
	var buf [128]byte
	if len(key) <= len(buf) {
		return sha256.Sum256(append(buf[:0], key...))
	}
	return sha256.Sum256([]byte(key))
}
