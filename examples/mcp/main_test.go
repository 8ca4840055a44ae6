package main

import (
	"bytes"
	"flag"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// -h must not print the key that TEXTANALYSIS_API_KEY holds.
func TestHelpDoesNotShowTheKey(t *testing.T) {
	const secret = "ta_live_secretsecretsecretsecretsecret"
	t.Setenv("TEXTANALYSIS_API_KEY", secret)
	var out bytes.Buffer
	fs := flag.NewFlagSet("mcp", flag.ContinueOnError)
	fs.SetOutput(&out)
	_, err := parseFlags(fs, []string{"-h"})
	require.ErrorIs(t, err, flag.ErrHelp)
	assert.Contains(t, out.String(), "-key")
	assert.NotContains(t, out.String(), secret)

	opts, err := parseFlags(flag.NewFlagSet("mcp", flag.ContinueOnError), nil)
	require.NoError(t, err)
	assert.Equal(t, secret, opts.key, "the environment still gives the key")
	opts, err = parseFlags(flag.NewFlagSet("mcp", flag.ContinueOnError), []string{"-key", "ta_live_other"})
	require.NoError(t, err)
	assert.Equal(t, "ta_live_other", opts.key)
}
