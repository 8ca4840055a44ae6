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
