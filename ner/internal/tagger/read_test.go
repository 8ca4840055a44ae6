package tagger

import (
	"bytes"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// BenchmarkRead measures the decoding of the shipped ontonotes tagger,
// which every process does once at its first entity request.
func BenchmarkRead(b *testing.B) {
	data, err := os.ReadFile("../../models/ontonotes.bin")
	require.NoError(b, err)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := Read(data); err != nil {
			b.Fatal(err)
		}
	}
}

// TestReadTruncated checks that a cut or corrupted model file gives an
// error, never a panic or a model built from part of the data.
func TestReadTruncated(t *testing.T) {
	sents := flightSentences()
	m, hashes, err := Train(sents, TrainOptions{Labels: []string{"PER", "LOC"}, Epochs: 2, MinCount: 1, Folds: 2, BILOU: true, Extra: true})
	require.NoError(t, err)
	m.Gaz = NewGazetteer(2)
	m.Gaz.Phrases[42] = 1
	var buf bytes.Buffer
	require.NoError(t, m.Write(&buf, hashes))
	data := buf.Bytes()
	_, err = Read(data)
	require.NoError(t, err)
	for n := 0; n < len(data); n += max(1, len(data)/97) {
		_, err := Read(data[:n])
		assert.Error(t, err, "the first %d of %d bytes", n, len(data))
	}
	bad := bytes.Clone(data)
	bad[len(bad)-5] ^= 0xff // the gzip trailer's checksum
	_, err = Read(bad)
	assert.Error(t, err)
}
