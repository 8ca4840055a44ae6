package server

import (
	"context"
	"net/http"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/textanalysis/go-textanalysis/server/access"
	"github.com/textanalysis/go-textanalysis/server/store/sqlite"
)

func getStatus(t *testing.T, url string) int {
	t.Helper()
	res, err := http.Get(url)
	require.NoError(t, err)
	res.Body.Close()
	return res.StatusCode
}

// When the server's context ends, /readyz answers 503 at once, while
// requests are still served for DrainDelay; then the server shuts down.
func TestReadinessTurnsBeforeShutdown(t *testing.T) {
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "t.db"))
	require.NoError(t, err)
	defer st.Close()
	gate, err := access.New(context.Background(), access.Config{Store: st})
	require.NoError(t, err)
	base, cancel, done := serveOnLoopback(t, Config{Gate: gate, AdminAddr: "off", DrainDelay: time.Second})
	require.Equal(t, http.StatusOK, getStatus(t, base+"/readyz"))

	cancel()
	assert.Eventually(t, func() bool { return getStatus(t, base+"/readyz") == http.StatusServiceUnavailable }, 500*time.Millisecond, 10*time.Millisecond)
	assert.Equal(t, http.StatusOK, getStatus(t, base+"/healthz"), "still serving while draining")
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(10 * time.Second):
		t.Fatal("no shutdown after the drain delay")
	}
}

// /readyz asks the store: a closed store is not ready.
func TestReadinessPingsTheStore(t *testing.T) {
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "t.db"))
	require.NoError(t, err)
	gate, err := access.New(context.Background(), access.Config{Store: st})
	require.NoError(t, err)
	base, _, _ := serveOnLoopback(t, Config{Gate: gate, AdminAddr: "off"})
	assert.Equal(t, http.StatusOK, getStatus(t, base+"/readyz"))
	require.NoError(t, st.Close())
	assert.Equal(t, http.StatusServiceUnavailable, getStatus(t, base+"/readyz"))
}
