package lr

import (
	"html"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// NumDense is the number of dense (VADER) features of [Dense].
const NumDense = 8

// Vader is what the VADER model says about a text: the whole-text scores
// and the mean compound of its sentences.
type Vader struct {
	Compound, Pos, Neu, Neg float64
	MeanSentence            float64
}

// VaderOf returns the VADER features the hybrid model reads for a text
// (VADER with the hybrid's lexicon, see package sentiment). Package
// sentiment sets it; the training program featurises with it.
var VaderOf func(text string) Vader

// Dense turns VADER's scores and the token count into the dense features.
func Dense(v Vader, tokens int) [NumDense]float64 {
	return [NumDense]float64{
		v.Compound, v.MeanSentence, v.Pos, v.Neg, v.Neu,
		math.Abs(v.Compound), math.Abs(v.MeanSentence), math.Log1p(float64(tokens)) / 5,
	}
}

// Tokens appends the normalised tokens of text to dst: lower case words
// (apostrophes kept, "n't" split off as "not", letters repeated three times
// or more squeezed to two), "@user" for mentions, "<url>" for links,
// "0" for numbers, and "!", "?" and symbol characters (emoji) as tokens of
// their own. A "." stands for any clause boundary (. , ; : and line breaks).
// A word of the word classes (see [SetWordClass]) becomes its class token.
func Tokens(dst []string, text string) []string {
	if strings.Contains(text, `\u`) {
		text = unescapeU(text)
	}
	if strings.IndexByte(text, '&') >= 0 && strings.IndexByte(text, ';') >= 0 {
		// tweets as some APIs and corpora give them: "&lt;3", "&amp;"
		text = html.UnescapeString(text)
	}
	i := 0
	for i < len(text) {
		r, size := utf8.DecodeRuneInString(text[i:])
		switch {
		case r == '@' || r == '#':
			j := i + size
			for j < len(text) {
				r2, s2 := utf8.DecodeRuneInString(text[j:])
				if !isWordRune(r2) || r2 == '\'' {
					break
				}
				j += s2
			}
			if r == '@' && j > i+size {
				dst = append(dst, "@user")
				i = j
				continue
			}
			i += size
		case isWordRune(r) && r != '\'':
			j := i + size
			ascii := r < utf8.RuneSelf
			for j < len(text) {
				if c := text[j]; c < utf8.RuneSelf {
					if !asciiWord[c] {
						break
					}
					j++
					continue
				}
				r2, s2 := utf8.DecodeRuneInString(text[j:])
				if !isWordRune(r2) {
					break
				}
				ascii = false
				j += s2
			}
			w := text[i:j]
			if (strings.HasPrefix(w, "http") || strings.HasPrefix(w, "www")) && j < len(text) && (text[j] == ':' || text[j] == '.') {
				// a link: skip to the next space
				for j < len(text) && !unicode.IsSpace(rune(text[j])) {
					j++
				}
				dst = append(dst, "<url>")
				i = j
				continue
			}
			if ascii {
				// no "’" to replace, and only ASCII to lower
				if lw := asciiLower(w); isLaughFace(lw) {
					dst = append(dst, ":D")
				} else {
					dst = appendLowerWord(dst, lw)
				}
			} else {
				dst = appendWord(dst, w)
			}
			i = j
		case (r == ':' || r == ';' || r == '=' || r == '<' || r == '(') && emoticonLen(text[i:]) > 0:
			n := emoticonLen(text[i:])
			dst = append(dst, canonicalEmoticon(text[i:i+n]))
			i += n
		case r == '!' || r == '?':
			dst = append(dst, text[i:i+size])
			i += size
		case r == '.' || r == ',' || r == ';' || r == ':' || r == '\n' || r == '…':
			if len(dst) > 0 && dst[len(dst)-1] != "." {
				dst = append(dst, ".")
			}
			i += size
		case unicode.IsSymbol(r) && r >= 0x2000:
			if IsEmojiModifier(r) {
				// a skin tone: how the emoji before it is drawn
				i += size
				continue
			}
			dst = append(dst, text[i:i+size])
			if name := emojiNames[r]; name != "" {
				dst = appendEmojiName(dst, name)
			}
			i += size
		default:
			i += size
		}
	}
	return dst
}

// asciiWord tells the ASCII bytes of [isWordRune].
var asciiWord = func() (t [utf8.RuneSelf]bool) {
	for c := range utf8.RuneSelf {
		t[c] = isWordRune(rune(c))
	}
	return t
}()

// asciiLower is text with its ASCII capitals in lower case, all other
// bytes as they are: text itself, without allocating, when it has none.
func asciiLower(text string) string {
	k := 0
	for k < len(text) && (text[k] < 'A' || text[k] > 'Z') {
		k++
	}
	if k == len(text) {
		return text
	}
	var b strings.Builder
	b.Grow(len(text))
	b.WriteString(text[:k])
	for _, c := range []byte(text[k:]) {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		b.WriteByte(c)
	}
	return b.String()
}

func isWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || r == '\'' || r == '_'
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '\'' || r == '’' || r == '_'
}

// appendWord normalises one word and appends it (and "not" for n't).
func appendWord(dst []string, w string) []string {
	return appendLowerWord(dst, strings.ToLower(strings.ReplaceAll(w, "’", "'")))
}

// appendLowerWord is [appendWord] for a word already lower-cased, with
// "’" already "'".
func appendLowerWord(dst []string, w string) []string {
	w = strings.Trim(w, "'")
	if w == "" {
		return dst
	}
	if w == "n't" {
		return append(dst, "not")
	}
	if strings.HasSuffix(w, "n't") {
		stem := w[:len(w)-3]
		switch stem {
		case "ca":
			stem = "can"
		case "wo":
			stem = "will"
		case "ai":
			stem = "is"
		}
		if stem != "" {
			dst = append(dst, squeeze(stem))
		}
		return append(dst, "not")
	}
	if w[0] >= '0' && w[0] <= '9' {
		if _, err := strconv.ParseFloat(strings.ReplaceAll(w, ",", ""), 64); err == nil {
			return append(dst, "0")
		}
	}
	w = squeeze(w)
	if spelling != nil {
		if c, ok := spelling(w); ok {
			w = c
		}
	}
	if wordClassFilter.has(w) {
		if c, ok := wordClass[w]; ok {
			w = c
		}
	}
	return append(dst, w)
}

// wordClass maps words to the token that stands for their class in
// [Tokens] (see [SetWordClass]); wordClassFilter holds its keys, so that
// most words need no map lookup.
var (
	wordClass       map[string]string
	wordClassFilter wordFilter
)

// emojiNames maps an emoji to its description ("👍" → "thumbs up"); see
// [SetEmojiNames].
var emojiNames map[rune]string

// SetEmojiNames sets the descriptions [Tokens] reads an emoji by: after the
// emoji's own token come the description's words, so that the word model,
// which learned from texts without emoji, reads "👍" as "thumbs up" and
// "❤️" as "red heart", as VADER does. Package sentiment sets VADER's
// emoji descriptions in its initialisation. It is not safe to call while
// texts are tokenised.
func SetEmojiNames(names map[rune]string) { emojiNames = names }

// IsEmojiModifier reports whether r changes how the emoji before it is
// drawn, not what it means: a variation selector ("❤️" is U+2764 U+FE0F), a
// skin tone, or a zero-width joiner between the emoji of a sequence.
func IsEmojiModifier(r rune) bool {
	return r == 0xfe0e || r == 0xfe0f || r == 0x200d || 0x1f3fb <= r && r <= 0x1f3ff
}

// appendEmojiName appends the words of an emoji's description.
func appendEmojiName(dst []string, name string) []string {
	for _, w := range strings.FieldsFunc(name, func(r rune) bool { return !isWordRune(r) || r == '\'' }) {
		dst = appendWord(dst, w)
	}
	return dst
}

// spelling is the correction [SetSpelling] set, or nil.
var spelling func(w string) (string, bool)

// SetSpelling sets how [Tokens] reads a misspelt word: correct returns the
// word w misspells, if any ("dissapointing" → "disappointing"), so that the
// word model reads it as the word it learned. Package sentiment sets its
// speller of the lexicon's words in its initialisation, and its hybrid's
// VADER scores read misspelt words only while one is set ([Spelling]); the
// training program sets nil, so that the model learns from the words as
// written. It is not safe to call while texts are tokenised.
func SetSpelling(correct func(w string) (string, bool)) { spelling = correct }

// Spelling reports whether misspelt words are read as the words they
// misspell (see [SetSpelling]).
func Spelling() bool { return spelling != nil }

// SetWordClass sets the words that [Tokens] replaces by the token of their
// class (package sentiment sets them, in its initialisation, before any
// text is scored, to "lex:neg" or "lex:pos" for its domain supplement:
// words the training data teaches too seldom or wrongly, so the word
// model learns their class from all of them together, and VADER's lexicon
// rates each one). It is not safe to call while texts are tokenised.
func SetWordClass(classes map[string]string) {
	wordClass = classes
	wordClassFilter = wordFilter{}
	for w := range classes {
		if w != "" {
			wordClassFilter.add(w)
		}
	}
}

// wordFilter is a set of words that may give false positives (a Bloom
// filter with one hash): a word's length and first and last bytes pick
// one of 4096 bits.
type wordFilter [64]uint64

func filterBit(w string) uint32 {
	return (uint32(len(w))*0x9e3779b1 ^ uint32(w[0])*0x85ebca6b ^ uint32(w[len(w)-1])*0xc2b2ae35) >> 20
}

func (f *wordFilter) add(w string) {
	b := filterBit(w)
	f[b/64] |= 1 << (b % 64)
}

// has reports whether w, not empty, may be in the set.
func (f *wordFilter) has(w string) bool {
	b := filterBit(w)
	return f[b/64]&(1<<(b%64)) != 0
}

// squeeze shortens runs of three or more equal letters to two.
func squeeze(w string) string {
	ascii := true
	for i := 0; i < len(w); i++ {
		if w[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		need := false
		for i := 2; i < len(w); i++ {
			if w[i] == w[i-1] && w[i] == w[i-2] {
				need = true
				break
			}
		}
		if !need {
			return w
		}
	}
	run, last := 0, rune(-1)
	need := false
	for _, r := range w {
		if r == last {
			run++
			if run >= 3 {
				need = true
				break
			}
		} else {
			run, last = 1, r
		}
	}
	if !need {
		return w
	}
	var b strings.Builder
	run, last = 0, -1
	for _, r := range w {
		if r == last {
			run++
		} else {
			run, last = 1, r
		}
		if run <= 2 {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// unescapeU decodes literal \uXXXX escapes (as some tweet corpora keep them).
func unescapeU(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+6 <= len(s) && s[i+1] == 'u' {
			if n, err := strconv.ParseUint(s[i+2:i+6], 16, 32); err == nil {
				b.WriteRune(rune(n))
				i += 5
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

const (
	fnvOffset = 2166136261
	fnvPrime  = 16777619
)

func hashString(h uint32, s string) uint32 {
	for i := 0; i < len(s); i++ {
		h ^= uint32(s[i])
		h *= fnvPrime
	}
	return h
}

// Hashes appends the feature hashes of toks to dst: every word, marked when
// it lies in a negation scope (after a negator up to the next clause
// boundary), and every pair of adjacent words within a clause.
//
// Each feature appears once (presence, not counts), sorted, so that
// repeating a text does not change its features.
func Hashes(dst []uint32, toks []string) []uint32 {
	var buf [64]uint32
	return featureHashes(dst, toks, wordHashes(buf[:0], toks), nil, 0)
}

// wordHashes appends the hash of each token of toks to dst, marked when
// the token lies in a negation scope; a "." gets 0 (it is never a feature).
func wordHashes(dst []uint32, toks []string) []uint32 {
	neg := false
	for i, t := range toks {
		if t == "." {
			neg = false
			dst = append(dst, 0)
			continue
		}
		idiom := isNegator(t) && notNegating(toks, i)
		var h uint32
		if idiom {
			// the negator of "can't … enough" is no negation: it gets
			// a word of its own, so that it does not weigh as "not"
			h = hashString(fnvOffset, "<not-negating>")
		} else {
			h = hashString(fnvOffset, t)
		}
		if neg || counterfactual(toks, i) {
			h = h*fnvPrime ^ 0x9e3779b9
		}
		dst = append(dst, h)
		switch {
		case isNegator(t):
			neg = !idiom
		case t == "but" || t == "!" || t == "?":
			neg = false
		}
	}
	return dst
}

// counterfactual reports whether toks[i] is a comparative that a modal
// makes a wish ("could be better", "should have been much better", "might
// be worse"): it is read as negated, as "not good enough" would be.
// "couldn't have been better" is not one (its negator comes first).
func counterfactual(toks []string, i int) bool {
	if t := toks[i]; t != "better" && t != "worse" {
		return false
	}
	j := i - 1
	for j >= 0 && intensifier[toks[j]] {
		j--
	}
	switch {
	case j >= 1 && toks[j] == "be":
		return modal[toks[j-1]]
	case j >= 2 && toks[j] == "been" && toks[j-1] == "have":
		return modal[toks[j-2]]
	}
	return false
}

// Counterfactual is [counterfactual] for the last of words, lower case
// (the hybrid's VADER scores read it too).
func Counterfactual(words []string) bool {
	return len(words) > 0 && counterfactual(words, len(words)-1)
}

var (
	modal       = map[string]bool{"could": true, "should": true, "would": true, "might": true}
	intensifier = map[string]bool{"much": true, "so": true, "way": true, "far": true, "a": true, "lot": true, "little": true, "bit": true, "even": true, "lots": true}
)

// featureHashes appends the features of toks, whose word hashes are wh
// (see [wordHashes]), to dst without repeats: sorted when set is nil or
// when there are more than limit of them, else in the order they first
// occur (set then dedupes them without sorting, see [Model.Featurize]).
func featureHashes(dst []uint32, toks []string, wh []uint32, set *hashSet, limit int) []uint32 {
	start := len(dst)
	if set != nil {
		set.reset(2 * len(toks))
	}
	prev := uint32(0)
	havePrev := false
	for i, t := range toks {
		if t == "." {
			havePrev = false
			continue
		}
		h := wh[i]
		pair := pairHash(prev, h, havePrev)
		if set == nil {
			dst = append(dst, h, pair)
		} else {
			if set.add(h) {
				dst = append(dst, h)
			}
			if set.add(pair) {
				dst = append(dst, pair)
			}
		}
		prev, havePrev = h, true
	}
	if set == nil {
		feats := dst[start:]
		sortHashes(feats)
		return append(dst[:start], slices.Compact(feats)...)
	}
	if len(dst)-start > limit {
		sortHashes(dst[start:])
	}
	return dst
}

// pairHash is the feature of word h after the word prev of the same
// clause, or after the clause's start when there is no such word.
func pairHash(prev, h uint32, havePrev bool) uint32 {
	if !havePrev {
		return (0x27d4eb2d+h)*fnvPrime ^ 0x85ebca6b
	}
	return (prev*31+h)*fnvPrime ^ 0x85ebca6b
}

// hashSet is a set of feature hashes for one list at a time: open
// addressing over slots stamped with the list's generation, so that
// starting a new list costs nothing.
type hashSet struct {
	slots []hashSlot
	mask  uint32
	gen   uint32
}

type hashSlot struct{ key, gen uint32 }

// reset empties the set for at most n keys.
func (s *hashSet) reset(n int) {
	size := 32
	for size < 2*n {
		size <<= 1
	}
	if len(s.slots) < size {
		s.slots = make([]hashSlot, size)
		s.gen = 0
	}
	s.mask = uint32(size - 1)
	s.gen++
	if s.gen == 0 {
		clear(s.slots)
		s.gen = 1
	}
}

// add adds x and reports whether it was new.
func (s *hashSet) add(x uint32) bool {
	i := uint32(uint64(x)*0x9e3779b97f4a7c15>>32) & s.mask
	for {
		sl := &s.slots[i]
		if sl.gen != s.gen {
			*sl = hashSlot{key: x, gen: s.gen}
			return true
		}
		if sl.key == x {
			return false
		}
		i = (i + 1) & s.mask
	}
}

// radixMin is the length from which sortHashes sorts by radix: long
// reviews have thousands of features, and pdqsort's comparisons cost more
// than four counting passes.
const radixMin = 256

var radixPool = sync.Pool{New: func() any { return new([]uint32) }}

// sortHashes sorts a in increasing order.
func sortHashes(a []uint32) {
	if len(a) < radixMin {
		slices.Sort(a)
		return
	}
	bp := radixPool.Get().(*[]uint32)
	defer radixPool.Put(bp)
	if cap(*bp) < len(a) {
		*bp = make([]uint32, len(a))
	}
	src, dst := a, (*bp)[:len(a)]
	for shift := uint(0); shift < 32; shift += 8 {
		var count [257]int
		for _, x := range src {
			count[(x>>shift)&0xff+1]++
		}
		for i := 1; i < 257; i++ {
			count[i] += count[i-1]
		}
		for _, x := range src {
			b := (x >> shift) & 0xff
			dst[count[b]] = x
			count[b]++
		}
		src, dst = dst, src
	}
	// four passes: the sorted values are back in a
}

// isNegator reports whether t opens a negation scope.
func isNegator(t string) bool {
	switch t {
	case "not", "no", "never", "nothing", "nobody", "none",
		"nor", "neither", "cannot", "without", "hardly", "barely",
		"nowhere", "dont", "cant", "wont", "didnt", "doesnt",
		"isnt", "wasnt", "arent", "werent", "couldnt", "shouldnt",
		"wouldnt", "aint", "havent", "hasnt", "hadnt":
		return true
	}
	return false
}

// comparatives that, after "can't be" / "couldn't be", make the phrase a
// superlative ("couldn't be happier", "can't be worse").
var comparatives = map[string]bool{
	"happier": true, "better": true, "more": true, "worse": true, "prouder": true,
	"pleased": true, "nicer": true, "easier": true, "sadder": true, "less": true,
	"simpler": true, "smoother": true, "faster": true, "quicker": true, "greater": true,
	"friendlier": true, "kinder": true, "tastier": true, "cheaper": true, "sweeter": true,
	"funnier": true, "prettier": true, "clearer": true, "lovelier": true, "smarter": true,
}

// howVerbs are the verbs of "can't tell you how …" and its kin ("I can't
// believe how", "words cannot describe how"): the phrase intensifies what
// follows "how" instead of negating it.
var howVerbs = map[string]bool{
	"tell": true, "believe": true, "describe": true, "express": true,
	"explain": true, "say": true, "stress": true, "emphasize": true,
}

// notNegating reports whether the negator toks[i] is part of an idiom that
// does not negate what follows: "can't/couldn't … enough" ("I can't
// recommend it enough", "can't thank you enough"), "can't/couldn't be" or
// "couldn't have been" + a comparative ("couldn't be happier", "couldn't
// have been simpler") and "can't tell you how …" ("I can't tell you how
// disappointed I was", "words cannot describe how good it is"). The words
// then count as they are, not negated.
func notNegating(toks []string, i int) bool {
	prev := ""
	if i > 0 {
		prev = toks[i-1]
	}
	return CanNot(prev, toks[i]) && IdiomAfter(toks[i+1:])
}

// CanNot reports whether the lower-cased word w, after prev, is the
// negator of "can't" or "couldn't" that the idioms of [IdiomAfter] start
// with: "cannot", "can't", "couldn't" (with or without the apostrophe),
// or "not" after "can" or "could".
func CanNot(prev, w string) bool {
	switch w {
	case "cannot", "can't", "couldn't", "cant", "couldnt":
		return true
	case "not":
		return prev == "can" || prev == "could"
	}
	return false
}

// IdiomAfter reports whether rest, the lower-cased words after "can't",
// "cannot" or "couldn't" (with "." for the end of a clause), make one of
// the idioms of [notNegating]. Package sentiment reads the hybrid's VADER
// scores with the same rule.
func IdiomAfter(rest []string) bool {
	if len(rest) >= 3 && rest[0] == "have" && rest[1] == "been" {
		rest = rest[1:] // "couldn't have been simpler" reads as "couldn't be"
	}
	if len(rest) >= 2 && (rest[0] == "be" || rest[0] == "been") && comparatives[rest[1]] {
		return true
	}
	if howIdiom(rest) {
		return true
	}
	for _, t := range rest {
		switch t {
		case ".", "but", "!", "?":
			return false
		case "enough":
			return true
		}
	}
	return false
}

// howIdiom reports whether rest, the words after a negator, start as "tell
// you how", "(begin to) describe how", "believe how" and their kin.
func howIdiom(rest []string) bool {
	if len(rest) >= 2 && rest[0] == "begin" && rest[1] == "to" {
		rest = rest[2:]
	}
	if len(rest) < 2 || !howVerbs[rest[0]] {
		return false
	}
	rest = rest[1:]
	switch rest[0] {
	case "you", "u", "me", "anyone", "enough":
		rest = rest[1:]
	}
	if len(rest) > 0 && rest[0] == "just" {
		rest = rest[1:]
	}
	return len(rest) > 0 && rest[0] == "how"
}

// emoticonLen is the length of the emoticon s starts with (":)", ";-(",
// ":D", "<3", "(:", …), or 0.
func emoticonLen(s string) int {
	if strings.HasPrefix(s, "<3") {
		return 2
	}
	if s[0] == '(' {
		// "(:" and "(;" only where they stand alone
		if len(s) >= 2 && (s[1] == ':' || s[1] == ';') && (len(s) == 2 || s[2] == ' ' || s[2] == '\n') {
			return 2
		}
		return 0
	}
	if s[0] != ':' && s[0] != ';' && s[0] != '=' {
		return 0
	}
	j := 1
	if j < len(s) && (s[j] == '-' || s[j] == '\'') {
		j++
	}
	if j < len(s) && strings.IndexByte(")(DPp/|3O*][", s[j]) >= 0 {
		j++
		// a letter right after (":Dear") is not an emoticon
		if j < len(s) && isWordRune(rune(s[j])) && s[j] < utf8.RuneSelf {
			return 0
		}
		return j
	}
	return 0
}

// canonicalEmoticon maps the spellings of one face to one token, so that
// what the training data teaches about ":-)", "=]" and "(:" adds up in
// ":)": the eyes ":" and "=" are one, the nose and the tear are dropped,
// and "]" is ")", "[" is "(", "p" is "P", "|" is "/". The wink (";")
// stays apart, and so do "<3" and the faces without a mouth of their own.
func canonicalEmoticon(e string) string {
	switch e {
	case "<3":
		return "<3"
	case "(:":
		return ":)"
	case "(;":
		return ";)"
	}
	wink := e[0] == ';'
	switch e[len(e)-1] {
	case ')', ']':
		if wink {
			return ";)"
		}
		return ":)"
	case '(', '[':
		if wink {
			return ";("
		}
		return ":("
	case 'D':
		if wink {
			return ";D"
		}
		return ":D"
	case 'P', 'p':
		if wink {
			return ";P"
		}
		return ":P"
	case '/', '|':
		return ":/"
	case 'O':
		return ":O"
	case '*':
		return ":*"
	case '3':
		return ":3"
	}
	return e
}

// isLaughFace reports whether the word w (lower case) is the face "xD"
// ("XD", "xDD"): a laughing face written with letters.
func isLaughFace(w string) bool {
	if len(w) < 2 || w[0] != 'x' {
		return false
	}
	for i := 1; i < len(w); i++ {
		if w[i] != 'd' {
			return false
		}
	}
	return true
}

// Domain flags of a text, used by the blend.
type Domain struct {
	Tweet bool // mentions, hashtags, links or emoji
	Tok   bool // lower-cased and tokenised like the SST ("it 's", "do n't")
	Long  bool // at least LongWords words (a review rather than a sentence)
}

// LongWords is the number of space-separated words from which a text is
// [Domain.Long].
const LongWords = 60

// DomainOf guesses the kind of text.
func DomainOf(text string) Domain {
	var d Domain
	upper := false
	words, inWord := 0, false
	for _, r := range text {
		if r < utf8.RuneSelf {
			// ASCII: the common case, without the unicode tables
			if r == ' ' || r == '\t' || r == '\n' || r == '\v' || r == '\f' || r == '\r' {
				inWord = false
				continue
			}
			if !inWord {
				inWord = true
				words++
			}
			switch {
			case r == '@' || r == '#':
				d.Tweet = true
			case 'A' <= r && r <= 'Z':
				upper = true
			}
			continue
		}
		if unicode.IsSpace(r) {
			inWord = false
		} else if !inWord {
			inWord = true
			words++
		}
		switch {
		case r == '@' || r == '#' || r >= 0x1F000:
			d.Tweet = true
		case unicode.IsUpper(r):
			upper = true
		}
	}
	d.Long = words >= LongWords
	if strings.Contains(text, "http") {
		d.Tweet = true
	}
	d.Tok = !upper && (strings.Contains(text, " 's ") || strings.Contains(text, " n't ") ||
		strings.Contains(text, " , ") || strings.HasSuffix(text, " ."))
	return d
}

// AfterContrast returns the tokens after the last contrast word ("but",
// "however", "nevertheless", "nonetheless") of toks, or nil when there is
// none or nothing follows it. What follows the contrast usually carries the
// writer's verdict ("a fine cast, but the script is a mess").
func AfterContrast(toks []string) []string {
	for i := len(toks) - 1; i >= 0; i-- {
		switch toks[i] {
		case "but", "however", "nevertheless", "nonetheless":
			if i+1 < len(toks) {
				return toks[i+1:]
			}
			return nil
		}
	}
	return nil
}

// Text is a featurised text: what the model reads.
type Text struct {
	Hashes []uint32 // see [Hashes]
	// After holds the hashes of the part after the last contrast word
	// (see [AfterContrast]); nil when there is none.
	After []uint32
	// Clauses holds the hashes of each clause, one after the other,
	// clause k ending at ClauseEnd[k]; empty unless the text has two
	// clauses or more and is not long.
	Clauses   []uint32
	ClauseEnd []int
	Dense     [NumDense]float64
	Domain    Domain
	Cues      Cues
	// Extra holds what the tweet heads read besides Hashes (see
	// [Model.PrepareTweet]); nil when not computed.
	Extra []uint32
	tweet bool

	afterBuf []uint32
	extraBuf []uint32
	words    []uint32 // word hashes, see wordHashes
	acWords  []uint32 // word hashes of the part after "however" and the like

	// limit is the longest feature list that may be unsorted, 0 when all
	// are sorted (see [Model.Featurize]); set dedupes the unsorted ones.
	limit int
	set   hashSet
}

// PrepareTweet decides whether m judges t, the featurised text (see
// [Featurize]) with tokens toks, as a tweet, and fills t.Extra with what
// the tweet heads read: the [TweetCues], and for a tweet its [CharGrams]
// too. Long texts (reviews, [Domain.Long]) are never tweets, and a model
// without tweet heads judges none.
func (m *Model) PrepareTweet(t *Text, text string, toks []string) {
	t.Extra, t.tweet = nil, false
	if !m.HasTweet() || t.Domain.Long {
		return
	}
	t.extraBuf = TweetCues(t.extraBuf[:0], text, toks, t.Dense[0])
	t.Extra = t.extraBuf
	t.orderFor2()
	if m.Dom.Logit2(t.Hashes, t.Extra, &t.Dense) < 0 {
		return
	}
	t.tweet = true
	t.extraBuf = CharGrams(t.extraBuf, toks)
	t.Extra = t.extraBuf
	t.orderFor2()
}

// orderFor2 sorts Hashes when [Head.Logit2] is to add up more of Hashes
// and Extra than t's limit allows unsorted, so that the sum goes in the
// order of [Featurize]'s. Sorting the unsorted list gives the sorted one:
// the features are the same.
func (t *Text) orderFor2() {
	if t.limit > 0 && len(t.Hashes)+len(t.Extra) > t.limit && !slices.IsSorted(t.Hashes) {
		sortHashes(t.Hashes)
	}
}

// Tweet reports whether [Model.PrepareTweet] judged t a tweet.
func (t *Text) Tweet() bool { return t.tweet }

// Featurize fills t (reusing its slices) from the tokens, VADER's scores
// and the domain of a text.
func Featurize(t *Text, toks []string, v Vader, d Domain) {
	featurize(t, toks, v, d, nil, 0)
}

// Featurize is [Featurize] for scoring with m: each feature list comes
// in the order its features first occur, without the sort, when m's
// sums over it are exact whatever the order (it has no more than
// [Head.exact] features), so that [Model.Predict] gives the very same
// scores for less work. Training, which sums unquantised weights, keeps
// the sorted lists.
func (m *Model) Featurize(t *Text, toks []string, v Vader, d Domain) {
	if m.exact <= 0 {
		featurize(t, toks, v, d, nil, 0)
		return
	}
	featurize(t, toks, v, d, &t.set, m.exact)
}

func featurize(t *Text, toks []string, v Vader, d Domain, set *hashSet, limit int) {
	t.limit = limit
	t.Domain = d
	t.Dense = Dense(v, len(toks))
	t.Extra, t.tweet = nil, false
	t.Cues = CuesOf(toks)
	// The word hashes of the whole text serve its parts too: a clause
	// starts after a "." and the part after a "but" after a "but", where
	// the negation scope has ended anyway.
	t.words = wordHashes(t.words[:0], toks)
	t.Hashes = featureHashes(t.Hashes[:0], toks, t.words, set, limit)
	t.After = nil
	if ac := AfterContrast(toks); ac != nil {
		if k := len(toks) - len(ac); toks[k-1] == "but" {
			t.afterBuf = featureHashes(t.afterBuf[:0], ac, t.words[k:], set, limit)
		} else {
			// "however" and the like do not end a negation scope
			t.acWords = wordHashes(t.acWords[:0], ac)
			t.afterBuf = featureHashes(t.afterBuf[:0], ac, t.acWords, set, limit)
		}
		t.After = t.afterBuf
	}
	t.Clauses, t.ClauseEnd = t.Clauses[:0], t.ClauseEnd[:0]
	if d.Long {
		return
	}
	start := 0
	for i := 0; i <= len(toks); i++ {
		if i < len(toks) && toks[i] != "." {
			continue
		}
		if i > start {
			t.Clauses = featureHashes(t.Clauses, toks[start:i], t.words[start:i], set, limit)
			t.ClauseEnd = append(t.ClauseEnd, len(t.Clauses))
		}
		start = i + 1
	}
	if len(t.ClauseEnd) < 2 {
		t.Clauses, t.ClauseEnd = t.Clauses[:0], t.ClauseEnd[:0]
	}
}

// Logits are a polarity head's logits for a text and its parts.
type Logits struct {
	Z     float64 // the whole text
	After float64 // the part after the last contrast word, 0 if none
	// Highest, lowest and last logit of the clauses; Z when the text
	// has a single clause.
	ClMax, ClMin, ClLast float64
}

// Logits scores t and its parts with the sparse weights of h.
func (h *Head) Logits(t *Text) Logits {
	var zero [NumDense]float64
	l := Logits{Z: h.Logit(t.Hashes, &zero)}
	if t.After != nil {
		l.After = h.Logit(t.After, &zero)
	}
	l.ClMax, l.ClMin, l.ClLast = l.Z, l.Z, l.Z
	start := 0
	for k, end := range t.ClauseEnd {
		z := h.Logit(t.Clauses[start:end], &zero)
		if k == 0 {
			l.ClMax, l.ClMin = z, z
		}
		l.ClMax, l.ClMin, l.ClLast = max(l.ClMax, z), min(l.ClMin, z), z
		start = end
	}
	return l
}

// NumBlend is the number of blend features of [BlendFeatures].
const NumBlend = 34

// BlendFeatures are the inputs of the final polarity blend: the general
// polarity head's logits l for the text and its parts, the tokenised-text
// head's logit zTok, VADER's scores, and their interactions with the
// domain, and VADER's compound where its rules have the most to say:
// short texts, emoticons and emoji, "!", texts whose sentiment words all
// lean one way, and texts on which the words model is unsure.
func BlendFeatures(l Logits, zTok float64, t *Text) [NumBlend]float64 {
	d, dense := t.Domain, &t.Dense
	tw, tk := b2f(d.Tweet), b2f(d.Tok)
	c, mean, logn := dense[0], dense[1], dense[7]
	ct := b2f(t.After != nil)
	z := l.Z
	return [NumBlend]float64{
		1, z, z * tw, z * tk, z * logn,
		c, c * tw, c * tk, mean, mean * tw, mean * logn,
		dense[2], dense[3], tw, tk, logn,
		c * math.Abs(c), mean * math.Abs(mean),
		l.After * ct, z * ct, l.After * ct * tk,
		zTok * tk, zTok * (1 - tk),
		l.ClMax, l.ClMin, l.ClLast, l.ClMax * tk, l.ClMin * tk, l.ClLast * tk,
		c * (1 - math.Min(logn, 1)), c * b2f(t.Cues.Emo > 0), c * b2f(t.Cues.Excl > 0),
		c * b2f(dense[2] == 0 || dense[3] == 0), c / (1 + math.Abs(z)),
	}
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// Cues are counts of tokens that mark a text as expressive (or not),
// besides its words: read by the subjectivity blend.
type Cues struct {
	Excl, Quest int // "!" and "?"
	Emo         int // emoticons and emoji (symbol tokens)
	URL, User   int // "<url>" and "@user"
}

// CuesOf counts the cues of toks.
func CuesOf(toks []string) Cues {
	var c Cues
	for _, t := range toks {
		switch {
		case t == "!":
			c.Excl++
		case t == "?":
			c.Quest++
		case t == "<url>":
			c.URL++
		case t == "@user":
			c.User++
		case t == "<3" || len(t) > 1 && (t[0] == ':' || t[0] == ';' || t[0] == '='):
			c.Emo++
		default:
			if r, _ := utf8.DecodeRuneInString(t); r >= 0x2000 && unicode.IsSymbol(r) {
				c.Emo++
			}
		}
	}
	return c
}

// NumSubj is the number of subjectivity blend features of [SubjFeatures].
const NumSubj = 20

// SubjFeatures are the inputs of the subjectivity blend: the subjectivity
// head's logit zSubj, the strength of the polarity logit zPol, whether and
// how strongly VADER finds sentiment words, the length, the cues and the
// kind of text.
func SubjFeatures(zSubj, zPol float64, t *Text) [NumSubj]float64 {
	d, dense, c := t.Domain, &t.Dense, t.Cues
	tw, tk := b2f(d.Tweet), b2f(d.Tok)
	ap := math.Abs(zPol)
	ac := dense[5]
	return [NumSubj]float64{
		1, zSubj, ap, math.Min(ap*ap, 25) / 5,
		ac, dense[2] + dense[3], b2f(ac >= 0.05), dense[6], dense[7],
		tw, tk, zSubj * tw, zSubj * tk, ap * tw, ap * tk, ac * tw,
		math.Log1p(float64(c.Excl)), math.Log1p(float64(c.Quest)), math.Log1p(float64(c.Emo)),
		math.Log1p(float64(c.URL + c.User)),
	}
}

// charSeed, cueSeed and vaderSeed keep the hashes of [TweetCues] and
// [CharGrams] apart
// from the word hashes and from each other.
const (
	charSeed  = 0x1234567
	cueSeed   = 0xabcdef
	vaderSeed = 0x777
)

// TweetCues appends to dst the cues the tweet heads ([Model.Dom],
// [Model.Neu]) read besides the word hashes of [Hashes]: whether the text
// has a word in capitals, a letter repeated three times or more, or a
// hashtag, its length (log2 of the token count) and VADER's compound in
// five bins per sign.
func TweetCues(dst []uint32, text string, toks []string, compound float64) []uint32 {
	caps, elong := false, false
	letters, upper := 0, 0
	run, last := 0, rune(-1)
	for _, r := range text {
		var space, letter, up bool
		if r < utf8.RuneSelf {
			// ASCII without the unicode tables: this runs on every
			// short text
			space = r == ' ' || '\t' <= r && r <= '\r'
			up = 'A' <= r && r <= 'Z'
			letter = up || 'a' <= r && r <= 'z'
		} else {
			space = unicode.IsSpace(r)
			letter = unicode.IsLetter(r)
			up = letter && unicode.IsUpper(r)
		}
		if space {
			if letters >= 2 && upper == letters {
				caps = true
			}
			letters, upper, run, last = 0, 0, 0, -1
			continue
		}
		if letter {
			letters++
			if up {
				upper++
			}
		}
		if r == last {
			run++
			if run == 3 && letter {
				elong = true
			}
		} else {
			run, last = 1, r
		}
	}
	if letters >= 2 && upper == letters {
		caps = true
	}
	if caps {
		dst = append(dst, hashString(cueSeed, "<caps>"))
	}
	if elong {
		dst = append(dst, hashString(cueSeed, "<elong>"))
	}
	if strings.Contains(text, "#") {
		dst = append(dst, hashString(cueSeed, "<hash>"))
	}
	n := min(int(math.Log2(float64(len(toks)+1))), 6)
	return append(dst, lenCueHashes[n], vaderBinHash(compound))
}

// lenCueHashes are the hashes of the length cues "<len0>" … "<len6>".
var lenCueHashes = func() (h [7]uint32) {
	for n := range h {
		h[n] = hashString(cueSeed, "<len"+strconv.Itoa(n)+">")
	}
	return h
}()

// vaderBinHashes are the hashes of "vc" and each of [compoundBins].
var vaderBinHashes = func() (h [len(compoundBins)]uint32) {
	for i, b := range compoundBins {
		h[i] = hashString(vaderSeed, "vc"+b)
	}
	return h
}()

// vaderBinHash is the hash of "vc" and compound's bin.
func vaderBinHash(compound float64) uint32 {
	return vaderBinHashes[compoundBinIndex(compound)]
}

// CharGrams appends to dst the character 3-, 4- and 5-grams of each token
// of toks that starts with a letter and has three bytes or more, with its
// start and end marked: "loooove" and "love" share most of theirs, and
// unseen spellings still count. [Model.Neu] reads them.
func CharGrams(dst []uint32, toks []string) []uint32 {
	var buf [64]byte
	for _, t := range toks {
		if r, _ := utf8.DecodeRuneInString(t); len(t) < 3 || !unicode.IsLetter(r) {
			continue
		}
		w := append(append(append(buf[:0], '<'), t...), '>')
		for n := 3; n <= 5; n++ {
			for i := 0; i+n <= len(w); i++ {
				dst = append(dst, hashBytes(charSeed+uint32(n), w[i:i+n]))
			}
		}
	}
	return dst
}

func hashBytes(h uint32, s []byte) uint32 {
	for _, c := range s {
		h ^= uint32(c)
		h *= fnvPrime
	}
	return h
}

// compoundBins name VADER's compound in bins: "0" under 0.05 in
// magnitude, then the sign and 1–4 for below 0.3, 0.6, 0.85 and above.
var compoundBins = [...]string{"0", "+1", "+2", "+3", "+4", "-1", "-2", "-3", "-4"}

// compoundBinIndex is the index of c's bin in [compoundBins].
func compoundBinIndex(c float64) int {
	a := math.Abs(c)
	s := 0
	if c < 0 {
		s = 4
	}
	switch {
	case a < 0.05:
		return 0
	case a < 0.3:
		return s + 1
	case a < 0.6:
		return s + 2
	case a < 0.85:
		return s + 3
	}
	return s + 4
}
