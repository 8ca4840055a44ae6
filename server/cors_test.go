package server

import (
	"net/http"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/textanalysis/go-textanalysis/server/access"
	"github.com/textanalysis/go-textanalysis/server/store"
)

func TestCORS(t *testing.T) {
	ms := newMeteredServer(t, filepath.Join(t.TempDir(), "ta.db"), access.Config{Rates: noRates}, Config{})
	key := ms.issue(t, store.PlanFree, "cors@example.com").Secret
	send := func(method, path string, hdr ...string) *http.Response {
		t.Helper()
		req, err := http.NewRequest(method, ms.URL+path, nil)
		require.NoError(t, err)
		for i := 0; i+1 < len(hdr); i += 2 {
			req.Header.Set(hdr[i], hdr[i+1])
		}
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		res.Body.Close()
		return res
	}
	preflight := func(path, method string) *http.Response {
		return send(http.MethodOptions, path, "Origin", "https://app.example.org",
			"Access-Control-Request-Method", method, "Access-Control-Request-Headers", "x-api-key,content-type")
	}
	for _, tt := range []struct{ path, method, allow string }{
		{"/ner", "POST", "GET, POST"},
		{"/sentiment", "GET", "GET, POST"},
		{"/ner/display", "POST", "GET, POST"},
		{"/", "GET", "GET"},
		{"/openapi.json", "GET", "GET"},
		{"/docs/analyze_ner.md", "GET", "GET"},
	} {
		t.Run("preflight "+tt.path, func(t *testing.T) {
			before := ms.remainingOf(t, key)
			res := preflight(tt.path, tt.method)
			assert.Equal(t, http.StatusNoContent, res.StatusCode)
			assert.Equal(t, "*", res.Header.Get("Access-Control-Allow-Origin"))
			assert.Equal(t, tt.allow, res.Header.Get("Access-Control-Allow-Methods"))
			allowed := res.Header.Get("Access-Control-Allow-Headers")
			for _, h := range []string{"X-API-Key", "Authorization", "Content-Type"} {
				assert.Contains(t, allowed, h)
			}
			assert.Empty(t, res.Header.Get("Access-Control-Allow-Credentials"))
			assert.Equal(t, before, ms.remainingOf(t, key), "a preflight is not metered")
		})
	}
	t.Run("the answer itself exposes the gateway headers", func(t *testing.T) {
		res := send(http.MethodGet, "/sentiment?text=fine", "Origin", "https://app.example.org", "X-API-Key", key)
		assert.Equal(t, http.StatusOK, res.StatusCode)
		assert.Equal(t, "*", res.Header.Get("Access-Control-Allow-Origin"))
		assert.Contains(t, res.Header.Get("Access-Control-Expose-Headers"), "X-Gw-Remaining")
		assert.NotEmpty(t, res.Header.Get("X-Content-Type-Options"), "security headers stay")
	})
	t.Run("the developer site is not opened to other origins", func(t *testing.T) {
		res := preflight("/developer/trial", "POST")
		assert.Empty(t, res.Header.Get("Access-Control-Allow-Origin"))
	})
	t.Run("no Origin, no CORS headers", func(t *testing.T) {
		res := send(http.MethodGet, "/sentiment?text=fine", "X-API-Key", key)
		assert.Empty(t, res.Header.Get("Access-Control-Allow-Origin"))
	})
}

func (ms *meteredServer) remainingOf(t *testing.T, key string) int64 {
	t.Helper()
	d, err := ms.gate.Peek(t.Context(), key)
	require.NoError(t, err)
	return d.Remaining
}
