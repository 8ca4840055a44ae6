package main

import (
	"bytes"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/textanalysis/go-textanalysis/server/store"
	"github.com/textanalysis/go-textanalysis/server/store/sqlite"
)

// `textanalysis migrate` is its own step; a server started with
// --migrate=false then only checks the schema.
func TestMigrateCommand(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "m.db")
	t.Setenv("TEXTANALYSIS_DATABASE_URL", db)

	out, errOut, code := run(t, "", "migrate")
	require.Equal(t, exitOK, code, errOut)
	assert.Equal(t, "schema migrated from version 0 to "+strconv.Itoa(sqlite.SchemaVersion())+"\n", out)
	out, errOut, code = run(t, "", "migrate")
	require.Equal(t, exitOK, code, errOut)
	assert.Equal(t, "schema at version "+strconv.Itoa(sqlite.SchemaVersion())+": nothing to do\n", out)

	srv := startServe(t, dir, []string{"TEXTANALYSIS_DATABASE_URL=" + db}, "--migrate=false")
	res, err := http.Get(srv.base + "/readyz")
	require.NoError(t, err)
	res.Body.Close()
	assert.Equal(t, http.StatusOK, res.StatusCode)
}

// Without migrating, serve refuses a database whose schema is older.
func TestServeNoMigrateRefusesAnOldSchema(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("TEXTANALYSIS_DATABASE_URL", filepath.Join(dir, "empty.db"))
	var out bytes.Buffer
	app := newApp(strings.NewReader(""), &out, &out)
	err := app.RunContext(t.Context(), []string{"textanalysis", "serve", "--migrate=false", "--addr", "127.0.0.1:0", "--admin-addr", "off"})
	require.ErrorIs(t, err, store.ErrSchemaOld)
	assert.Contains(t, err.Error(), "run textanalysis migrate")
}
