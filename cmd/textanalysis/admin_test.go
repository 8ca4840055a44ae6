package main

import (
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// serve's --admin-addr, --mcp-allowed-origin and --base-url reach the
// server: /metrics only on the admin address, browser origins checked on
// /mcp, links from the base URL whatever Host a client sends.
func TestServeAdminOriginsAndBase(t *testing.T) {
	dir := t.TempDir()
	srv := startServe(t, dir, []string{"TEXTANALYSIS_DATABASE_URL=" + filepath.Join(dir, "t.db")},
		"--base-url", "https://api.example.com", "--mcp-allowed-origin", "https://app.example.com,https://other.example.com")
	get := func(url string, header ...string) (int, string) {
		t.Helper()
		req, err := http.NewRequest("GET", url, nil)
		require.NoError(t, err)
		for i := 0; i+1 < len(header); i += 2 {
			if header[i] == "Host" {
				req.Host = header[i+1]
			} else {
				req.Header.Set(header[i], header[i+1])
			}
		}
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer res.Body.Close()
		b, err := io.ReadAll(res.Body)
		require.NoError(t, err)
		return res.StatusCode, string(b)
	}
	status, _ := get(srv.base + "/metrics")
	assert.Equal(t, http.StatusNotFound, status)
	status, body := get(srv.admin + "/metrics")
	assert.Equal(t, http.StatusOK, status)
	assert.Contains(t, body, "textanalysis_http_requests_total")

	status, body = get(srv.base+"/", "Host", "evil.example")
	require.Equal(t, http.StatusOK, status)
	assert.Contains(t, body, `"openapi":"https://api.example.com/openapi.json"`)
	assert.NotContains(t, body, "evil.example")

	list := `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`
	for origin, want := range map[string]int{
		"":                          http.StatusOK,
		"https://app.example.com":   http.StatusOK,
		"https://other.example.com": http.StatusOK,
		"https://api.example.com":   http.StatusOK,
		"https://evil.example":      http.StatusForbidden,
	} {
		req, err := http.NewRequest("POST", srv.base+"/mcp", strings.NewReader(list))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		res.Body.Close()
		assert.Equal(t, want, res.StatusCode, "Origin %q", origin)
	}
}
