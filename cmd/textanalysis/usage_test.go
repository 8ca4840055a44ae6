package main

import (
	"encoding/csv"
	"encoding/json"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/textanalysis/go-textanalysis/server/access"
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
	assert.Equal(t, []string{"month", "account_id", "email", "plan", "requests", "amount_usd", "erased_at"}, rows[0])
	for i, row := range rows[1:] {
		assert.Equal(t, strconv.FormatInt(ids[i], 10), row[1], "row %d", i)
	}
	assert.Equal(t, "", rows[1][6], "a trial account has no e-mail but is not erased")
	assert.NotEmpty(t, rows[2][6], "the deleted account is marked")
	assert.Equal(t, "", rows[3][6])

	var lines []map[string]any
	require.NoError(t, json.Unmarshal([]byte(runCLI(t, nil, "usage", "--format", "json")), &lines))
	require.Len(t, lines, 3)
	assert.NotContains(t, lines[0], "erased_at")
	assert.Contains(t, lines[1], "erased_at")
	assert.EqualValues(t, ids[0], lines[0]["account_id"])
}
