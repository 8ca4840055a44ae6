package server

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/textanalysis/go-textanalysis/server/access"
	"github.com/textanalysis/go-textanalysis/server/store"
	"github.com/textanalysis/go-textanalysis/server/store/sqlite"
)

// syncBuffer collects log output from concurrent handlers.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

type meteredServer struct {
	*httptest.Server
	srv   *Server // the handler, for tests that call it directly
	gate  *access.Gate
	store store.Store
	logs  *syncBuffer
	path  string
}

// noRates lifts the per-second limits, for tests of the allowance alone.
var noRates = map[store.Plan]access.Rate{store.PlanTrial: {}, store.PlanFree: {}, store.PlanPayg: {}, store.PlanSandbox: {}}

func newMeteredServer(t *testing.T, dbPath string, gcfg access.Config, cfg Config) *meteredServer {
	t.Helper()
	st, err := sqlite.Open(context.Background(), dbPath)
	require.NoError(t, err)
	gcfg.Store = st
	gate, err := access.New(context.Background(), gcfg)
	require.NoError(t, err)
	logs := &syncBuffer{}
	cfg.Gate = gate
	cfg.Logger = slog.New(slog.NewJSONHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	an, err := testAnalyzer()
	require.NoError(t, err)
	srv, err := New(cfg, an)
	require.NoError(t, err)
	ts := httptest.NewServer(srv)
	ms := &meteredServer{Server: ts, srv: srv, gate: gate, store: st, logs: logs, path: dbPath}
	t.Cleanup(func() { ts.Close(); st.Close() })
	return ms
}

func (ms *meteredServer) issue(t *testing.T, plan store.Plan, email string) access.Issued {
	t.Helper()
	ctx := context.Background()
	a := store.Account{Plan: plan, Email: email}
	if plan == store.PlanTrial {
		iss, err := ms.gate.IssueTrial(ctx, "192.0.2."+strconv.Itoa(len(email)))
		require.NoError(t, err)
		return iss
	}
	acct, err := ms.store.CreateAccount(ctx, a)
	require.NoError(t, err)
	iss, err := ms.gate.IssueKey(ctx, acct, access.KindLive, "")
	require.NoError(t, err)
	return iss
}

func call(t testing.TB, method, url, key, body string) response {
	t.Helper()
	var r *strings.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	var req *http.Request
	var err error
	if r != nil {
		req, err = http.NewRequest(method, url, r)
	} else {
		req, err = http.NewRequest(method, url, nil)
	}
	require.NoError(t, err)
	if key != "" {
		req.Header.Set("X-API-Key", key)
	}
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	var b bytes.Buffer
	_, err = b.ReadFrom(res.Body)
	require.NoError(t, err)
	return response{status: res.StatusCode, header: res.Header, body: b.String()}
}

// 150 requests from 50 clients on a 100-request trial key: exactly 100
// answers 200 with remaining 99…0, and 50 answers 429 claim.
func TestTrialAllowanceIsExactUnderConcurrency(t *testing.T) {
	ms := newMeteredServer(t, filepath.Join(t.TempDir(), "ta.db"), access.Config{Rates: noRates}, Config{})
	trial := ms.issue(t, store.PlanTrial, "x")

	var mu sync.Mutex
	var remaining []int
	refused := 0
	var wg sync.WaitGroup
	jobs := make(chan int)
	for range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range jobs {
				res := call(t, "GET", ms.URL+"/sentiment?text=good", trial.Secret, "")
				mu.Lock()
				switch res.status {
				case http.StatusOK:
					n, err := strconv.Atoi(res.header.Get("X-Gw-Remaining"))
					assert.NoError(t, err)
					remaining = append(remaining, n)
				case http.StatusTooManyRequests:
					refused++
					var body refusal
					assert.NoError(t, json.Unmarshal([]byte(res.body), &body))
					assert.Equal(t, "claim", body.Action)
					assert.NotEmpty(t, body.ClaimURL)
					assert.Equal(t, "0", res.header.Get("X-Gw-Remaining"))
				default:
					t.Errorf("status %d: %s", res.status, res.body)
				}
				mu.Unlock()
			}
		}()
	}
	for i := range 150 {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	slices.Sort(remaining)
	want := make([]int, 100)
	for i := range want {
		want[i] = i
	}
	assert.Equal(t, want, remaining)
	assert.Equal(t, 50, refused)

	// Every request went through a transaction of counts, refusals too,
	// and each waited at least for its own transaction.
	batches, counted := ms.gate.BatchStats()
	assert.Equal(t, int64(150), counted)
	assert.True(t, batches >= 1 && batches <= 150, "batches %d", batches)
	commit, wait := ms.gate.BatchTimes()
	assert.Positive(t, commit)
	assert.GreaterOrEqual(t, wait, commit, "a request waits at least for its own commit")
	admin := httptest.NewServer(ms.Config.Handler.(*Server).AdminHandler())
	t.Cleanup(admin.Close)
	metrics := call(t, "GET", admin.URL+"/metrics", "", "").body
	for _, series := range []string{"textanalysis_meter_commits_total", "textanalysis_meter_counted_requests_total 150",
		"textanalysis_meter_commit_seconds_total", "textanalysis_meter_wait_seconds_total"} {
		assert.Contains(t, metrics, series)
	}
}

func TestWhatIsMetered(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "ta.db")
	ms := newMeteredServer(t, db, access.Config{Rates: noRates, FreeAllowance: 5}, Config{})
	k := ms.issue(t, store.PlanFree, "m@example.com")
	remaining := func(res response) string { return res.header.Get("X-Gw-Remaining") }

	res := call(t, "GET", ms.URL+"/sentiment?text=ok", k.Secret, "")
	require.Equal(t, http.StatusOK, res.status)
	assert.Equal(t, "4", remaining(res))
	assert.Regexp(t, `^\d{4}-\d\d-01T00:00:00Z$`, res.header.Get("X-Gw-Reset"))

	res = call(t, "GET", ms.URL+"/sentiment", k.Secret, "") // 422 counts
	require.Equal(t, http.StatusUnprocessableEntity, res.status)
	assert.Equal(t, "3", remaining(res))

	res = call(t, "GET", ms.URL+"/docs.md", k.Secret, "") // docs don't count, but report
	require.Equal(t, http.StatusOK, res.status)
	assert.Equal(t, "3", remaining(res))

	// Bearer works as X-API-Key does.
	req, _ := http.NewRequest("POST", ms.URL+"/ner", strings.NewReader(`{"text":"Paris"}`))
	req.Header.Set("Authorization", "Bearer "+k.Secret)
	r2, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	r2.Body.Close()
	assert.Equal(t, http.StatusOK, r2.StatusCode)
	assert.Equal(t, "2", r2.Header.Get("X-Gw-Remaining"))

	for _, want := range []string{"1", "0"} {
		res = call(t, "GET", ms.URL+"/sentiment?text=ok", k.Secret, "")
		require.Equal(t, http.StatusOK, res.status)
		assert.Equal(t, want, remaining(res))
	}
	res = call(t, "GET", ms.URL+"/sentiment?text=ok", k.Secret, "") // 429 does not count
	require.Equal(t, http.StatusTooManyRequests, res.status)
	assert.NotEmpty(t, res.header.Get("Retry-After"))
	var body refusal
	require.NoError(t, json.Unmarshal([]byte(res.body), &body))
	assert.Equal(t, "wait", body.Action)
	assert.Equal(t, "allowance_exhausted", body.Error)
	assert.Equal(t, res.header.Get("X-Gw-Reset"), body.Reset)

	// The count survives a restart.
	ms.Close()
	require.NoError(t, ms.store.Close())
	again := newMeteredServer(t, db, access.Config{Rates: noRates, FreeAllowance: 6}, Config{})
	res = call(t, "GET", again.URL+"/sentiment?text=ok", k.Secret, "")
	require.Equal(t, http.StatusOK, res.status)
	assert.Equal(t, "0", remaining(res), "5 counted before the restart, 1 now, of 6")
}

func TestUnauthorized(t *testing.T) {
	ms := newMeteredServer(t, filepath.Join(t.TempDir(), "ta.db"), access.Config{Rates: noRates}, Config{})
	tests := []struct {
		name, key, code string
	}{
		{"no key", "", "missing_key"},
		{"unknown key", "ta_live_00000000000000000000000000000000", "invalid_key"},
		{"other API's key", "sk_live_abcdef", "invalid_key"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := call(t, "GET", ms.URL+"/ner?text=a", tt.key, "")
			require.Equal(t, http.StatusUnauthorized, res.status)
			var body refusal
			require.NoError(t, json.Unmarshal([]byte(res.body), &body))
			assert.Equal(t, tt.code, body.Error)
			assert.NotEmpty(t, body.Detail)
			assert.Equal(t, "0", res.header.Get("X-Gw-Remaining"))
			assert.NotEmpty(t, res.header.Get("X-Gw-Reset"))
		})
	}
	// Docs, OpenAPI and the index need no key.
	for _, p := range []string{"/", "/openapi.json", "/docs", "/docs.md", "/developer/", "/developer/openapi.json"} {
		res := call(t, "GET", ms.URL+p, "", "")
		assert.Equal(t, http.StatusOK, res.status, p)
	}
}

func TestTrialEndpoint(t *testing.T) {
	ms := newMeteredServer(t, filepath.Join(t.TempDir(), "ta.db"), access.Config{Rates: noRates},
		Config{BaseURL: "https://api.example.com", TrustedProxies: []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}})
	post := func(xff string) response {
		req, _ := http.NewRequest("POST", ms.URL+"/developer/trial", nil)
		if xff != "" {
			req.Header.Set("X-Forwarded-For", xff)
		}
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer res.Body.Close()
		var b bytes.Buffer
		_, _ = b.ReadFrom(res.Body)
		return response{status: res.StatusCode, header: res.Header, body: b.String()}
	}
	var first map[string]any
	for i := range 3 {
		// The test client is 127.0.0.1, not a trusted proxy: its
		// X-Forwarded-For is ignored, so all three count for 127.0.0.1.
		res := post("198.51.100." + strconv.Itoa(i))
		require.Equal(t, http.StatusOK, res.status, res.body)
		if i == 0 {
			require.NoError(t, json.Unmarshal([]byte(res.body), &first))
		}
	}
	assert.Equal(t, "trial", first["plan"])
	assert.Equal(t, "https://api.example.com", first["base_url"])
	assert.Equal(t, "https://api.example.com/mcp", first["mcp_url"])
	assert.Equal(t, float64(100), first["remaining"])
	assert.Regexp(t, `^https://api.example.com/developer/claim\?key=\d+&sig=`, first["claim_url"])
	assert.Regexp(t, `^ta_trial_`, first["key"])
	assert.NotEmpty(t, first["expires_at"])

	res := post("203.0.113.99") // a forged header from an untrusted peer
	assert.Equal(t, http.StatusTooManyRequests, res.status)
	assert.NotEmpty(t, res.header.Get("Retry-After"))
	assert.Contains(t, res.body, `"error":"trial_limit"`)

	// The key works at once.
	key := first["key"].(string)
	ok := call(t, "GET", ms.URL+"/sentiment?text=fine", key, "")
	assert.Equal(t, http.StatusOK, ok.status)
	assert.Equal(t, "99", ok.header.Get("X-Gw-Remaining"))
}

func TestKeysNeverStoredOrLoggedInClear(t *testing.T) {
	db := filepath.Join(t.TempDir(), "ta.db")
	ms := newMeteredServer(t, db, access.Config{Rates: noRates}, Config{})
	k := ms.issue(t, store.PlanFree, "s@example.com")
	call(t, "GET", ms.URL+"/sentiment?text=hi", k.Secret, "")
	call(t, "GET", ms.URL+"/mcp/k/"+k.Secret, "", "")
	req, _ := http.NewRequest("GET", ms.URL+"/ner?text=x", nil)
	req.Header.Set("Authorization", "Bearer "+k.Secret)
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	res.Body.Close()
	ms.Close()
	require.NoError(t, ms.store.Close())

	logs := ms.logs.String()
	require.NotEmpty(t, logs)
	assert.NotContains(t, logs, k.Secret)
	assert.Contains(t, logs, k.Key.Prefix, "logs name the key by its prefix")
	for _, name := range []string{db, db + "-wal", db + "-shm"} {
		data, err := os.ReadFile(name)
		if os.IsNotExist(err) {
			continue
		}
		require.NoError(t, err)
		assert.False(t, bytes.Contains(data, []byte(k.Secret)), "%s holds the key in clear", name)
	}
}

func TestConsoleUsesTheSandboxKey(t *testing.T) {
	ms := newMeteredServer(t, filepath.Join(t.TempDir(), "ta.db"), access.Config{Rates: noRates}, Config{})
	res := call(t, "GET", ms.URL+"/docs", "", "")
	require.Equal(t, http.StatusOK, res.status)
	key, err := ms.gate.SandboxKey(context.Background())
	require.NoError(t, err)
	assert.Contains(t, res.body, key)
	ok := call(t, "GET", ms.URL+"/sentiment?text=good", key, "")
	assert.Equal(t, http.StatusOK, ok.status)
	assert.Equal(t, strconv.Itoa(access.DefaultSandboxAllowance-1), ok.header.Get("X-Gw-Remaining"))
}

// When the store fails, requests get a 503 naming no internals, with the
// gateway headers, and readiness reports it.
func TestStoreFailureIs503(t *testing.T) {
	ms := newMeteredServer(t, filepath.Join(t.TempDir(), "ta.db"), access.Config{Rates: noRates}, Config{})
	k := ms.issue(t, store.PlanFree, "f@example.com")
	require.NoError(t, ms.store.Close())
	res := call(t, "GET", ms.URL+"/sentiment?text=x", k.Secret, "")
	assert.Equal(t, http.StatusServiceUnavailable, res.status)
	assert.Equal(t, "1", res.header.Get("Retry-After"))
	assert.NotEmpty(t, res.header.Get("X-Gw-Remaining"))
	assert.Contains(t, res.body, `"error":"unavailable"`)
	assert.NotContains(t, res.body, "sql")
	ready := call(t, "GET", ms.URL+"/readyz", "", "")
	assert.Equal(t, http.StatusServiceUnavailable, ready.status)
}

// postMCP posts one MCP message to url, with key in X-API-Key unless it
// is "", and returns the response (its body closed).
func postMCP(t *testing.T, url, key, body string) *http.Response {
	t.Helper()
	req, err := http.NewRequest("POST", url, strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2025-06-18")
	if key != "" {
		req.Header.Set("X-API-Key", key)
	}
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	res.Body.Close()
	return res
}

// An MCP request that presents a key answers with the allowance after its
// tool calls were counted.
func TestMCPResponseCarriesTheAllowance(t *testing.T) {
	ms := newMeteredServer(t, filepath.Join(t.TempDir(), "ta.db"), access.Config{Rates: noRates}, Config{})
	k := ms.issue(t, store.PlanFree, "mcp@example.com")
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"analyze_sentiment_post","arguments":{"text":"good"}}}`
	for _, path := range []string{"/mcp/k/" + k.Secret, "/mcp"} {
		key := ""
		if path == "/mcp" {
			key = k.Secret
		}
		res := postMCP(t, ms.URL+path, key, body)
		require.Equal(t, http.StatusOK, res.StatusCode, path)
		want := "999"
		if path == "/mcp" {
			want = "998"
		}
		assert.Equal(t, want, res.Header.Get("X-Gw-Remaining"), path)
	}
}

// writeCounter is a ResponseWriter that counts the Write calls reaching
// the connection.
type writeCounter struct {
	*httptest.ResponseRecorder
	writes, first int
}

func (w *writeCounter) Write(p []byte) (int, error) {
	if w.writes == 0 {
		w.first = len(p)
	}
	w.writes++
	return w.ResponseRecorder.Write(p)
}

// A metered answer is held while its count is committed only up to
// maxHeldAnswer: a longer display answer (HTML up to 16 MiB) waits for
// its count there and then streams, so that a request never holds more.
func TestMeteredDisplayStreams(t *testing.T) {
	ms := newMeteredServer(t, filepath.Join(t.TempDir(), "ta.db"), access.Config{Rates: noRates, FreeAllowance: 5}, Config{})
	srv := ms.srv
	k := ms.issue(t, store.PlanFree, "d@example.com")

	text := strings.Repeat("Angela Merkel met Emmanuel Macron in Paris on Friday. ", 1800)
	serve := func(path, text string) *writeCounter {
		req := httptest.NewRequest(http.MethodPost, path, strings.NewReader(`{"text":"`+text+`"}`))
		req.Header.Set("X-API-Key", k.Secret)
		req.Header.Set("Content-Type", "application/json")
		w := &writeCounter{ResponseRecorder: httptest.NewRecorder()}
		srv.ServeHTTP(w, req)
		require.Equal(t, http.StatusOK, w.Code, w.Body.String())
		return w
	}
	display := serve("/ner/display", text)
	assert.Greater(t, display.Body.Len(), maxHeldAnswer)
	assert.Greater(t, display.writes, 1, "the HTML was held and written whole")
	assert.LessOrEqual(t, display.first, maxHeldAnswer, "more than maxHeldAnswer was held")
	assert.Contains(t, display.Body.String(), "Merkel")
	assert.Equal(t, "4", display.Header().Get("X-Gw-Remaining"), "counted before it streamed")
	ner := serve("/ner", "Angela Merkel met Emmanuel Macron in Paris on Friday.")
	assert.Equal(t, 1, ner.writes, "a short answer is held while its count commits, then written whole")
	assert.Equal(t, "3", ner.Header().Get("X-Gw-Remaining"))
	long := serve("/ner", text)
	assert.Greater(t, long.Body.Len(), maxHeldAnswer)
	assert.True(t, json.Valid(long.Body.Bytes()), "whole after the spill")
	assert.Equal(t, "2", long.Header().Get("X-Gw-Remaining"))
}

// A client that sends many made-up keys gets 429 once its unknown-key
// reads are used up (access.UnknownKeysBurst), with Retry-After, and the
// refusals are neither counted nor logged with the keys.
func TestUnknownKeyFloodIs429(t *testing.T) {
	ms := newMeteredServer(t, filepath.Join(t.TempDir(), "ta.db"), access.Config{Rates: noRates}, Config{})
	var last, first response
	var keys []string
	for i := 0; i <= access.UnknownKeysBurst; i++ {
		k, _, _, err := access.NewKey(access.KindLive)
		require.NoError(t, err)
		keys = append(keys, k)
		last = call(t, "GET", ms.URL+"/sentiment?text=ok", k, "")
		if i == 0 {
			first = last
		}
		if i < access.UnknownKeysBurst {
			require.Equal(t, http.StatusUnauthorized, last.status, "key %d", i)
		}
	}
	require.Equal(t, http.StatusTooManyRequests, last.status, last.body)
	assert.Equal(t, "1", last.header.Get("Retry-After"))
	var body refusal
	require.NoError(t, json.Unmarshal([]byte(last.body), &body))
	assert.Equal(t, "too_many_unknown_keys", body.Error)
	assert.Equal(t, "wait", body.Action)
	assert.Equal(t, first.header.Get("X-Gw-Remaining"), last.header.Get("X-Gw-Remaining"), "no allowance shown, as for a bad key")
	logs := ms.logs.String()
	for _, k := range keys {
		assert.NotContains(t, logs, k, "keys are never logged")
	}
}

// When the count refuses a request whose long answer was already being
// drawn (the allowance used up by another instance), the client gets the
// refusal alone and the drawing stops at maxHeldAnswer.
func TestMeteredLongAnswerRefusedMidway(t *testing.T) {
	ms := newMeteredServer(t, filepath.Join(t.TempDir(), "ta.db"), access.Config{Rates: noRates, FreeAllowance: 3}, Config{})
	srv, st, logs := ms.srv, ms.store, ms.logs
	k := ms.issue(t, store.PlanFree, "r@example.com")
	// Another instance uses the allowance up; this one has not seen it.
	for range 3 {
		_, ok, err := st.Consume(context.Background(), k.Account.ID, access.MonthStart(time.Now()), 3)
		require.NoError(t, err)
		require.True(t, ok)
	}
	text := strings.Repeat("Angela Merkel met Emmanuel Macron in Paris on Friday. ", 1800)
	req := httptest.NewRequest(http.MethodPost, "/ner/display", strings.NewReader(`{"text":"`+text+`"}`))
	req.Header.Set("X-API-Key", k.Secret)
	w := &writeCounter{ResponseRecorder: httptest.NewRecorder()}
	srv.ServeHTTP(w, req)
	require.Equal(t, http.StatusTooManyRequests, w.Code)
	assert.Equal(t, "application/json", w.Header().Get("Content-Type"))
	var body refusal
	require.NoError(t, json.Unmarshal(w.Body.Bytes(), &body), "the refusal alone, no HTML after it")
	assert.Equal(t, "allowance_exhausted", body.Error)
	assert.Contains(t, logs.String(), "html answer cut short", "the drawing stopped at the refusal")
	used, err := st.Used(context.Background(), k.Account.ID, access.MonthStart(time.Now()))
	require.NoError(t, err)
	assert.Equal(t, int64(3), used, "the refused request is not counted")
}

// Tool calls over MCP with made-up keys draw on the same per-client
// bucket as HTTP requests: the client of the MCP request is the client of
// its tool calls.
func TestUnknownKeyFloodOverMCP(t *testing.T) {
	ms := newMeteredServer(t, filepath.Join(t.TempDir(), "ta.db"), access.Config{Rates: noRates}, Config{})
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"analyze_sentiment_post","arguments":{"text":"good"}}}`
	for i := 0; i < access.UnknownKeysBurst; i++ {
		k, _, _, err := access.NewKey(access.KindLive)
		require.NoError(t, err)
		postMCP(t, ms.URL+"/mcp", k, body)
	}
	k, _, _, err := access.NewKey(access.KindLive)
	require.NoError(t, err)
	res := call(t, "GET", ms.URL+"/sentiment?text=ok", k, "")
	assert.Equal(t, http.StatusTooManyRequests, res.status, res.body)
}
