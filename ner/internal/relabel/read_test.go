package relabel

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// shipped are the second-stage models ner embeds.
var shipped = []string{"../../models/ontonotes-relabel.bin", "../../models/conll-relabel.bin"}

// TestShippedRoundTrip checks that Write gives back the bytes of each
// shipped model as Read decodes it, so that the format has not drifted
// from the files (and trainrelabel rebuilds them byte for byte).
func TestShippedRoundTrip(t *testing.T) {
	for _, path := range shipped {
		t.Run(filepath.Base(path), func(t *testing.T) {
			data, err := os.ReadFile(path)
			require.NoError(t, err)
			m, err := Read(data)
			require.NoError(t, err)
			var buf bytes.Buffer
			require.NoError(t, m.Write(&buf))
			assert.True(t, bytes.Equal(data, buf.Bytes()), "%s: %d bytes read, %d written", path, len(data), buf.Len())
		})
	}
}

// BenchmarkRead measures the decoding of the shipped ontonotes relabeler,
// which every process does once at its first entity request.
func BenchmarkRead(b *testing.B) {
	data, err := os.ReadFile(shipped[0])
	require.NoError(b, err)
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := Read(data); err != nil {
			b.Fatal(err)
		}
	}
}
