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

// A type's gate takes a page its per-type thresholds do not, once the
// page's probability of that type reaches the gate, article-like or not;
// a page neither takes where the rules kept little (but something) gets
// ShortAdd.
func TestThresholdsTypeGate(t *testing.T) {
	m := Model{Threshold: 0.3, AddThreshold: 0.3, ArticleTau: 0.12, ArticleAdd: 0.8,
		Types: []string{"article", "documentation", "forum"}, TypeDrop: []float64{0, 0, 0.35}, TypeAdd: []float64{0, 0, 0.5},
		TypeRuleChars: 500, TypeGate: []float64{0, 0.1, 0}, TypeGateAdd: []float64{0, 0.4, 0}, ShortRuleChars: 500, ShortAdd: 0.5}
	tests := []struct {
		name      string
		probs     []float64
		ruleChars float64
		drop, add float64
		article   bool
	}{
		{"article, gate shut", []float64{0.95, 0.05, 0}, 5000, 0.3, 0.8, true},
		{"article, gate open", []float64{0.7, 0.3, 0}, 5000, 0.3, 0.4, false},
		{"documentation first", []float64{0.2, 0.8, 0}, 5000, 0.3, 0.4, false},
		{"forum's own thresholds first", []float64{0.1, 0.3, 0.6}, 100, 0.35, 0.5, false},
		{"forum with a body, gate open", []float64{0.1, 0.3, 0.6}, 5000, 0.3, 0.4, false},
		{"article, short rule text", []float64{0.95, 0.05, 0}, 300, 0.3, 0.5, false},
		{"documentation, short rule text", []float64{0.5, 0.5, 0}, 300, 0.3, 0.4, false},
		{"article, no rule text", []float64{0.95, 0.05, 0}, 0, 0.3, 0.8, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			drop, add, article := m.Thresholds(tt.probs, tt.ruleChars)
			assert.InDelta(t, tt.drop, drop, 1e-9)
			assert.InDelta(t, tt.add, add, 1e-9)
			assert.Equal(t, tt.article, article)
		})
	}
	assert.Error(t, (&Model{Types: PageTypes, TypeModels: make([]Model, len(PageTypes)), TypeGate: []float64{0}, TypeGateAdd: []float64{0}}).Check(nil))
}

// randomRows returns n rows of nf features in the ranges block features
// take, with some zeros, ones and NaNs.
func randomRows(n, nf int, seed uint64) [][]float32 {
	r := rand.New(rand.NewPCG(seed, 1))
	rows := make([][]float32, n)
	for i := range rows {
		rows[i] = make([]float32, nf)
		for f := range rows[i] {
			switch k := r.IntN(10); {
			case k < 3:
			case k < 5:
				rows[i][f] = 1
			case k == 5 && i%7 == 0:
				rows[i][f] = float32(math.NaN())
			default:
				rows[i][f] = float32(r.NormFloat64() * 3)
			}
		}
	}
	return rows
}

// The flat walks (Prob, and probs four rows at a time) give the embedded
// model's trees' sums to the bit, on every part of the model.
func TestFlatWalksMatchTrees(t *testing.T) {
	var m Model
	require.NoError(t, json.Unmarshal(modelJSON, &m))
	tree := func(m *Model, x []float32) float64 {
		s := m.Base
		for i := range m.Trees {
			s += m.Trees[i].eval(x)
		}
		return 1 / (1 + math.Exp(-float64(s)))
	}
	parts := []*Model{&m}
	for i := range m.TypeModels {
		parts = append(parts, &m.TypeModels[i])
	}
	if m.Stack != nil {
		parts = append(parts, m.Stack)
	}
	nf := len(m.Features) + len(StackNames)
	m.flatten()
	for k, p := range parts {
		rows := randomRows(103, 2*nf, uint64(k))
		got := make([]float64, len(rows))
		p.probs(rows, got)
		for i, x := range rows {
			want := tree(p, x)
			assert.Equal(t, math.Float64bits(want), math.Float64bits(p.Prob(x)), "part %d row %d", k, i)
			assert.Equal(t, math.Float64bits(want), math.Float64bits(got[i]), "part %d row %d", k, i)
		}
	}
}

func BenchmarkStackProbs(b *testing.B) {
	m, err := Load(nil)
	if m == nil {
		var mm Model
		require.NoError(b, json.Unmarshal(modelJSON, &mm))
		mm.flatten()
		m = &mm
		_ = err
	}
	rows := randomRows(500, len(m.Features)+len(StackNames), 7)
	b.ReportAllocs()
	for b.Loop() {
		m.StackProbs(rows, 0, 3)
	}
}

// floatKey orders as float32's < does, against every threshold that is
// not NaN.
func TestFloatKey(t *testing.T) {
	vals := []float32{float32(math.Inf(-1)), -math.MaxFloat32, -3, -1, -math.SmallestNonzeroFloat32, float32(math.Copysign(0, -1)), 0,
		math.SmallestNonzeroFloat32, 1e-30, 0.5, 1, 3, math.MaxFloat32, float32(math.Inf(1)),
		float32(math.NaN()), -float32(math.NaN()), math.Float32frombits(0x7f800001), math.Float32frombits(0xffffffff)}
	r := rand.New(rand.NewPCG(3, 4))
	for range 300 {
		vals = append(vals, math.Float32frombits(r.Uint32()))
	}
	for _, x := range vals {
		for _, thr := range vals {
			assert.Equal(t, x < thr, floatKey(x) < thrKey(thr), "%v < %v", x, thr)
		}
	}
}

func TestCommentVeto(t *testing.T) {
	const ruleKept, comment = 0, 1
	body := []float32{1, 0}           // kept by the rules, outside comments
	keptComment := []float32{1, 2}    // kept by the rules, two comment ancestors
	droppedComment := []float32{0, 1} // left out by the rules, in comments
	assert.True(t, BodyOutsideComments([][]float32{body, keptComment}, ruleKept, comment))
	assert.False(t, BodyOutsideComments([][]float32{keptComment, droppedComment}, ruleKept, comment),
		"a page that is one comment has no body outside it")
	assert.False(t, BodyOutsideComments(nil, ruleKept, comment))

	tests := []struct {
		name                string
		veto, comment, rule bool
		p                   float64
		want                bool
	}{
		{"veto drops a kept comment however likely", true, true, true, 0.99, false},
		{"veto drops a comment the rules left out", true, true, false, 0.99, false},
		{"veto leaves other blocks to the thresholds", true, false, true, 0.5, true},
		{"without the veto the threshold decides", false, true, true, 0.5, true},
		{"without the veto a weak comment still goes", false, true, true, 0.1, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := &Model{ArticleVetoComments: tt.veto}
			assert.Equal(t, tt.want, m.Keep(tt.p, 0.3, 0.8, tt.rule, false, false, false, tt.comment, 1, 1, 0))
		})
	}
}
