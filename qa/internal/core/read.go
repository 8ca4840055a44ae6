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

// personPronouns are the pronouns by which a question refers to a person
// it does not name, by gender.
var personPronouns = [2]map[string]bool{
	{"he": true, "his": true, "him": true, "himself": true},
	{"she": true, "her": true, "hers": true, "herself": true},
}

// nameWords in a question ask for a name, which may be the person's own.
var nameWords = map[string]bool{"name": true, "named": true, "names": true, "nickname": true, "called": true, "title": true}

// DropReferent removes the candidates that name the person a question
// refers to by a pronoun alone, unless nothing else is left: "What was her
// nationality?" over a text about Marie Curie is not "Marie Curie". The
// person is the one the context names most often (by the last word of
// each PERSON mention; the first named wins a tie), as its first mention
// names them ("Curie" is Marie Curie, "Pierre Curie" is not), and the context must
// refer to someone by a pronoun of the question's gender too, as a
// biography does: a post in the first person that a question calls "he"
// is about its writer, who is not named. A question that names anyone or
// anything, asks who, asks for a name, or asks for a person by its head
// noun ("which professor") is left alone.
func DropReferent(d *Doc, q *Question, ss []Scored) []Scored {
	if q.Wh != "what" && q.Wh != "which" || q.Named() || q.hasAny(nameWords) {
		return ss
	}
	if q.Head != "" {
		// "somebody", not "person": WordNet's classes of "nationality"
		// hold "person" (a status), not the synset of people.
		if _, person := IsA(q.Head, "somebody"); person {
			return ss
		}
	}
	gender := -1
	for g, words := range personPronouns {
		if q.hasAny(words) {
			gender = g
		}
	}
	if gender < 0 || !d.hasAny(personPronouns[gender]) {
		return ss
	}
	ref := mainPerson(d)
	if ref == nil {
		return ss
	}
	out := ss[:0:0]
	for _, s := range ss {
		if !namesPerson(d, s.Cand, ref) {
			out = append(out, s)
		}
	}
	if len(out) == 0 {
		return ss
	}
	return out
}

// hasAny reports whether one of the document's words, in lower case, is
// in words.
func (d *Doc) hasAny(words map[string]bool) bool {
	for i := range d.Toks {
		if words[d.Toks[i].Low] {
			return true
		}
	}
	return false
}

// hasAny reports whether one of the question's words, in lower case, is in
// words.
func (q *Question) hasAny(words map[string]bool) bool {
	for _, t := range q.Toks {
		if words[t.Low] {
			return true
		}
	}
	return false
}

// mainPerson returns the words, in lower case, of the first mention of
// the person the context names most often (counted by the mentions' last
// words: "Marie Curie", "Curie"), or nil when it names none.
func mainPerson(d *Doc) map[string]bool {
	count := map[string]int{}
	first := map[string]int{} // last word → start of its first mention
	best, bestN := "", 0
	T := d.Toks
	start := 0
	for i := range T {
		if T[i].NE != "PERSON" {
			continue
		}
		if T[i].NEB || i == 0 || T[i-1].NE != "PERSON" {
			start = i
		}
		if i+1 < len(T) && T[i+1].NE == "PERSON" && !T[i+1].NEB {
			continue // not the mention's last token
		}
		k := T[i].Low
		if count[k] == 0 {
			first[k] = start
		}
		count[k]++
		if count[k] > bestN {
			best, bestN = k, count[k]
		}
	}
	if best == "" {
		return nil
	}
	words := map[string]bool{}
	for i := first[best]; i < len(T) && T[i].NE == "PERSON" && (i == first[best] || !T[i].NEB); i++ {
		if T[i].Word {
			words[T[i].Low] = true
		}
	}
	return words
}

// namesPerson reports whether the candidate is a mention of the person
// whose name has the words name: PERSON tokens only, each a word of it.
func namesPerson(d *Doc, c Cand, name map[string]bool) bool {
	found := false
	for i := c.S; i < c.E; i++ {
		t := &d.Toks[i]
		if !t.Word {
			continue
		}
		if t.NE != "PERSON" || !name[t.Low] {
			return false
		}
		found = true
	}
	return found
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
// for no type or no candidate has it. For a date, a span the recogniser
// labels DATE whole counts too, though its shape does not say so
// ("1815-1852" of "Ada Lovelace (1815-1852) was…"): the features keep
// reading the shapes only, as the models learned them.
func BestTyped(d *Doc, q *Question, ss []Scored) (Scored, float64, bool) {
	if q.Type == TOther {
		return Scored{}, 0, false
	}
	var typed []Scored
	for _, s := range ss {
		if Agrees(q.Type, CandType(d, s.Cand)) || q.Type == TDate && wholeEntity(d, s.Cand, "DATE") {
			typed = append(typed, s)
		}
	}
	return Best(d, typed)
}

// wholeEntity reports whether every word of the candidate is in an entity
// labelled label, the candidate starting at an entity's start.
func wholeEntity(d *Doc, c Cand, label string) bool {
	if !d.Toks[c.S].NEB {
		return false
	}
	for i := c.S; i < c.E; i++ {
		if t := &d.Toks[i]; t.Word && t.NE != label {
			return false
		}
	}
	return true
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
