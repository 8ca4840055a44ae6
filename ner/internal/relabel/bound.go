package relabel

import (
	"math"
	"strings"

	"github.com/textanalysis/go-textanalysis/ner/internal/tagger"
)

// The edits that make an alternative span from a tagger's entity.
const (
	EditNone   = iota // the tagger's own span
	EditTrimL         // one word less at the start
	EditTrimR         // one word less at the end
	EditExtL          // one word more at the start
	EditExtR          // one word more at the end
	EditTrimL2        // two words less at the start
	EditTrimR2        // two words less at the end
	EditExtL2         // two words more at the start
	EditExtR2         // two words more at the end
	EditMerge         // through the next entity, at most one word away
	EditSplitL        // the part before a joining word ("and", "to", "-")
	EditSplitR        // the part after it
	NumEdits
)

// An Alt is an alternative span for the tagger's entity Chunks[K]: its
// words in the sentence and the edit that made it.
type Alt struct {
	Start, End int
	Edit       int
}

// joiners are the words at which an entity may be split in two.
var joiners = map[string]bool{"and": true, "to": true, "or": true, "-": true, "–": true, "—": true, "/": true, "through": true}

// Alternatives appends to dst the alternative spans of the entity
// chunks[k] that the tagger found in the tokens toks of text (a sentence):
// one or two words more or less at either edge, the span through the next
// entity when at most one word lies between, and the parts either side of
// a joining word inside it. No alternative reaches into another entity but
// the merge, and the edits whose bit is clear in allow are left out.
func Alternatives(dst []Alt, text string, toks []tagger.Span, chunks []tagger.Chunk, k int, allow uint32) []Alt {
	c := chunks[k]
	lo, hi := 0, len(toks) // the words free of other entities
	if k > 0 {
		lo = chunks[k-1].End
	}
	if k+1 < len(chunks) {
		hi = chunks[k+1].Start
	}
	add := func(s, e, edit int) {
		if allow&(1<<edit) != 0 && s < e && s >= lo && e <= hi {
			dst = append(dst, Alt{s, e, edit})
		}
	}
	add(c.Start+1, c.End, EditTrimL)
	add(c.Start, c.End-1, EditTrimR)
	add(c.Start-1, c.End, EditExtL)
	add(c.Start, c.End+1, EditExtR)
	add(c.Start+2, c.End, EditTrimL2)
	add(c.Start, c.End-2, EditTrimR2)
	add(c.Start-2, c.End, EditExtL2)
	add(c.Start, c.End+2, EditExtR2)
	if k+1 < len(chunks) && allow&(1<<EditMerge) != 0 && chunks[k+1].Start-c.End <= 1 {
		dst = append(dst, Alt{c.Start, chunks[k+1].End, EditMerge})
	}
	for j := c.Start + 1; j < c.End-1; j++ {
		if joiners[strings.ToLower(text[toks[j].Start:toks[j].End])] {
			add(c.Start, j, EditSplitL)
			add(j+1, c.End, EditSplitR)
		}
	}
	return dst
}

// FromTaggerAlt fills c with the alternative a of the entity ch of the
// last m.Tag call with b on the tokens toks of text, as FromTagger does
// for the entity itself.
func FromTaggerAlt(c *Candidate, m *tagger.Model, b *tagger.Buffers, text string, toks []tagger.Span, ch tagger.Chunk, a Alt) {
	fromTaggerAlt(c, m, b, text, toks, ch, a, altDelta(nil, m, b, ch, a))
}

// altDelta appends to dst the Candidate.Delta of the alternative a of the
// entity ch.
func altDelta(dst []float32, m *tagger.Model, b *tagger.Buffers, ch tagger.Chunk, a Alt) []float32 {
	return m.RegionScores(dst, b, tagger.Chunk{Start: a.Start, End: a.End}, min(a.Start, ch.Start), max(a.End, ch.End))
}

// fromTaggerAlt is FromTaggerAlt with the alternative's Delta given.
func fromTaggerAlt(c *Candidate, m *tagger.Model, b *tagger.Buffers, text string, toks []tagger.Span, ch tagger.Chunk, a Alt, delta []float32) {
	FromTagger(c, m, b, text, toks, tagger.Chunk{Start: a.Start, End: a.End, Label: ch.Label})
	off := a.Start - c.Start // the sentence's index of Words[0]
	c.Edit, c.OStart, c.OEnd = a.Edit, ch.Start-off, ch.End-off
	c.Delta = append(c.Delta[:0], delta...)
}

// editFeatures adds to f the features of an alternative span c: its edit
// (alone, with the tagger's label and with the sentence's case), the words
// it gains or loses at each edge (up to two, nearest the new edge: as
// written in lower case, shape and coarse cluster, with the edit), its new
// edge words and their outer neighbours with the edit, and, per class,
// Candidate.Delta.
func editFeatures(f *Features, c *Candidate, word func(int) string, coarse func(int) int, cs int) {
	add := func(h hash) { f.X = append(f.X, uint64(h)) }
	e := c.Edit
	add(start(40).num(e))
	add(start(41).num(e).num(c.Pred))
	add(start(42).num(e).num(cs))
	changed := func(tmpl byte, a, b, near int) {
		// Words [a, b) changed; near is the one at the new edge.
		for j := a; j < b; j++ {
			if j < 0 || j >= len(c.Words) || (j-near > 1 || near-j > 1) {
				continue
			}
			add(start(tmpl).num(e).lower(word(j)))
			add(start(tmpl + 1).num(e).shape(word(j)))
			add(start(tmpl + 2).num(e).num(coarse(j)))
		}
	}
	if c.Start > c.OStart {
		changed(43, c.OStart, c.Start, c.Start-1)
	} else if c.Start < c.OStart {
		changed(43, c.Start, c.OStart, c.Start)
	}
	if c.End < c.OEnd {
		changed(46, c.End, c.OEnd, c.End)
	} else if c.End > c.OEnd {
		changed(46, c.OEnd, c.End, c.End-1)
	}
	add(start(49).num(e).lower(word(c.Start)))
	add(start(50).num(e).lower(word(c.End - 1)))
	add(start(51).num(e).lower(word(c.Start - 1)))
	add(start(52).num(e).lower(word(c.End)))
	add(start(53).num(e).shape(word(c.Start - 1)).shape(word(c.Start)))
	add(start(54).num(e).shape(word(c.End - 1)).shape(word(c.End)))
	if len(c.Ref) == len(f.Per) {
		// What the model makes of the entity itself: its probability
		// under the tagger's label, as no entity, and its best label's.
		L := len(c.Ref) - 1
		k := argmaxOf(c.Ref[:L])
		add(start(57).num(e).num(probBin(c.Ref[c.Pred])))
		add(start(58).num(e).num(probBin(c.Ref[L])))
		add(start(59).num(e).num(probBin(c.Ref[k])).num(b2i(k == c.Pred)))
	}
	if len(c.Delta) != len(f.Per) {
		return
	}
	for y, d := range c.Delta {
		b := deltaBin(d)
		f.PerD = append(f.PerD, [2]uint64{uint64(start(55).num(b)), uint64(start(56).num(b).num(y).num(e))})
		f.ValD = append(f.ValD, max(-8, d/32))
	}
}

// deltaBin buckets a score change on a log scale, up to about 1000.
func deltaBin(d float32) int {
	if d >= 0 {
		return 40 + min(30, int(3*math.Log2(1+float64(d))))
	}
	return min(30, int(3*math.Log2(1+float64(-d))))
}

// MaxDelta returns the best of the score changes delta of an alternative
// span under the labels (Candidate.Delta without its last, "no entity").
func MaxDelta(delta []float32) float32 {
	v := float32(math.Inf(-1))
	for _, d := range delta[:len(delta)-1] {
		v = max(v, d)
	}
	return v
}

// A Bound is how a model chooses between an entity and its alternative
// spans: each option is worth its expected true positives (the model's
// probability of each span being right with its label) less Cost per
// entity it outputs, and an alternative replaces the entity (with the
// relabeler's decision on it) when it is worth more by Margin.
type Bound struct {
	Allow  uint32 // the edits tried (bit EditX)
	Cost   float32
	Margin float32
	// Reach is how far below the tagging's score an alternative may
	// score under its best label (MaxDelta ≥ -Reach) to be considered;
	// the others are not read (for speed).
	Reach float32
	// Stack gives an alternative's features the model's probabilities
	// for the entity itself (Candidate.Ref).
	Stack bool
}

// Probs appends to dst the softmax of the class scores s.
func Probs(dst, s []float32) []float32 { return softmax(dst, s) }

// worth is the value of outputting class y (len(p)-1 for none) with
// probabilities p.
func (b *Bound) worth(p []float32, y int) float32 {
	if y == len(p)-1 {
		return 0
	}
	return p[y] - b.Cost
}

// best returns the best class of p for an alternative, the "no entity"
// class when no label is worth its cost, and its worth.
func (b *Bound) best(p []float32) (int, float32) {
	L := len(p) - 1
	y, v := L, float32(0)
	for k := 0; k < L; k++ {
		if w := p[k] - b.Cost; w > v {
			y, v = k, w
		}
	}
	return y, v
}

// A Pick is what to output for an entity: Alt < 0 for the entity itself
// (with the relabeler's decision), else the alternative Alt with label Y
// and, for EditSplitL, also alternative Alt+1 with label Y2; a label
// len(Labels) is no entity.
type Pick struct {
	Alt   int
	Y, Y2 int
}

// Pick chooses between an entity, with probabilities p0 and the
// relabeler's decision y0 (len(p0)-1 for none), and its alternatives alts
// with probabilities pa (nil for one out of reach); wNext is the worth of the next entity's own
// decision, which EditMerge gives up.
func (b *Bound) Pick(p0 []float32, y0 int, alts []Alt, pa [][]float32, wNext float32) Pick {
	out := Pick{Alt: -1}
	base := b.worth(p0, y0)
	top := base + b.Margin
	for i, a := range alts {
		if b.Allow&(1<<a.Edit) == 0 || pa[i] == nil {
			continue
		}
		y, v := b.best(pa[i])
		y2 := len(p0) - 1
		switch a.Edit {
		case EditSplitR:
			continue // with its EditSplitL
		case EditSplitL:
			if i+1 >= len(alts) || alts[i+1].Edit != EditSplitR || b.Allow&(1<<EditSplitR) == 0 || pa[i+1] == nil {
				continue
			}
			var v2 float32
			y2, v2 = b.best(pa[i+1])
			v += v2
		case EditMerge:
			v -= wNext
		}
		if y == len(p0)-1 && y2 == len(p0)-1 {
			continue
		}
		if v > top {
			out, top = Pick{Alt: i, Y: y, Y2: y2}, v
		}
	}
	return out
}

// A Chooser applies a model's second stage to the entities the tagger
// found in a sentence. Its fields are scratch space, per goroutine.
type Chooser struct {
	orig []tagger.Chunk
	alts []Alt
	cand Candidate
	f    Features
	s    []float32
	p    [][]float32 // probabilities of the alternatives
	pp   [][]float32 // the same, nil for one out of reach
	d    []float32
	p0   [2][]float32
}

// Apply returns the entities to output for the entities chunks of the last
// tm.Tag call with b on the tokens toks of text (a sentence), reusing
// chunks' storage: each relabeled or dropped, or, with a Bound, perhaps
// replaced by an alternative span.
func (ch *Chooser) Apply(m *Model, tm *tagger.Model, b *tagger.Buffers, text string, toks []tagger.Span, chunks []tagger.Chunk) []tagger.Chunk {
	if m.Bound == nil {
		out := chunks[:0]
		for _, c := range chunks {
			FromTagger(&ch.cand, tm, b, text, toks, c)
			var y int
			y, ch.s = m.Relabel(&ch.f, ch.s, &ch.cand)
			if y < 0 {
				continue
			}
			c.Label = y
			out = append(out, c)
		}
		return out
	}
	bd := m.Bound
	L := len(m.Labels)
	ch.orig = append(ch.orig[:0], chunks...)
	// identity decides entity k on its own, into ch.p0[k%2].
	identity := func(k int) (int, float32) {
		FromTagger(&ch.cand, tm, b, text, toks, ch.orig[k])
		ch.s = m.Scores(ch.s[:0], &ch.f, &ch.cand)
		y := m.Decide(ch.s, ch.orig[k].Label)
		ch.p0[k%2] = softmax(ch.p0[k%2][:0], ch.s)
		return y, bd.worth(ch.p0[k%2], y)
	}
	out := chunks[:0]
	y0 := -1
	if len(ch.orig) > 0 {
		y0, _ = identity(0)
	}
	for k := 0; k < len(ch.orig); k++ {
		c := ch.orig[k]
		ch.alts = Alternatives(ch.alts[:0], text, toks, ch.orig, k, bd.Allow)
		for len(ch.p) < len(ch.alts) {
			ch.p = append(ch.p, nil)
		}
		ch.pp = ch.pp[:0]
		for i, a := range ch.alts {
			ch.d = altDelta(ch.d[:0], tm, b, c, a)
			if MaxDelta(ch.d) < -bd.Reach {
				ch.pp = append(ch.pp, nil)
				continue
			}
			fromTaggerAlt(&ch.cand, tm, b, text, toks, c, a, ch.d)
			if bd.Stack {
				ch.cand.Ref = ch.p0[k%2]
			}
			ch.s = m.Scores(ch.s[:0], &ch.f, &ch.cand)
			ch.p[i] = softmax(ch.p[i][:0], ch.s)
			ch.pp = append(ch.pp, ch.p[i])
		}
		y1, w1 := -1, float32(0)
		if k+1 < len(ch.orig) {
			y1, w1 = identity(k + 1)
		}
		pk := bd.Pick(ch.p0[k%2], y0, ch.alts, ch.pp, w1)
		switch {
		case pk.Alt < 0:
			if y0 != L {
				c.Label = y0
				out = append(out, c)
			}
		default:
			a := ch.alts[pk.Alt]
			if pk.Y != L {
				out = append(out, tagger.Chunk{Start: a.Start, End: a.End, Label: pk.Y})
			}
			if a.Edit == EditSplitL && pk.Y2 != L {
				r := ch.alts[pk.Alt+1]
				out = append(out, tagger.Chunk{Start: r.Start, End: r.End, Label: pk.Y2})
			}
			if a.Edit == EditMerge && k+1 < len(ch.orig) {
				k++
				if k+1 < len(ch.orig) {
					y1, w1 = identity(k + 1)
				}
			}
		}
		y0 = y1
	}
	return out
}

func probBin(p float32) int { return min(9, int(p*10)) }

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func argmaxOf(p []float32) int {
	k := 0
	for y, v := range p {
		if v > p[k] {
			k = y
		}
	}
	return k
}

// ArgmaxOf returns the index of the largest of p, the first of ties.
func ArgmaxOf(p []float32) int { return argmaxOf(p) }
