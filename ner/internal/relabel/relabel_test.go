package relabel

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// toy returns candidates where the tagger says label 0 (PERSON) for
// country names, which are label 1 (GPE), and is right for people.
func toy() []Example {
	var exs []Example
	add := func(word string, pred, gold int, scores []float32) {
		c := Candidate{Words: []string{"went", "to", word, "today", "."}, Clus: []int32{-1, -1, -1, -1, -1},
			Start: 2, End: 3, Pred: pred, Scores: scores}
		var ex Example
		Extract(&ex.F, &c)
		ex.Pred, ex.Gold = pred, gold
		exs = append(exs, ex)
	}
	for range 5 {
		for _, w := range []string{"Gambia", "Devon", "Burkina"} {
			add(w, 0, 1, []float32{3, 2.5, 1})
		}
		for _, w := range []string{"Alice", "Bob"} {
			add(w, 0, 0, []float32{3, 1, 0})
		}
		add("Nobody", 0, 2, []float32{1, 0, 0.5})
	}
	return exs
}

func TestTrainAndDecide(t *testing.T) {
	exs := toy()
	m := Train([]string{"PERSON", "GPE"}, exs, 5, 1)
	got := map[int]int{}
	for _, ex := range exs[:6] {
		got[ex.Gold] = m.Decide(m.ScoresOf(&ex.F), ex.Pred)
		assert.Equal(t, ex.Gold, got[ex.Gold])
	}
	// A margin larger than any score difference keeps the tagger's labels.
	m.Margin, m.MarginNone = 1e9, 1e9
	for _, ex := range exs[:6] {
		assert.Equal(t, ex.Pred, m.Decide(m.ScoresOf(&ex.F), ex.Pred))
	}
}

func TestWriteRead(t *testing.T) {
	exs := toy()
	m := Train([]string{"PERSON", "GPE"}, exs, 5, 1)
	m.Margin, m.MarginNone = 0.5, 2
	var buf bytes.Buffer
	require.NoError(t, m.Write(&buf))
	m2, err := Read(buf.Bytes())
	require.NoError(t, err)
	assert.Equal(t, m.Labels, m2.Labels)
	assert.Equal(t, m.Margin, m2.Margin)
	assert.Equal(t, m.MarginNone, m2.MarginNone)
	for _, ex := range exs {
		a, b := m.ScoresOf(&ex.F), m2.ScoresOf(&ex.F)
		for y := range a {
			assert.InDelta(t, a[y], b[y], 0.01)
		}
		assert.Equal(t, m.Decide(a, ex.Pred), m2.Decide(b, ex.Pred))
	}
	_, err = Read([]byte("not a model"))
	assert.Error(t, err)
	// Training is deterministic.
	var again bytes.Buffer
	require.NoError(t, Train([]string{"PERSON", "GPE"}, toy(), 5, 1).Write(&again))
	var first bytes.Buffer
	require.NoError(t, Train([]string{"PERSON", "GPE"}, toy(), 5, 1).Write(&first))
	assert.Equal(t, first.Bytes(), again.Bytes())
}

func TestMarginBin(t *testing.T) {
	for _, tc := range []struct {
		a, b float32
	}{{0, -0.5}, {-0.5, -4}, {-4, -100}, {0.5, 0}} {
		assert.NotEqual(t, marginBin(tc.a), marginBin(tc.b), "%v %v", tc.a, tc.b)
	}
}

func TestExt(t *testing.T) {
	raw := []byte("GPE\tThe Gambia\t0\t1\nGPE\tGambia\t0\t1\nPERSON\tReading\t1\t0\nGPE\tReading\t1\t1\nORG\tU.S. Army\t0\t1\nLOC\tNowhere\t0\t1\n")
	g := NewExt(raw, []string{"PERSON", "GPE", "ORG"})
	cand := func(words ...string) *Candidate {
		return &Candidate{Words: words, Start: 0, End: len(words)}
	}
	gpe := uint32(2 | 2<<extPrimShift)
	for _, tc := range []struct {
		words []string
		want  [5]uint32
	}{
		{[]string{"Gambia"}, [5]uint32{gpe, gpe, 0, 0, 0}},
		{[]string{"GAMBIA"}, [5]uint32{0, gpe, 0, 0, 0}},
		{[]string{"the", "Gambia"}, [5]uint32{0, gpe, gpe, gpe, gpe}},
		{[]string{"Reading"}, [5]uint32{3 | extCommon | 2<<extPrimShift, 3 | extCommon | 2<<extPrimShift, 0, 0, 0}},
		{[]string{"U.S.", "Army"}, [5]uint32{4 | 3<<extPrimShift, 4 | 3<<extPrimShift, 0, 0, 0}},
		{[]string{"Nowhere"}, [5]uint32{}},
	} {
		got, _ := g.lookups(nil, cand(tc.words...))
		assert.Equal(t, tc.want, got, "%v", tc.words)
	}
}

func TestWriteReadExt(t *testing.T) {
	ls := []string{"PERSON", "GPE"}
	g := NewExt([]byte("GPE\tGambia\t0\t1\nGPE\tDevon\t0\t1\n"), ls)
	exs := toy()
	for i := range exs {
		c := Candidate{Words: []string{"went", "to", []string{"Gambia", "Devon", "Burkina", "Alice", "Bob", "Nobody"}[i%6], "today", "."},
			Clus: []int32{-1, -1, -1, -1, -1}, Start: 2, End: 3, Pred: exs[i].Pred, Scores: []float32{3, 2.5, 1}}
		ExtractExt(&exs[i].F, &c, g)
	}
	m := Train(ls, exs, 5, 1)
	m.Ext = g
	var buf bytes.Buffer
	require.NoError(t, m.Write(&buf))
	m2, err := Read(buf.Bytes())
	require.NoError(t, err)
	require.NotNil(t, m2.Ext)
	assert.Equal(t, g.exact, m2.Ext.exact)
	assert.Equal(t, g.lower, m2.Ext.lower)
	// A model without one reads back without one.
	m.Ext = nil
	buf.Reset()
	require.NoError(t, m.Write(&buf))
	m3, err := Read(buf.Bytes())
	require.NoError(t, err)
	assert.Nil(t, m3.Ext)
}
