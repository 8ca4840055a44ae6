package main

import (
	"encoding/json"
	"fmt"
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

func TestKeysDeleteAccount(t *testing.T) {
	db := filepath.Join(t.TempDir(), "cli.db")
	env := map[string]string{"TEXTANALYSIS_DATABASE_URL": db}
	var created struct {
		Key       string `json:"key"`
		AccountID int64  `json:"account_id"`
	}
	require.NoError(t, json.Unmarshal([]byte(runCLI(t, env, "keys", "create", "--plan", "payg", "--email", "Gone@Example.com", "--json")), &created))
	runCLI(t, env, "keys", "create", "--email", "gone@example.com", "--name", "second")
	var other struct {
		Key string `json:"key"`
	}
	require.NoError(t, json.Unmarshal([]byte(runCLI(t, env, "keys", "create", "--email", "stays@example.com", "--json")), &other))

	// Two requests are counted, as a server would count them.
	st, err := sqlite.Open(t.Context(), db)
	require.NoError(t, err)
	defer st.Close()
	// No key cache: the deletion below, by another process, shows at once
	// (a server sees it within access.DefaultKeyCacheTTL).
	gate, err := access.New(t.Context(), access.Config{Store: st, KeyCacheTTL: -1})
	require.NoError(t, err)
	for range 2 {
		d, err := gate.Admit(t.Context(), created.Key)
		require.NoError(t, err)
		require.False(t, d.Refused(), d.Detail)
	}

	out := runCLI(t, env, "keys", "delete-account", "GONE@example.com")
	assert.Equal(t, fmt.Sprintf("deleted account %d: 2 keys and 0 links removed, e-mail address erased; its usage rows are kept for invoices (account %d, payg plan, no e-mail)\n",
		created.AccountID, created.AccountID), out)

	t.Run("the key answers invalid_key", func(t *testing.T) {
		d, err := gate.Admit(t.Context(), created.Key)
		require.NoError(t, err)
		assert.Equal(t, 401, d.Status)
		assert.Equal(t, "invalid_key", d.Code)
		d, err = gate.Admit(t.Context(), other.Key)
		require.NoError(t, err)
		assert.False(t, d.Refused(), "another account's key still works")
	})

	t.Run("the address is gone, the usage stays", func(t *testing.T) {
		list := runCLI(t, env, "keys", "list")
		assert.NotContains(t, list, "gone@example.com")
		assert.Contains(t, list, "stays@example.com")
		csv := runCLI(t, env, "usage")
		assert.NotContains(t, csv, "gone@example.com")
		assert.Contains(t, csv, fmt.Sprintf("%s,%d,,payg,2,2,0.00,%s", time.Now().UTC().Format("2006-01"), created.AccountID, time.Now().UTC().Format("2006-01-")))
	})

	t.Run("again, by ID", func(t *testing.T) {
		out := runCLI(t, env, "keys", "delete-account", "--json", strconv.FormatInt(created.AccountID, 10))
		var got deletedAccount
		require.NoError(t, json.Unmarshal([]byte(out), &got))
		a, err := st.Account(t.Context(), created.AccountID)
		require.NoError(t, err)
		assert.Equal(t, deletedAccount{AccountID: created.AccountID, Plan: "payg", UsageKept: true, DeletedAt: a.DeletedAt.Format(time.RFC3339)}, got)
	})

	t.Run("an account without usage goes entirely", func(t *testing.T) {
		runCLI(t, env, "keys", "create", "--email", "unused@example.com")
		a, err := st.AccountByEmail(t.Context(), "unused@example.com")
		require.NoError(t, err)
		out := runCLI(t, env, "keys", "delete-account", "unused@example.com")
		assert.Equal(t, fmt.Sprintf("deleted account %d: 1 key and 0 links removed; it had no usage, so nothing of it is kept\n", a.ID), out)
		_, err = st.Account(t.Context(), a.ID)
		assert.ErrorIs(t, err, store.ErrNotFound)
	})

	t.Run("mistakes", func(t *testing.T) {
		for _, args := range [][]string{
			{"keys", "delete-account"},
			{"keys", "delete-account", "nobody@example.com"},
			{"keys", "delete-account", "999999"},
			{"keys", "delete-account", "a@example.com", "b@example.com"},
		} {
			_, _, code := run(t, "", args...)
			assert.Equal(t, exitUsage, code, args)
		}
	})
}

// serve purges its store when it starts, and logs what it deleted.
func TestServePurgesAtStart(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "t.db")
	st, err := sqlite.Open(t.Context(), db)
	require.NoError(t, err)
	require.NoError(t, st.CreateToken(t.Context(), store.Token{Hash: "old", Purpose: "confirm", Email: "x@example.com", ExpiresAt: time.Now().Add(-time.Hour)}))
	require.NoError(t, st.CreateToken(t.Context(), store.Token{Hash: "live", Purpose: "confirm", Email: "x@example.com", ExpiresAt: time.Now().Add(time.Hour)}))
	require.NoError(t, st.Close())

	srv := startServe(t, dir, []string{"TEXTANALYSIS_DATABASE_URL=" + db})
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(srv.logs.String(), `"msg":"purged expired rows"`) && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	assert.Contains(t, srv.logs.String(), `"msg":"purged expired rows","job":"purge","tokens":1,"counters":0,"sessions":0`)
}
