package server

import (
	"context"
	"net"
	"net/http"
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
