package main

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/textanalysis/go-textanalysis/ner/internal/relabel"
)

// oofAlt is an alternative span of a record's entity with its gold class.
type oofAlt struct {
	C    relabel.Candidate
	Gold int
}

// boundEval holds the out-of-fold probabilities of the entities and their
// alternatives, for choosing a Bound.
type boundEval struct {
	d      *oofDump
	p0     [][]float32   // per record
	pa     [][][]float32 // per record, per alternative
	md     [][]float32   // per record, per alternative: relabel.MaxDelta
	y0     []int         // the relabeler's decision per record (len(Labels) for none)
	alts   [][]relabel.Alt
	gold   int
	labels int
}

func newBoundEval(d *oofDump, scores [][]float32, altScores [][][]float32, m [2]float32, gold int) *boundEval {
	L := len(d.Labels)
	e := &boundEval{d: d, gold: gold, labels: L}
	mm := &relabel.Model{Margin: m[0], MarginNone: m[1]}
	for i := range d.Recs {
		r := &d.Recs[i]
		e.p0 = append(e.p0, relabel.Probs(nil, scores[i]))
		e.y0 = append(e.y0, mm.Decide(scores[i], r.C.Pred))
		var pa [][]float32
		var alts []relabel.Alt
		var md []float32
		for j := range r.Alts {
			pa = append(pa, relabel.Probs(nil, altScores[i][j]))
			md = append(md, relabel.MaxDelta(r.Alts[j].C.Delta))
			c := &r.Alts[j].C
			alts = append(alts, relabel.Alt{Start: c.Start, End: c.End, Edit: c.Edit})
		}
		e.pa = append(e.pa, pa)
		e.md = append(e.md, md)
		e.alts = append(e.alts, alts)
	}
	return e
}

// run applies b to every sentence as relabel.Chooser does and counts true
// positives and predictions by sentence case.
func (e *boundEval) run(b *relabel.Bound) counts {
	var c counts
	L := e.labels
	recs := e.d.Recs
	out := func(i, y, gold int) {
		if y == L {
			return
		}
		cs := 0
		if recs[i].C.Caps {
			cs = 1
		} else if recs[i].C.Lows {
			cs = 2
		}
		c.np[cs]++
		if y == gold {
			c.tp[cs]++
		}
	}
	worth := func(i int) float32 {
		if e.y0[i] == L {
			return 0
		}
		return e.p0[i][e.y0[i]] - b.Cost
	}
	var pa [][]float32
	for i := 0; i < len(recs); i++ {
		pa = pa[:0]
		for j, p := range e.pa[i] {
			if e.md[i][j] < -b.Reach {
				p = nil
			}
			pa = append(pa, p)
		}
		var wNext float32
		hasNext := i+1 < len(recs) && recs[i+1].Sent == recs[i].Sent && recs[i+1].Fold == recs[i].Fold
		if hasNext {
			wNext = worth(i + 1)
		}
		pk := b.Pick(e.p0[i], e.y0[i], e.alts[i], pa, wNext)
		if pk.Alt < 0 {
			out(i, e.y0[i], recs[i].Gold)
			continue
		}
		a := e.alts[i][pk.Alt]
		out(i, pk.Y, recs[i].Alts[pk.Alt].Gold)
		if a.Edit == relabel.EditSplitL {
			out(i, pk.Y2, recs[i].Alts[pk.Alt+1].Gold)
		}
		if a.Edit == relabel.EditMerge && hasNext {
			i++
		}
	}
	return c
}

// choose returns the Bound with the best F1: the edits by greedy removal
// from all of them, the cost and margin over a grid at each step.
func (e *boundEval) choose(logf func(string, ...any)) (relabel.Bound, float64) {
	costs := []float32{0.35, 0.45, 0.55}
	margins := []float32{0.1, 0.2, 0.3, 0.4, 0.5, 0.6}
	grid := func(allow uint32) (relabel.Bound, float64) {
		best, bf := relabel.Bound{}, -1.0
		for _, c := range costs {
			for _, m := range margins {
				b := relabel.Bound{Allow: allow, Cost: c, Margin: m, Reach: inf}
				if f := e.run(&b).f1(e.gold); f > bf {
					best, bf = b, f
				}
			}
		}
		return best, bf
	}
	e.oracle(logf)
	allow := uint32(1<<relabel.NumEdits-1) &^ 1
	best, bf := grid(allow)
	logf("bound: all edits: cost %.2g margin %.2g: %s", best.Cost, best.Margin, e.describe(&best))
	for round := 0; round < 3; round++ {
		improved := false
		for ed := 1; ed < relabel.NumEdits; ed++ {
			if allow&(1<<ed) == 0 {
				continue
			}
			b, f := grid(allow &^ (1 << ed))
			if f > bf {
				best, bf, improved = b, f, true
			}
		}
		if !improved {
			break
		}
		allow = best.Allow
		logf("bound: edits %b: cost %.2g margin %.2g: %s", allow, best.Cost, best.Margin, e.describe(&best))
	}
	// The reach: the smallest within 0.01 of the best F1, for speed.
	reachF := bf
	for _, r := range []float32{400, 300, 200, 150, 100, 75, 50, 30} {
		b := best
		b.Reach = r
		f := e.run(&b).f1(e.gold)
		logf("bound: reach %g: %s", r, e.describe(&b))
		if f < bf-0.01 {
			break
		}
		reachF = f
		best.Reach = r
	}
	return best, reachF
}

func (e *boundEval) describe(b *relabel.Bound) string {
	c := e.run(b)
	return fmt.Sprintf("F1 %.2f (tp %v pred %v)", c.f1(e.gold), c.tp, c.np)
}

// oracle logs, per edit, how many alternatives are gold entities where the
// tagger's entity is not one, and how many the argmax of their
// probabilities labels right and wrong.
func (e *boundEval) oracle(logf func(string, ...any)) {
	L := e.labels
	var gold, right, wrong [relabel.NumEdits]int
	reach := 0
	for i, r := range e.d.Recs {
		found := false
		for j, a := range r.Alts {
			y := argmaxOf(e.pa[i][j])
			if a.Gold != L && r.Gold == L {
				gold[a.C.Edit]++
				found = true
			}
			if y != L {
				if y == a.Gold {
					right[a.C.Edit]++
				} else {
					wrong[a.C.Edit]++
				}
			}
		}
		if found {
			reach++
		}
	}
	logf("bound: %d entities not gold have a gold alternative; per edit: gold %v, argmax right %v, wrong %v", reach, gold, right, wrong)
	var all, good []float64
	for _, r := range e.d.Recs {
		for _, a := range r.Alts {
			v := float64(maxDelta(&a.C, L))
			all = append(all, v)
			if a.Gold != L && r.Gold == L {
				good = append(good, v)
			}
		}
	}
	slices.Sort(all)
	slices.Sort(good)
	q := func(x []float64) string {
		var b strings.Builder
		for _, f := range []float64{0.01, 0.05, 0.1, 0.25, 0.5, 0.75, 0.9} {
			if len(x) > 0 {
				fmt.Fprintf(&b, " %.3g", x[int(f*float64(len(x)-1))])
			}
		}
		return b.String()
	}
	logf("bound: best label's score change, quantiles 1 5 10 25 50 75 90%%: all alternatives%s; gold ones%s", q(all), q(good))
}

var inf = float32(math.Inf(1))

func maxDelta(c *relabel.Candidate, L int) float32 { return relabel.MaxDelta(c.Delta) }

func argmaxOf(p []float32) int { return relabel.ArgmaxOf(p) }
