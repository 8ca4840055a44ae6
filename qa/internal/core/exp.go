package core

import (
	"os"
	"strings"
)

// exp holds experiment switches (temporary).
var exp = func() map[string]bool {
	m := map[string]bool{}
	for _, s := range strings.Split(os.Getenv("QA5X"), ",") {
		if s != "" {
			m[s] = true
		}
	}
	return m
}()

// advCands adds adverbs and adverb + adjective runs ("manually", "most
// literate", "typically shorter").
func advCands(cs *candSet) {
	T, to := cs.T, cs.to
	for i := cs.from; i < to; i++ {
		if !strings.HasPrefix(T[i].Tag, "RB") || T[i].Stop || !T[i].Word {
			continue
		}
		cs.add(i, i+1, KAdv)
		j := i + 1
		for j < to && isAdj(T[j].Tag) {
			j++
		}
		if j > i+1 {
			cs.add(i, j, KAdv)
		}
	}
}

func isClauseStop(x string) bool {
	return x == "," || x == ";" || x == ":" || x == "." || x == "(" || x == ")" || x == "—"
}

// seg: the question's weight matched in the comma-delimited part of the
// sentence that holds the span, outside the span.
func (f *feat) seg() {
	c, T, cand := f.c, f.T, f.cand
	s := cand.S
	for s > f.from && !isClauseStop(T[s-1].Text) {
		s--
	}
	e := cand.E
	for e < f.to && !isClauseStop(T[e].Text) {
		e++
	}
	w := 0.0
	for i := s; i < e; i++ {
		if i >= cand.S && i < cand.E {
			continue
		}
		w += c.match[i]
	}
	sb := fbucket(w/c.qTotal, 0, 0.15, 0.3, 0.5, 0.75)
	f.add("seg", sb, "w", f.W)
	fr := "n"
	if c.sScore[f.si] > 0 {
		fr = fbucket(w/c.sScore[f.si], 0, 0.25, 0.5, 0.75, 0.99)
	}
	f.add("segfr", fr, "sr", f.srank)
	f.add("segfr", fr, "w", f.W)
}

// cpath: the path to the nearest matched word on each side with noun
// phrases collapsed, up to 12 tokens away.
func (f *feat) cpath() {
	dl, dr, distL, distR := f.nearestMatch()
	f.cpathTo("L", dl, distL, dl+1, f.cand.S, "cp")
	f.cpathTo("R", dr, distR, f.cand.E, dr, "cp")
}

// compPath is the tokens [lo, hi) with noun phrases collapsed.
func (f *feat) compPath(lo, hi int) string {
	T := f.T
	var b strings.Builder
	lastN := false
	for i := lo; i < hi; i++ {
		tg := T[i].Tag
		np := !T[i].Stop && (isNoun(tg) || isAdj(tg) || tg == "CD") || tg == "DT" || tg == "PRP$" || tg == "POS"
		if np {
			if !lastN {
				b.WriteString("N ")
			}
			lastN = true
			continue
		}
		lastN = false
		b.WriteString(pathWord(&T[i]))
		b.WriteByte(' ')
	}
	return b.String()
}

// anchorPaths: compressed paths to the nearest question verb and to the
// rarest matched question word of the sentence.
func (f *feat) anchorPaths(kind string) {
	c, cand := f.c, f.cand
	best, bi := 0.0, -1
	vl, vr := -1, -1
	for i := f.from; i < f.to; i++ {
		if c.match[i] == 0 || i >= cand.S && i < cand.E {
			continue
		}
		if kind == "a" && c.match[i] > best {
			best, bi = c.match[i], i
		}
		if kind == "v" && c.Q.Verbs[f.T[i].Stem] {
			if i < cand.S {
				vl = i
			} else if vr < 0 {
				vr = i
			}
		}
	}
	do := func(m int, name string) {
		if m < 0 {
			f.add(name, "none", "w", f.W)
			return
		}
		if m < cand.S {
			f.cpathTo(name+"L", m, cand.S-m-1, m+1, cand.S, name)
		} else {
			f.cpathTo(name+"R", m, m-cand.E, cand.E, m, name)
		}
	}
	if kind == "a" {
		do(bi, "ap")
	} else {
		do(vl, "vp")
		do(vr, "vp")
	}
}

func (f *feat) cpathTo(name string, m, dist, lo, hi int, pre string) {
	T := f.T
	{
		if m < 0 {
			return
		}
		if dist > 12 {
			f.add(pre, name, "far", "w", f.W)
			return
		}
		p := f.compPath(lo, hi)
		f.add(pre, name, p, "w", f.W)
		f.add(pre, name, p, coarse(T[m].Tag))
	}
}

// bound: what kind of token stands on each edge outside the span.
func (f *feat) bound() {
	T, cand := f.T, f.cand
	cls := func(i int) string {
		if i < f.from || i >= f.to {
			return "S"
		}
		t := &T[i]
		switch {
		case isClauseStop(t.Text):
			return "P"
		case clauseBreaks()[t.Low]:
			return "B"
		case !t.Word:
			return "p"
		}
		return coarse(t.Tag)
	}
	l, r := cls(cand.S-1), cls(cand.E)
	f.add("bd", l, r, "w", f.W)
	f.add("bd", l, r, "len", bucket(f.n, 1, 2, 4, 8))
}
