package blockmodel

import (
	"encoding/json"
	"github.com/stretchr/testify/require"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestCheck(t *testing.T) {
	leaf := Tree{Feat: []int16{-1}, Thr: []float32{0}, Left: []int32{0}, Right: []int32{0}, Val: []float32{0.5}}
	split := Tree{Feat: []int16{0, -1, -1}, Thr: []float32{1, 0, 0}, Left: []int32{1, 0, 0}, Right: []int32{2, 0, 0}, Val: []float32{0, -1, 1}}
	tests := []struct {
		name  string
		model Model
		ok    bool
	}{
		{"fits", Model{Features: []string{"a"}, Trees: []Tree{leaf, split}}, true},
		{"another feature list", Model{Features: []string{"b"}, Trees: []Tree{leaf}}, false},
		{"a feature out of range", Model{Features: []string{"a"}, Trees: []Tree{{Feat: []int16{3, -1, -1}, Thr: []float32{1, 0, 0}, Left: []int32{1, 0, 0}, Right: []int32{2, 0, 0}, Val: []float32{0, 0, 0}}}}, false},
		{"a loop", Model{Features: []string{"a"}, Trees: []Tree{{Feat: []int16{0, -1}, Thr: []float32{1, 0}, Left: []int32{0, 0}, Right: []int32{1, 0}, Val: []float32{0, 0}}}}, false},
		{"arrays of different lengths", Model{Features: []string{"a"}, Trees: []Tree{{Feat: []int16{-1}, Thr: []float32{}, Left: []int32{0}, Right: []int32{0}, Val: []float32{0}}}}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.model.Check([]string{"a"})
			if tt.ok {
				assert.NoError(t, err)
			} else {
				assert.Error(t, err)
			}
		})
	}
}

func TestProb(t *testing.T) {
	split := Tree{Feat: []int16{0, -1, -1}, Thr: []float32{1, 0, 0}, Left: []int32{1, 0, 0}, Right: []int32{2, 0, 0}, Val: []float32{0, -2, 2}}
	m := Model{Features: []string{"a"}, Base: 0.25, Trees: []Tree{split, split}}
	assert.Less(t, m.Prob([]float32{0}), 0.5)
	assert.Greater(t, m.Prob([]float32{1}), 0.5)
	// The flat layout Load uses answers the same.
	tree := map[float32]float64{0: m.Prob([]float32{0}), 1: m.Prob([]float32{1})}
	m.flatten()
	assert.Equal(t, tree[0], m.Prob([]float32{0}))
	assert.Equal(t, tree[1], m.Prob([]float32{1}))
}

// The complete-tree layout answers as the trees do, for the embedded
// model and for rows of any values.
func TestFullLayout(t *testing.T) {
	var m Model
	require.NoError(t, json.Unmarshal(modelJSON, &m))
	m.flatten()
	require.NotNil(t, m.fullFeat)
	rng := rand.New(rand.NewPCG(1, 2))
	for k := 0; k < 2000; k++ {
		x := make([]float32, len(m.Features))
		for i := range x {
			switch rng.IntN(4) {
			case 0:
				x[i] = float32(rng.IntN(3))
			case 1:
				x[i] = rng.Float32()
			default:
				x[i] = float32(rng.NormFloat64() * 3)
			}
		}
		want := m.Base
		for i := range m.Trees {
			want += m.Trees[i].eval(x)
		}
		assert.Equal(t, want, m.sumFull(m.Base, x))
	}
}
