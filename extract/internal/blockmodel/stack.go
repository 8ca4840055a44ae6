package blockmodel

import "math"

// StackNames are the features the stacked second stage (Model.Stack)
// adds to the first stage's: the block's own first-stage probability, its
// neighbours' (one and two blocks away, means over 3 and 21 blocks, the
// highest within 5 before and after and the lower of the two: a block
// between kept blocks), its heading section's highest and mean, and the
// page's mean and the share of its text at 0.5 or more.
var StackNames = []string{"s_p", "s_prev", "s_next", "s_prev2", "s_next2",
	"s_win3", "s_win10", "s_max_before5", "s_max_after5", "s_between",
	"s_section_max", "s_section_mean", "s_page_mean", "s_page_kept_share"}

// StackRows returns the second stage's rows of a page: each block's
// first-stage features x[i] followed by StackNames computed from pr, the
// first-stage probabilities. logChars is the index of the log1p of a
// block's characters (means are weighted by characters), heading that of
// its heading level (a heading starts a section).
func StackRows(x [][]float32, pr []float64, logChars, heading int) [][]float32 {
	n := len(pr)
	rows := make([][]float32, n)
	if n == 0 {
		return rows
	}
	at := func(i int) float64 {
		if i < 0 || i >= n {
			return 0
		}
		return pr[i]
	}
	// Prefix sums of weighted probabilities and weights for window means.
	ws := make([]float64, n+1)
	ps := make([]float64, n+1)
	total, kept := 0.0, 0.0
	for i := range pr {
		c := math.Expm1(float64(x[i][logChars]))
		total += c
		if pr[i] >= 0.5 {
			kept += c
		}
		ws[i+1] = ws[i] + c + 1
		ps[i+1] = ps[i] + pr[i]*(c+1)
	}
	wmean := func(lo, hi int) float64 {
		lo, hi = max(lo, 0), min(hi, n-1)
		w := ws[hi+1] - ws[lo]
		if w <= 0 {
			return 0
		}
		return (ps[hi+1] - ps[lo]) / w
	}
	maxOf := func(lo, hi int) float64 {
		lo, hi = max(lo, 0), min(hi, n-1)
		m := 0.0
		for j := lo; j <= hi; j++ {
			m = max(m, pr[j])
		}
		return m
	}
	// Heading sections: [start, end) per block.
	secMax := make([]float64, n)
	secMean := make([]float64, n)
	for s := 0; s < n; {
		e := s + 1
		for e < n && x[e][heading] <= 0 {
			e++
		}
		m := maxOf(s, e-1)
		mean := wmean(s, e-1)
		for j := s; j < e; j++ {
			secMax[j], secMean[j] = m, mean
		}
		s = e
	}
	pageMean := wmean(0, n-1)
	keptShare := 0.0
	if total > 0 {
		keptShare = kept / total
	}
	for i := range pr {
		before, after := 0.0, 0.0
		if i > 0 {
			before = maxOf(i-5, i-1)
		}
		if i < n-1 {
			after = maxOf(i+1, i+5)
		}
		r := make([]float32, 0, len(x[i])+len(StackNames))
		r = append(r, x[i]...)
		r = append(r, float32(pr[i]), float32(at(i-1)), float32(at(i+1)), float32(at(i-2)), float32(at(i+2)),
			float32(wmean(i-1, i+1)), float32(wmean(i-10, i+10)), float32(before), float32(after), float32(min(before, after)),
			float32(secMax[i]), float32(secMean[i]), float32(pageMean), float32(keptShare))
		rows[i] = r
	}
	return rows
}

// StackProbs returns the block probabilities of the page whose
// first-stage rows are x: the first stage's, or with a second stage
// (m.Stack) the second stage's over StackRows.
func (m *Model) StackProbs(x [][]float32, logChars, heading int) []float64 {
	pr := make([]float64, len(x))
	m.probs(x, pr)
	if m.Stack == nil {
		return pr
	}
	m.Stack.probs(StackRows(x, pr, logChars, heading), pr)
	return pr
}
