package align

import (
	"sort"
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
	// out[k] and src[k] are where piece k starts in Text and in the
	// original. A piece is one segment (a starter with the runes that
	// combine with it) that normalization changed, or a run of segments it
	// left as they were (same[k]).
	out, src []int
	same     []bool
}

// NFC normalizes text. Text already in NFC, the common case, is returned
// as it is, with no mapping built.
func NFC(text string) *Normalized {
	if norm.NFC.IsNormalString(text) {
		return &Normalized{Text: text}
	}
	var buf []byte
	return segments(text, func(dst []byte, seg string) []byte {
		// Normalized apart and then appended: Append on dst itself may
		// rewrite dst's tail, which would move the segment starts kept.
		buf = norm.NFC.AppendString(buf[:0], seg)
		return append(dst, buf...)
	})
}

// segments rewrites text one NFC segment at a time with rewrite, keeping
// where each changed segment, and each run of unchanged ones, starts in
// both texts. Segments normalize independently: each is a starter with the
// runes that may combine with it.
//
// It walks the segments itself rather than with norm.Iter: in
// golang.org/x/text v0.43.0 the iterator panics on some input (a halfwidth
// Hangul letter after a mark, "0ﾬ\u08e8ﾬ" after a decomposable letter),
// and this reads untrusted text.
func segments(text string, rewrite func(dst []byte, seg string) []byte) *Normalized {
	out := make([]byte, 0, len(text)+len(text)/8)
	n := &Normalized{}
	inRun := false // the last piece is a run of unchanged segments
	for i := 0; i < len(text); {
		j := segmentEnd(text, i)
		seg, start := text[i:j], len(out)
		if len(seg) == 1 { // ASCII: no form changes it
			out = append(out, seg[0])
		} else {
			out = rewrite(out, seg)
		}
		same := string(out[start:]) == seg
		if !same || !inRun {
			n.out = append(n.out, start)
			n.src = append(n.src, i)
			n.same = append(n.same, same)
		}
		inRun = same
		i = j
	}
	n.out = append(n.out, len(out))
	n.src = append(n.src, len(text))
	n.Text = string(out)
	return n
}

// segmentEnd returns where the NFC segment that starts at i ends: before
// the next rune that starts a segment of its own. A symbol that nothing
// combines with (an emoji, a digit) is a segment alone, so that the marks
// after it, which a tokenizer may split off, keep offsets of their own
// ("👨" + U+0341, which NFC writes U+0301, is an emoji token and a mark
// token: the mark's token must not map back onto the emoji).
func segmentEnd(text string, i int) int {
	r, size := utf8.DecodeRuneInString(text[i:])
	if !unicode.IsLetter(r) && norm.NFC.PropertiesString(text[i:]).BoundaryAfter() {
		return i + size
	}
	for j := i + size; j < len(text); {
		if text[j] < utf8.RuneSelf || norm.NFC.PropertiesString(text[j:]).BoundaryBefore() {
			return j
		}
		_, size := utf8.DecodeRuneInString(text[j:])
		j += size
	}
	return len(text)
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

// foldWalk folds text one segment at a time.
func foldWalk(text string) *Normalized {
	var f folder
	return segments(text, f.fold)
}

// A folder folds segments, reusing its buffers from one to the next.
type folder struct{ nfd, folded, nfc []byte }

// fold appends seg folded to dst. A precomposed Latin letter, nearly every
// segment that changes, is folded from its decomposition in the Unicode
// tables; the rest take the general way, which allocates in x/text.
func (f *folder) fold(dst []byte, seg string) []byte {
	if base, ok := foldLetter(seg); ok {
		return utf8.AppendRune(dst, base)
	}
	return f.foldAny(dst, seg)
}

// foldAny appends seg decomposed, stripped of the marks of its Latin
// letters and composed again.
func (f *folder) foldAny(dst []byte, seg string) []byte {
	f.nfd = norm.NFD.AppendString(f.nfd[:0], seg)
	f.folded = foldSegment(f.folded[:0], f.nfd)
	f.nfc = norm.NFC.Append(f.nfc[:0], f.folded...)
	return append(dst, f.nfc...)
}

// foldLetter returns the base letter of seg when seg is a single Latin
// letter whose canonical decomposition is that letter and nonspacing
// marks ("é" → 'e', "ǖ" → 'u'). A base from a full decomposition has none
// of its own, so it is in NFC alone.
func foldLetter(seg string) (rune, bool) {
	r, size := utf8.DecodeRuneInString(seg)
	if size != len(seg) || !unicode.Is(unicode.Latin, r) {
		return 0, false
	}
	d := norm.NFD.PropertiesString(seg).Decomposition()
	if len(d) == 0 {
		return 0, false
	}
	base, size := utf8.DecodeRune(d)
	for i := size; i < len(d); {
		m, sz := utf8.DecodeRune(d[i:])
		if !unicode.Is(unicode.Mn, m) {
			return 0, false
		}
		i += sz
	}
	return base, true
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

// foldSegment appends to dst the decomposed segment s without the
// nonspacing marks that follow a Latin starter. It decides per starter, as
// [needsFold] does, because the iterator may hand over several starters in
// one segment ("Aﾬ" + U+08EC: the Arabic mark belongs to the Hangul letter
// and stays).
func foldSegment(dst, s []byte) []byte {
	latin := false // the last starter is a Latin letter
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRune(s[i:])
		switch {
		case i == 0 || norm.NFD.Properties(s[i:]).BoundaryBefore():
			latin = unicode.Is(unicode.Latin, r)
		case latin && unicode.Is(unicode.Mn, r):
			i += size
			continue
		}
		dst = append(dst, s[i:i+size]...)
		i += size
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
	if n.same[k-1] {
		return n.src[k-1] + off - n.out[k-1]
	}
	if end {
		return n.src[k]
	}
	return n.src[k-1]
}
