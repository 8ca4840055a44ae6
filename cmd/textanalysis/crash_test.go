package main

import (
	"context"
	"encoding/json"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/textanalysis/go-textanalysis/server"
	"github.com/textanalysis/go-textanalysis/server/access"
)

// A serve process killed with SIGKILL under load has counted every request
// a client got a 200 for: counting happens in the store before the work.
func TestKillUnderLoadLosesNoCount(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "crash.db")
	env := map[string]string{"TEXTANALYSIS_DATABASE_URL": db}
	out := runCLI(t, env, "keys", "create", "--plan", "payg", "--email", "load@example.com", "--json")
	var created struct {
		Key       string `json:"key"`
		AccountID int64  `json:"account_id"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &created))

	srv := startServe(t, dir, []string{"TEXTANALYSIS_DATABASE_URL=" + db}, "--rate-scale", "1000")
	var ok200 atomic.Int64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	client := &http.Client{Timeout: 5 * time.Second}
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				req, _ := http.NewRequest("GET", srv.base+"/sentiment?text=steady+load", nil)
				req.Header.Set("X-API-Key", created.Key)
				res, err := client.Do(req)
				if err != nil {
					continue // the server is gone
				}
				res.Body.Close()
				if res.StatusCode == http.StatusOK {
					ok200.Add(1)
				}
			}
		}()
	}
	// Kill it once it has answered a fair number of requests.
	deadline := time.Now().Add(30 * time.Second)
	for ok200.Load() < 200 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	require.NoError(t, srv.cmd.Process.Signal(syscall.SIGKILL))
	_ = srv.cmd.Wait()
	close(stop)
	wg.Wait()
	got := ok200.Load()
	require.Greater(t, got, int64(0))

	st, err := server.OpenStore(context.Background(), db)
	require.NoError(t, err)
	defer st.Close()
	used, err := st.Used(context.Background(), created.AccountID, access.MonthStart(time.Now()))
	require.NoError(t, err)
	t.Logf("clients got %d answers 200; the store counted %d", got, used)
	assert.GreaterOrEqual(t, used, got, "every 200 must have been counted")
}

// With Redis unreachable, serve fails open to per-process rate limits:
// requests are served, and the log says so once, not per request.
func TestServeWithRedisDown(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "redis.db")
	env := map[string]string{"TEXTANALYSIS_DATABASE_URL": db}
	out := runCLI(t, env, "keys", "create", "--plan", "payg", "--email", "redis@example.com", "--json")
	var created struct {
		Key string `json:"key"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &created))
	srv := startServe(t, dir, []string{"TEXTANALYSIS_DATABASE_URL=" + db, "TEXTANALYSIS_REDIS_URL=redis://:hunter2@127.0.0.1:1/0"})
	for range 20 {
		req, _ := http.NewRequest("GET", srv.base+"/sentiment?text=fine", nil)
		req.Header.Set("X-API-Key", created.Key)
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		res.Body.Close()
		assert.Equal(t, http.StatusOK, res.StatusCode)
	}
	logs := srv.logs.String()
	assert.Equal(t, 1, strings.Count(logs, "redis rate limit unavailable"), logs)
	assert.NotContains(t, logs, "hunter2")
}
