package relabel

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/textanalysis/go-textanalysis/internal/modelfile"
	"github.com/textanalysis/go-textanalysis/internal/modelfile/modelfiletest"
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

// TestReadTruncated checks that a cut or corrupted model file gives an
// error, never a panic or a model built from part of the data, with
// each of the optional sections last.
func TestReadTruncated(t *testing.T) {
	ls := []string{"PERSON", "GPE"}
	tests := []struct {
		name  string
		ext   *Ext
		bound *Bound
	}{
		{"weights only", nil, nil},
		{"external gazetteer", NewExt([]byte("GPE\tGambia\t0\t1\n"), ls), nil},
		{"boundary settings", nil, &Bound{Allow: 0b110, Cost: 0.4, Margin: 0.2, Reach: 150, Stack: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := Train(ls, toy(), 5, 1)
			m.Ext, m.Bound = tt.ext, tt.bound
			var buf bytes.Buffer
			require.NoError(t, m.Write(&buf))
			modelfiletest.DamagedFails(t, buf.Bytes(), func(data []byte) error {
				_, err := Read(data)
				return err
			})
		})
	}
}

// TestReadBadData checks that values out of bounds give an error
// wrapping modelfile.ErrFormat.
func TestReadBadData(t *testing.T) {
	weights := func(w *modelfile.Writer) {
		w.Raw(magic)
		w.Uvarint(1)
		w.String("PERSON")
		w.LE([3]float32{0, 0, 1})
		w.Uvarint(1)
		w.Uvarint(5)
		w.LE(int16(3))
	}
	// bound writes the weights, no external gazetteer, and boundary
	// settings with these edits and stack flag.
	bound := func(w *modelfile.Writer, edits, stack uint64) {
		weights(w)
		w.Uvarint(0)
		w.Uvarint(edits)
		w.LE([3]float32{})
		w.Uvarint(stack)
	}
	tests := []struct {
		name  string
		write func(w *modelfile.Writer)
	}{
		{"wrong magic", func(w *modelfile.Writer) { w.Raw("NERRELABEL0\n") }},
		{"too many labels", func(w *modelfile.Writer) { w.Raw(magic); w.Uvarint(maxLabels + 1) }},
		{"label too long", func(w *modelfile.Writer) { w.Raw(magic); w.Uvarint(1); w.Uvarint(maxLabelLen + 1) }},
		{"weight index out of range", func(w *modelfile.Writer) {
			w.Raw(magic)
			w.Uvarint(0)
			w.LE([3]float32{0, 0, 1})
			w.Uvarint(1)
			w.Uvarint(1 << bits)
			w.LE(int16(3))
		}},
		{"external gazetteer too large", func(w *modelfile.Writer) { weights(w); w.Uvarint(maxExt + 1) }},
		{"unknown edit", func(w *modelfile.Writer) { bound(w, 1<<NumEdits, 0) }},
		{"stack flag not 0 or 1", func(w *modelfile.Writer) { bound(w, 1, 2) }},
		{"data after the end", func(w *modelfile.Writer) { bound(w, 1, 0); w.Byte(0) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			w := modelfile.NewWriter(&buf)
			tt.write(w)
			require.NoError(t, w.Close())
			_, err := Read(buf.Bytes())
			assert.ErrorIs(t, err, modelfile.ErrFormat)
		})
	}
	// The same fields, in bounds, are a model.
	var buf bytes.Buffer
	w := modelfile.NewWriter(&buf)
	weights(w)
	w.Uvarint(0)
	w.Uvarint(1)
	w.LE([3]float32{0.5, 0.25, 100})
	w.Uvarint(1)
	require.NoError(t, w.Close())
	m, err := Read(buf.Bytes())
	require.NoError(t, err)
	assert.Equal(t, []string{"PERSON"}, m.Labels)
	assert.Nil(t, m.Ext)
	assert.Equal(t, &Bound{Allow: 1, Cost: 0.5, Margin: 0.25, Reach: 100, Stack: true}, m.Bound)
	assert.Equal(t, float32(3), m.w[5])
}
