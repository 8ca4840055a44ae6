package server

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func freeLoopbackAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	require.NoError(t, ln.Close())
	return addr
}

func waitFor(t *testing.T, url string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if res, err := http.Get(url); err == nil {
			res.Body.Close()
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("%s does not answer", url)
}

// ListenAndServe serves /metrics on the admin address only, and closes
// both listeners when its context ends.
func TestAdminListener(t *testing.T) {
	an, err := testAnalyzer()
	require.NoError(t, err)
	addr, adminAddr := freeLoopbackAddr(t), freeLoopbackAddr(t)
	srv, err := New(Config{Addr: addr, AdminAddr: adminAddr}, an)
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- srv.ListenAndServe(ctx) }()
	public, admin := "http://"+addr, "http://"+adminAddr
	waitFor(t, public+"/healthz")
	waitFor(t, admin+"/healthz")

	assert.Equal(t, http.StatusNotFound, do(t, "GET", public+"/metrics", "").status)
	res := do(t, "GET", admin+"/metrics", "")
	assert.Equal(t, http.StatusOK, res.status)
	assert.Contains(t, res.body, "textanalysis_http_requests_total")
	assert.Equal(t, http.StatusOK, do(t, "GET", admin+"/readyz", "").status)
	assert.Equal(t, http.StatusNotFound, do(t, "GET", admin+"/docs", "").status)

	cancel()
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(20 * time.Second):
		t.Fatal("ListenAndServe did not return")
	}
	_, err = http.Get(admin + "/metrics")
	assert.Error(t, err, "the admin listener is closed")
}

func TestAdminListenerOffAndBusy(t *testing.T) {
	an, err := testAnalyzer()
	require.NoError(t, err)

	busy, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer busy.Close()
	srv, err := New(Config{Addr: freeLoopbackAddr(t), AdminAddr: busy.Addr().String()}, an)
	require.NoError(t, err)
	err = srv.ListenAndServe(t.Context())
	require.Error(t, err, "a busy admin address is an error, not a server without metrics")
	assert.Contains(t, err.Error(), "server: admin listener")

	for _, off := range []string{"off", "OFF"} {
		addr := freeLoopbackAddr(t)
		srv, err := New(Config{Addr: addr, AdminAddr: off}, an)
		require.NoError(t, err)
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- srv.ListenAndServe(ctx) }()
		waitFor(t, "http://"+addr+"/healthz")
		cancel()
		require.NoError(t, <-done)
	}
}

// TestAdminProfiles: the Go profiles are on the admin address only, the
// command line (which may hold a database password) is not served, and a
// profile's length is bounded.
func TestAdminProfiles(t *testing.T) {
	public, admin := publicAndAdmin(t)

	for _, tc := range []struct {
		path   string
		status int
	}{
		{"/debug/pprof/heap", http.StatusOK},
		{"/debug/pprof/goroutine?debug=1", http.StatusOK},
		{"/debug/pprof/profile?seconds=1", http.StatusOK},
		{"/debug/pprof/trace?seconds=1", http.StatusOK},
		{"/debug/pprof/profile?seconds=26", http.StatusBadRequest},
		{"/debug/pprof/trace?seconds=-1", http.StatusBadRequest},
		{"/debug/pprof/trace?seconds=x", http.StatusBadRequest},
		{"/debug/pprof/cmdline", http.StatusNotFound},
		{"/debug/pprof/", http.StatusNotFound},
	} {
		t.Run(tc.path, func(t *testing.T) {
			res := do(t, "GET", admin.URL+tc.path, "")
			assert.Equal(t, tc.status, res.status, res.body)
			assert.Equal(t, http.StatusNotFound, do(t, "GET", public.URL+tc.path, "").status, "the public port serves no profile")
		})
	}
	res := do(t, "GET", admin.URL+"/debug/pprof/goroutine?debug=1", "")
	assert.Contains(t, res.body, "goroutine profile:", "a readable goroutine dump")
}

// publicAndAdmin serves a default Server's public handler and its admin
// handler, each on a test server of its own.
func publicAndAdmin(t *testing.T) (public, admin *httptest.Server) {
	t.Helper()
	an, err := testAnalyzer()
	require.NoError(t, err)
	srv, err := New(Config{}, an)
	require.NoError(t, err)
	public = httptest.NewServer(srv)
	t.Cleanup(public.Close)
	admin = httptest.NewServer(srv.AdminHandler())
	t.Cleanup(admin.Close)
	return public, admin
}
