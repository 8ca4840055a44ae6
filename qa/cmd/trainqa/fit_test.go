package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/textanalysis/go-textanalysis/qa/internal/core"
)

// trainTiny trains a model on testdata/tiny.json with fitSeeds.
func trainTiny(t *testing.T, seeds int) *core.Model {
	t.Helper()
	s, err := load("testdata/tiny.json")
	require.NoError(t, err)
	m := core.NewModel()
	buildIDF(m, []*squad{s}, 1)
	train := prepare(s, m)
	require.NotEmpty(t, train)
	fitSeeds(m, train, nil, seeds, 3, 0.1, 0, false)
	return m
}

func nonZero(w []float32) int {
	n := 0
	for _, x := range w {
		if x != 0 {
			n++
		}
	}
	return n
}

func TestFitSeeds(t *testing.T) {
	one := trainTiny(t, 1)
	require.Positive(t, nonZero(one.W))

	// One seed is the single run of seed 1, as before the flag.
	s, err := load("testdata/tiny.json")
	require.NoError(t, err)
	m := core.NewModel()
	buildIDF(m, []*squad{s}, 1)
	fit(m, prepare(s, m), nil, 1, false, 3, 0.1, 0, false)
	assert.Equal(t, m.W, one.W, "-seeds 1 must train the run of seed 1")

	tests := []struct {
		name  string
		seeds int
	}{
		{"two runs", 2},
		{"more runs than cores", 5},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := trainTiny(t, tc.seeds)
			b := trainTiny(t, tc.seeds)
			assert.Equal(t, a.W, b.W, "the average must not depend on scheduling")
			assert.NotEqual(t, one.W, a.W, "other orders must change the weights")
		})
	}
}
