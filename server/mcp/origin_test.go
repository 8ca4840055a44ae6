package mcp_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/textanalysis/go-textanalysis/server/mcp"
)

func newWithOrigins(tb testing.TB, origins []string) (http.Handler, *fakeAPI) {
	tb.Helper()
	api := &fakeAPI{}
	h, err := mcp.New(mcp.Config{Tools: fakeTools(), API: api, AllowedOrigins: origins})
	require.NoError(tb, err)
	return h, api
}

// A browser page on another origin must not reach the tools (DNS
// rebinding: the page's host name resolves to the server, so the browser
// sees one origin); clients that send no Origin are not browsers and pass.
func TestOriginCheck(t *testing.T) {
	list := `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`
	allowed := []string{"https://app.example.com", "http://localhost:8080"}
	tests := []struct {
		name    string
		allowed []string
		origins []string
		host    string
		path    string
		status  int
	}{
		{"no Origin", allowed, nil, "", "/mcp", 200},
		{"allowed origin", allowed, []string{"https://app.example.com"}, "", "/mcp", 200},
		{"allowed origin, other spelling", allowed, []string{"HTTPS://App.Example.com:443"}, "", "/mcp", 200},
		{"allowed local origin", allowed, []string{"http://localhost:8080"}, "", "/mcp", 200},
		{"other origin", allowed, []string{"https://evil.example"}, "", "/mcp", 403},
		{"other port", allowed, []string{"http://localhost:9999"}, "", "/mcp", 403},
		{"other scheme", allowed, []string{"http://app.example.com"}, "", "/mcp", 403},
		{"rebound host name", allowed, []string{"http://rebind.example:8080"}, "rebind.example:8080", "/mcp", 403},
		{"null origin", allowed, []string{"null"}, "", "/mcp", 403},
		{"junk origin", allowed, []string{"javascript:alert(1)"}, "", "/mcp", 403},
		{"one bad among two", allowed, []string{"https://app.example.com", "https://evil.example"}, "", "/mcp", 403},
		{"other origin, key path", allowed, []string{"https://evil.example"}, "", "/mcp/k/abc", 403},
		{"nothing allowed", nil, []string{"https://app.example.com"}, "", "/mcp", 403},
		{"nothing allowed, no Origin", nil, nil, "", "/mcp", 200},
		{"everything allowed", []string{"*"}, []string{"https://evil.example"}, "", "/mcp", 200},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h, _ := newWithOrigins(t, tt.allowed)
			req := httptest.NewRequest("POST", tt.path, strings.NewReader(list))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			for _, o := range tt.origins {
				req.Header.Add("Origin", o)
			}
			if tt.host != "" {
				req.Host = tt.host
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			assert.Equal(t, tt.status, rec.Code, rec.Body.String())
			if tt.status == http.StatusForbidden {
				assert.JSONEq(t, `{"detail":"Requests from this web origin are not allowed. A browser page may call this endpoint only from an origin the server allows.","error":"origin_not_allowed"}`, rec.Body.String())
			}
		})
	}
}

// The SDK's own client sends no Origin and keeps working; with a foreign
// Origin it cannot even initialize, so no tool runs.
func TestOriginCheckWithClient(t *testing.T) {
	h, api := newWithOrigins(t, []string{"https://app.example.com"})
	mux := http.NewServeMux()
	mux.Handle("/mcp", h)
	mux.Handle("/mcp/", h)
	ts := httptest.NewServer(mux)
	t.Cleanup(ts.Close)

	cs, _ := connect(t, ts.URL+"/mcp", nil)
	call(t, cs, "echo_get", map[string]any{"text": "x"})
	require.Equal(t, 1, api.count())

	ht := &headerTransport{header: header("Origin", "https://evil.example"), base: http.DefaultTransport}
	client := sdk.NewClient(&sdk.Implementation{Name: "mcp-test", Version: "0.0.1"}, nil)
	_, err := client.Connect(context.Background(), &sdk.StreamableClientTransport{
		Endpoint: ts.URL + "/mcp", HTTPClient: &http.Client{Transport: ht}, DisableStandaloneSSE: true, MaxRetries: -1,
	}, nil)
	require.Error(t, err)
	require.NotEmpty(t, ht.Statuses())
	for _, st := range ht.Statuses() {
		assert.Equal(t, http.StatusForbidden, st)
	}
	assert.Equal(t, 1, api.count())
}

func TestNewRefusesBadOrigins(t *testing.T) {
	for _, o := range []string{"", "example.com", "ftp://example.com", "https://example.com/path", "https://user@example.com", "https://example.com?x", "null"} {
		t.Run(o, func(t *testing.T) {
			h, err := mcp.New(mcp.Config{API: &fakeAPI{}, AllowedOrigins: []string{o}})
			require.Error(t, err)
			assert.Nil(t, h)
			assert.Contains(t, err.Error(), "mcp: allowed origin")
		})
	}
	_, err := mcp.New(mcp.Config{API: &fakeAPI{}, AllowedOrigins: []string{"https://example.com/", "http://[::1]:8080", "*"}})
	assert.NoError(t, err)
}

// Only the clean spelling of a path is served, the one logs know to
// redact; a mux in front redirects the others, but the handler does not
// rely on it.
func TestUncleanPathsAreNotServed(t *testing.T) {
	h, api := newWithOrigins(t, nil)
	list := `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`
	for _, p := range []string{"/mcp/./k/abc", "/mcp//k/abc", "/mcp/k/../k/abc", "/mcp/x/../k/abc"} {
		t.Run(p, func(t *testing.T) {
			req := httptest.NewRequest("POST", "/mcp", strings.NewReader(list))
			req.URL.Path = p
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			b, _ := io.ReadAll(rec.Body)
			assert.Equal(t, http.StatusNotFound, rec.Code, string(b))
		})
	}
	assert.Zero(t, api.count())
}
