package sqlite_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/textanalysis/go-textanalysis/server/store"
	"github.com/textanalysis/go-textanalysis/server/store/sqlite"
)

// Environment of the child processes of TestTwoProcesses.
const (
	childPathEnv = "TEXTANALYSIS_SQLITE_CHILD_PATH"
	childEmail   = "shared@example.com"
)

var period = time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)

type childResult struct {
	Count int64  `json:"count"`
	OK    bool   `json:"ok"`
	Err   string `json:"err,omitempty"`
}

// TestTwoProcesses runs two processes on one new file, as two servers
// started together: both create and migrate it at once and race to create
// one account, then each counts 75 requests from 25 goroutines against its
// allowance of 100. Together they must count exactly.
func TestTwoProcesses(t *testing.T) {
	if os.Getenv(childPathEnv) != "" {
		t.Skip("in a child process")
	}
	path := filepath.Join(t.TempDir(), "textanalysis.db")
	exe, err := os.Executable()
	require.NoError(t, err)

	var outs [2][]byte
	var errs [2]error
	var wg sync.WaitGroup
	for i := range 2 {
		wg.Go(func() {
			cmd := exec.CommandContext(t.Context(), exe, "-test.run=^TestChildProcess$", "-test.count=1")
			cmd.Env = append(os.Environ(), childPathEnv+"="+path)
			outs[i], errs[i] = cmd.Output()
		})
	}
	wg.Wait()

	var counts []int64
	refused := 0
	for i := range 2 {
		require.NoError(t, errs[i], "child %d: %s", i, outs[i])
		n := 0
		for _, line := range splitLines(outs[i]) {
			var r childResult
			if json.Unmarshal(line, &r) != nil {
				continue // go test's own output
			}
			n++
			require.Empty(t, r.Err, "child %d", i)
			if r.OK {
				counts = append(counts, r.Count)
			} else {
				refused++
			}
		}
		require.Equal(t, 75, n, "child %d reported %d results: %s", i, n, outs[i])
	}
	seen := map[int64]bool{}
	for _, c := range counts {
		assert.False(t, seen[c], "count %d given twice", c)
		seen[c] = true
		assert.True(t, c >= 1 && c <= 100, "count %d", c)
	}
	assert.Len(t, counts, 100)
	assert.Equal(t, 50, refused)

	st, err := sqlite.Open(t.Context(), path)
	require.NoError(t, err)
	accounts, err := st.ListAccounts(t.Context())
	require.NoError(t, err)
	require.Len(t, accounts, 1)
	used, err := st.Used(t.Context(), accounts[0].ID, period)
	require.NoError(t, err)
	assert.Equal(t, int64(100), used)
	require.NoError(t, st.Close())
}

func splitLines(b []byte) [][]byte {
	var lines [][]byte
	for len(b) > 0 {
		i := 0
		for i < len(b) && b[i] != '\n' {
			i++
		}
		lines = append(lines, b[:i])
		if i < len(b) {
			i++
		}
		b = b[i:]
	}
	return lines
}

// TestChildProcess is TestTwoProcesses's child; alone it does nothing.
func TestChildProcess(t *testing.T) {
	path := os.Getenv(childPathEnv)
	if path == "" {
		t.Skip("only run by TestTwoProcesses")
	}
	st, err := sqlite.Open(t.Context(), path)
	require.NoError(t, err)
	defer st.Close()
	a, err := st.CreateAccount(t.Context(), store.Account{Email: childEmail, Plan: store.PlanFree})
	if errors.Is(err, store.ErrExists) {
		a, err = st.AccountByEmail(t.Context(), childEmail)
	}
	require.NoError(t, err)
	acct := a.ID
	results := make([]childResult, 75)
	var wg sync.WaitGroup
	for g := range 25 {
		wg.Go(func() {
			for c := range 3 {
				r := &results[g*3+c]
				var err error
				r.Count, r.OK, err = st.Consume(t.Context(), acct, period, 100)
				if err != nil {
					r.Err = err.Error()
				}
			}
		})
	}
	wg.Wait()
	for _, r := range results {
		b, _ := json.Marshal(r)
		fmt.Println(string(b))
	}
}
