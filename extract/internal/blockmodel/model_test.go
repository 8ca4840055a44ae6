package blockmodel

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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

func TestThresholds(t *testing.T) {
	hard := Model{Threshold: 0.35, AddThreshold: 0.3, ArticleTau: 0.2, ArticleAdd: 0.8}
	soft := hard
	soft.ArticleTauHi, soft.NonArticleDrop = 0.6, 0.25
	tests := []struct {
		name      string
		m         Model
		p         float64
		drop, add float64
		article   bool
	}{
		{"no gate", Model{Threshold: 0.4, AddThreshold: 0.3}, 0.9, 0.4, 0.3, false},
		{"hard gate, below", hard, 0.1, 0.35, 0.3, false},
		{"hard gate, at", hard, 0.2, 0.35, 0.8, true},
		{"soft gate, below", soft, 0.1, 0.25, 0.3, false},
		{"soft gate, halfway", soft, 0.4, 0.3, 0.55, true},
		{"soft gate, above", soft, 0.9, 0.35, 0.8, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			drop, add, article := tt.m.Thresholds([]float64{tt.p, 1 - tt.p}, 0)
			assert.InDelta(t, tt.drop, drop, 1e-9)
			assert.InDelta(t, tt.add, add, 1e-9)
			assert.Equal(t, tt.article, article)
		})
	}
}

// A page whose most likely type has thresholds of its own gets them,
// unless the rules kept TypeRuleChars or more; an article page, or one
// whose type has none, keeps the article gate.
func TestThresholdsByType(t *testing.T) {
	m := Model{Threshold: 0.4, AddThreshold: 0.3, ArticleTau: 0.12, ArticleAdd: 0.8,
		Types: []string{"article", "forum", "listing"}, TypeDrop: []float64{0, 0.35, 0}, TypeAdd: []float64{0, 0.5, 0},
		TypeRuleChars: 500}
	tests := []struct {
		name      string
		probs     []float64
		ruleChars float64
		drop, add float64
		article   bool
	}{
		{"article", []float64{0.6, 0.3, 0.1}, 100, 0.4, 0.8, true},
		{"forum", []float64{0.3, 0.6, 0.1}, 100, 0.35, 0.5, false},
		{"forum where the rules found a body", []float64{0.3, 0.6, 0.1}, 500, 0.4, 0.8, true},
		{"listing, no thresholds of its own", []float64{0.3, 0.1, 0.6}, 100, 0.4, 0.8, true},
		{"listing, not article-like", []float64{0.05, 0.1, 0.85}, 100, 0.4, 0.3, false},
		{"no page types", nil, 100, 0.4, 0.3, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			drop, add, article := m.Thresholds(tt.probs, tt.ruleChars)
			assert.InDelta(t, tt.drop, drop, 1e-9)
			assert.InDelta(t, tt.add, add, 1e-9)
			assert.Equal(t, tt.article, article)
		})
	}
}

// The flat layout, one row at a time (Prob) or several through each tree
// at once (probs), answers bit for bit what the trees answer, on the
// embedded model and on rows that sit on its thresholds, hold NaN or
// infinities, and number other than a multiple of the lanes.
func TestFlatLayoutMatchesTrees(t *testing.T) {
	var m Model
	require.NoError(t, json.Unmarshal(modelJSON, &m))
	require.NotEmpty(t, m.Trees)
	var thresholds []float32
	for _, tr := range m.Trees {
		thresholds = append(thresholds, tr.Thr...)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	special := []float32{float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)), 0, -1}
	x := make([][]float32, 3*lanes+5)
	for i := range x {
		x[i] = make([]float32, len(m.Features))
		for f := range x[i] {
			switch k := rng.IntN(10); {
			case k == 0:
				x[i][f] = special[rng.IntN(len(special))]
			case k < 6:
				x[i][f] = thresholds[rng.IntN(len(thresholds))]
			default:
				x[i][f] = rng.Float32()*4 - 1
			}
		}
	}
	want := make([]float64, len(x))
	for i, r := range x {
		want[i] = m.Prob(r)
	}
	m.flatten()
	got := make([]float64, len(x))
	m.probs(x, got)
	for i, r := range x {
		assert.Equal(t, math.Float64bits(want[i]), math.Float64bits(m.Prob(r)), "Prob, row %d", i)
		assert.Equal(t, math.Float64bits(want[i]), math.Float64bits(got[i]), "probs, row %d", i)
	}
}

// BenchmarkStackProbs scores 200 blocks with the embedded model.
func BenchmarkStackProbs(b *testing.B) {
	var m Model
	require.NoError(b, json.Unmarshal(modelJSON, &m))
	m.flatten()
	rng := rand.New(rand.NewPCG(1, 2))
	x := make([][]float32, 200)
	for i := range x {
		x[i] = make([]float32, len(m.Features))
		for f := range x[i] {
			x[i][f] = rng.Float32() * 3
		}
	}
	for b.Loop() {
		m.StackProbs(x, 0, 1)
	}
}
