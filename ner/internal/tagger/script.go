package tagger

import (
	"unicode"
	"unicode/utf8"
)

// A Script groups letters for token boundaries: a change of script inside a
// run of letters ("Obamaבירושלים") starts a new token, as does the start or
// end of an emoji. Han, Hiragana and Katakana are one script here, since
// Japanese mixes them within a word.
type Script uint8

// The scripts told apart. NoScript is for runes that are not letters
// (digits, marks, punctuation), which never start a new token by script.
const (
	NoScript Script = iota
	Latin
	Greek
	Cyrillic
	Armenian
	Hebrew
	Arabic
	Devanagari
	Thai
	CJK
	Hangul
	OtherScript
)

var scriptTables = []struct {
	s Script
	t *unicode.RangeTable
}{
	{Latin, unicode.Latin}, {Greek, unicode.Greek}, {Cyrillic, unicode.Cyrillic},
	{Armenian, unicode.Armenian}, {Hebrew, unicode.Hebrew}, {Arabic, unicode.Arabic},
	{Devanagari, unicode.Devanagari}, {Thai, unicode.Thai}, {CJK, unicode.Han},
	{CJK, unicode.Hiragana}, {CJK, unicode.Katakana}, {Hangul, unicode.Hangul},
}

// ScriptOf returns the script of a letter, or NoScript for anything else.
func ScriptOf(r rune) Script {
	if r < utf8.RuneSelf {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
			return Latin
		}
		return NoScript
	}
	if !unicode.IsLetter(r) || unicode.Is(unicode.Lm, r) {
		// Modifier letters (ー, ʼ) are shared by scripts.
		return NoScript
	}
	for _, st := range scriptTables {
		if unicode.Is(st.t, r) {
			return st.s
		}
	}
	return OtherScript
}

// IsPictograph reports whether r starts an emoji or pictographic symbol.
func IsPictograph(r rune) bool {
	switch {
	case r < 0x2000, r == utf8.RuneError, r == 0xFFFC:
		return false
	case r >= 0x1F000 && r <= 0x1FAFF, // emoji, pictographs, flags' regional indicators
		r >= 0x2600 && r <= 0x27BF, // miscellaneous symbols, dingbats
		r >= 0x2B00 && r <= 0x2BFF, // arrows, stars
		r >= 0x2190 && r <= 0x21FF, // arrows
		r >= 0x2300 && r <= 0x23FF: // technical (⌚, ⏰)
		return true
	}
	return unicode.Is(unicode.So, r)
}

// isEmojiJoiner reports whether r continues the emoji before it: skin-tone
// modifiers, variation selectors, the zero-width joiner, the keycap mark
// and tag characters.
func isEmojiJoiner(r rune) bool {
	return r >= 0x1F3FB && r <= 0x1F3FF || r == 0xFE0F || r == 0xFE0E || r == 0x200D || r == 0x20E3 ||
		r >= 0xE0020 && r <= 0xE007F
}

// splitMixed calls emit for each part of the white-space-free text[a:b]
// between the boundaries a change of kind makes: an emoji sequence (with
// its modifiers and zero-width joins) is a part of its own, and a letter
// of another script than the letters before it starts a new part.
func splitMixed(text string, a, b int, emit func(a, b int)) {
	start := a
	inEmoji := false
	var script Script
	for i := a; i < b; {
		r, n := decode(text, i)
		switch {
		case inEmoji && (isEmojiJoiner(r) || IsPictograph(r) && prevIsZWJ(text, a, i) || isRegionalPair(text, start, i, r)):
			// The same emoji sequence.
		case !inEmoji && (r == 0xFE0F || r == 0x20E3) && i > a && isKeycapBase(text[i-1]):
			// A keycap (1️⃣) begins at the digit before.
			if i-1 > start {
				emit(start, i-1)
			}
			start, inEmoji, script = i-1, true, NoScript
		case IsPictograph(r):
			if i > start {
				emit(start, i)
			}
			start, inEmoji, script = i, true, NoScript
		default:
			s := ScriptOf(r)
			if inEmoji || s != NoScript && script != NoScript && s != script {
				if i > start {
					emit(start, i)
				}
				start, inEmoji, script = i, false, NoScript
			}
			if s != NoScript {
				script = s
			}
		}
		i += n
	}
	if b > start {
		emit(start, b)
	}
}

// isRegionalPair reports whether r is the second regional indicator of a
// flag whose first is the only rune of text[start:i].
func isRegionalPair(text string, start, i int, r rune) bool {
	if !isRegional(r) {
		return false
	}
	first, n := utf8.DecodeRuneInString(text[start:i])
	return start+n == i && isRegional(first)
}

func isKeycapBase(c byte) bool { return c >= '0' && c <= '9' || c == '#' || c == '*' }

func isRegional(r rune) bool { return r >= 0x1F1E6 && r <= 0x1F1FF }

// prevIsZWJ reports whether the rune before text[i] (not before a) is a
// zero-width joiner.
func prevIsZWJ(text string, a, i int) bool {
	if i-a < 3 {
		return false
	}
	r, _ := utf8.DecodeLastRuneInString(text[a:i])
	return r == 0x200D
}

// hasCase reports whether letters of s are written in upper and lower
// case (Latin, Greek, Cyrillic, Armenian).
func (s Script) hasCase() bool {
	return s == Latin || s == Greek || s == Cyrillic || s == Armenian
}

// HasCaseless reports whether s holds a letter of a script without case,
// the words [KeepCased] leaves out.
func HasCaseless(s string) bool {
	for _, r := range s {
		if sc := ScriptOf(r); sc != NoScript && !sc.hasCase() {
			return true
		}
	}
	return false
}

// KeepCased keeps, in place, the tokens toks of text that the models can
// read: those without letters (numbers, punctuation, emoji) and those in
// a script with capitals. A word in a script without case (Hebrew,
// Arabic, Han, …) is one the English training data never had; beside a
// name, it took the place of the words that tell what the name is
// ("Barack Obama בירושלים spoke" read as an organisation), so the tagger
// reads the sentence without it. Such a word is never an entity.
func KeepCased(toks []Span, text string) []Span {
	out := toks[:0]
	for _, t := range toks {
		// a token keeps to one script: it has a caseless letter or none
		if !HasCaseless(text[t.Start:t.End]) {
			out = append(out, t)
		}
	}
	return out
}
