package ner

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/textanalysis/go-textanalysis/ner/internal/tagger"
)

// bounds corrects the token range [s, e) of an entity the model found in
// toks, by classes of boundary the model gets wrong, and reports whether
// anything is left:
//   - an entity stays in one script and never takes in an emoji: it ends
//     at the first token of another script or a pictograph;
//   - punctuation and symbols at either edge are not part of it, except a
//     currency sign of MONEY, the % of PERCENT and a closing bracket whose
//     opener is inside;
//   - MONEY takes in a currency sign just before it ($172.50) and PERCENT
//     a % just after it (3.2 %), when the model left them out.
func bounds(text string, toks []tagger.Span, s, e int, label Label) (int, int, bool) {
	word := func(k int) string { return text[toks[k].Start:toks[k].End] }
	// One script, no emoji: an emoji token before the entity's first
	// word is dropped, one after it ends the entity.
	for s < e && isEmojiToken(word(s)) {
		s++
	}
	script := tagger.NoScript
	for k := s; k < e; k++ {
		w := word(k)
		if k > s && isEmojiToken(w) {
			e = k
			break
		}
		if sc := scriptOfWord(w); sc != tagger.NoScript {
			if script != tagger.NoScript && sc != script {
				e = k
				break
			}
			script = sc
		}
	}
	// Edges.
	for s < e && !hasWordRune(word(s)) && !(label == Money && isCurrency(word(s))) && !paired(text, toks, s, e, s) {
		s++
	}
	for e > s && !hasWordRune(word(e-1)) && !(label == Percent && word(e-1) == "%") && !paired(text, toks, s, e, e-1) {
		e--
	}
	if s >= e {
		return s, e, false
	}
	// Currency and percent signs the model left out.
	if label == Money && s > 0 && isCurrency(word(s-1)) && near(text, toks[s-1], toks[s]) && hasDigit(word(s)) {
		s--
	}
	if label == Percent && e < len(toks) && (word(e) == "%" || word(e) == "％") && near(text, toks[e-1], toks[e]) && hasDigit(word(e-1)) {
		e++
	}
	return s, e, true
}

// near reports whether two tokens are adjacent or one space apart.
func near(text string, a, b tagger.Span) bool {
	gap := text[a.End:b.Start]
	return gap == "" || gap == " " || gap == "\u00a0"
}

// pairs are the brackets and quotes an entity keeps at its edge when their
// partner is inside it: "{Ethel} Klein", "the “USS Cole”".
var pairs = map[string]string{
	"(": ")", "[": "]", "{": "}", "``": "''", "“": "”", "‘": "’", "«": "»", "‹": "›", `"`: `"`, "'": "'", "`": "'",
}

// paired reports whether token k, at an edge of [s, e), is a bracket or
// quote whose partner is inside [s, e).
func paired(text string, toks []tagger.Span, s, e, k int) bool {
	w := text[toks[k].Start:toks[k].End]
	for open, closer := range pairs {
		var want string
		var from, to int
		switch {
		case k == s && w == open:
			want, from, to = closer, s+1, e
		case k == e-1 && w == closer:
			want, from, to = open, s, e-1
		default:
			continue
		}
		for j := from; j < to; j++ {
			if text[toks[j].Start:toks[j].End] == want {
				return true
			}
		}
	}
	return false
}

// hasWordRune reports whether w holds a letter or a digit.
func hasWordRune(w string) bool {
	for _, r := range w {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return true
		}
	}
	return false
}

func hasDigit(w string) bool {
	for _, r := range w {
		if unicode.IsDigit(r) {
			return true
		}
	}
	return false
}

// isCurrency reports whether w is a currency sign, alone or after a
// country's letters (US$, C$, HK$).
func isCurrency(w string) bool {
	r, n := utf8.DecodeLastRuneInString(w)
	if n == 0 || !unicode.Is(unicode.Sc, r) {
		return false
	}
	for _, c := range w[:len(w)-n] {
		if !unicode.IsUpper(c) {
			return false
		}
	}
	return len(w)-n <= 3
}

// isEmojiToken reports whether the token w is (or holds) an emoji: a
// pictograph, or a keycap or emoji-presentation sequence ("1️⃣", "1️‍👩"
// starts with a digit).
func isEmojiToken(w string) bool {
	for _, r := range w {
		if tagger.IsPictograph(r) || r == 0x20E3 || r == 0xFE0F {
			return true
		}
	}
	return false
}

// scriptOfWord is the script of the first letter of w.
func scriptOfWord(w string) tagger.Script {
	for _, r := range w {
		if s := tagger.ScriptOf(r); s != tagger.NoScript {
			return s
		}
	}
	return tagger.NoScript
}

// personTitles are words that stand before a person's name as a title or
// an office ("Vice Premier He Lifeng", "Coach Will Wade"), in lower case.
var personTitles = wordSet(`mr mr. mrs mrs. ms ms. dr dr. prof prof. professor sir dame lord lady
	president premier minister chancellor secretary governor gov. senator sen. rep. representative
	mayor ambassador commissioner spokesman spokeswoman spokesperson chairman chairwoman chair ceo director
	judge justice king queen prince princess emperor general gen. colonel col. captain capt. lieutenant lt.
	sergeant sgt. admiral coach pope cardinal bishop archbishop rabbi imam sheikh father deputy vice leader`)

// functionWords are English words of closed classes (pronouns,
// determiners, prepositions, conjunctions, modals and auxiliaries), in
// lower case: inside a sentence one of them is capitalised only in a name
// ("He Lifeng", "To Lam", "Will Wade").
var functionWords = wordSet(`he she it we they you i me him her his its our their them us my your
	a an the this that these those to of in on at by for with from as into onto upon
	and or but nor so yet if do does did will would can could may might must shall should
	not no all any some each every who whom what when where why how up down out over under off
	be is are was were am been has have had`)

// wordSet is the set of the space-separated words of s.
func wordSet(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// titledName returns where a PERSON entity starting at token s begins
// when a title stands before it with a capitalised function word in
// between ("Vice Premier [He] Lifeng", "Coach [Will] Wade"): inside a
// sentence such a capital marks a name, and after a title the name
// starts there. The model learned few such names (the OntoNotes training
// data holds one) and reads "He" as the pronoun whenever the words around
// the name say little. A title after a title is not such a word ("Vice
// Commander Peng Dehuai", "General Counsel Matthew Mayer"). sentStart is
// the sentence's first token.
func titledName(text string, toks []tagger.Span, sentStart, s int) int {
	if s-2 < sentStart {
		return s
	}
	word := func(k int) string { return text[toks[k].Start:toks[k].End] }
	w := word(s - 1)
	r, size := utf8.DecodeRuneInString(w)
	if !unicode.IsUpper(r) || w == "I" || !near(text, toks[s-2], toks[s-1]) || !near(text, toks[s-1], toks[s]) {
		return s
	}
	for _, c := range w[size:] {
		if !unicode.IsLower(c) {
			return s // "USA", "HE": a word in capitals says nothing
		}
	}
	if !functionWords[strings.ToLower(w)] || !personTitles[strings.ToLower(word(s-2))] {
		return s
	}
	return s - 1
}
