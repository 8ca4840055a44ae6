package server

import (
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/textanalysis/go-textanalysis/server/access"
)

// presentedKey is the key a request carries: X-API-Key, or
// Authorization: Bearer (X-API-Key wins when both are sent).
func presentedKey(r *http.Request) string {
	if k := strings.TrimSpace(r.Header.Get("X-API-Key")); k != "" {
		return k
	}
	auth := r.Header.Get("Authorization")
	if scheme, token, ok := strings.Cut(auth, " "); ok && strings.EqualFold(scheme, "Bearer") {
		return strings.TrimSpace(token)
	}
	return ""
}

// refusal is the body of a 401 or 429 (DESIGN.md §4).
type refusal struct {
	Detail     string `json:"detail"`
	Error      string `json:"error"`
	Action     string `json:"action,omitempty"`
	Reset      string `json:"reset,omitempty"`
	UpgradeURL string `json:"upgrade_url,omitempty"`
	ClaimURL   string `json:"claim_url,omitempty"`
}

// setGatewayHeaders writes X-Gw-Remaining and X-Gw-Reset. Without a known
// allowance (no key, bad key) they say nothing is left until next month.
func (s *Server) setGatewayHeaders(w http.ResponseWriter, d access.Decision) {
	remaining, reset := d.Remaining, d.Reset
	if !d.Metered {
		remaining, reset = 0, access.NextMonth(s.now())
	}
	// Set each with its canonical name, and both values in one array:
	// every metered answer writes them.
	vals := make([]string, 2)
	vals[0], vals[1] = strconv.FormatInt(remaining, 10), resetText(reset)
	h := w.Header()
	h["X-Gw-Remaining"], h["X-Gw-Reset"] = vals[0:1:1], vals[1:2:2]
}

// lastReset is the last X-Gw-Reset written: the same for every request of
// a month (all but trial keys), so it is formatted once.
var lastReset atomic.Pointer[formattedTime]

type formattedTime struct {
	t    time.Time
	text string
}

// resetText is t in RFC 3339, UTC.
func resetText(t time.Time) string {
	if f := lastReset.Load(); f != nil && f.t.Equal(t) {
		return f.text
	}
	f := &formattedTime{t: t, text: t.UTC().Format(time.RFC3339)}
	lastReset.Store(f)
	return f.text
}

// metered wraps an operation: the key is checked and the request counted
// before the handler runs, so every request not refused with 429 is
// metered (422s included) and a crash after the count loses nothing.
// The work runs while the count is committed (see overlapCount).
func (s *Server) metered(next http.Handler) http.Handler {
	if s.cfg.Gate == nil {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		key := presentedKey(r)
		if key != "" {
			setKeyPrefix(r.Context(), access.PrefixOf(key))
		}
		adm, err := s.cfg.Gate.Begin(r.Context(), key)
		if err != nil {
			s.writeMeterError(w, r, err)
			return
		}
		d, final := adm.Final()
		if !final {
			// The work runs while the count is committed; the answer
			// waits for it (see overlapCount).
			s.overlapCount(w, r, adm, next)
			return
		}
		s.setGatewayHeaders(w, d)
		if d.Refused() {
			s.writeRefusal(w, d)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// writeMeterError answers 503 when the store cannot check or count.
func (s *Server) writeMeterError(w http.ResponseWriter, r *http.Request, err error) {
	s.log.Error("meter", "request_id", requestIDFrom(r.Context()), "err", err)
	s.setGatewayHeaders(w, access.Decision{})
	w.Header().Set("Retry-After", "1")
	writeJSON(w, http.StatusServiceUnavailable, problem{Detail: "The service cannot check keys right now; try again shortly.", Error: "unavailable", RequestID: requestIDFrom(r.Context())})
}

func (s *Server) writeRefusal(w http.ResponseWriter, d access.Decision) {
	body := refusal{Detail: d.Detail, Error: d.Code, Action: d.Action, UpgradeURL: d.UpgradeURL, ClaimURL: d.ClaimURL}
	if d.Status == http.StatusTooManyRequests {
		body.Reset = d.Reset.UTC().Format(time.RFC3339)
		if !d.RetryAt.IsZero() {
			// A per-second refusal: reset is when the next request is
			// allowed, rounded up to the second, not the allowance's
			// refill (which X-Gw-Reset still gives).
			body.Reset = ceilSecond(d.RetryAt).UTC().Format(time.RFC3339)
		}
		if d.Action == "wait" && d.RetryAfter > 0 {
			w.Header().Set("Retry-After", strconv.FormatInt(access.RetryAfterSeconds(d.RetryAfter), 10))
		}
	}
	writeJSON(w, d.Status, body)
}

// ceilSecond rounds t up to a whole second, so that a time written in
// RFC 3339 without fractions is never early.
func ceilSecond(t time.Time) time.Time {
	if r := t.Truncate(time.Second); !r.Equal(t) {
		return r.Add(time.Second)
	}
	return t
}

// peekGateway adds the allowance headers to responses that are not
// metered (docs, OpenAPI, developer site) when the request presents a key.
func (s *Server) peekGateway(next http.Handler) http.Handler {
	if s.cfg.Gate == nil {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		key := presentedKey(r)
		if k, ok := strings.CutPrefix(r.URL.Path, "/mcp/k/"); ok && k != "" {
			key, _, _ = strings.Cut(k, "/")
		}
		switch {
		case key == "" || isOperationPath(r.URL.Path):
		case r.URL.Path == "/mcp" || strings.HasPrefix(r.URL.Path, "/mcp/"):
			// Tool calls are counted while the request runs: the
			// allowance is read when the answer is written, after them.
			orig := w
			w = &gatewayOnWrite{ResponseWriter: w, peek: func() { s.peekInto(orig, r, key) }}
		default:
			s.peekInto(w, r, key)
		}
		next.ServeHTTP(w, r)
	})
}

func (s *Server) peekInto(w http.ResponseWriter, r *http.Request, key string) {
	if d, err := s.cfg.Gate.Peek(r.Context(), key); err == nil {
		s.setGatewayHeaders(w, d)
	}
}

// gatewayOnWrite sets the allowance headers just before the status line.
type gatewayOnWrite struct {
	http.ResponseWriter
	peek func()
	done bool
}

func (g *gatewayOnWrite) WriteHeader(status int) {
	if !g.done {
		g.done = true
		g.peek()
	}
	g.ResponseWriter.WriteHeader(status)
}

func (g *gatewayOnWrite) Write(b []byte) (int, error) {
	if !g.done {
		g.WriteHeader(http.StatusOK)
	}
	return g.ResponseWriter.Write(b)
}

func (g *gatewayOnWrite) Flush() {
	if f, ok := g.ResponseWriter.(http.Flusher); ok {
		if !g.done {
			g.WriteHeader(http.StatusOK)
		}
		f.Flush()
	}
}

func (g *gatewayOnWrite) Unwrap() http.ResponseWriter { return g.ResponseWriter }

// operationPaths are the analysis paths, for the checks every request makes.
var operationPaths = func() map[string]bool {
	paths := map[string]bool{}
	for _, op := range operations {
		paths[op.Path] = true
	}
	return paths
}()

func isOperationPath(p string) bool { return operationPaths[p] }
