package core

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestGroups(t *testing.T) {
	d, err := NewDoc("The bridge opened in 1871. The bridge was rebuilt in 1901.", 0)
	require.NoError(t, err)
	span := func(text string) Cand {
		for _, c := range AllCandidates(d) {
			if answerKey(d, c) == text {
				return c
			}
		}
		t.Fatalf("no candidate %q", text)
		return Cand{}
	}
	bridge, y1871, y1901 := span("bridge "), span("1871 "), span("1901 ")
	// The second "The bridge" span.
	var bridge2 Cand
	for _, c := range AllCandidates(d) {
		if answerKey(d, c) == "bridge " && c.S != bridge.S {
			bridge2 = c
		}
	}
	ss := []Scored{{Cand: y1871, P: 0.3}, {Cand: bridge, P: 0.2}, {Cand: y1901, P: 0.1}, {Cand: bridge2, P: 0.25}}
	tests := []struct {
		name     string
		k        int
		wantKeys []string
		wantMass []float64
	}{
		{"all", 10, []string{"bridge ", "1871 ", "1901 "}, []float64{0.45, 0.3, 0.1}},
		{"cut", 2, []string{"bridge ", "1871 "}, []float64{0.45, 0.3}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			gs := Groups(d, ss, tt.k)
			require.Len(t, gs, len(tt.wantKeys))
			for i, g := range gs {
				assert.Equal(t, tt.wantKeys[i], answerKey(d, g.Cand))
				assert.InDelta(t, tt.wantMass[i], g.Mass, 1e-9)
			}
			// The first group is Best's choice, its span the more
			// probable of the two.
			best, mass, ok := Best(d, ss)
			require.True(t, ok)
			assert.Equal(t, best.Cand, gs[0].Cand)
			assert.Equal(t, bridge2, gs[0].Cand)
			assert.InDelta(t, mass, gs[0].Mass, 1e-9)
			assert.Equal(t, 2, gs[0].N)
		})
	}
}

func TestDenseRow(t *testing.T) {
	d, err := NewDoc("The bridge opened in 1871. The tower was rebuilt in 1901.", 0)
	require.NoError(t, err)
	q, err := NewQuestion("When did the bridge open?", func(string) float64 { return 2 })
	require.NoError(t, err)
	c := NewCtx(d, q, func(string) float64 { return 2 })
	cands := AllCandidates(d)
	ss := make([]Scored, len(cands))
	for i, cd := range cands {
		ss[i] = Scored{Cand: cd, P: 1 / float64(len(cands))}
	}
	gs := Groups(d, ss, 5)
	dn := c.NewDense(NewModel(), ss, gs)
	for i := range gs {
		x := dn.Row(i, nil)
		assert.Len(t, x, NumDense)
		assert.Equal(t, float32(i), x[2], "rank")
	}
}

func TestForest(t *testing.T) {
	// x0 < 1 -> -1; else x1 < 5 -> 2, else 3; plus a one-leaf tree.
	f := &Forest{Base: 0.5, Trees: []Tree{
		{Feat: []int16{0, -1, 1, -1, -1}, Thr: []float32{1, 0, 5, 0, 0}, Left: []int32{1, 0, 3, 0, 0},
			Right: []int32{2, 0, 4, 0, 0}, Value: []float32{0, -1, 0, 2, 3}},
		{Feat: []int16{-1}, Thr: []float32{0}, Left: []int32{0}, Right: []int32{0}, Value: []float32{0.25}},
	}}
	row := func(a, b float32) []float32 {
		x := make([]float32, NumDense)
		x[0], x[1] = a, b
		return x
	}
	tests := []struct {
		name string
		x    []float32
		want float64
	}{
		{"left", row(0, 9), -0.25},
		{"right low", row(1, 4), 2.75},
		{"right high", row(2, 5), 3.75},
	}
	var buf bytes.Buffer
	require.NoError(t, f.Encode(&buf))
	g, err := DecodeForest(bytes.NewReader(buf.Bytes()))
	require.NoError(t, err)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.InDelta(t, tt.want, f.Predict(tt.x), 1e-6)
			assert.InDelta(t, tt.want, g.Predict(tt.x), 1e-6)
		})
	}
}

func TestDecodeForestRejects(t *testing.T) {
	loop := &Forest{Trees: []Tree{{Feat: []int16{0, -1}, Thr: []float32{1, 0}, Left: []int32{0, 0},
		Right: []int32{1, 0}, Value: []float32{0, 1}}}}
	badFeat := &Forest{Trees: []Tree{{Feat: []int16{int16(NumDense), -1, -1}, Thr: []float32{1, 0, 0},
		Left: []int32{1, 0, 0}, Right: []int32{2, 0, 0}, Value: []float32{0, 1, 2}}}}
	tests := []struct {
		name string
		f    *Forest
		data []byte
	}{
		{"a child before its parent", loop, nil},
		{"a feature out of range", badFeat, nil},
		{"not gzip", nil, []byte("qa-rerank-1")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := tt.data
			if tt.f != nil {
				var buf bytes.Buffer
				require.NoError(t, tt.f.Encode(&buf))
				data = buf.Bytes()
			}
			_, err := DecodeForest(bytes.NewReader(data))
			assert.Error(t, err)
		})
	}
}

func TestAlign(t *testing.T) {
	d, err := NewDoc("Marie Curie died in 1934 near Paris. The capital of France, Paris, is large.", 0)
	require.NoError(t, err)
	idf := func(string) float64 { return 2 }
	span := func(text string) Cand {
		for _, c := range AllCandidates(d) {
			if answerKey(d, c) == text {
				return c
			}
		}
		t.Fatalf("no candidate %q", text)
		return Cand{}
	}
	tests := []struct {
		name, question, span string
		// lwin, rwin, ldist, rdist, vdist, bigrams, hdist, cov, order
		// (the question's words follow its wh-word, the context's come
		// before the span: order 0)
		want [9]float32
	}{
		// The tagger takes "die" in the question for a noun, so "died"
		// is no verb match.
		{"the matched words just before", "When did Curie die?", "1934 ",
			[9]float32{1, 0, 2, 40, 40, 1, 40, 1, 0}},
		// "year" is not matched: two of the three terms' weight.
		{"the matched verb just before", "In what year had Curie died?", "1934 ",
			[9]float32{0.6666667, 0, 2, 40, 2, 1, 40, 0.6666667, 0}},
		{"nothing matched around", "When did Curie die?", "france ",
			[9]float32{0, 0, 40, 40, 40, 0, 40, 0, 1}},
		{"the head noun in apposition", "What is the capital of France?", "paris ",
			[9]float32{1, 0, 2, 40, 40, 0, 4, 1, 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q, err := NewQuestion(tt.question, idf)
			require.NoError(t, err)
			c := NewCtx(d, q, idf)
			cd := span(tt.span)
			if tt.span == "paris " {
				// The second Paris, after "The capital of France,".
				for _, x := range AllCandidates(d) {
					if answerKey(d, x) == "paris " && x.S > cd.S {
						cd = x
					}
				}
			}
			assert.Equal(t, tt.want, c.align(cd))
		})
	}
}

func TestShape(t *testing.T) {
	d, err := NewDoc("In 1891 she travelled to Paris by train to study physics in France.", 0)
	require.NoError(t, err)
	span := func(text string) Cand {
		for i := range d.Toks {
			for j := i + 1; j <= len(d.Toks); j++ {
				var ws []string
				for k := i; k < j; k++ {
					ws = append(ws, d.Toks[k].Text)
				}
				if strings.Join(ws, " ") == text {
					return Cand{S: i, E: j}
				}
			}
		}
		t.Fatalf("no span %q", text)
		return Cand{}
	}
	idf := func(string) float64 { return 2 }
	tests := []struct {
		name, question, span string
		want                 [7]float32 // isa, bshare, firstw, prevw, nextw, inner, howk
	}{
		{"means", "How did she travel to Paris?", "by train", [7]float32{0, 0, 1, 0, 3, 0, 1}},
		{"clause", "How did she travel to Paris?", "train to study physics", [7]float32{0, 0, 0, 1, 4, 1, 1}},
		{"class", "What country did she study in?", "France", [7]float32{2, 0.75, 0, 4, 7, 0, 0}},
		{"not the class", "What country did she study in?", "physics", [7]float32{1, 0, 0, 9, 4, 0, 0}},
		{"sentence start", "How long did she study?", "In 1891", [7]float32{0, 0, 4, -1, 0, 0, 0}},
		{"how, not the manner", "How important was physics to her?", "physics", [7]float32{0, 0, 0, 9, 4, 0, 2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q, err := NewQuestion(tt.question, idf)
			require.NoError(t, err)
			got := NewCtx(d, q, idf).shape(span(tt.span))
			assert.Equal(t, tt.want[:], got[:7])
		})
	}
}
