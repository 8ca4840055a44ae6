package align

import (
	"strings"
	"unicode/utf8"
)

// An Index maps byte offsets of one string to code-point offsets.
// Building it costs one pass over the string; lookups are O(log n).
type Index struct {
	text  string
	multi []int // byte offsets of multi-byte runes, ascending
	extra []int // extra[i] = extra bytes taken by multi[0..i]
}

// NewIndex builds an Index over text.
func NewIndex(text string) *Index {
	idx := &Index{text: text}
	total := 0
	for i := 0; i < len(text); {
		// Invalid bytes decode with size 1, so each counts as one code
		// point, as []rune(text) counts them.
		_, n := utf8.DecodeRuneInString(text[i:])
		if n > 1 {
			total += n - 1
			idx.multi = append(idx.multi, i)
			idx.extra = append(idx.extra, total)
		}
		i += n
	}
	return idx
}

// Runes returns the code-point offset of byte offset b. A b inside a
// multi-byte rune maps to that rune's index; b is clamped to [0, len(text)].
func (x *Index) Runes(b int) int {
	if b <= 0 {
		return 0
	}
	if b > len(x.text) {
		b = len(x.text)
	}
	// Count multi-byte runes that start strictly before b.
	lo, hi := 0, len(x.multi)
	for lo < hi {
		m := (lo + hi) / 2
		if x.multi[m] < b {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo == 0 {
		return b
	}
	// The rune at multi[lo-1] starts before b; if b falls inside it, count
	// only the bytes up to its start.
	start := x.multi[lo-1]
	_, size := utf8.DecodeRuneInString(x.text[start:])
	if b < start+size {
		prev := 0
		if lo >= 2 {
			prev = x.extra[lo-2]
		}
		return start - prev
	}
	return b - x.extra[lo-1]
}

// Bytes returns the byte offset of code-point offset r, clamped to the text.
func (x *Index) Bytes(r int) int {
	if r <= 0 {
		return 0
	}
	// Binary search over byte offsets: Runes is monotonic.
	lo, hi := 0, len(x.text)
	for lo < hi {
		m := (lo + hi) / 2
		if x.Runes(m) < r {
			lo = m + 1
		} else {
			hi = m
		}
	}
	// Step to a rune boundary.
	for lo < len(x.text) && !utf8.RuneStart(x.text[lo]) {
		lo++
	}
	return lo
}

// equivalents lists the characters a tokenizer may have written in place of
// the character in the text (prose straightens curly quotes).
var equivalents = map[rune]string{
	'"':  "\"\u201c\u201d\u201e\u201f\u00ab\u00bb",
	'\'': "'\u2018\u2019\u201a\u201b`",
}

// Find locates token in text at or after byte offset from, skipping only
// characters that cannot start the token, and allowing the quote
// substitutions tokenizers make. It returns the byte span of the match and
// whether one was found.
func Find(text, token string, from int) (start, end int, ok bool) {
	if token == "" || from < 0 || from > len(text) {
		return 0, 0, false
	}
	for i := from; i < len(text); {
		if e, ok := matchAt(text, token, i); ok {
			return i, e, true
		}
		_, size := utf8.DecodeRuneInString(text[i:])
		i += size
	}
	return 0, 0, false
}

// matchAt reports whether token matches text at byte offset i and where the
// match ends.
func matchAt(text, token string, i int) (int, bool) {
	j := i
	for _, want := range token {
		if j >= len(text) {
			return 0, false
		}
		got, size := utf8.DecodeRuneInString(text[j:])
		if got != want {
			eq, isQuote := equivalents[want]
			if !isQuote || !containsRune(eq, got) {
				return 0, false
			}
		}
		j += size
	}
	return j, true
}

func containsRune(s string, r rune) bool {
	for _, c := range s {
		if c == r {
			return true
		}
	}
	return false
}

// Valid returns text with every byte that is not part of valid UTF-8
// replaced by U+FFFD, one replacement per byte, which is how []rune(text)
// and so every code-point offset counts them. Valid text is returned as is.
func Valid(text string) string {
	if utf8.ValidString(text) {
		return text
	}
	var b strings.Builder
	b.Grow(len(text) + 8)
	for i := 0; i < len(text); {
		r, n := utf8.DecodeRuneInString(text[i:])
		if r == utf8.RuneError && n == 1 {
			b.WriteRune(utf8.RuneError)
		} else {
			b.WriteString(text[i : i+n])
		}
		i += n
	}
	return b.String()
}
