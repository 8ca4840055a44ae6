package server

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/textanalysis/go-textanalysis/server/access"
	"github.com/textanalysis/go-textanalysis/server/store"
	"github.com/textanalysis/go-textanalysis/server/store/sqlite"
	"github.com/textanalysis/go-textanalysis/textanalysis"
)

// limitedServer is a metered server whose work limiter the test can fill.
func limitedServer(t *testing.T, cfg Config, allowance int64) (*Server, *httptest.Server, string) {
	t.Helper()
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "ta.db"))
	require.NoError(t, err)
	t.Cleanup(func() { st.Close() })
	gate, err := access.New(ctx, access.Config{Store: st, Rates: noRates, FreeAllowance: allowance})
	require.NoError(t, err)
	acct, err := st.CreateAccount(ctx, store.Account{Plan: store.PlanFree, Email: "w@example.com"})
	require.NoError(t, err)
	iss, err := gate.IssueKey(ctx, acct, access.KindLive, "")
	require.NoError(t, err)
	an, err := testAnalyzer()
	require.NoError(t, err)
	cfg.Gate = gate
	srv, err := New(cfg, an)
	require.NoError(t, err)
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	return srv, ts, iss.Secret
}

// fill takes all the work limiter's room until the test ends or the
// returned function is called.
func fill(t *testing.T, srv *Server) func() {
	t.Helper()
	require.NotNil(t, srv.work)
	require.True(t, acquired(srv.work, srv.work.total))
	released := false
	release := func() {
		if !released {
			released = true
			srv.work.release(srv.work.total)
		}
	}
	t.Cleanup(release)
	return release
}

// Past the cap on concurrent work, an analysis answers 503 overloaded
// with Retry-After, and the request is not counted.
func TestOverloadedIs503AndNotMetered(t *testing.T) {
	srv, ts, key := limitedServer(t, Config{MaxWorkWait: -1}, 10)
	res := call(t, "GET", ts.URL+"/sentiment?text=ok", key, "")
	require.Equal(t, http.StatusOK, res.status)
	require.Equal(t, "9", res.header.Get("X-Gw-Remaining"))

	release := fill(t, srv)
	tests := []struct {
		name, method, path, body string
	}{
		{"GET", "GET", "/sentiment?text=ok", ""},
		{"POST", "POST", "/ner", `{"text":"Ada Lovelace"}`},
		{"POST with url", "POST", "/qa", `{"question":"q","url":"http://example.invalid/"}`},
		{"display", "GET", "/ner/display?text=Ada", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := call(t, tt.method, ts.URL+tt.path, key, tt.body)
			require.Equal(t, http.StatusServiceUnavailable, res.status, res.body)
			assert.Equal(t, "1", res.header.Get("Retry-After"))
			assert.Equal(t, "application/json", res.header.Get("Content-Type"))
			assert.JSONEq(t, `{"detail":"The server is busy with other requests; try again in a second.","error":"overloaded"}`, res.body)
			assert.Equal(t, "9", res.header.Get("X-Gw-Remaining"), "a 503 is not counted")
			assert.NotEmpty(t, res.header.Get("X-Gw-Reset"))
			assert.NotEmpty(t, res.header.Get("X-Request-Id"))
		})
	}
	t.Run("no key is still a 401", func(t *testing.T) {
		res := call(t, "POST", ts.URL+"/ner", "", `{"text":"Ada"}`)
		assert.Equal(t, http.StatusUnauthorized, res.status)
	})
	t.Run("unknown key is still a 401", func(t *testing.T) {
		res := call(t, "POST", ts.URL+"/ner", "ta_live_"+strings.Repeat("x", 32), `{"text":"Ada"}`)
		assert.Equal(t, http.StatusUnauthorized, res.status)
	})

	release()
	res = call(t, "GET", ts.URL+"/sentiment?text=ok", key, "")
	require.Equal(t, http.StatusOK, res.status)
	assert.Equal(t, "8", res.header.Get("X-Gw-Remaining"), "only the two 200s were counted")
}

// A request waits a short while for room rather than failing at once.
func TestOverloadedWaitsForRoom(t *testing.T) {
	srv, ts, key := limitedServer(t, Config{MaxWorkWait: 5 * time.Second}, 10)
	release := fill(t, srv)
	time.AfterFunc(100*time.Millisecond, release)
	res := call(t, "POST", ts.URL+"/sentiment", key, `{"text":"What a day"}`)
	assert.Equal(t, http.StatusOK, res.status, res.body)
}

// The weight is released whatever the answer, so that errors do not leak
// room: after many requests of every kind, the whole weight is free.
func TestWorkIsReleased(t *testing.T) {
	srv, ts, key := limitedServer(t, Config{}, 100)
	for _, c := range []struct{ method, path, body string }{
		{"GET", "/sentiment?text=ok", ""},
		{"GET", "/sentiment", ""},
		{"POST", "/ner", `{"text":"Ada"}`},
		{"POST", "/ner", `{"text":`},
		{"POST", "/qa", `{"question":"q","url":"http://127.0.0.1:1/"}`},
		{"POST", "/ner/display", `{"text":"Ada","spans":"0:9:X"}`},
	} {
		call(t, c.method, ts.URL+c.path, key, c.body)
	}
	require.True(t, acquired(srv.work, srv.work.total), "all weight released")
	srv.work.release(srv.work.total)
}

func TestWorkWeight(t *testing.T) {
	an, err := testAnalyzer()
	require.NoError(t, err)
	srv, err := New(Config{}, an)
	require.NoError(t, err)
	maxText := int64(textanalysis.DefaultMaxTextRunes)
	fetch := int64(workBase)
	ner, _ := operationByID("analyze_ner_post")
	text, _ := operationByID("get_text")
	tests := []struct {
		name string
		op   operation
		size int
		want int64
	}{
		{"small text", ner, 10, workBase + 10},
		{"text at the cap", ner, int(maxText) + 500_000, workBase + maxText},
		{"fetch, before the page arrives", text, 30, fetch},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, srv.weight(tt.op, tt.size))
		})
	}
	assert.Less(t, textanalysis.DefaultMaxPageBytes/pageWorkPerByte+maxText, int64(DefaultMaxWork), "the largest page, for qa, fits under the default cap")

	for body, want := range map[string]bool{
		`{"question":"q","url":"https://example.com/"}`: true,
		`{"question":"q","context":"c"}`:                false,
		`{"question":"q","url":null,"context":"c"}`:     false,
		`{"question":"url"}`:                            false,
		`not json`:                                      false,
		`["url"]`:                                       false,
	} {
		assert.Equal(t, want, fetchesURL([]byte(body)), body)
	}
}

func TestWorkLimiterClampsHeavyRequests(t *testing.T) {
	l := newWorkLimiter(100, -1)
	w, ok := l.acquire(context.Background(), 1000)
	require.True(t, ok, "a request heavier than the total runs alone")
	assert.Equal(t, int64(100), w)
	_, ok = l.acquire(context.Background(), 1)
	assert.False(t, ok)
	l.release(w)
	assert.Nil(t, newWorkLimiter(-1, 0), "negative: no cap")
}

// A heavy request waiting for room must not hold back light ones that
// fit: with a FIFO semaphore one waiting page fetch turned every short
// request behind it into a 503.
func TestWorkLimiterLetsLightRequestsPassAHeavyWaiter(t *testing.T) {
	l := newWorkLimiter(100, 5*time.Second)
	held, ok := l.acquire(context.Background(), 60)
	require.True(t, ok)
	heavy := make(chan bool)
	go func() {
		w, ok := l.acquire(context.Background(), 80)
		if ok {
			l.release(w)
		}
		heavy <- ok
	}()
	for range 20 { // light requests come and go while the heavy one waits
		w, ok := l.acquire(context.Background(), 30)
		require.True(t, ok, "a light request that fits is not queued behind a heavy one")
		l.release(w)
	}
	l.release(held)
	assert.True(t, <-heavy, "the heavy request runs once there is room")
}

func TestWorkLimiterGivesUpAfterItsWait(t *testing.T) {
	l := newWorkLimiter(10, 20*time.Millisecond)
	w, ok := l.acquire(context.Background(), 10)
	require.True(t, ok)
	_, ok = l.acquire(context.Background(), 1)
	assert.False(t, ok, "no room within the wait: refused")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	l2 := newWorkLimiter(10, time.Hour)
	_, _ = l2.acquire(context.Background(), 10)
	_, ok = l2.acquire(ctx, 1)
	assert.False(t, ok, "a cancelled request stops waiting")
	l.release(w)
}

// /ner/display with ten spans over 100,000 code points of one-letter
// words would draw 65 MB: it is a 422 naming the limit, in both forms.
func TestDisplayAmplificationIs422(t *testing.T) {
	ts := newTestServer(t, Config{})
	text := strings.Repeat("a ", textanalysis.DefaultMaxTextRunes/2)
	spans := strings.TrimSuffix(strings.Repeat("0:100000:PERSON,", 10), ",")
	body, err := json.Marshal(map[string]string{"text": text, "spans": spans, "format": "span"})
	require.NoError(t, err)
	query := url.Values{"text": {text}, "spans": {spans}, "format": {"span"}}.Encode()
	for _, tt := range []struct {
		source string
		res    response
	}{
		{"body", do(t, "POST", ts.URL+"/ner/display", string(body))},
		{"query", do(t, "GET", ts.URL+"/ner/display?"+query, "")},
	} {
		t.Run(tt.source, func(t *testing.T) {
			require.Equal(t, http.StatusUnprocessableEntity, tt.res.status)
			assert.Less(t, len(tt.res.body), 2*len(body), "no megabytes of output")
			var got validationError
			require.NoError(t, json.Unmarshal([]byte(tt.res.body), &got))
			require.Len(t, got.Detail, 1)
			d := got.Detail[0]
			assert.Equal(t, "value_error", d.Type)
			assert.Equal(t, []any{tt.source}, d.Loc)
			assert.Equal(t, "Value error, the HTML would be larger than 16777216 bytes, the most this API answers; "+
				"draw fewer or shorter overlapping spans, or a shorter text", d.Msg)
			assert.Equal(t, map[string]any{"error": map[string]any{}}, d.Ctx)
		})
	}
	t.Run("one span over the same text is drawn", func(t *testing.T) {
		b, err := json.Marshal(map[string]string{"text": text, "spans": "0:100000:PERSON", "format": "span"})
		require.NoError(t, err)
		res := do(t, "POST", ts.URL+"/ner/display", string(b))
		require.Equal(t, http.StatusOK, res.status)
		assert.Equal(t, "text/html; charset=utf-8", res.header.Get("Content-Type"))
		assert.Greater(t, len(res.body), 10<<20)
		assert.True(t, strings.HasSuffix(res.body, "</div>"))
	})
}

// acquired takes weight from l without waiting.
func acquired(l *workLimiter, weight int64) bool {
	ok, _ := l.tryAcquire(weight)
	return ok
}

// A fetched page is weighed by its size once it has arrived; the request
// was counted by then, so it waits for room until its deadline rather
// than being refused.
func TestPageAdmission(t *testing.T) {
	srv, _, _ := limitedServer(t, Config{MaxWork: 1_000_000}, 10)
	text, _ := operationByID("get_text_post")
	qa, _ := operationByID("qa_post")

	release, err := srv.admitPage(text)(t.Context(), 300_000)
	require.NoError(t, err)
	assert.Equal(t, int64(100_000), srv.work.used, "a third of the page's bytes")
	release()
	release, err = srv.admitPage(qa)(t.Context(), 300_000)
	require.NoError(t, err)
	assert.Equal(t, int64(100_000+textanalysis.DefaultMaxTextRunes), srv.work.used, "qa analyses the page's text too")
	release()
	assert.Zero(t, srv.work.used)

	fill(t, srv)
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	_, err = srv.admitPage(text)(ctx, 1000)
	assert.ErrorIs(t, err, context.DeadlineExceeded, "no room until the deadline: the request times out (504)")
}

// Past MaxFetches, a request that would fetch a page answers 503 before it
// is counted; other operations are not held back.
func TestFetchSlots(t *testing.T) {
	srv, ts, key := limitedServer(t, Config{MaxFetches: 1, MaxWorkWait: -1}, 10)
	require.True(t, acquired(srv.fetches, 1))
	t.Cleanup(func() { srv.fetches.release(1) })
	res := call(t, "POST", ts.URL+"/text", key, `{"url":"http://example.invalid/"}`)
	assert.Equal(t, http.StatusServiceUnavailable, res.status)
	assert.Equal(t, "1", res.header.Get("Retry-After"))
	assert.Equal(t, "10", res.header.Get("X-Gw-Remaining"), "a 503 is not counted")
	res = call(t, "GET", ts.URL+"/sentiment?text=ok", key, "")
	assert.Equal(t, http.StatusOK, res.status, "analyses of given text are not held back by fetches")
}

// Clients dripping large bodies can hold at most MaxBodyBuffer bytes of
// them: past it a POST answers 503 before its body is read, uncounted,
// while a GET, which has no body, still runs.
func TestBodyBuffer(t *testing.T) {
	srv, ts, key := limitedServer(t, Config{MaxBodyBuffer: 1000, MaxWorkWait: -1}, 10)
	res := call(t, "POST", ts.URL+"/sentiment", key, `{"text":"fits"}`)
	require.Equal(t, http.StatusOK, res.status)
	require.Equal(t, "9", res.header.Get("X-Gw-Remaining"))

	require.True(t, acquired(srv.bodies, 990))
	t.Cleanup(func() { srv.bodies.release(990) })
	res = call(t, "POST", ts.URL+"/sentiment", key, `{"text":"`+strings.Repeat("a", 50)+`"}`)
	assert.Equal(t, http.StatusServiceUnavailable, res.status)
	assert.Equal(t, "1", res.header.Get("Retry-After"))
	assert.Equal(t, "9", res.header.Get("X-Gw-Remaining"), "a 503 is not counted")
	res = call(t, "GET", ts.URL+"/sentiment?text=ok", key, "")
	assert.Equal(t, http.StatusOK, res.status)

	// MCP reads whole bodies before any key is checked: they count too.
	res = call(t, "POST", ts.URL+"/mcp", "", `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"pad":"`+strings.Repeat("a", 50)+`"}}`)
	assert.Equal(t, http.StatusServiceUnavailable, res.status)
}
