package blockmodel

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// modelJSON is the model as the trainer wrote it; the binary embeds
// model.bin, written from it.
var modelJSON = func() []byte {
	b, err := os.ReadFile("model.json")
	if err != nil {
		panic(err)
	}
	return b
}()

// model.bin is model.json: if this fails, run
// go generate ./extract/internal/blockmodel.
func TestBinaryMatchesJSON(t *testing.T) {
	var want Model
	require.NoError(t, json.Unmarshal(modelJSON, &want))
	got, err := decodeBinary(modelBin)
	require.NoError(t, err, "go generate ./extract/internal/blockmodel")
	assert.Equal(t, &want, got, "model.bin is not model.json: go generate ./extract/internal/blockmodel")
	b, err := EncodeBinary(&want)
	require.NoError(t, err)
	assert.Equal(t, b, modelBin, "model.bin is not model.json: go generate ./extract/internal/blockmodel")
}

// Every part and key round-trips, trees or none.
func TestBinaryRoundTrip(t *testing.T) {
	leaf := Tree{Feat: []int16{-1}, Thr: []float32{0.125}, Left: []int32{0}, Right: []int32{0}, Val: []float32{-0.3}}
	split := Tree{Feat: []int16{2, -1, -1}, Thr: []float32{1.5, 0, 0}, Left: []int32{1, 0, 0}, Right: []int32{2, 0, 0}, Val: []float32{0, -1, 1}}
	full := Model{Features: []string{"a", "b"}, Base: 0.1, Trees: []Tree{leaf, split, {Feat: []int16{}, Thr: []float32{}, Left: []int32{}, Right: []int32{}, Val: []float32{}}},
		Threshold: 0.35, AddVeto: true, Types: []string{"article", "forum"},
		TypeModels: []Model{{Features: []string{"x"}, Trees: []Tree{split}}, {Trees: []Tree{}}},
		TypeDrop:   []float64{0, 0.5}, Stack: &Model{Base: -2, Trees: []Tree{leaf, leaf}}, Note: "n \"q\""}
	for _, m := range []Model{full, {}} {
		b, err := EncodeBinary(&m)
		require.NoError(t, err)
		js, err := json.Marshal(&m)
		require.NoError(t, err)
		var want Model
		require.NoError(t, json.Unmarshal(js, &want))
		got, err := decodeBinary(b)
		require.NoError(t, err)
		assert.Equal(t, &want, got)
		// Every truncation is an error, never a panic.
		for n := range len(b) {
			_, err := decodeBinary(b[:n])
			assert.Error(t, err, "truncated at %d", n)
		}
		_, err = decodeBinary(append(b, 0))
		assert.Error(t, err, "trailing byte")
	}
}

func FuzzDecodeBinary(f *testing.F) {
	f.Add(modelBin[:min(len(modelBin), 4000)])
	m := Model{Trees: []Tree{{Feat: []int16{-1}, Thr: []float32{0}, Left: []int32{0}, Right: []int32{0}, Val: []float32{1}}}}
	b, _ := EncodeBinary(&m)
	f.Add(b)
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := decodeBinary(b)
		if err == nil {
			_ = m.Check(m.Features)
		}
	})
}

func BenchmarkLoadBinary(b *testing.B) {
	for b.Loop() {
		if _, err := decodeBinary(modelBin); err != nil {
			b.Fatal(err)
		}
	}
}
