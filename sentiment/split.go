package sentiment

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// span is one sentence of a text: byte offsets for slicing and code point
// offsets for the API, end exclusive, surrounding whitespace excluded.
type span struct {
	start, end   int // bytes
	rstart, rend int // code points
}

// abbreviations end with a period that does not end a sentence.
var abbreviations = map[string]bool{
	"mr": true, "mrs": true, "ms": true, "dr": true, "prof": true, "sr": true, "jr": true,
	"st": true, "vs": true, "inc": true, "ltd": true, "co": true, "corp": true, "mt": true,
	"vol": true, "fig": true, "approx": true, "dept": true, "gen": true, "gov": true,
	"lt": true, "col": true, "sgt": true, "capt": true, "rev": true, "ave": true, "blvd": true,
	"jan": true, "feb": true, "mar": true, "apr": true, "jun": true, "jul": true, "aug": true,
	"sep": true, "sept": true, "oct": true, "nov": true, "dec": true,
}

func isTerminal(r rune) bool { return r == '.' || r == '!' || r == '?' || r == '…' }

func isCloser(r rune) bool {
	switch r {
	case '"', '\'', ')', ']', '}', '”', '’', '»', '*':
		return true
	}
	return false
}

func isLineBreak(r rune) bool {
	return r == '\n' || r == '\r' || r == '\u2028' || r == '\u2029' || r == '\u0085'
}

// wrapWidth is the line length from which a line that ends without
// punctuation is taken for hard-wrapped prose rather than a line of its own
// (a title, a list item, one line of a tweet).
const wrapWidth = 50

// softBreak reports whether the line break at i, ending the line that
// starts at lineStart, only wraps a sentence: it is a single break (no
// blank line follows), and either the line is long or the next line goes
// on in lower case.
func softBreak(text string, lineStart, i int) bool {
	j := i
	if text[j] == '\r' && j+1 < len(text) && text[j+1] == '\n' {
		j++
	}
	_, size := utf8.DecodeRuneInString(text[j:])
	j += size
	for j < len(text) && (text[j] == ' ' || text[j] == '\t') {
		j++
	}
	if j >= len(text) {
		return false
	}
	next, _ := utf8.DecodeRuneInString(text[j:])
	if isLineBreak(next) {
		return false
	}
	return utf8.RuneCountInString(text[lineStart:i]) >= wrapWidth || unicode.IsLower(next)
}

// splitSentences splits text into sentences. A sentence ends at a line
// break that does not just wrap a line (see softBreak), or after a run of terminal punctuation (. ! ? …, with closing
// quotes or brackets) that whitespace follows, except when the run is periods
// only and either ends a known abbreviation or an initial, or the next word
// starts in lower case.
func splitSentences(text string) []span {
	return appendSentences(nil, text)
}

// appendSentences appends the sentences of text (see [splitSentences]) to
// out.
func appendSentences(out []span, text string) []span {
	segStart := 0
	// (cb, cr) is a cursor converting byte offsets to code point offsets;
	// offsets only grow.
	cb, cr := 0, 0
	runeAt := func(b int) int {
		cr += utf8.RuneCountInString(text[cb:b])
		cb = b
		return cr
	}
	emit := func(end int) {
		s, e := segStart, end
		for s < e {
			r, n := utf8.DecodeRuneInString(text[s:e])
			if !isPySpace(r) {
				break
			}
			s += n
		}
		for e > s {
			r, n := utf8.DecodeLastRuneInString(text[s:e])
			if !isPySpace(r) {
				break
			}
			e -= n
		}
		if s < e {
			rs := runeAt(s)
			out = append(out, span{start: s, end: e, rstart: rs, rend: runeAt(e)})
		}
		segStart = end
	}
	lineStart := 0
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		switch {
		case isLineBreak(r):
			if softBreak(text, lineStart, i) {
				// A hard-wrapped line goes on in the next one.
				i += size
				lineStart = i
				continue
			}
			emit(i)
			i += size
			segStart = i
			lineStart = i
			continue
		case isTerminal(r):
			j := i
			dots := 0
			onlyDots := true
			for j < len(text) {
				r2, s2 := utf8.DecodeRuneInString(text[j:])
				if isTerminal(r2) {
					if r2 == '.' {
						dots++
					} else {
						onlyDots = false
					}
				} else if !isCloser(r2) {
					break
				}
				j += s2
			}
			if j < len(text) {
				r2, _ := utf8.DecodeRuneInString(text[j:])
				if !isPySpace(r2) {
					i = j
					continue
				}
				if onlyDots && ((dots == 1 && endsAbbreviation(text[segStart:i])) || nextIsLower(text[j:])) {
					i = j
					continue
				}
			}
			emit(j)
			i = j
			continue
		}
		i += size
	}
	emit(len(text))
	return out
}

// endsAbbreviation reports whether the last word of s (which a period
// follows) is an abbreviation, an initial or a dotted acronym like "e.g".
func endsAbbreviation(s string) bool {
	k := strings.LastIndexFunc(s, isPySpace)
	w := strings.TrimLeft(s[k+1:], "([{\"'“‘")
	if w == "" {
		return false
	}
	if utf8.RuneCountInString(w) == 1 {
		r, _ := utf8.DecodeRuneInString(w)
		return unicode.IsLetter(r)
	}
	if strings.Contains(w, ".") {
		return true
	}
	return abbreviations[strings.ToLower(w)]
}

// nextIsLower reports whether the first non-space character of s is a
// lower-case letter.
func nextIsLower(s string) bool {
	for _, r := range s {
		if isPySpace(r) {
			continue
		}
		return unicode.IsLower(r)
	}
	return false
}
