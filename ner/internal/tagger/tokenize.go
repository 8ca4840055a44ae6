package tagger

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// A Span is a token's byte offsets in the text, end exclusive.
type Span struct {
	Start, End int
}

// Tokenize splits text into Penn-Treebank-like tokens (the convention of the
// training data): punctuation is split off words, clitics ('s, n't, 're, ...)
// are separate tokens, abbreviations and initials keep their period, and
// numbers keep their inner commas, periods and slashes. An emoji sequence
// (with skin tones and zero-width joins) is a token of its own, and a change
// of script inside a word ends a token. It appends to dst and
// returns it. Offsets are bytes; text may hold invalid UTF-8.
func Tokenize(dst []Span, text string) []Span {
	i := 0
	for i < len(text) {
		// Skip white space.
		r, n := decode(text, i)
		if isSpace(r) {
			i += n
			continue
		}
		j := i + n
		for j < len(text) {
			r, n := decode(text, j)
			if isSpace(r) {
				break
			}
			j += n
		}
		last := onlySpaceAfter(text, j)
		if mixed(text, i, j) {
			splitMixed(text, i, j, func(a, b int) { dst = chunk(dst, text, a, b, last && b == j) })
		} else {
			dst = chunk(dst, text, i, j, last)
		}
		i = j
	}
	return dst
}

// mixed reports whether text[a:b] may hold an emoji or letters of two
// scripts: only when it is not all ASCII.
func mixed(text string, a, b int) bool {
	for i := a; i < b; i++ {
		if text[i] >= utf8.RuneSelf {
			return true
		}
	}
	return false
}

// onlySpaceAfter reports whether text[j:] is all white space.
func onlySpaceAfter(text string, j int) bool {
	for j < len(text) {
		r, n := decode(text, j)
		if !isSpace(r) {
			return false
		}
		j += n
	}
	return true
}

func decode(text string, i int) (rune, int) {
	c := text[i]
	if c < utf8.RuneSelf {
		return rune(c), 1
	}
	return utf8.DecodeRuneInString(text[i:])
}

func isSpace(r rune) bool {
	if r < utf8.RuneSelf {
		return r == ' ' || r == '\n' || r == '\t' || r == '\r' || r == '\f' || r == '\v'
	}
	return unicode.IsSpace(r) || r == '\u200b' || r == '\ufeff'
}

// isOpen reports whether r is split off the front of a chunk.
func isOpen(r rune) bool {
	switch r {
	case '(', '[', '{', '"', '\'', '`', '“', '‘', '«', '„', '‹', '$', '#', '<', '¿', '¡', '*', '£', '€', '¥':
		return true
	}
	return false
}

// isClose reports whether r is split off the end of a chunk.
func isClose(r rune) bool {
	switch r {
	case ')', ']', '}', '"', '\'', '`', '”', '’', '»', '›', ',', ';', ':', '!', '?', '%', '>', '*', '…':
		return true
	}
	return false
}

// isAlone reports whether r always stands alone (inside a chunk too).
func isAlone(r rune) bool {
	switch r {
	case '(', ')', '[', ']', '{', '}', '"', '“', '”', '«', '»', '…', ';', '!', '?', '—', '–':
		return true
	}
	return false
}

var clitics = []string{"n't", "n’t", "'s", "’s", "'re", "’re", "'ve", "’ve", "'ll", "’ll", "'d", "’d", "'m", "’m"}

// abbrevs are words that keep a final period.
var abbrevs = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`mr mrs ms dr jr sr st mt ft corp inc co ltd bros vs etc gov sen rep
		gen col lt sgt capt prof rev messrs jan feb mar apr jun jul aug sep sept oct nov dec ave blvd rd
		no nos calif mass conn fla ill pa va wash mich ariz colo ind minn mo nev okla ore tenn tex wis
		n.y ga ky la md miss neb wyo ala ark del kan mont vt dept univ assn est fig approx cf e.g i.e
		a.m p.m u.s u.k u.n plc p.o op ph.d mfg cos pty adm cmdr gens reps sens supt`) {
		m[w] = true
	}
	return m
}()

// chunk tokenizes the white-space-free text[a:b].
// At the end of the text (last), a final period is always split: there it
// ends the sentence as well as any abbreviation.
func chunk(dst []Span, text string, a, b int, last bool) []Span {
	// Leading openers; "``" stays one token.
	for a < b {
		if strings.HasPrefix(text[a:b], "``") {
			dst = append(dst, Span{a, a + 2})
			a += 2
			continue
		}
		r, n := decode(text, a)
		if !isOpen(r) || a+n == b && r != '$' {
			break
		}
		// An apostrophe that starts a clitic or a year ('90s) stays.
		if (r == '\'' || r == '’') && a+n < b {
			rest := strings.ToLower(text[a:b])
			if rest == "'s" || rest == "’s" || rest == "'re" || rest == "'ve" || rest == "'ll" || rest == "'d" || rest == "'m" ||
				(a+n < b && text[a+n] >= '0' && text[a+n] <= '9') {
				break
			}
		}
		dst = append(dst, Span{a, a + n})
		a += n
	}
	if a >= b {
		return dst
	}
	// Trailing closers, collected in reverse.
	var tail [16]Span
	nt := 0
	for a < b && nt < len(tail)-1 {
		if strings.HasSuffix(text[a:b], "''") && b-2 > a {
			tail[nt] = Span{b - 2, b}
			nt++
			b -= 2
			continue
		}
		r, n := utf8.DecodeLastRuneInString(text[a:b])
		if r == '.' {
			if strings.HasSuffix(text[a:b], "...") && b-3 >= a {
				if b-3 == a {
					break
				}
				tail[nt] = Span{b - 3, b}
				nt++
				b -= 3
				continue
			}
			if b-1 == a || keepPeriod(text[a:b-1]) && !(last && nt == 0) {
				break
			}
			tail[nt] = Span{b - 1, b}
			nt++
			b--
			continue
		}
		if !isClose(r) || b-n == a {
			// Clitics.
			if c := clitic(text[a:b]); c > 0 && b-c > a {
				tail[nt] = Span{b - c, b}
				nt++
				b -= c
				continue
			}
			break
		}
		tail[nt] = Span{b - n, b}
		nt++
		b -= n
	}
	dst = middle(dst, text, a, b)
	for k := nt - 1; k >= 0; k-- {
		dst = append(dst, tail[k])
	}
	return dst
}

// middle splits text[a:b] at characters that always stand alone, at
// hyphens and at "--"; everything else stays one token.
func middle(dst []Span, text string, a, b int) []Span {
	s := a
	for i := a; i < b; {
		if text[i] == '-' && i+1 < b && text[i+1] == '-' {
			if i > s {
				dst = append(dst, Span{s, i})
			}
			e := i + 2
			for e < b && text[e] == '-' {
				e++
			}
			dst = append(dst, Span{i, e})
			s, i = e, e
			continue
		}
		r, n := decode(text, i)
		if isAlone(r) || r == '-' && i > s && i+1 < b {
			if i > s {
				dst = append(dst, Span{s, i})
			}
			dst = append(dst, Span{i, i + n})
			s = i + n
		}
		i += n
	}
	if b > s {
		dst = append(dst, Span{s, b})
	}
	return dst
}

func clitic(w string) int {
	for _, c := range clitics {
		if len(w) > len(c) && strings.EqualFold(w[len(w)-len(c):], c) {
			return len(c)
		}
	}
	return 0
}

// keepPeriod reports whether the word w (without its final period) keeps
// the period: initials (J, U.S), known abbreviations and dotted forms.
func keepPeriod(w string) bool {
	if w == "" || strings.HasSuffix(w, ".") {
		return false
	}
	if strings.IndexByte(w, '.') >= 0 {
		// U.S, p.m, Ph.D: letters separated by periods.
		ok := true
		for _, r := range w {
			if r != '.' && !unicode.IsLetter(r) {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	r, n := utf8.DecodeRuneInString(w)
	if n == len(w) && unicode.IsLetter(r) {
		return true
	}
	if len(w) > 8 {
		return false
	}
	return abbrevs[strings.ToLower(w)]
}
