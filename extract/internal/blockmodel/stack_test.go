package blockmodel

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// row is a first-stage row of two features: log1p of the block's
// characters and its heading level.
func row(chars float64, heading float32) []float32 {
	return []float32{float32(math.Log1p(chars)), heading}
}

func TestStackRows(t *testing.T) {
	x := [][]float32{row(99, 1), row(99, 0), row(99, 0), row(99, 2), row(99, 0)}
	pr := []float64{0.2, 0.9, 0.1, 0.4, 0.8}
	rows := StackRows(x, pr, 0, 1)
	require.Len(t, rows, len(x))
	col := func(name string) []float32 {
		var k int
		for k = range StackNames {
			if StackNames[k] == name {
				break
			}
		}
		var c []float32
		for _, r := range rows {
			require.Len(t, r, 2+len(StackNames))
			c = append(c, r[2+k])
		}
		return c
	}
	tests := []struct {
		name string
		want []float32
	}{
		{"s_p", []float32{0.2, 0.9, 0.1, 0.4, 0.8}},
		{"s_prev", []float32{0, 0.2, 0.9, 0.1, 0.4}},
		{"s_next2", []float32{0.1, 0.4, 0.8, 0, 0}},
		// Equal sizes: plain means of the blocks around.
		{"s_win3", []float32{0.55, 0.4, 0.4666667, 0.4333333, 0.6}},
		{"s_max_before5", []float32{0, 0.2, 0.9, 0.9, 0.9}},
		{"s_between", []float32{0, 0.2, 0.8, 0.8, 0}},
		// Sections start at the headings (blocks 0 and 3).
		{"s_section_max", []float32{0.9, 0.9, 0.9, 0.8, 0.8}},
		{"s_section_mean", []float32{0.4, 0.4, 0.4, 0.6, 0.6}},
		{"s_page_kept_share", []float32{0.4, 0.4, 0.4, 0.4, 0.4}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.InDeltaSlice(t, tt.want, col(tt.name), 1e-5)
		})
	}
	assert.Empty(t, StackRows(nil, nil, 0, 1))
}

func TestStackProbs(t *testing.T) {
	// The first stage answers by heading level; the second by s_prev
	// (feature 2+1): a block after a likely block is likely.
	first := Tree{Feat: []int16{1, -1, -1}, Thr: []float32{0.5, 0, 0}, Left: []int32{1, 0, 0}, Right: []int32{2, 0, 0}, Val: []float32{0, -3, 3}}
	second := Tree{Feat: []int16{3, -1, -1}, Thr: []float32{0.5, 0, 0}, Left: []int32{1, 0, 0}, Right: []int32{2, 0, 0}, Val: []float32{0, -3, 3}}
	m := Model{Features: []string{"log_chars", "heading_level"}, Trees: []Tree{first}}
	x := [][]float32{row(10, 1), row(10, 0), row(10, 0)}
	one := m.StackProbs(x, 0, 1)
	assert.Greater(t, one[0], 0.5)
	assert.Less(t, one[1], 0.5)
	m.Stack = &Model{Trees: []Tree{second}}
	require.NoError(t, m.Check([]string{"log_chars", "heading_level"}))
	m.flatten()
	two := m.StackProbs(x, 0, 1)
	assert.Less(t, two[0], 0.5)
	assert.Greater(t, two[1], 0.5)
	assert.Less(t, two[2], 0.5)
	// A second stage over too few features fails the check.
	m.Stack = &Model{Trees: []Tree{{Feat: []int16{40, -1, -1}, Thr: []float32{0.5, 0, 0}, Left: []int32{1, 0, 0}, Right: []int32{2, 0, 0}, Val: []float32{0, -3, 3}}}}
	assert.Error(t, m.Check([]string{"log_chars", "heading_level"}))
}
