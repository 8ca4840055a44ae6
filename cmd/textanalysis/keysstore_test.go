package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestKeysStoreIsExplicit(t *testing.T) {
	t.Setenv("TEXTANALYSIS_DATABASE_URL", "")
	t.Chdir(t.TempDir())

	t.Run("a command that reads refuses a missing store", func(t *testing.T) {
		for _, args := range [][]string{{"keys", "list"}, {"keys", "revoke", "1"}, {"usage"}} {
			_, _, code := run(t, "", args...)
			assert.Equal(t, exitUsage, code, args)
			assert.NoFileExists(t, "textanalysis.db", args)
		}
	})
	t.Run("create warns when it makes a store", func(t *testing.T) {
		_, errOut, code := run(t, "", "keys", "create", "--json")
		require.Equal(t, exitOK, code, errOut)
		assert.Contains(t, errOut, "warning: created a new, empty store at ")
		assert.FileExists(t, "textanalysis.db")
		_, errOut, code = run(t, "", "keys", "create", "--json")
		require.Equal(t, exitOK, code, errOut)
		assert.Empty(t, errOut)
	})
	t.Run("--db names the store, after the subcommand too", func(t *testing.T) {
		db := filepath.Join(t.TempDir(), "server.db")
		out, errOut, code := run(t, "", "keys", "create", "--name", "elsewhere", "--db", db)
		require.Equal(t, exitOK, code, errOut)
		assert.Contains(t, out, "ta_live_")
		out, errOut, code = run(t, "", "keys", "list", "--db", db)
		require.Equal(t, exitOK, code, errOut)
		assert.Equal(t, 2, strings.Count(out, "\n"), out) // header and one key
		_, _, code = run(t, "", "keys", "list", "--db", "postgres://u:secret@db/x")
		assert.Equal(t, exitUsage, code)
	})
}

func TestKeysRevokeByWhatPeopleSee(t *testing.T) {
	db := filepath.Join(t.TempDir(), "cli.db")
	t.Setenv("TEXTANALYSIS_DATABASE_URL", db)
	create := func() (key, prefix string) {
		var k struct {
			Key    string `json:"key"`
			Prefix string `json:"prefix"`
		}
		require.NoError(t, json.Unmarshal([]byte(runCLI(t, nil, "keys", "create", "--json")), &k))
		return k.Key, k.Prefix
	}
	tests := []struct {
		name string
		arg  func(key, prefix string) string
	}{
		{"prefix with an ellipsis, as keys list shows it", func(_, p string) string { return p + "…" }},
		{"prefix with three dots", func(_, p string) string { return p + "..." }},
		{"the whole key", func(k, _ string) string { return k }},
		{"prefix with spaces around it", func(_, p string) string { return " " + p + " " }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			key, prefix := create()
			out := runCLI(t, nil, "keys", "revoke", tt.arg(key, prefix))
			assert.Contains(t, out, "revoked key ")
			assert.Contains(t, out, prefix)
		})
	}
}

func TestKeysCreateTrialPrintsClaimURL(t *testing.T) {
	t.Setenv("TEXTANALYSIS_DATABASE_URL", filepath.Join(t.TempDir(), "cli.db"))
	t.Setenv("TEXTANALYSIS_BASE_URL", "https://api.example.com/")
	t.Setenv("TEXTANALYSIS_DEVELOPER_URL", "")
	out := runCLI(t, nil, "keys", "create", "--plan", "trial")
	assert.Contains(t, out, "https://api.example.com/developer/claim?key=")
	var k struct {
		ClaimURL string `json:"claim_url"`
	}
	require.NoError(t, json.Unmarshal([]byte(runCLI(t, nil, "keys", "create", "--plan", "trial", "--json")), &k))
	assert.True(t, strings.HasPrefix(k.ClaimURL, "https://api.example.com/developer/claim?key="), k.ClaimURL)
	var free struct {
		ClaimURL *string `json:"claim_url"`
	}
	require.NoError(t, json.Unmarshal([]byte(runCLI(t, nil, "keys", "create", "--json")), &free))
	assert.Nil(t, free.ClaimURL)
}
