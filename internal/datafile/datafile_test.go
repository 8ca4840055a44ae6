package datafile

import (
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestOpen(t *testing.T) {
	dir := t.TempDir()
	plain := filepath.Join(dir, "a.jsonl")
	require.NoError(t, os.WriteFile(plain, []byte("plain\n"), 0o600))
	gz := filepath.Join(dir, "b.jsonl.gz")
	f, err := os.Create(gz)
	require.NoError(t, err)
	zw := gzip.NewWriter(f)
	_, err = zw.Write([]byte("compressed\n"))
	require.NoError(t, err)
	require.NoError(t, zw.Close())
	require.NoError(t, f.Close())
	notGz := filepath.Join(dir, "c.gz")
	require.NoError(t, os.WriteFile(notGz, []byte("not gzip"), 0o600))

	tests := []struct {
		name    string
		path    string
		want    string
		wantErr string
	}{
		{name: "plain file", path: plain, want: "plain\n"},
		{name: "gzip by its name", path: gz, want: "compressed\n"},
		{name: "missing", path: filepath.Join(dir, "none"), wantErr: "no such file"},
		{name: ".gz that is not gzip", path: notGz, wantErr: "c.gz"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Open(tt.path)
			if tt.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.wantErr)
				return
			}
			require.NoError(t, err)
			got, err := io.ReadAll(r)
			require.NoError(t, err)
			assert.Equal(t, tt.want, string(got))
			assert.NoError(t, r.Close())
		})
	}
}
