package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/textanalysis/go-textanalysis/extract"
	"github.com/textanalysis/go-textanalysis/server/access"
)

// Concurrent work. Every analysis request holds a weight of a per-process
// semaphore while it runs, so that however many requests arrive at once,
// the memory their work takes stays bounded. The unit of
// weight is one code point of text to analyse; the measured peak heap of
// the analyses is 30–80 bytes per code point (NER, sentiment, QA and
// display of 100,000 code points take 3–8 MB).
const (
	// DefaultMaxWork is the total weight in flight when Config.MaxWork is
	// zero: 2,000,000, twenty texts of the largest size at once, or one page
	// fetch with room for five such texts. At the measured cost that is at
	// most about 160 MB of working heap on top of the models, whatever the
	// number of cores: the memory is what must stay bounded, and more
	// analyses at once than cores only share the CPU.
	DefaultMaxWork = 2_000_000
	// DefaultMaxWorkWait is how long a request waits for its weight when
	// Config.MaxWorkWait is zero, before it is refused with 503.
	DefaultMaxWorkWait = time.Second
	// workBase is the weight of any request, whatever its input: decoding,
	// the answer, the request's own buffers.
	workBase = 2_000
	// pageWorkPerByte divides a fetched page's size into the weight of
	// its extraction: extracting a page takes about 22 bytes of heap per
	// byte of HTML (a 5 MiB page: 117 MB), about a quarter of the 80 bytes
	// analysing a code point of text takes at most; a third, to be safe.
	pageWorkPerByte = 3
	// DefaultMaxFetches is how many requests of a process may fetch a page
	// at once when Config.MaxFetches is zero. A fetch mostly waits on the
	// network and takes no work weight until its page has arrived, but it
	// holds the page's bytes (up to the fetch cap, 5 MiB): 16 fetches hold
	// at most 80 MiB.
	DefaultMaxFetches = 16
	// DefaultMaxBodyBuffer is the most bytes of POST bodies a process
	// holds at once when Config.MaxBodyBuffer is zero: 64 MiB, 64 bodies of
	// the largest size. Without it, clients dripping 1 MiB bodies on every
	// connection the caps allow (1,024) would make the server hold 1 GiB.
	DefaultMaxBodyBuffer = 64 << 20
)

// workLimiter bounds the weight of the work in flight. Unlike a FIFO
// semaphore (golang.org/x/sync/semaphore), a waiter never holds back a
// lighter request that fits: otherwise one heavy request waiting for room
// would turn every short request behind it into a 503, and a client could
// starve the server with a few heavy ones. A heavy request may in turn wait
// while light ones pass, but only for the bounded wait, after which it gets
// 503 and retries.
type workLimiter struct {
	total int64
	wait  time.Duration

	mu   sync.Mutex
	used int64
	// freed is closed, and replaced, whenever weight is released.
	freed chan struct{}
}

// newWorkLimiter returns nil (no limit) for a negative total.
func newWorkLimiter(total int64, wait time.Duration) *workLimiter {
	if total < 0 {
		return nil
	}
	return &workLimiter{total: total, wait: max(wait, 0), freed: make(chan struct{})}
}

// tryAcquire takes weight if it fits now.
func (l *workLimiter) tryAcquire(weight int64) (bool, <-chan struct{}) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.used+weight <= l.total {
		l.used += weight
		return true, nil
	}
	return false, l.freed
}

// release gives weight back and wakes the waiters.
func (l *workLimiter) release(weight int64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.used -= weight
	close(l.freed)
	l.freed = make(chan struct{})
}

// acquire takes weight (at most the total, so that the heaviest request
// can still run alone), waiting at most l.wait. It returns the weight to
// release, or false when the server is too busy.
func (l *workLimiter) acquire(ctx context.Context, weight int64) (int64, bool) {
	if l.wait <= 0 {
		weight = min(weight, l.total)
		ok, _ := l.tryAcquire(weight)
		return weight, ok
	}
	ctx, cancel := context.WithTimeout(ctx, l.wait)
	defer cancel()
	return l.acquireUntil(ctx, weight)
}

// acquireUntil takes weight (at most the total), waiting while ctx lasts.
func (l *workLimiter) acquireUntil(ctx context.Context, weight int64) (int64, bool) {
	weight = min(weight, l.total)
	for {
		ok, freed := l.tryAcquire(weight)
		if ok {
			return weight, true
		}
		select {
		case <-freed:
		case <-ctx.Done():
			return 0, false
		}
	}
}

// limited holds an operation's weight around the key check, the count and
// the work, so that a request refused for want of capacity is not
// counted: it answers 503 with Retry-After before metering.
//
// The weight comes from the request as it arrives, before decoding: the
// bytes of the query or body, which are at least as many as the code
// points of the text they carry, capped at the longest text accepted
// (a longer one is a cheap 422), plus workBase; a request that may fetch a
// page takes one of MaxFetches slots and workBase, and its page is weighed
// once it has arrived (admitPage). A POST body is read before the weight is
// taken, so that a slow client holds none while it sends; only a request
// that presents a known key has its body read this early, as it would be
// just after, so that strangers without a key cost no more than before;
// a request without a key is refused (401) without taking any weight.
func (s *Server) limited(op operation, next http.Handler) http.Handler {
	if s.work == nil {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.cfg.Gate != nil && presentedKey(r) == "" {
			next.ServeHTTP(w, r) // a 401 costs no work
			return
		}
		var size int
		if op.Method == http.MethodPost {
			if !s.knownKey(r) {
				next.ServeHTTP(w, r) // refused by the key check, body unread
				return
			}
			if s.bodies != nil {
				held, ok := s.bodies.acquire(r.Context(), s.bodyWeight(r))
				if !ok {
					setOperation(r.Context(), op.ID)
					s.writeOverloaded(w, r)
					return
				}
				defer s.bodies.release(held)
			}
			body, err := io.ReadAll(http.MaxBytesReader(nil, r.Body, s.cfg.MaxBodyBytes))
			if err != nil {
				// decodeBody reports it (413, or a read error), after
				// the key check and count as before.
				r.Body = io.NopCloser(io.MultiReader(bytes.NewReader(body), errReader{err}))
				next.ServeHTTP(w, r)
				return
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
			size = len(body)
			if op.Fetches && !fetchesURL(body) {
				op.Fetches = false
			}
		} else {
			size = len(r.URL.RawQuery)
		}
		if op.Fetches && s.fetches != nil {
			slot, ok := s.fetches.acquire(r.Context(), 1)
			if !ok {
				setOperation(r.Context(), op.ID)
				s.writeOverloaded(w, r)
				return
			}
			defer s.fetches.release(slot)
		}
		weight, ok := s.work.acquire(r.Context(), s.weight(op, size))
		if !ok {
			setOperation(r.Context(), op.ID)
			s.writeOverloaded(w, r)
			return
		}
		defer s.work.release(weight)
		if op.Fetches {
			r = r.WithContext(extract.WithAdmission(r.Context(), s.admitPage(op)))
		}
		next.ServeHTTP(w, r)
	})
}

// heldBodies counts the body of every request to next under
// MaxBodyBuffer while it runs, for endpoints that read whole bodies
// before any key is checked (MCP: listing tools needs no key).
func (s *Server) heldBodies(next http.Handler) http.Handler {
	if s.bodies == nil {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Body == nil || r.Body == http.NoBody || r.ContentLength == 0 {
			next.ServeHTTP(w, r)
			return
		}
		held, ok := s.bodies.acquire(r.Context(), s.bodyWeight(r))
		if !ok {
			writeBusy(w)
			return
		}
		defer s.bodies.release(held)
		next.ServeHTTP(w, r)
	})
}

// bodyWeight is the memory a POST body may take while it is read and
// held: its declared length, or the body cap when it declares none
// (chunked). A body longer than it declares is cut off by net/http.
func (s *Server) bodyWeight(r *http.Request) int64 {
	if r.ContentLength >= 0 {
		return min(r.ContentLength, s.cfg.MaxBodyBytes) + 1
	}
	return s.cfg.MaxBodyBytes
}

// weight is the work an operation with an input of size bytes takes
// before any page is fetched.
func (s *Server) weight(op operation, size int) int64 {
	if op.Fetches {
		return workBase // the page is weighed once fetched: admitPage
	}
	return workBase + int64(min(size, s.an.Limits().MaxTextRunes))
}

// admitPage weighs a fetched page before it is extracted, by its size,
// plus the longest text for an operation that analyses the page's text
// (qa with url). By then the request has been counted, so it is not
// refused for want of room: it waits, until its deadline at most (504).
// The page's bytes are already held, and at most MaxFetches of them.
func (s *Server) admitPage(op operation) extract.Admission {
	extra := int64(0)
	if op.Path == "/qa" {
		extra = int64(s.an.Limits().MaxTextRunes)
	}
	return func(ctx context.Context, pageBytes int) (func(), error) {
		weight, ok := s.work.acquireUntil(ctx, int64(pageBytes)/pageWorkPerByte+extra)
		if !ok {
			return nil, fmt.Errorf("server: wait for room to extract a page: %w", ctx.Err())
		}
		return func() { s.work.release(weight) }, nil
	}
}

// fetchesURL reports whether a POST body asks for a page (a url that is
// not null); a body that is not a JSON object asks for nothing.
func fetchesURL(body []byte) bool {
	var probe struct {
		URL json.RawMessage `json:"url"`
	}
	if json.Unmarshal(body, &probe) != nil {
		return false
	}
	return len(probe.URL) > 0 && string(probe.URL) != "null"
}

// knownKey reports whether the request presents a key that the store
// knows and has not revoked, through the gate's key cache (no store read
// for a key seen within access.DefaultKeyCacheTTL); without a Gate every
// request qualifies.
func (s *Server) knownKey(r *http.Request) bool {
	if s.cfg.Gate == nil {
		return true
	}
	key := presentedKey(r)
	if key == "" {
		return false
	}
	ok, err := s.cfg.Gate.Known(r.Context(), key)
	return err == nil && ok
}

// writeOverloaded answers 503 when the work in flight leaves no room. It
// carries the allowance as every answer of an analysis path does, from
// the count this instance last saw, so that a refusal under load costs no
// store round trip; the request was not counted.
func (s *Server) writeOverloaded(w http.ResponseWriter, r *http.Request) {
	if s.cfg.Gate != nil {
		d, err := s.cfg.Gate.PeekKnown(r.Context(), presentedKey(r))
		if err != nil || d.Refused() {
			d = access.Decision{}
		}
		s.setGatewayHeaders(w, d)
	}
	writeBusy(w)
}

// writeBusy writes the 503 of a server with no room for the request.
func writeBusy(w http.ResponseWriter) {
	w.Header().Set("Retry-After", "1")
	writeJSON(w, http.StatusServiceUnavailable, problem{
		Detail: "The server is busy with other requests; try again in a second.", Error: "overloaded",
	})
}

// errReader replays a read error after the bytes read before it.
type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }
