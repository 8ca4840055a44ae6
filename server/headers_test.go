package server

import (
	"io"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/net/html"

	"github.com/textanalysis/go-textanalysis/server/access"
)

// Every answer carries nosniff, a policy that forbids framing, and a
// policy that runs no script but the docs console's.
func TestSecurityHeaders(t *testing.T) {
	ms := newMeteredServer(t, filepath.Join(t.TempDir(), "ta.db"), access.Config{Rates: noRates}, Config{})
	tests := []struct {
		name, method, path, body string
		status                   int
		html                     bool
	}{
		{"display", "GET", "/ner/display?text=" + url.QueryEscape("Ada Lovelace lived in London."), "", 401, false},
		{"docs", "GET", "/docs", "", 200, true},
		{"developer site", "GET", "/developer/", "", 200, true},
		{"JSON answer", "GET", "/", "", 200, false},
		{"error", "GET", "/nope", "", 404, false},
		{"OpenAPI", "GET", "/openapi.json", "", 200, false},
		{"MCP without its content type", "POST", "/mcp", `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, 415, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := call(t, tt.method, ms.URL+tt.path, "", tt.body)
			require.Equal(t, tt.status, res.status, res.body)
			if tt.html {
				assert.Contains(t, res.header.Get("Content-Type"), "text/html")
			}
			assert.Equal(t, "nosniff", res.header.Get("X-Content-Type-Options"))
			assert.Equal(t, "DENY", res.header.Get("X-Frame-Options"))
			assert.Equal(t, "no-referrer", res.header.Get("Referrer-Policy"))
			csp := res.header.Get("Content-Security-Policy")
			assert.Contains(t, csp, "default-src 'none'")
			assert.Contains(t, csp, "frame-ancestors 'none'")
			assert.Contains(t, csp, "base-uri 'none'")
			if tt.path != "/docs" {
				assert.NotContains(t, csp, "script-src", "no script runs here")
			}
		})
	}
}

// /ner/display's fragment is served under the policy that forbids
// scripts, with the inline styles its markup uses allowed.
func TestDisplayPolicy(t *testing.T) {
	ts := newTestServer(t, Config{})
	res := do(t, "GET", ts.URL+"/ner/display?text="+url.QueryEscape("Ada Lovelace lived in London."), "")
	require.Equal(t, http.StatusOK, res.status, res.body)
	assert.Contains(t, res.header.Get("Content-Type"), "text/html")
	assert.Contains(t, res.body, "style=")
	assert.Equal(t, defaultPolicy, res.header.Get("Content-Security-Policy"))
	assert.Contains(t, defaultPolicy, "style-src 'unsafe-inline'")
	assert.Equal(t, "nosniff", res.header.Get("X-Content-Type-Options"))
}

// The docs page runs exactly the scripts its policy names by hash, has no
// inline handlers or javascript: links (which the policy would block),
// and hands the console the sandbox key.
func TestDocsScriptsMatchPolicy(t *testing.T) {
	ms := newMeteredServer(t, filepath.Join(t.TempDir(), "ta.db"), access.Config{Rates: noRates}, Config{})
	res := call(t, "GET", ms.URL+"/docs", "", "")
	require.Equal(t, http.StatusOK, res.status)
	csp := res.header.Get("Content-Security-Policy")
	assert.Equal(t, docsPolicy, csp)
	assert.Contains(t, csp, "connect-src 'self'", "the console calls the API")
	sandbox, err := ms.gate.SandboxKey(t.Context())
	require.NoError(t, err)

	doc, err := html.Parse(strings.NewReader(res.body))
	require.NoError(t, err)
	scripts := 0
	for n := range doc.Descendants() {
		if n.Type != html.ElementNode {
			continue
		}
		for _, a := range n.Attr {
			assert.False(t, strings.HasPrefix(a.Key, "on"), "inline handler %s on <%s>", a.Key, n.Data)
			if a.Key == "href" || a.Key == "src" || a.Key == "action" {
				assert.False(t, strings.HasPrefix(strings.ToLower(strings.TrimSpace(a.Val)), "javascript:"), "%s=%q", a.Key, a.Val)
			}
		}
		if n.Data != "script" {
			continue
		}
		scripts++
		var text strings.Builder
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			text.WriteString(c.Data)
		}
		assert.Contains(t, csp, "'"+scriptHash(text.String())+"'", "the policy allows this script")
		for _, a := range n.Attr {
			if a.Key == "data-sandbox-key" {
				assert.Equal(t, sandbox, a.Val)
			}
		}
	}
	assert.Equal(t, 1, scripts)
}

// Links come from the configured base URL, or the local address, never
// from a Host header the client chose.
func TestLinksIgnoreHostHeader(t *testing.T) {
	for _, cfg := range []Config{{BaseURL: "https://api.example.com"}, {Addr: "127.0.0.1:8181"}} {
		want := cfg.BaseURL
		if want == "" {
			want = "http://127.0.0.1:8181"
		}
		ts := newTestServer(t, cfg)
		for _, p := range []string{"/", "/docs", "/docs.md", "/docs/analyze_ner.md"} {
			t.Run(want+p, func(t *testing.T) {
				req, err := http.NewRequest("GET", ts.URL+p, nil)
				require.NoError(t, err)
				req.Host = "evil.example"
				req.Header.Set("X-Forwarded-Host", "evil.example")
				req.Header.Set("Forwarded", "host=evil.example;proto=https")
				res, err := http.DefaultClient.Do(req)
				require.NoError(t, err)
				defer res.Body.Close()
				var b strings.Builder
				_, err = io.Copy(&b, res.Body)
				require.NoError(t, err)
				require.Equal(t, http.StatusOK, res.StatusCode)
				assert.NotContains(t, b.String(), "evil.example")
				assert.Contains(t, b.String(), want+"/")
			})
		}
	}
}
