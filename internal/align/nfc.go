package align

import (
	"sort"
	"strings"

	"golang.org/x/text/unicode/norm"
)

// A Normalized is a text in Unicode NFC, with the way back to the text it
// was made from: models see one spelling of "Amélie" (precomposed é, or
// e + U+0301 as some keyboards and macOS file names write it), while
// offsets still point into what the caller gave.
type Normalized struct {
	Text string
	orig string
	// out[k] and src[k] are where segment k starts in Text and in the
	// original; a segment is a starter with the marks that combine with it.
	out, src []int
}

// NFC normalizes text. Text already in NFC, the common case, is returned
// as it is, with no mapping built.
func NFC(text string) *Normalized {
	if norm.NFC.IsNormalString(text) {
		return &Normalized{Text: text}
	}
	var it norm.Iter
	it.InitString(norm.NFC, text)
	var b strings.Builder
	b.Grow(len(text))
	n := &Normalized{orig: text}
	for !it.Done() {
		n.out = append(n.out, b.Len())
		n.src = append(n.src, it.Pos())
		b.Write(it.Next())
	}
	n.out = append(n.out, b.Len())
	n.src = append(n.src, len(text))
	n.Text = b.String()
	return n
}

// Source maps a byte offset of n.Text to one of the original text. An
// offset inside a segment that normalization left as it was maps to the
// same place in the original; inside a changed segment it maps to the
// segment's start, or with end to its end, so that a span of n.Text maps
// to the span of the original that covers it. (A token may start inside a
// segment: "👨\u0301" is one segment, an emoji and a mark, and two tokens.)
func (n *Normalized) Source(off int, end bool) int {
	if n.out == nil {
		return off
	}
	k := sort.SearchInts(n.out, off)
	if k < len(n.out) && n.out[k] == off {
		return n.src[k]
	}
	o0, o1, s0, s1 := n.out[k-1], n.out[k], n.src[k-1], n.src[k]
	if o1-o0 == s1-s0 && n.Text[o0:o1] == n.orig[s0:s1] {
		return s0 + off - o0
	}
	if end {
		return s1
	}
	return s0
}
