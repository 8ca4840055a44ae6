package main

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/textanalysis/go-textanalysis/ner/internal/relabel"
)

func TestChooseMargins(t *testing.T) {
	// Two labels; the tagger says 0 every time. Scores (0, 1, none) favour
	// label 1 strongly where it is right and weakly where it is wrong.
	d := &oofDump{Labels: []string{"A", "B"}, Gold: []int{4}}
	var exs []relabel.Example
	var scores [][]float32
	for _, tc := range []struct {
		gold int
		s    []float32
	}{
		{1, []float32{0, 5, -9}},
		{1, []float32{0, 4, -9}},
		{0, []float32{0, 0.5, -9}},
		{0, []float32{0, 0.2, -9}},
	} {
		d.Recs = append(d.Recs, oofRecord{C: relabel.Candidate{Pred: 0}, Gold: tc.gold})
		exs = append(exs, relabel.Example{Pred: 0, Gold: tc.gold})
		scores = append(scores, tc.s)
	}
	assert.InDelta(t, 50.0, tally(d, exs, nil, nil).f1(4), 1e-9)
	m, f := chooseMargins(d, exs, scores, 4, 2)
	assert.InDelta(t, 100.0, f, 1e-9)
	assert.Greater(t, m[0], float32(0.5))
	assert.Less(t, m[0], float32(4))
}
