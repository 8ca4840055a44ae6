package main

import (
	"encoding/csv"
	"encoding/json"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/textanalysis/go-textanalysis/server/access"
	"github.com/textanalysis/go-textanalysis/server/store"
	"github.com/textanalysis/go-textanalysis/server/store/sqlite"
)

func TestUsageSortedAndErasedMarked(t *testing.T) {
	db := filepath.Join(t.TempDir(), "cli.db")
	t.Setenv("TEXTANALYSIS_DATABASE_URL", db)
	var ids []int64
	var keys []string
	for _, args := range [][]string{
		{"keys", "create", "--plan", "trial", "--json"},
		{"keys", "create", "--plan", "free", "--email", "gone@example.com", "--json"},
		{"keys", "create", "--plan", "payg", "--email", "payg@example.com", "--json"},
	} {
		var k struct {
			Key       string `json:"key"`
			AccountID int64  `json:"account_id"`
		}
		require.NoError(t, json.Unmarshal([]byte(runCLI(t, nil, args...)), &k))
		ids, keys = append(ids, k.AccountID), append(keys, k.Key)
	}
	st, err := sqlite.Open(t.Context(), db)
	require.NoError(t, err)
	defer st.Close()
	gate, err := access.New(t.Context(), access.Config{Store: st})
	require.NoError(t, err)
	// Counted in reverse order, and the trial's period starts at its issue,
	// not at the month's start.
	for i := len(keys) - 1; i >= 0; i-- {
		d, err := gate.Admit(t.Context(), keys[i])
		require.NoError(t, err)
		require.False(t, d.Refused(), d.Detail)
	}
	runCLI(t, nil, "keys", "delete-account", "gone@example.com")

	rows, err := csv.NewReader(strings.NewReader(runCLI(t, nil, "usage"))).ReadAll()
	require.NoError(t, err)
	require.Len(t, rows, 4)
	assert.Equal(t, []string{"month", "account_id", "email", "plan", "requests", "payg_requests", "amount_usd", "erased_at"}, rows[0])
	for i, row := range rows[1:] {
		assert.Equal(t, strconv.FormatInt(ids[i], 10), row[1], "row %d", i)
	}
	assert.Equal(t, "", rows[1][7], "a trial account has no e-mail but is not erased")
	assert.NotEmpty(t, rows[2][7], "the deleted account is marked")
	assert.Equal(t, "", rows[3][7])
	assert.Equal(t, []string{"1", "1"}, rows[3][4:6], "the Pay as you go account's request is charged")

	var lines []map[string]any
	require.NoError(t, json.Unmarshal([]byte(runCLI(t, nil, "usage", "--format", "json")), &lines))
	require.Len(t, lines, 3)
	assert.NotContains(t, lines[0], "erased_at")
	assert.Contains(t, lines[1], "erased_at")
	assert.EqualValues(t, ids[0], lines[0]["account_id"])
}

// TestUsageBillsOnlyPaygRequests: 999 requests on Free and 2 after
// "keys plan --plan payg" in one month are 1,001 requests of which 2 are
// charged, not 1,001 (issue 13).
func TestUsageBillsOnlyPaygRequests(t *testing.T) {
	db := filepath.Join(t.TempDir(), "cli.db")
	t.Setenv("TEXTANALYSIS_DATABASE_URL", db)
	var k struct {
		Key       string `json:"key"`
		AccountID int64  `json:"account_id"`
	}
	require.NoError(t, json.Unmarshal([]byte(runCLI(t, nil, "keys", "create", "--plan", "free", "--email", "mover@example.com", "--json")), &k))
	st, err := sqlite.Open(t.Context(), db)
	require.NoError(t, err)
	defer st.Close()
	// 999 requests on Free, counted as the server counts them.
	_, err = st.ConsumeBatch(t.Context(), []store.Take{{AccountID: k.AccountID, Period: access.MonthStart(time.Now()), N: 999, Limit: 1000, Plan: store.PlanFree}})
	require.NoError(t, err)
	runCLI(t, nil, "keys", "plan", "--email", "mover@example.com", "--plan", "payg")
	gate, err := access.New(t.Context(), access.Config{Store: st})
	require.NoError(t, err)
	for range 2 {
		d, err := gate.Admit(t.Context(), k.Key)
		require.NoError(t, err)
		require.False(t, d.Refused(), d.Detail)
	}

	rows, err := csv.NewReader(strings.NewReader(runCLI(t, nil, "usage"))).ReadAll()
	require.NoError(t, err)
	require.Len(t, rows, 2)
	assert.Equal(t, []string{time.Now().UTC().Format("2006-01"), strconv.FormatInt(k.AccountID, 10), "mover@example.com", "payg", "1001", "2", "0.00", ""}, rows[1],
		"billed as 1,001 Pay as you go requests it would cost 0.10")

	var lines []map[string]any
	require.NoError(t, json.Unmarshal([]byte(runCLI(t, nil, "usage", "--format", "json")), &lines))
	require.Len(t, lines, 1)
	assert.EqualValues(t, 1001, lines[0]["requests"])
	assert.EqualValues(t, 2, lines[0]["payg_requests"])
	assert.EqualValues(t, 0, lines[0]["amount_usd"])
}
