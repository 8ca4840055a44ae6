package tagger

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// SentenceEnd returns the index after the last token of the sentence that
// starts at token i. A sentence ends after . ! ? or ... (and any closing
// quotes or brackets after them) when the next token starts with a capital
// letter, a digit or an opening quote, or at a line break; a blank line
// always ends one.
func SentenceEnd(text string, toks []Span, i int) int {
	for j := i; j < len(toks); j++ {
		if j+1 == len(toks) {
			return len(toks)
		}
		gap := text[toks[j].End:toks[j+1].Start]
		if strings.Count(gap, "\n") >= 2 {
			return j + 1
		}
		w := text[toks[j].Start:toks[j].End]
		if w != "." && w != "!" && w != "?" && w != "..." && w != "…" {
			continue
		}
		// Closing quotes and brackets stay with the sentence.
		k := j + 1
		for k < len(toks) && k-j <= 2 && isCloser(text[toks[k].Start:toks[k].End]) && toks[k].Start == toks[k-1].End {
			k++
		}
		if k == len(toks) {
			return k
		}
		gap = text[toks[k-1].End:toks[k].Start]
		if gap == "" {
			continue
		}
		if strings.Contains(gap, "\n") {
			return k
		}
		r, _ := utf8.DecodeRuneInString(text[toks[k].Start:])
		if unicode.IsUpper(r) || unicode.IsDigit(r) || strings.ContainsRune("\"“‘'`([", r) {
			return k
		}
	}
	return len(toks)
}

func isCloser(w string) bool {
	switch w {
	case "\"", "”", "’", "'", "''", ")", "]", "»":
		return true
	}
	return false
}
