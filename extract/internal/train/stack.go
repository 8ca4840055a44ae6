package main

import (
	"fmt"
	"log"
	"slices"

	"github.com/textanalysis/go-textanalysis/extract/internal/blockmodel"
)

// The stacked stage (-stack): a second model over each block's features
// and the first-stage probabilities of the blocks around it, so that a
// plain paragraph or list item between kept blocks can come in and an
// isolated block among dropped ones can go. It is trained on out-of-fold
// first-stage probabilities (never on the first stage's scores of its own
// training pages), and its cross-validated figure is of the whole
// two-stage pipeline: for each outer fold, the first stage's probabilities
// of the outer training pages come from an inner cross-validation over
// those pages only, the second stage is fitted on them, and it is applied
// to the held-out pages' probabilities from the first stage trained on all
// outer training pages.

// stackNames are the features the second stage adds to the first's.
var stackNames = blockmodel.StackNames

// stackRows returns the second stage's rows of a page (blockmodel.StackRows).
func stackRows(pg *page, pr []float64, idxChars, idxHeading int) [][]float32 {
	return blockmodel.StackRows(pg.X, pr, idxChars, idxHeading)
}

// stackEdges extends the first stage's bin edges with fixed ones for the
// stacked features (all in [0, 1]), so that binning looks at no data.
func stackEdges(edges [][]float32) [][]float32 {
	e := slices.Clone(edges)
	var u []float32
	for b := 1; b < maxBins; b++ {
		u = append(u, float32(b)/maxBins)
	}
	for range stackNames {
		e = append(e, u)
	}
	return e
}

// stacker fits and applies the second stage.
type stacker struct {
	names          []string // first-stage names + stackNames
	edges          [][]float32
	p              params
	idxChars, idxH int
}

func newStacker(names []string, edges [][]float32, p params) *stacker {
	return &stacker{names: append(slices.Clone(names), stackNames...), edges: stackEdges(edges), p: p,
		idxChars: slices.Index(names, "log_chars"), idxH: slices.Index(names, "heading_level")}
}

// fit trains the second stage on pages ps with their (out-of-fold)
// first-stage probabilities pr.
func (s *stacker) fit(ps []*page, pr [][]float64) *blockmodel.Model {
	var rows [][]float32
	var ys, ws []float64
	var keys []uint64
	for i, pg := range ps {
		y, w := labels(pg)
		for j := range pg.X {
			keys = append(keys, rowKey(pg, j))
		}
		rows = append(rows, stackRows(pg, pr[i], s.idxChars, s.idxH)...)
		ys = append(ys, y...)
		ws = append(ws, w...)
	}
	return fit(newData(rows, ys, ws, keys, s.edges), s.p, s.names)
}

func (s *stacker) apply(m *blockmodel.Model, pg *page, pr []float64) []float64 {
	out := make([]float64, len(pr))
	for i, x := range stackRows(pg, pr, s.idxChars, s.idxH) {
		out[i] = m.Prob(x)
	}
	return out
}

// nestedStack returns the second stage's out-of-fold probabilities for
// the wcxb pages wc, by nested cross-validation (see above); outer[k] is
// the first stage trained on the wcxb pages not in fold k (and the
// readability pages), oof its probabilities for fold k.
func nestedStack(wc, rd []*page, folds, kin int, oof [][]float64, s *stacker, build func([]*page) *data, p params, names []string) [][]float64 {
	oof2 := make([][]float64, len(wc))
	for k := 0; k < folds; k++ {
		var outer []*page
		for i, pg := range wc {
			if i%folds != k {
				outer = append(outer, pg)
			}
		}
		inner := make([][]float64, len(outer))
		for j := 0; j < kin; j++ {
			var train []*page
			for i, pg := range outer {
				if i%kin != j {
					train = append(train, pg)
				}
			}
			m := fit(build(append(train, rd...)), p, names)
			for i, pg := range outer {
				if i%kin == j {
					inner[i] = probs(m, pg)
				}
			}
		}
		m2 := s.fit(outer, inner)
		for i, pg := range wc {
			if i%folds == k {
				oof2[i] = s.apply(m2, pg, oof[i])
			}
		}
		log.Printf("stack: outer fold %d done", k+1)
	}
	return oof2
}

// stackReport prints the two-stage pipeline's figures beside the first
// stage's, under the configured decoding and over a grid of the drop and
// add thresholds.
func stackReport(wc, sh, tr []*page, oof, oof2, shp, shp2, trp, trp2 [][]float64, drop float64) {
	snip := func(pr [][]float64, t float64) float64 {
		var cnt [4]int
		for i, pg := range tr {
			a, b, cc, d := snippetCounts(pg.With, pg.Without, chosenText(pg, pr[i], t))
			cnt[0], cnt[1], cnt[2], cnt[3] = cnt[0]+a, cnt[1]+b, cnt[2]+cc, cnt[3]+d
		}
		return 2 * float64(cnt[0]) / float64(2*cnt[0]+cnt[1]+cnt[2])
	}
	line := func(name string, a, b, c [][]float64, t float64) {
		f, pp, r := scoreSet(wc, a, t)
		f2, _, _ := scoreSet(sh, b, t)
		fmt.Printf("%s: wcxb cv %.4f (P %.4f R %.4f)  sh %.4f  snippets %.4f\n", name, f, pp, r, f2, snip(c, t))
	}
	line("stage 1 as configured", oof, shp, trp, drop)
	line("stage 2 as configured", oof2, shp2, trp2, drop)
	// Variants: the second stage only for the blocks the rules left out;
	// the mean of the two stages.
	mix := func(ps []*page, a, b [][]float64, mean bool) [][]float64 {
		out := make([][]float64, len(a))
		for i := range a {
			out[i] = slices.Clone(a[i])
			for j := range out[i] {
				if mean {
					out[i][j] = (a[i][j] + b[i][j]) / 2
				} else if ps[i].X[j][ruleKept] == 0 {
					out[i][j] = b[i][j]
				}
			}
		}
		return out
	}
	oofA, shA, trA := mix(wc, oof, oof2, false), mix(sh, shp, shp2, false), mix(tr, trp, trp2, false)
	oofM, shM, trM := mix(wc, oof, oof2, true), mix(sh, shp, shp2, true), mix(tr, trp, trp2, true)
	line("stage 2 for left-out blocks only, as configured", oofA, shA, trA, drop)
	report(wc, oofA, drop)
	line("mean of the stages, as configured", oofM, shM, trM, drop)
	report(wc, oofM, drop)
	fmt.Println("two-stage pipeline, per type, cross-validated, as configured:")
	report(wc, oof2, drop)
	saved := [2]float64{tAdd, artAdd}
	for _, d := range []float64{0.3, 0.4, 0.5} {
		for _, a := range []float64{0.3, 0.4, 0.5} {
			for _, aa := range []float64{0.6, 0.8, 2} {
				tAdd, artAdd = a, aa
				line(fmt.Sprintf("stage 2 grid drop %.2f add %.2f article-add %.2f", d, a, aa), oof2, shp2, trp2, d)
			}
		}
	}
	tAdd, artAdd = saved[0], saved[1]
}
