package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/textanalysis/go-textanalysis/qa/internal/core"
)

func TestUpperBound(t *testing.T) {
	e := []float32{1, 2, 3}
	tests := []struct {
		v    float32
		want int
	}{{0, 0}, {1, 1}, {1.5, 1}, {3, 3}, {9, 3}}
	for _, tt := range tests {
		assert.Equal(t, tt.want, upperBound(e, tt.v), "v=%g", tt.v)
	}
}

// toyRows is a question per i with two rows: the right one has feature 1
// set when i is even and feature 0 set otherwise, so a tree over the two
// features (but neither alone at the root) finds it.
func toyRows(n int) (rows [][]float32, y, w []float64, grp []int32) {
	for i := range n {
		width := core.NumDense
		right, wrong := make([]float32, width), make([]float32, width)
		if i%2 == 0 {
			right[1] = 1
		} else {
			right[0] = 1
		}
		rows = append(rows, right, wrong)
		y = append(y, 1, 0)
		w = append(w, 1, 1)
		grp = append(grp, int32(i), int32(i))
	}
	return
}

func TestFitForest(t *testing.T) {
	rows, y, w, grp := toyRows(40)
	tests := []struct {
		name   string
		groups []int32
	}{{"pointwise", nil}, {"listwise", grp}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := gbdtParams{Trees: 20, Depth: 2, Rate: 0.3, Lambda: 1, MinHess: 0.1, MaxBins: 64, Groups: tt.groups}
			f := fitForest(rows, y, w, p)
			require.Len(t, f.Trees, 20)
			for i := 0; i < len(rows); i += 2 {
				assert.Greater(t, f.Predict(rows[i]), f.Predict(rows[i+1]), "question %d", i/2)
			}
			// The same data give the same forest.
			g := fitForest(rows, y, w, p)
			assert.Equal(t, f, g)
		})
	}
}

func TestListGrad(t *testing.T) {
	grp := []int32{0, 0, 1, 1}
	score := []float64{0, 0, 0, 0}
	y := []float64{1, 0, 0, 0}
	w := []float64{1, 1, 1, 1}
	g, h := make([]float64, 4), make([]float64, 4)
	listGrad(grp, score, y, w, g, h)
	// The first question pulls its right row up and the other down; the
	// second, with no right row, teaches nothing.
	assert.InDeltaSlice(t, []float64{-0.5, 0.5, 0, 0}, g, 1e-9)
	assert.InDeltaSlice(t, []float64{0.25, 0.25, 0, 0}, h, 1e-9)
}
