package align

import (
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

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
	return segments(text, norm.NFC, func(s []byte) []byte { return s })
}

// segments rewrites text one segment of form at a time with rewrite,
// keeping where each segment starts in both texts.
func segments(text string, form norm.Form, rewrite func(seg []byte) []byte) *Normalized {
	var it norm.Iter
	it.InitString(form, text)
	var b strings.Builder
	b.Grow(len(text))
	n := &Normalized{orig: text}
	for !it.Done() {
		n.out = append(n.out, b.Len())
		n.src = append(n.src, it.Pos())
		b.Write(rewrite(it.Next()))
	}
	n.out = append(n.out, b.Len())
	n.src = append(n.src, len(text))
	n.Text = b.String()
	return n
}

// Fold is [NFC] that also drops the combining marks of Latin letters
// ("Amélie" → "Amelie", "Zürich" → "Zurich", "José" → "Jose"), with the
// same way back to the original. Models trained on mostly unaccented
// text read an accented name as the word it is elsewhere instead of as
// an unknown one. Other scripts keep their marks (Devanagari vowel signs,
// Hebrew points carry the word), and letters without a decomposition
// ("ø", "ß", "ł") stay. ASCII text is returned as it is, with no mapping.
func Fold(text string) *Normalized {
	if !needsFold(text) {
		return &Normalized{Text: text}
	}
	n := foldWalk(text)
	if n.Text == text {
		return &Normalized{Text: text}
	}
	return n
}

// foldWalk folds text one decomposed segment at a time.
func foldWalk(text string) *Normalized {
	var buf []byte
	return segments(text, norm.NFD, func(s []byte) []byte {
		buf = foldSegment(buf[:0], s)
		return norm.NFC.Bytes(buf)
	})
}

// needsFold reports whether [Fold] would change text: it is not in NFC,
// or a segment that starts with a Latin letter decomposes or carries a
// nonspacing mark. Text in other scripts, the common case beside ASCII,
// then costs one pass and no allocation.
func needsFold(text string) bool {
	if !norm.NFC.IsNormalString(text) {
		return true
	}
	latin := false // the current segment starts with a Latin letter
	for i := 0; i < len(text); {
		if c := text[i]; c < utf8.RuneSelf {
			latin = 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
			i++
			continue
		}
		p := norm.NFD.PropertiesString(text[i:])
		r, size := utf8.DecodeRuneInString(text[i:])
		switch {
		case p.BoundaryBefore():
			latin = unicode.Is(unicode.Latin, r)
			if latin && len(p.Decomposition()) > 0 {
				return true
			}
		case latin && unicode.Is(unicode.Mn, r):
			return true
		}
		i += size
	}
	return false
}

// foldSegment appends to dst the decomposed segment s without its
// nonspacing marks when it starts with a Latin letter, else s as it is.
func foldSegment(dst, s []byte) []byte {
	r, size := utf8.DecodeRune(s)
	if size == len(s) || !unicode.Is(unicode.Latin, r) {
		return append(dst, s...)
	}
	dst = append(dst, s[:size]...)
	for i := size; i < len(s); {
		m, sz := utf8.DecodeRune(s[i:])
		if !unicode.Is(unicode.Mn, m) {
			dst = append(dst, s[i:i+sz]...)
		}
		i += sz
	}
	return dst
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
