package main

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestReadyURL(t *testing.T) {
	for _, tc := range []struct{ addr, want string }{
		{"127.0.0.1:9090", "http://127.0.0.1:9090/readyz"},
		{":9090", "http://127.0.0.1:9090/readyz"},
		{"0.0.0.0:9091", "http://127.0.0.1:9091/readyz"},
		{"[::]:9090", "http://[::1]:9090/readyz"},
		{"admin.internal:9090", "http://admin.internal:9090/readyz"},
	} {
		got, err := readyURL(tc.addr)
		require.NoError(t, err, tc.addr)
		assert.Equal(t, tc.want, got, tc.addr)
	}
	for _, addr := range []string{"off", "", "9090"} {
		_, err := readyURL(addr)
		assert.Error(t, err, addr)
	}
}

// healthcheck exits 0 while /readyz answers 200 and 1 once it answers 503
// (draining) or nothing answers.
func TestHealthcheckFollowsReadyz(t *testing.T) {
	var draining atomic.Bool
	admin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/readyz" {
			http.NotFound(w, r)
			return
		}
		if draining.Load() {
			w.WriteHeader(http.StatusServiceUnavailable)
		}
	}))
	addr := strings.TrimPrefix(admin.URL, "http://")

	out, _, code := run(t, "", "healthcheck", "--admin-addr", addr)
	assert.Equal(t, exitOK, code)
	assert.Equal(t, "ready\n", out)

	draining.Store(true)
	_, _, code = run(t, "", "healthcheck", "--admin-addr", addr)
	assert.Equal(t, exitFailed, code)

	admin.Close()
	_, _, code = run(t, "", "healthcheck", "--admin-addr", addr)
	assert.Equal(t, exitFailed, code)

	t.Setenv("TEXTANALYSIS_ADMIN_ADDR", "off")
	_, _, code = run(t, "", "healthcheck")
	assert.Equal(t, exitUsage, code)
}
