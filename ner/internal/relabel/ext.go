package relabel

import (
	"strings"

	"github.com/textanalysis/go-textanalysis/ner/internal/tagger"
)

// An Ext is an external gazetteer (ner/data/external-gazetteer.tsv.gz,
// written by ner/cmd/mkgaz): phrases typed by label, looked up as written
// and in lower case. A phrase's value has bit k set for the model's label
// k, extCommon when it is also a common word, and its primary label (k+1)
// at extPrimShift.
type Ext struct {
	raw   []byte // the list as read, kept in the model file
	exact map[string]uint32
	lower map[string]uint32
}

// The bit layout is the tagger's (tagger.CommonBit, tagger.PrimaryShift).
const (
	extCommon    = tagger.CommonBit
	extPrimShift = tagger.PrimaryShift
	extPrimMask  = tagger.PrimaryMask
	extLabelMask = 1<<extPrimShift - 1
)

// NewExt reads an external gazetteer list (see tagger.ParseExtList) for
// the labels ls; lines of other labels are skipped. The phrases' tokens
// are joined by single spaces.
func NewExt(raw []byte, ls []string) *Ext {
	idx := map[string]int{}
	for i, l := range ls {
		idx[l] = i
	}
	g := &Ext{raw: raw, exact: map[string]uint32{}, lower: map[string]uint32{}}
	var sb strings.Builder
	labelOf := func(l string) (int, bool) { k, ok := idx[l]; return k, ok }
	tagger.ParseExtList(raw, labelOf, func(phrase string, toks []tagger.Span, v uint32) {
		sb.Reset()
		for i, t := range toks {
			if i > 0 {
				sb.WriteByte(' ')
			}
			sb.WriteString(phrase[t.Start:t.End])
		}
		p := sb.String()
		g.exact[p] = merge(g.exact[p], v)
		lp := strings.ToLower(p)
		g.lower[lp] = merge(g.lower[lp], v)
	})
	return g
}

// merge ors the labels and common marks of a and b and keeps a's primary
// label if it has one.
func merge(a, b uint32) uint32 {
	v := (a | b) &^ extPrimMask
	if a&extPrimMask != 0 {
		return v | a&extPrimMask
	}
	return v | b&extPrimMask
}

// join writes words joined by single spaces to buf, lower-cased with low.
func join(buf []byte, words []string, low bool) []byte {
	buf = buf[:0]
	for i, w := range words {
		if i > 0 {
			buf = append(buf, ' ')
		}
		if !low {
			buf = append(buf, w...)
			continue
		}
		for _, r := range w {
			if r < 0x80 {
				if 'A' <= r && r <= 'Z' {
					r += 'a' - 'A'
				}
				buf = append(buf, byte(r))
				continue
			}
			buf = append(buf, strings.ToLower(string(r))...)
		}
	}
	return buf
}

// lookups are the external gazetteer's values for a candidate's entity:
// its phrase as written and in lower case, without a leading "the" as
// written and in lower case, and its last word as written.
func (g *Ext) lookups(buf []byte, c *Candidate) ([5]uint32, []byte) {
	var v [5]uint32
	ws := c.Words[c.Start:c.End]
	buf = join(buf, ws, false)
	v[0] = g.exact[string(buf)]
	buf = join(buf, ws, true)
	v[1] = g.lower[string(buf)]
	if len(ws) > 1 && strings.EqualFold(ws[0], "the") {
		buf = join(buf, ws[1:], false)
		v[2] = g.exact[string(buf)]
		buf = join(buf, ws[1:], true)
		v[3] = g.lower[string(buf)]
	}
	if len(ws) > 1 {
		v[4] = g.exact[ws[len(ws)-1]]
	}
	return v, buf
}

// extFeatures adds the external gazetteer's features of c.
func (g *Ext) extFeatures(f *Features, c *Candidate) {
	var v [5]uint32
	v, f.buf = g.lookups(f.buf, c)
	add := func(h hash) { f.X = append(f.X, uint64(h)) }
	any := false
	for s, x := range v {
		if x == 0 {
			continue
		}
		any = true
		for k := 0; k < extPrimShift; k++ {
			if x&(1<<k) != 0 {
				add(start(40).num(s).num(k))
				add(start(41).num(s).num(k).num(c.Pred))
			}
		}
		if x&extCommon != 0 {
			add(start(42).num(s))
			add(start(43).num(s).num(c.Pred))
		}
		if p := int(x&extPrimMask) >> extPrimShift; p != 0 {
			add(start(44).num(s).num(p).num(c.Pred))
		}
	}
	if !any {
		add(start(45).num(c.Pred))
	}
}

// Hits returns how many of cs have their phrase (in any of the forms
// looked up) in g.
func (g *Ext) Hits(cs []*Candidate) int {
	n := 0
	var buf []byte
	for _, c := range cs {
		var v [5]uint32
		v, buf = g.lookups(buf, c)
		if v != [5]uint32{} {
			n++
		}
	}
	return n
}
