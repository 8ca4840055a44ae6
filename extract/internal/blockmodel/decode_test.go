package blockmodel

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The fast decoder reads the embedded model exactly as encoding/json does:
// if it ever fails here (a new Model field, say), Load still works, through
// encoding/json, only slower; teach decodeModel the new key.
func TestDecodeModel(t *testing.T) {
	var want Model
	require.NoError(t, json.Unmarshal(modelJSON, &want))
	got, err := decodeModel(modelJSON)
	require.NoError(t, err)
	assert.Equal(t, &want, got)
}

// Every key of Model, Tree and the forms encoding/json writes them in.
func TestDecodeModelAllKeys(t *testing.T) {
	leaf := Tree{Feat: []int16{-1}, Thr: []float32{0.125}, Left: []int32{0}, Right: []int32{0}, Val: []float32{-0.3}}
	full := Model{Features: []string{"a", "b \"q\" \u00e9\n"}, Base: 0.1, Trees: []Tree{leaf, {}}, Threshold: 0.35,
		AddThreshold: 0.3, AddFilter: true, AddNear: 0.2, AddShare: 0.4, AddVeto: true, ArticleVetoDropped: true,
		Types: []string{"article"}, TypeModels: []Model{{Features: []string{"x"}, Trees: []Tree{leaf}}},
		ArticleTau: 0.12, ArticleAdd: 0.8, ArticleTauHi: 0.6, NonArticleDrop: 0.25, TypeDrop: []float64{0, 1e-7},
		TypeAdd: []float64{}, TypeRuleChars: 500, TypeGate: []float64{0.1}, TypeGateAdd: []float64{0.4},
		ShortRuleChars: 300, ShortAdd: 0.5, Stack: &Model{Base: -1.5e10, Trees: []Tree{leaf}}, Note: "trained <on> & \\ data"}
	for _, m := range []Model{full, {}} {
		for _, indent := range []bool{false, true} {
			var b []byte
			var err error
			if indent {
				b, err = json.MarshalIndent(m, "", "  ")
			} else {
				b, err = json.Marshal(m)
			}
			require.NoError(t, err)
			var want Model
			require.NoError(t, json.Unmarshal(b, &want))
			got, err := decodeModel(b)
			require.NoError(t, err)
			assert.Equal(t, &want, got)
		}
	}
}

// What the fast decoder does not read it reports, for Load to fall back.
func TestDecodeModelRefuses(t *testing.T) {
	for _, in := range []string{
		`{"unknown":1}`, `{"Features":["a"]}`, `{"trees":[{"f":[1.0]}]}`, `{"trees":[{"f":[40000]}]}`,
		`{"base":"x"}`, `{"base":1}x`, `{"threshold":}`, `{"features":["a"`, `[]`, ``,
	} {
		_, err := decodeModel([]byte(in))
		assert.Error(t, err, in)
	}
}

func BenchmarkLoadJSON(b *testing.B) {
	for b.Loop() {
		var m Model
		if err := json.Unmarshal(modelJSON, &m); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkLoadFast(b *testing.B) {
	for b.Loop() {
		if _, err := decodeModel(modelJSON); err != nil {
			b.Fatal(err)
		}
	}
}
