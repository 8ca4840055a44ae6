package sentiment

import (
	"math"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/textanalysis/go-textanalysis/sentiment/internal/lr"
)

// scores are VADER's four numbers, rounded as the reference rounds them.
type scores struct {
	compound, pos, neu, neg float64
}

// token is one whitespace-separated word or emoticon of the text.
type token struct {
	lower      string
	info       wordInfo
	upper      bool // Python's str.isupper
	start, end int  // byte offsets of the unstripped word in the scored text
	// stop says the unstripped word ends a clause (".", "!", "?", ";");
	// plain marks a negator that does not negate (see idiomNegators).
	stop, plain bool
}

// vaderScratch is per-call working memory, pooled to keep Analyze cheap.
type vaderScratch struct {
	buf      []byte
	toks     []token
	sents    []float64
	sentVals []float64 // one sentence's valences, beside the whole text's
}

var scratchPool = sync.Pool{New: func() any { return new(vaderScratch) }}

// vader scores text exactly as the reference polarity_scores does.
type vader struct {
	t *vaderTables
}

// polarity returns the reference's polarity_scores of text.
func (v *vader) polarity(text string) scores {
	sc := scratchPool.Get().(*vaderScratch)
	defer scratchPool.Put(sc)
	text = v.expandEmoji(text, sc)
	toks := v.tokenize(text, sc)
	if len(toks) == 0 {
		return scores{}
	}
	sc.sents = valences(sc.sents[:0], toks, v.t.idioms)
	return scoreValence(sc.sents, text)
}

// polaritySentences returns the polarity of text and fills out[k] with the
// polarity of text[spans[k].start:spans[k].end], each exactly what polarity
// would return for it. It tokenizes text once: a sentence whose edges fall
// between words has, as its own tokens, the text's tokens inside it, so only
// the valences are computed again (they depend on neighbours and on the
// sentence's "but"). Text with emoji, whose expansion moves offsets, and a
// sentence that cuts a word are scored on their own.
func (v *vader) polaritySentences(text string, spans []span, out []scores) scores {
	sc := scratchPool.Get().(*vaderScratch)
	defer scratchPool.Put(sc)
	expanded := v.expandEmoji(text, sc)
	if len(expanded) != len(text) || expanded != text {
		for k, sp := range spans {
			out[k] = v.polarity(text[sp.start:sp.end])
		}
		return v.polarity(text)
	}
	toks := v.tokenize(text, sc)
	if len(toks) == 0 {
		clear(out)
		return scores{}
	}
	a := 0
	for k, sp := range spans {
		for a < len(toks) && toks[a].end <= sp.start {
			a++
		}
		b := a
		for b < len(toks) && toks[b].start < sp.end {
			b++
		}
		cut := (a < len(toks) && toks[a].start < sp.start) || (b > a && toks[b-1].end > sp.end)
		switch {
		case cut:
			out[k] = v.polarity(text[sp.start:sp.end])
		case a == b:
			out[k] = scores{}
		default:
			sc.sentVals = valences(sc.sentVals[:0], toks[a:b], v.t.idioms)
			out[k] = scoreValence(sc.sentVals, text[sp.start:sp.end])
		}
		a = b
	}
	sc.sents = valences(sc.sents[:0], toks, v.t.idioms)
	return scoreValence(sc.sents, text)
}

// expandEmoji replaces every emoji code point by its description, spaced as
// the reference spaces it. It returns text itself when there is none.
func (v *vader) expandEmoji(text string, sc *vaderScratch) string {
	first := -1
	for i := 0; i < len(text); i++ {
		if text[i] < utf8.RuneSelf {
			continue
		}
		r, _ := utf8.DecodeRuneInString(text[i:])
		if _, ok := v.t.emojis[r]; ok {
			first = i
			break
		}
	}
	if first < 0 {
		return text
	}
	b := append(sc.buf[:0], text[:first]...)
	// The reference starts with prev_space true and sets it only for ' '.
	prevSpace := first == 0 || text[first-1] == ' '
	afterEmoji := false
	for _, r := range text[first:] {
		if afterEmoji && v.t.emojiVariants && lr.IsEmojiModifier(r) {
			// before the look-up: the reference describes a skin tone
			// on its own ("dark skin tone")
			continue
		}
		if d, ok := v.t.emojis[r]; ok {
			if !prevSpace {
				b = append(b, ' ')
			}
			b = append(b, d...)
			prevSpace, afterEmoji = false, true
			continue
		}
		b = utf8.AppendRune(b, r)
		prevSpace, afterEmoji = r == ' ', false
	}
	sc.buf = b
	return string(b)
}

// isPySpace reports whether Python's str.split() splits at r.
func isPySpace(r rune) bool {
	return unicode.IsSpace(r) || (r >= 0x1c && r <= 0x1f)
}

// isPunct reports whether b is in Python's string.punctuation.
func isPunct(b byte) bool {
	return b < utf8.RuneSelf && punctTable[b]
}

var punctTable = func() (t [utf8.RuneSelf]bool) {
	for _, c := range "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~" {
		t[c] = true
	}
	return t
}()

// forEachWord calls fn with every piece of text between Python whitespace
// (str.split() with no argument) and its byte offset.
func forEachWord(text string, fn func(w string, at int)) {
	start := -1
	for i := 0; i < len(text); {
		c := text[i]
		var space bool
		size := 1
		if c < utf8.RuneSelf {
			space = c == ' ' || (c >= '\t' && c <= '\r') || (c >= 0x1c && c <= 0x1f)
		} else {
			var r rune
			r, size = utf8.DecodeRuneInString(text[i:])
			space = isPySpace(r)
		}
		if space {
			if start >= 0 {
				fn(text[start:i], start)
				start = -1
			}
		} else if start < 0 {
			start = i
		}
		i += size
	}
	if start >= 0 {
		fn(text[start:], start)
	}
}

// stripPuncIfWord is the reference's _strip_punc_if_word: strip leading and
// trailing ASCII punctuation unless that leaves two code points or fewer.
func stripPuncIfWord(w string) string {
	i, j := 0, len(w)
	for i < j && isPunct(w[i]) {
		i++
	}
	for j > i && isPunct(w[j-1]) {
		j--
	}
	if i == 0 && j == len(w) {
		return w
	}
	s := w[i:j]
	if len(s) <= 2 || utf8.RuneCountInString(s) <= 2 {
		return w
	}
	return s
}

// pyIsUpper is Python's str.isupper: at least one cased character and no
// lower-case or title-case one.
func pyIsUpper(s string) bool {
	cased := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf {
			return pyIsUpperSlow(s)
		}
		if 'a' <= c && c <= 'z' {
			return false
		}
		if 'A' <= c && c <= 'Z' {
			cased = true
		}
	}
	return cased
}

func pyIsUpperSlow(s string) bool {
	cased := false
	for _, r := range s {
		if unicode.IsLower(r) || unicode.IsTitle(r) || unicode.Is(unicode.Other_Lowercase, r) {
			return false
		}
		if unicode.IsUpper(r) || unicode.Is(unicode.Other_Uppercase, r) {
			cased = true
		}
	}
	return cased
}

// lower is Python's str.lower for the words VADER can know, without
// allocating when w is already lower case ASCII.
func lower(w string) string {
	for i := 0; i < len(w); i++ {
		c := w[i]
		if c >= utf8.RuneSelf || ('A' <= c && c <= 'Z') {
			return strings.ToLower(w)
		}
	}
	return w
}

// tokenize is the reference's SentiText: split on whitespace, strip
// punctuation from words, and look every token up once.
func (v *vader) tokenize(text string, sc *vaderScratch) []token {
	toks := sc.toks[:0]
	forEachWord(text, func(w string, at int) {
		end := at + len(w)
		stop := strings.IndexByte(".!?;", w[len(w)-1]) >= 0
		w = stripPuncIfWord(w)
		l := lower(w)
		info := v.t.words[l]
		if info.flags == 0 && v.t.spell != nil && lr.Spelling() {
			if c, ok := v.t.spell.correct(l); ok {
				info = v.t.words[c]
			}
		}
		toks = append(toks, token{lower: l, info: info, upper: pyIsUpper(w), start: at, end: end, stop: stop})
	})
	sc.toks = toks
	return toks
}

// isNegated is the reference's negated([word]) for a lower-cased word,
// false for a negator [idiomNegators] marked.
func isNegated(t *token) bool {
	return !t.plain && (t.info.flags&flagNegate != 0 || strings.Contains(t.lower, "n't"))
}

// idiomNegators marks, for the hybrid's VADER scores, the negators of
// idioms that do not negate what follows ("I can't recommend it enough",
// "couldn't have been better", "I can't tell you how disappointed I
// was"), by the rule the word model reads them with ([lr.IdiomAfter]).
// The reference has no such rule: ModelVADER never calls this.
func idiomNegators(toks []token) {
	var buf [12]string
	for k := range toks {
		t := &toks[k]
		t.plain = false
		prev := ""
		if k > 0 {
			prev = toks[k-1].lower
		}
		if !lr.CanNot(prev, t.lower) || t.stop {
			continue
		}
		rest := buf[:0]
		for j := k + 1; j < len(toks) && len(rest) < len(buf)-1; j++ {
			rest = append(rest, toks[j].lower)
			if toks[j].stop {
				rest = append(rest, ".")
				break
			}
		}
		t.plain = lr.IdiomAfter(rest)
	}
}

// wish reports, for the hybrid's VADER scores, whether the comparative at
// i is one a modal makes a wish ("could be better": [lr.Counterfactual]),
// read as negated as the word model reads it. The reference has no such
// rule.
func wish(toks []token, i int) bool {
	var buf [8]string
	words := buf[:0]
	for k := max(0, i-len(buf)+1); k <= i; k++ {
		if toks[k].stop && k < i {
			words = words[:0]
			continue
		}
		words = append(words, toks[k].lower)
	}
	return lr.Counterfactual(words)
}

func inLex(t *token) bool { return t.info.flags&flagLex != 0 }

func soOrThis(t *token) bool { return t.lower == "so" || t.lower == "this" }

// valences appends to sents the valence of every token (the reference's
// loop in polarity_scores, sentiment_valence and _but_check).
func valences(sents []float64, toks []token, idioms bool) []float64 {
	if idioms {
		idiomNegators(toks)
		markRatings(toks)
	}
	n := len(toks)
	allcaps := 0
	for i := range toks {
		if toks[i].upper {
			allcaps++
		}
	}
	capDiff := allcaps > 0 && allcaps < n
	for i := range toks {
		t := &toks[i]
		if t.info.flags&flagBooster != 0 ||
			(i < n-1 && t.lower == "kind" && toks[i+1].lower == "of") ||
			!inLex(t) {
			sents = append(sents, 0)
			continue
		}
		val := valence(toks, i, capDiff)
		if idioms && (t.lower == "better" || t.lower == "worse") && wish(toks, i) {
			val *= nScalar
		}
		sents = append(sents, val)
	}
	butCheck(toks, sents)
	return sents
}

// valence is the reference's sentiment_valence for a lexicon word at i.
func valence(toks []token, i int, capDiff bool) float64 {
	n := len(toks)
	t := &toks[i]
	val := t.info.val
	if t.lower == "no" && i != n-1 && inLex(&toks[i+1]) {
		val = 0
	}
	if (i > 0 && toks[i-1].lower == "no") ||
		(i > 1 && toks[i-2].lower == "no") ||
		(i > 2 && toks[i-3].lower == "no" && (toks[i-1].lower == "or" || toks[i-1].lower == "nor")) {
		val = t.info.val * nScalar
	}
	if t.upper && capDiff {
		if val > 0 {
			val += cIncr
		} else {
			val -= cIncr
		}
	}
	for s := 0; s < 3; s++ {
		if i <= s {
			break
		}
		p := &toks[i-(s+1)]
		if inLex(p) {
			continue
		}
		b := scalarIncDec(p, val, capDiff)
		if s == 1 && b != 0 {
			b *= 0.95
		}
		if s == 2 && b != 0 {
			b *= 0.9
		}
		val += b
		val = negationCheck(val, toks, s, i)
		if s == 2 {
			val = specialIdioms(val, toks, i)
		}
	}
	return leastCheck(val, toks, i)
}

// scalarIncDec is the reference's scalar_inc_dec.
func scalarIncDec(t *token, val float64, capDiff bool) float64 {
	if t.info.flags&flagBooster == 0 {
		return 0
	}
	s := t.info.boost
	if val < 0 {
		s = -s
	}
	if t.upper && capDiff {
		if val > 0 {
			s += cIncr
		} else {
			s -= cIncr
		}
	}
	return s
}

// negationCheck is the reference's _negation_check, including its operator
// precedence slip for start_i == 2: a "so" or "this" right before the word
// multiplies by 1.25 whatever precedes it.
func negationCheck(val float64, toks []token, s, i int) float64 {
	switch s {
	case 0:
		if isNegated(&toks[i-1]) {
			val *= nScalar
		}
	case 1:
		switch {
		case toks[i-2].lower == "never" && soOrThis(&toks[i-1]):
			val *= 1.25
		case toks[i-2].lower == "without" && toks[i-1].lower == "doubt":
		case isNegated(&toks[i-2]):
			val *= nScalar
		}
	case 2:
		switch {
		case (toks[i-3].lower == "never" && soOrThis(&toks[i-2])) || soOrThis(&toks[i-1]):
			val *= 1.25
		case toks[i-3].lower == "without" && (toks[i-2].lower == "doubt" || toks[i-1].lower == "doubt"):
		case isNegated(&toks[i-3]):
			val *= nScalar
		}
	}
	return val
}

// specialCases is the reference's SPECIAL_CASES with more than one word
// (a one-word key can never match a joined sequence).
var specialCases2 = map[[2]string]float64{
	{"the", "shit"}: 3, {"the", "bomb"}: 3, {"bad", "ass"}: 1.5, {"bus", "stop"}: 0.0,
	{"yeah", "right"}: -2, {"beating", "heart"}: 3.1, {"broken", "heart"}: -2.9,
}

var specialCases3 = map[[3]string]float64{
	{"kiss", "of", "death"}: -1.5, {"to", "die", "for"}: 3,
}

// boosterBigrams are the reference's multi-word BOOSTER_DICT entries.
var boosterBigrams = map[[2]string]float64{
	{"just", "enough"}: bDecr, {"kind", "of"}: bDecr, {"sort", "of"}: bDecr,
}

// specialIdioms is the reference's _special_idioms_check (i > 2).
func specialIdioms(val float64, toks []token, i int) float64 {
	// Only words marked flagIdiom occur in the tables, so a sequence with
	// any other word is not looked up.
	idiom := func(k int) bool { return toks[k].info.flags&flagIdiom != 0 }
	lookup2 := func(a, b int) (float64, bool) {
		if !idiom(a) || !idiom(b) {
			return 0, false
		}
		x, ok := specialCases2[[2]string{toks[a].lower, toks[b].lower}]
		return x, ok
	}
	lookup3 := func(a, b, c int) (float64, bool) {
		if !idiom(a) || !idiom(b) || !idiom(c) {
			return 0, false
		}
		x, ok := specialCases3[[3]string{toks[a].lower, toks[b].lower, toks[c].lower}]
		return x, ok
	}
	// onezero, twoonezero, twoone, threetwoone, threetwo: the first match wins.
	if x, ok := lookup2(i-1, i); ok {
		val = x
	} else if x, ok := lookup3(i-2, i-1, i); ok {
		val = x
	} else if x, ok := lookup2(i-2, i-1); ok {
		val = x
	} else if x, ok := lookup3(i-3, i-2, i-1); ok {
		val = x
	} else if x, ok := lookup2(i-3, i-2); ok {
		val = x
	}
	n := len(toks)
	if n-1 > i {
		if x, ok := lookup2(i, i+1); ok {
			val = x
		}
	}
	if n-1 > i+1 {
		if x, ok := lookup3(i, i+1, i+2); ok {
			val = x
		}
	}
	// threetwoone has three words and no booster has three; threetwo, twoone.
	if idiom(i-3) && idiom(i-2) {
		if x, ok := boosterBigrams[[2]string{toks[i-3].lower, toks[i-2].lower}]; ok {
			val += x
		}
	}
	if idiom(i-2) && idiom(i-1) {
		if x, ok := boosterBigrams[[2]string{toks[i-2].lower, toks[i-1].lower}]; ok {
			val += x
		}
	}
	return val
}

// leastCheck is the reference's _least_check.
func leastCheck(val float64, toks []token, i int) float64 {
	if i > 1 && !inLex(&toks[i-1]) && toks[i-1].lower == "least" {
		if toks[i-2].lower != "at" && toks[i-2].lower != "very" {
			val *= nScalar
		}
	} else if i > 0 && !inLex(&toks[i-1]) && toks[i-1].lower == "least" {
		val *= nScalar
	}
	return val
}

// butCheck is the reference's _but_check. The reference finds each
// valence's position with list.index, that is by value: a valence equal to
// an earlier one scales the earlier position instead of its own.
func butCheck(toks []token, sents []float64) {
	bi := -1
	for i := range toks {
		if toks[i].lower == "but" {
			bi = i
			break
		}
	}
	if bi < 0 {
		return
	}
	for k := range sents {
		s := sents[k]
		if s == 0 {
			// Scaling a zero changes nothing.
			continue
		}
		si := 0
		for sents[si] != s {
			si++
		}
		switch {
		case si < bi:
			sents[si] = s * 0.5
		case si > bi:
			sents[si] = s * 1.5
		}
	}
}

// scoreValence is the reference's score_valence.
func scoreValence(sents []float64, text string) scores {
	sum := 0.0
	for _, s := range sents {
		sum += s
	}
	punct := punctuationEmphasis(text)
	if sum > 0 {
		sum += punct
	} else if sum < 0 {
		sum -= punct
	}
	compound := normalize(sum)
	var posSum, negSum float64
	neu := 0
	for _, s := range sents {
		switch {
		case s > 0:
			posSum += s + 1
		case s < 0:
			negSum += s - 1
		default:
			neu++
		}
	}
	if posSum > math.Abs(negSum) {
		posSum += punct
	} else if posSum < math.Abs(negSum) {
		negSum -= punct
	}
	total := posSum + math.Abs(negSum) + float64(neu)
	return scores{
		compound: pyRound(compound, 4),
		pos:      pyRound(math.Abs(posSum/total), 3),
		neu:      pyRound(math.Abs(float64(neu)/total), 3),
		neg:      pyRound(math.Abs(negSum/total), 3),
	}
}

// punctuationEmphasis is the reference's _punctuation_emphasis.
func punctuationEmphasis(text string) float64 {
	ep, qm := 0, 0
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case '!':
			ep++
		case '?':
			qm++
		}
	}
	amp := float64(min(ep, 4)) * 0.292
	if qm > 1 {
		if qm <= 3 {
			amp += float64(qm) * 0.18
		} else {
			amp += 0.96
		}
	}
	return amp
}

// normalize maps a valence sum into [-1, 1] (alpha 15, as the reference).
func normalize(score float64) float64 {
	n := score / math.Sqrt(score*score+15)
	return max(-1, min(1, n))
}

var pow10 = [...]float64{1, 10, 100, 1000, 10000}

// pyRound is Python's round(x, prec) for prec <= 4: the decimal nearest to
// the exact binary value of x (ties to even), then the double nearest to it.
func pyRound(x float64, prec int) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) || math.Abs(x) >= 1e15 {
		return x
	}
	var buf [40]byte
	b := strconv.AppendFloat(buf[:0], x, 'f', prec, 64)
	neg := false
	var m uint64
	for _, c := range b {
		switch {
		case c == '-':
			neg = true
		case c >= '0' && c <= '9':
			m = m*10 + uint64(c-'0')
		}
	}
	r := float64(m) / pow10[prec]
	if neg {
		r = -r
	}
	return r
}
