package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/textanalysis/go-textanalysis/server/access"
)

// The test binary doubles as the CLI: with TEXTANALYSIS_TEST_MAIN set it
// runs main, so tests can start real serve processes without a build step.
func TestMain(m *testing.M) {
	if os.Getenv("TEXTANALYSIS_TEST_MAIN") == "1" {
		main()
		return
	}
	os.Exit(m.Run())
}

func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	require.NoError(t, ln.Close())
	return addr
}

type serveProc struct {
	cmd   *exec.Cmd
	base  string
	admin string // the operator endpoints' base URL
	logs  *lockedWriter
}

// startServe runs `textanalysis serve` in a child process and waits until
// it answers.
func startServe(t *testing.T, dir string, env []string, args ...string) *serveProc {
	t.Helper()
	// Each process gets its own admin address: several run at once.
	addr, adminAddr := freeAddr(t), freeAddr(t)
	cmd := exec.Command(os.Args[0], append([]string{"serve", "--addr", addr, "--admin-addr", adminAddr}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "TEXTANALYSIS_TEST_MAIN=1"), env...)
	logs := &lockedWriter{w: &bytes.Buffer{}}
	cmd.Stderr = logs
	require.NoError(t, cmd.Start())
	p := &serveProc{cmd: cmd, base: "http://" + addr, admin: "http://" + adminAddr, logs: logs}
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}
	})
	deadline := time.Now().Add(120 * time.Second)
	for time.Now().Before(deadline) {
		res, err := http.Get(p.base + "/healthz")
		if err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return p
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("serve did not start: %s", logs.String())
	return nil
}

type lockedWriter struct {
	mu sync.Mutex
	w  *bytes.Buffer
}

func (l *lockedWriter) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.String()
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// runCLI runs a command in process against the store named by env.
func runCLI(t *testing.T, env map[string]string, args ...string) string {
	t.Helper()
	for k, v := range env {
		t.Setenv(k, v)
	}
	out, errOut, code := run(t, "", args...)
	require.Equal(t, exitOK, code, errOut)
	return out
}

// postgresURL gives each test its own schema in the machine's PostgreSQL.
// CI must have PostgreSQL: there the test fails instead of skipping.
func postgresURL(t *testing.T) string {
	t.Helper()
	base := os.Getenv("TEXTANALYSIS_TEST_POSTGRES_URL")
	if base == "" {
		base = "postgres://postgres@127.0.0.1:5432/test?sslmode=disable"
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, base)
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("PostgreSQL is required in CI: %v", err)
		}
		t.Skipf("no PostgreSQL at %s: %v", base, err)
	}
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	schema := "ta_cli_" + hex.EncodeToString(b)
	_, err = conn.Exec(ctx, "CREATE SCHEMA "+schema)
	require.NoError(t, err)
	conn.Close(ctx)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if c, err := pgx.Connect(ctx, base); err == nil {
			_, _ = c.Exec(ctx, "DROP SCHEMA "+schema+" CASCADE")
			c.Close(ctx)
		}
	})
	sep := "?"
	if strings.Contains(base, "?") {
		sep = "&"
	}
	return base + sep + "search_path=" + schema
}

// hammer sends n requests from c concurrent clients, spread over bases, and
// returns the X-Gw-Remaining of the 200s and the count of 429s.
func hammer(t *testing.T, bases []string, key string, n, c int) ([]int, int, []string) {
	t.Helper()
	var (
		mu        sync.Mutex
		remaining []int
		refused   int
		actions   []string
	)
	jobs := make(chan int)
	var wg sync.WaitGroup
	client := &http.Client{Timeout: 30 * time.Second}
	for range c {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				req, _ := http.NewRequest("GET", bases[i%len(bases)]+"/sentiment?text=nice", nil)
				req.Header.Set("X-API-Key", key)
				res, err := client.Do(req)
				if !assert.NoError(t, err) {
					continue
				}
				var body struct {
					Action string `json:"action"`
				}
				_ = json.NewDecoder(res.Body).Decode(&body)
				res.Body.Close()
				mu.Lock()
				switch res.StatusCode {
				case http.StatusOK:
					v, err := strconv.Atoi(res.Header.Get("X-Gw-Remaining"))
					assert.NoError(t, err)
					remaining = append(remaining, v)
				case http.StatusTooManyRequests:
					refused++
					actions = append(actions, body.Action)
				default:
					t.Errorf("status %d", res.StatusCode)
				}
				mu.Unlock()
			}
		}()
	}
	for i := range n {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	slices.Sort(remaining)
	return remaining, refused, actions
}

func zeroTo(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// Two serve processes share PostgreSQL; load split between them still
// meets a trial key's 100 requests exactly.
func TestTwoServersSharePostgresExactly(t *testing.T) {
	db := postgresURL(t)
	env := map[string]string{"TEXTANALYSIS_DATABASE_URL": db}
	out := runCLI(t, env, "keys", "create", "--plan", "trial", "--json")
	var created struct {
		Key  string `json:"key"`
		Plan string `json:"plan"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &created))
	require.Equal(t, "trial", created.Plan)
	require.True(t, strings.HasPrefix(created.Key, "ta_trial_"))

	dir := t.TempDir()
	envs := []string{"TEXTANALYSIS_DATABASE_URL=" + db}
	a := startServe(t, dir, envs, "--rate-scale", "1000")
	b := startServe(t, dir, envs, "--rate-scale", "1000")
	remaining, refused, actions := hammer(t, []string{a.base, b.base}, created.Key, 150, 50)
	assert.Equal(t, zeroTo(100), remaining)
	assert.Equal(t, 50, refused)
	for _, act := range actions {
		assert.Equal(t, "claim", act)
	}
	for _, p := range []*serveProc{a, b} {
		assert.NotContains(t, p.logs.String(), created.Key)
	}
}

func TestKeysAndUsageCommands(t *testing.T) {
	dir := t.TempDir()
	env := map[string]string{"TEXTANALYSIS_DATABASE_URL": filepath.Join(dir, "cli.db")}
	out := runCLI(t, env, "keys", "create", "--plan", "payg", "--email", "Ops@Example.com", "--json")
	var created struct {
		Key       string `json:"key"`
		KeyID     int64  `json:"key_id"`
		AccountID int64  `json:"account_id"`
		Email     string `json:"email"`
		Plan      string `json:"plan"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &created))
	assert.Regexp(t, `^ta_live_[0-9A-Za-z]{32}$`, created.Key)
	assert.Equal(t, "ops@example.com", created.Email)
	assert.Equal(t, "payg", created.Plan)

	srv := startServe(t, dir, []string{"TEXTANALYSIS_DATABASE_URL=" + filepath.Join(dir, "cli.db")}, "--rate-scale", "100")
	for range 3 {
		req, _ := http.NewRequest("GET", srv.base+"/sentiment?text=ok", nil)
		req.Header.Set("Authorization", "Bearer "+created.Key)
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		res.Body.Close()
		require.Equal(t, http.StatusOK, res.StatusCode)
	}

	list := runCLI(t, env, "keys", "list", "--json")
	assert.NotContains(t, list, created.Key, "a list shows prefixes only")
	assert.Contains(t, list, created.Key[:14])

	csv := runCLI(t, env, "usage")
	month := time.Now().UTC().Format("2006-01")
	assert.Contains(t, csv, "month,account_id,email,plan,requests,payg_requests,amount_usd,erased_at\n")
	assert.Contains(t, csv, fmt.Sprintf("%s,%d,ops@example.com,payg,3,3,0.00,\n", month, created.AccountID))
	js := runCLI(t, env, "usage", "--format", "json")
	assert.Contains(t, js, `"requests": 3`)

	runCLI(t, env, "keys", "plan", "--email", "ops@example.com", "--plan", "free")
	runCLI(t, env, "keys", "revoke", strconv.FormatInt(created.KeyID, 10))
	// The running server sees the revocation within its key cache's TTL.
	revoked := time.Now()
	status := func() int {
		req, _ := http.NewRequest("GET", srv.base+"/sentiment?text=ok", nil)
		req.Header.Set("X-API-Key", created.Key)
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		res.Body.Close()
		return res.StatusCode
	}
	assert.Eventually(t, func() bool { return status() == http.StatusUnauthorized }, access.DefaultKeyCacheTTL+time.Second, 20*time.Millisecond, "revoked while the server runs")
	t.Logf("revocation took effect after %v (bound %v)", time.Since(revoked), access.DefaultKeyCacheTTL)
	assert.NotContains(t, srv.logs.String(), created.Key)
}

// SIGTERM stops serve cleanly: it finishes what it is doing and exits 0.
func TestServeStopsOnSIGTERM(t *testing.T) {
	dir := t.TempDir()
	srv := startServe(t, dir, []string{"TEXTANALYSIS_DATABASE_URL=" + filepath.Join(dir, "t.db")})
	require.NoError(t, srv.cmd.Process.Signal(syscall.SIGTERM))
	done := make(chan error, 1)
	go func() { done <- srv.cmd.Wait() }()
	select {
	case err := <-done:
		assert.NoError(t, err, "exit status 0: %s", srv.logs.String())
	case <-time.After(20 * time.Second):
		t.Fatal("serve did not stop on SIGTERM")
	}
}
