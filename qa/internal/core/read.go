package core

import (
	"context"
	"math"
)

// A Scored is a candidate with its score and probability among all
// candidates of the question.
type Scored struct {
	Cand
	Score float64
	P     float64
}

// Merge joins documents (passages of one context) and their candidate
// lists into one.
func Merge(ds []*Doc, cs [][]Cand) (*Doc, []Cand) {
	if len(ds) == 1 {
		return ds[0], cs[0]
	}
	out := &Doc{}
	var cands []Cand
	for di, d := range ds {
		base, sbase := len(out.Toks), len(out.Sents)
		for _, c := range cs[di] {
			cands = append(cands, Cand{S: c.S + base, E: c.E + base, K: c.K})
		}
		for _, t := range d.Toks {
			t.Sent += sbase
			t.index += base
			out.Toks = append(out.Toks, t)
		}
		for _, s := range d.Sents {
			out.Sents = append(out.Sents, [2]int{s[0] + base, s[1] + base})
		}
	}
	return out, cands
}

// AllCandidates lists the candidates of every sentence of d.
func AllCandidates(d *Doc) []Cand {
	var out []Cand
	for si := range d.Sents {
		out = append(out, Candidates(d, si)...)
	}
	return out
}

// Rank scores every candidate and returns them with softmax probabilities,
// in candidate order.
func (m *Model) Rank(ctx context.Context, c *Ctx, cands []Cand) ([]Scored, error) {
	out := make([]Scored, len(cands))
	buf := make([]uint32, 0, 128)
	for i, cd := range cands {
		if i%64 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		buf = c.Features(cd, buf[:0])
		out[i] = Scored{Cand: cd, Score: m.Score(buf)}
	}
	Softmax(out)
	return out, nil
}

// Best returns the best candidate and its score: the summed probability
// of every candidate with the same normalised text, which also decides
// between candidates.
func Best(d *Doc, ss []Scored) (Scored, float64, bool) {
	if len(ss) == 0 {
		return Scored{}, 0, false
	}
	mass := map[string]float64{}
	key := func(s Scored) string { return answerKey(d, s.Cand) }
	for _, s := range ss {
		mass[key(s)] += s.P
	}
	best, bm := -1, -1.0
	for i, s := range ss {
		// Ties on mass go to the more probable single span.
		m := mass[key(s)] + 1e-9*s.P
		if m > bm {
			best, bm = i, m
		}
	}
	return ss[best], math.Min(1, mass[key(ss[best])]), true
}

// Echo reports whether every content word of the candidate is a question
// term: such a span repeats the question rather than answering it.
func Echo(d *Doc, q *Question, c Cand) bool {
	content := 0
	for i := c.S; i < c.E; i++ {
		t := &d.Toks[i]
		if !t.Word || t.Stop {
			continue
		}
		content++
		if _, ok := q.Terms[t.Stem]; !ok {
			return false
		}
	}
	return content > 0
}

// DropEchoes removes the candidates that only repeat the question, unless
// nothing else is left.
func DropEchoes(d *Doc, q *Question, ss []Scored) []Scored {
	out := make([]Scored, 0, len(ss))
	for _, s := range ss {
		if !Echo(d, q, s.Cand) {
			out = append(out, s)
		}
	}
	if len(out) == 0 {
		return ss
	}
	return out
}

// bareAmountToks is the most tokens of a span with a number or a date
// that [DropMistyped] takes for a bare amount or date whatever its
// candidate kind ("$55", "in 1998").
const bareAmountToks = 3

// DropMistyped removes the candidates whose type cannot answer the
// question. A reason ("why") is a clause or a phrase ("because demand
// fell", "to save money"), never a name or a bare date or amount ("Larry
// Page and Sergey Brin", "$55"); a manner ("how", not "how many" and the
// like) is never a bare date ("2010" for "How did she get to Paris?"),
// though it may be a name ("How was the war called?"); an activity ("What
// does she do?", "What was he allowed to do?", asking for no type) is
// neither. A phrase that only holds a number ("I have two dogs") stays.
// When nothing is left the question is better not answered.
func DropMistyped(d *Doc, q *Question, ss []Scored) []Scored {
	activity := q.Wh == "what" && q.Type == TOther && q.endsWithDo()
	if q.Wh != "why" && q.Wh != "how" && !activity {
		return ss
	}
	out := ss[:0:0]
	for _, s := range ss {
		switch ct := CandType(d, s.Cand); {
		case ct == TOther, q.Wh == "how" && ct != TDate:
		case ct == TName:
			continue
		default:
			if s.K&(KNum|KDate) != 0 || s.E-s.S <= bareAmountToks {
				continue
			}
		}
		out = append(out, s)
	}
	return out
}

// BestTyped is Best over the candidates whose type agrees with the type
// the question asks for (see Agrees); ok is false when the question asks
// for no type or no candidate has it.
func BestTyped(d *Doc, q *Question, ss []Scored) (Scored, float64, bool) {
	if q.Type == TOther {
		return Scored{}, 0, false
	}
	var typed []Scored
	for _, s := range ss {
		if Agrees(q.Type, CandType(d, s.Cand)) {
			typed = append(typed, s)
		}
	}
	return Best(d, typed)
}

// Softmax sets the probabilities P of scored from their scores: the
// softmax over the list, computed from the largest score so that no
// exponential overflows.
func Softmax(scored []Scored) {
	mx := math.Inf(-1)
	for _, s := range scored {
		mx = math.Max(mx, s.Score)
	}
	z := 0.0
	for i := range scored {
		scored[i].P = math.Exp(scored[i].Score - mx)
		z += scored[i].P
	}
	for i := range scored {
		scored[i].P /= z
	}
}
