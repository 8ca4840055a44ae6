package blockmodel

import (
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
