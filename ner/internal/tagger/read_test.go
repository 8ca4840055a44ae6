package tagger

import (
	"bytes"
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/textanalysis/go-textanalysis/internal/modelfile/modelfiletest"
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
	modelfiletest.DamagedFails(t, buf.Bytes(), func(data []byte) error {
		_, err := Read(data)
		return err
	})
}
