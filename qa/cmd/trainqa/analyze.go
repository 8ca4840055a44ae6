package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"sort"
	"strings"

	"github.com/textanalysis/go-textanalysis/qa/internal/core"
)

// whKey buckets a question as the qa harness's -by-type table does.
func whKey(q *core.Question) string {
	var b strings.Builder
	b.WriteByte(' ')
	for _, t := range q.Toks {
		b.WriteString(t.Low)
		b.WriteByte(' ')
	}
	l := b.String()
	for _, p := range [][2]string{
		{" how many ", "how many"}, {" how much ", "how much"},
		{" what year ", "when"}, {" which year ", "when"}, {" when ", "when"},
		{" who ", "who"}, {" whom ", "who"}, {" whose ", "who"},
		{" where ", "where"}, {" why ", "why"},
		{" which ", "which"}, {" what ", "what"}, {" how ", "how"},
	} {
		if strings.Contains(l, p[0]) {
			return p[1]
		}
	}
	return "other"
}

// analyze prints, by question type, why the top candidate misses the gold
// answer: no candidate equals a gold answer (and the best F1 any candidate
// reaches); a candidate does, but the top one is in another sentence; or
// it is in the gold sentence but a different span. examples gives that
// many misses of each class for the types listed in show.
func analyze(w io.Writer, m *core.Model, exs []*example, examples int, show string) {
	type row struct{ n, em, noCand, noCandHalf, wrongSent, wrongSpan, overlap int }
	rows := map[string]*row{}
	samples := map[string][]string{}
	for _, ex := range exs {
		k := whKey(ex.q)
		r := rows[k]
		if r == nil {
			r = &row{}
			rows[k] = r
		}
		r.n++
		c := core.NewCtx(ex.p.doc, ex.q, m.Weight)
		ss, err := m.Rank(context.Background(), c, ex.p.cands)
		if err != nil {
			continue
		}
		ss = core.DropEchoes(ex.p.doc, ex.q, ss)
		best, _, ok := core.Best(ex.p.doc, ss)
		pred := ""
		if ok {
			pred = normalize(spanText(ex.p, best.Cand))
		}
		hit := false
		for _, g := range ex.gold {
			if pred == g {
				hit = true
			}
		}
		if hit {
			r.em++
			continue
		}
		class := ""
		if len(ex.goodC) == 0 || ex.partial {
			r.noCand++
			class = "nocand"
			bf := 0.0
			for _, cd := range ex.p.cands {
				t := normalize(spanText(ex.p, cd))
				for _, g := range ex.gold {
					bf = math.Max(bf, tokenF1(t, g))
				}
			}
			if bf >= 0.5 {
				r.noCandHalf++
			}
		} else {
			same, over := false, false
			for _, i := range ex.goodC {
				g := ex.p.cands[i]
				if ex.p.doc.Toks[g.S].Sent == ex.p.doc.Toks[best.S].Sent {
					same = true
				}
				if g.S < best.E && best.S < g.E {
					over = true
				}
			}
			if same {
				r.wrongSpan++
				if over {
					r.overlap++
				}
				class = "span"
			} else {
				r.wrongSent++
				class = "sent"
			}
		}
		if strings.Contains(","+show+",", ","+k+",") {
			key := k + "/" + class
			if len(samples[key]) < examples {
				var qs []string
				for _, t := range ex.q.Toks {
					qs = append(qs, t.Text)
				}
				sent := ""
				if ok {
					r := ex.p.doc.Sents[ex.p.doc.Toks[best.S].Sent]
					sent = string(ex.p.ctx[ex.p.doc.Toks[r[0]].Start:ex.p.doc.Toks[r[1]-1].End])
				}
				samples[key] = append(samples[key], fmt.Sprintf("%s\n    pred: %s\n    gold: %s\n    sentence: %s", strings.Join(qs, " "), pred, strings.Join(ex.gold, " | "), sent))
			}
		}
	}
	keys := make([]string, 0, len(rows))
	for k := range rows {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return rows[keys[i]].n > rows[keys[j]].n })
	fmt.Fprintf(w, "%-9s %5s %6s | misses: %8s %8s %8s %8s %8s  (%% of questions)\n", "type", "n", "EM", "no-cand", "(F1>=.5)", "sentence", "span", "(overlap)")
	var tot row
	pc := func(a, n int) float64 { return 100 * float64(a) / float64(max(n, 1)) }
	for _, k := range append(keys, "all") {
		r := rows[k]
		if k == "all" {
			r = &tot
		} else {
			tot.n += r.n
			tot.em += r.em
			tot.noCand += r.noCand
			tot.noCandHalf += r.noCandHalf
			tot.wrongSent += r.wrongSent
			tot.wrongSpan += r.wrongSpan
			tot.overlap += r.overlap
		}
		fmt.Fprintf(w, "%-9s %5d %6.1f | %17.1f %8.1f %8.1f %8.1f %8.1f\n", k, r.n, pc(r.em, r.n), pc(r.noCand, r.n), pc(r.noCandHalf, r.n), pc(r.wrongSent, r.n), pc(r.wrongSpan, r.n), pc(r.overlap, r.n))
	}
	sk := make([]string, 0, len(samples))
	for k := range samples {
		sk = append(sk, k)
	}
	sort.Strings(sk)
	for _, k := range sk {
		fmt.Fprintf(w, "\n== %s\n", k)
		for _, s := range samples[k] {
			fmt.Fprintf(w, "  %s\n", s)
		}
	}
}
