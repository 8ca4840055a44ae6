package mcp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/textanalysis/go-textanalysis/server/mcp"
)

// seen is what the fake API received.
type seen struct {
	Method, Path, Query, Body, Key, Auth, ContentType string
}

// fakeAPI echoes what it receives, as the real API would answer: JSON with
// the allowance headers, HTML on /html, a huge body on /huge, 401 for the
// key "bad".
type fakeAPI struct {
	mu   sync.Mutex
	reqs []seen
}

func (f *fakeAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	s := seen{Method: r.Method, Path: r.URL.Path, Query: r.URL.RawQuery, Body: string(b),
		Key: r.Header.Get("X-API-Key"), Auth: r.Header.Get("Authorization"), ContentType: r.Header.Get("Content-Type")}
	f.mu.Lock()
	f.reqs = append(f.reqs, s)
	f.mu.Unlock()
	w.Header().Set("X-Gw-Remaining", "41")
	w.Header().Set("X-Gw-Reset", "2026-05-01T00:00:00Z")
	switch {
	case s.Key == "bad":
		w.Header().Set("X-Gw-Remaining", "0")
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnauthorized)
		_, _ = io.WriteString(w, `{"detail":"Invalid API key.","error":"invalid_key"}`)
	case r.URL.Path == "/html":
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = io.WriteString(w, `<div class="entities">Ada &amp; <mark>London</mark></div>`)
	case r.URL.Path == "/huge":
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `"`+strings.Repeat("x", 2000)+`"`)
	default:
		w.Header().Set("Content-Type", "application/json")
		out, _ := json.Marshal(s)
		_, _ = w.Write(out)
	}
}

func (f *fakeAPI) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.reqs)
}

var objectSchema = map[string]any{"type": "object", "properties": map[string]any{"text": map[string]any{"type": "string"}}}

func fakeTools() []mcp.Tool {
	return []mcp.Tool{
		{Name: "echo_get", Description: "GET echo", InputSchema: objectSchema, Method: http.MethodGet, Path: "/echo"},
		{Name: "echo_post", Description: "POST echo", InputSchema: objectSchema, Method: http.MethodPost, Path: "/echo"},
		{Name: "html", Description: "HTML", InputSchema: objectSchema, Method: http.MethodGet, Path: "/html"},
		{Name: "huge", Description: "too large", InputSchema: objectSchema, Method: http.MethodGet, Path: "/huge"},
	}
}

func newFake(tb testing.TB, logger *slog.Logger) (*httptest.Server, *fakeAPI) {
	tb.Helper()
	api := &fakeAPI{}
	h, err := mcp.New(mcp.Config{Tools: fakeTools(), API: api, MaxResultBytes: 1000, Logger: logger})
	require.NoError(tb, err)
	mux := http.NewServeMux()
	mux.Handle("/mcp", h)
	mux.Handle("/mcp/", h)
	ts := httptest.NewServer(mux)
	tb.Cleanup(ts.Close)
	return ts, api
}

func echoed(tb testing.TB, res mcp.Result) seen {
	tb.Helper()
	require.Equal(tb, http.StatusOK, res.Status, string(res.Body))
	var s seen
	require.NoError(tb, json.Unmarshal(res.Body, &s))
	return s
}

func TestArgumentsReachTheAPI(t *testing.T) {
	ts, _ := newFake(t, nil)
	cs, _ := connect(t, ts.URL+"/mcp", header("X-API-Key", "k1"))
	tests := []struct {
		name string
		tool string
		args any
		want seen
	}{
		{"get strings", "echo_get", map[string]any{"text": "a b&c"},
			seen{Method: "GET", Path: "/echo", Query: "text=a+b%26c", Key: "k1"}},
		{"get other values as JSON, null as absent", "echo_get", json.RawMessage(`{"n":3,"f":true,"spans":[ {"start":0} ],"model":null}`),
			seen{Method: "GET", Path: "/echo", Query: "f=true&n=3&spans=%5B%7B%22start%22%3A0%7D%5D", Key: "k1"}},
		{"get without arguments", "echo_get", nil,
			seen{Method: "GET", Path: "/echo", Key: "k1"}},
		{"post body as sent", "echo_post", json.RawMessage(`{"text":123,"extra":[1,2]}`),
			seen{Method: "POST", Path: "/echo", Body: `{"text":123,"extra":[1,2]}`, Key: "k1", ContentType: "application/json"}},
		{"post without arguments", "echo_post", nil,
			seen{Method: "POST", Path: "/echo", Body: `{}`, Key: "k1", ContentType: "application/json"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, _ := call(t, cs, tt.tool, tt.args)
			assert.Equal(t, tt.want, echoed(t, res))
			assert.Equal(t, mcp.Gateway{Remaining: ptr(int64(41)), Reset: ptr("2026-05-01T00:00:00Z")}, res.Gateway)
		})
	}
}

func TestKeys(t *testing.T) {
	ts, _ := newFake(t, nil)
	tests := []struct {
		name     string
		path     string
		header   http.Header
		key      string
		auth     string
		status   int
		gateway  mcp.Gateway
		wantBody string
	}{
		{name: "X-API-Key", path: "/mcp", header: header("X-API-Key", "k1"), key: "k1", status: 200},
		{name: "Bearer", path: "/mcp", header: header("Authorization", "Bearer k2"), auth: "Bearer k2", status: 200},
		{name: "path", path: "/mcp/k/k3", key: "k3", status: 200},
		{name: "path with slash", path: "/mcp/k/k3/", key: "k3", status: 200},
		{name: "path wins over header", path: "/mcp/k/k4", header: header("X-API-Key", "other"), key: "k4", status: 200},
		{name: "refused key: null gateway", path: "/mcp/k/bad", key: "bad", status: 401},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cs, ht := connect(t, ts.URL+tt.path, tt.header)
			res, _ := call(t, cs, "echo_get", map[string]any{"text": "x"})
			require.Equal(t, tt.status, res.Status)
			if tt.status == 200 {
				s := echoed(t, res)
				assert.Equal(t, tt.key, s.Key)
				assert.Equal(t, tt.auth, s.Auth)
				assert.NotNil(t, res.Gateway.Remaining)
			} else {
				assert.JSONEq(t, `{"detail":"Invalid API key.","error":"invalid_key"}`, string(res.Body))
				assert.Equal(t, mcp.Gateway{}, res.Gateway)
			}
			for _, st := range ht.Statuses() {
				assert.Less(t, st, 300, "HTTP status of an MCP response")
			}
		})
	}
}

func TestResultBodies(t *testing.T) {
	ts, _ := newFake(t, nil)
	cs, _ := connect(t, ts.URL+"/mcp", header("X-API-Key", "k"))
	tests := []struct {
		name   string
		tool   string
		status int
		body   string
	}{
		{"HTML as a string", "html", 200, `"<div class=\"entities\">Ada &amp; <mark>London</mark></div>"`},
		{"too large", "huge", 500, `{"detail":"The answer is too large for an MCP tool result; use the HTTP API.","error":"result_too_large"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, raw := call(t, cs, tt.tool, nil)
			assert.Equal(t, tt.status, res.Status)
			assert.JSONEq(t, tt.body, string(res.Body))
			assert.Equal(t, tt.status >= 400, raw.IsError)
		})
	}
	t.Run("HTML is not escaped in the text", func(t *testing.T) {
		_, raw := call(t, cs, "html", nil)
		assert.Contains(t, raw.Content[0].(*sdk.TextContent).Text, `<mark>London</mark>`)
	})
}

// Protocol errors never reach the API, so they are never metered.
func TestProtocolErrorsAreNotForwarded(t *testing.T) {
	ts, api := newFake(t, nil)
	cs, _ := connect(t, ts.URL+"/mcp", header("X-API-Key", "k"))
	tests := []struct {
		name string
		tool string
		args any
	}{
		{"unknown tool", "nope", map[string]any{}},
		{"arguments not an object", "echo_post", []int{1}},
		{"arguments a string", "echo_get", "text"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: tt.tool, Arguments: tt.args})
			require.Error(t, err)
		})
	}
	assert.Zero(t, api.count())
}

func TestHTTP(t *testing.T) {
	ts, api := newFake(t, nil)
	initialize := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"curl","version":"1"}}}`
	list := `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`
	tests := []struct {
		name, method, path, body string
		status                   int
		contains                 string
	}{
		{"initialize", "POST", "/mcp", initialize, 200, `"protocolVersion":"2025-06-18"`},
		{"list without a key", "POST", "/mcp", list, 200, `"echo_post"`},
		{"list under a path key", "POST", "/mcp/k/abc", list, 200, `"echo_get"`},
		{"malformed JSON-RPC", "POST", "/mcp", `{"jsonrpc":`, 400, ``},
		{"GET is not served (stateless)", "GET", "/mcp", ``, 405, ``},
		{"empty path key", "POST", "/mcp/k/", list, 404, `Not Found`},
		{"other path", "POST", "/mcp/other", list, 404, `Not Found`},
		{"body over the limit", "POST", "/mcp", `{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{"x":"` + strings.Repeat("a", 1<<20) + `"}}`, 413, ``},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, err := http.NewRequest(tt.method, ts.URL+tt.path, strings.NewReader(tt.body))
			require.NoError(t, err)
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
			res, err := http.DefaultClient.Do(req)
			require.NoError(t, err)
			defer res.Body.Close()
			b, err := io.ReadAll(res.Body)
			require.NoError(t, err)
			assert.Equal(t, tt.status, res.StatusCode, string(b))
			assert.Contains(t, string(b), tt.contains)
			if tt.status == 200 {
				assert.Equal(t, "application/json", res.Header.Get("Content-Type"))
			}
		})
	}
	assert.Zero(t, api.count())
}

func TestKeyNeverLogged(t *testing.T) {
	var buf bytes.Buffer
	var mu sync.Mutex
	logger := slog.New(slog.NewTextHandler(&lockedWriter{w: &buf, mu: &mu}, &slog.HandlerOptions{Level: slog.LevelDebug}))
	ts, _ := newFake(t, logger)
	const key = "ta_live_SECRETsecretSECRETsecret0123"
	cs, _ := connect(t, ts.URL+"/mcp/k/"+key, nil)
	call(t, cs, "echo_get", map[string]any{"text": "x"})
	_, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "nope"})
	require.Error(t, err)
	cs2, _ := connect(t, ts.URL+"/mcp", header("X-API-Key", key))
	call(t, cs2, "echo_post", map[string]any{"text": "x"})
	mu.Lock()
	defer mu.Unlock()
	assert.NotContains(t, buf.String(), "SECRET")
}

type lockedWriter struct {
	w  io.Writer
	mu *sync.Mutex
}

func (l *lockedWriter) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(b)
}

func TestNewRefusesBadConfig(t *testing.T) {
	api := &fakeAPI{}
	good := mcp.Tool{Name: "t", InputSchema: objectSchema, Method: http.MethodGet, Path: "/t"}
	tests := []struct {
		name string
		cfg  mcp.Config
		err  string
	}{
		{"no API", mcp.Config{}, "mcp: Config.API is required"},
		{"negative limit", mcp.Config{API: api, MaxBodyBytes: -1}, "mcp: MaxBodyBytes and MaxResultBytes must not be negative"},
		{"no name", mcp.Config{API: api, Tools: []mcp.Tool{{InputSchema: objectSchema, Method: "GET", Path: "/t"}}}, "mcp: tool without a name"},
		{"bad method", mcp.Config{API: api, Tools: []mcp.Tool{{Name: "t", InputSchema: objectSchema, Method: "PUT", Path: "/t"}}}, `mcp: tool "t": method "PUT" is neither GET nor POST`},
		{"bad path", mcp.Config{API: api, Tools: []mcp.Tool{{Name: "t", InputSchema: objectSchema, Method: "GET", Path: "t"}}}, `mcp: tool "t": path "t" does not start with /`},
		{"schema not an object", mcp.Config{API: api, Tools: []mcp.Tool{{Name: "t", InputSchema: map[string]any{"type": "string"}, Method: "GET", Path: "/t"}}}, `mcp: tool "t": input schema must have type object`},
		{"nil schema", mcp.Config{API: api, Tools: []mcp.Tool{{Name: "t", Method: "GET", Path: "/t"}}}, `mcp: tool "t": input schema must have type object`},
		{"twice", mcp.Config{API: api, Tools: []mcp.Tool{good, good}}, `mcp: tool "t" declared twice`},
		{"SDK refuses the schema", mcp.Config{API: api, Tools: []mcp.Tool{{Name: "t", Method: "GET", Path: "/t", InputSchema: map[string]any{"type": "object", "x": func() {}}}}}, `mcp: tool "t": AddTool "t": can't marshal input schema`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h, err := mcp.New(tt.cfg)
			require.Error(t, err)
			assert.Nil(t, h)
			assert.Contains(t, err.Error(), tt.err)
		})
	}
}
