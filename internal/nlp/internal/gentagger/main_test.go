package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestEmbeddedIsCurrent checks that internal/nlp embeds what this program
// writes from the prose in go.mod (run go generate ./internal/nlp if not).
func TestEmbeddedIsCurrent(t *testing.T) {
	out := filepath.Join(t.TempDir(), "tagger.bin.gz")
	require.NoError(t, run(out))
	got, err := os.ReadFile(out)
	require.NoError(t, err)
	want, err := os.ReadFile("../../tagger.bin.gz")
	require.NoError(t, err)
	require.Equal(t, want, got, "internal/nlp/tagger.bin.gz is stale")
}
