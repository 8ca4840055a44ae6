package core

import (
	"strings"
)

// Kind flags say which chunk rules produced a candidate.
type Kind uint16

const (
	KNP Kind = 1 << iota
	KProper
	KNum
	KDate
	KAdj
	KOf
	KQuote
	KParen
	KSuffix
	KVerb
	KClause
	KEnt   // a named entity of package ner
	nKinds = 12
)

// A Cand is a candidate answer: the token range [S, E) of a Doc.
type Cand struct {
	S, E int
	K    Kind
}

const maxCandToks = 12

// maxClauseToks caps clause candidates ("because ...", "by ...ing").
const maxClauseToks = 20

var months = map[string]bool{"january": true, "february": true, "march": true, "april": true,
	"may": true, "june": true, "july": true, "august": true, "september": true, "october": true,
	"november": true, "december": true, "jan": true, "feb": true, "mar": true, "apr": true,
	"jun": true, "jul": true, "aug": true, "sep": true, "sept": true, "oct": true, "nov": true, "dec": true}

var numWords = map[string]bool{"one": true, "two": true, "three": true, "four": true, "five": true,
	"six": true, "seven": true, "eight": true, "nine": true, "ten": true, "eleven": true, "twelve": true,
	"thirteen": true, "fourteen": true, "fifteen": true, "sixteen": true, "seventeen": true,
	"eighteen": true, "nineteen": true, "twenty": true, "thirty": true, "forty": true, "fifty": true,
	"sixty": true, "seventy": true, "eighty": true, "ninety": true, "hundred": true, "thousand": true,
	"million": true, "billion": true, "trillion": true, "dozen": true, "half": true, "percent": true}

var ordinals = map[string]bool{"first": true, "second": true, "third": true, "fourth": true, "fifth": true,
	"sixth": true, "seventh": true, "eighth": true, "ninth": true, "tenth": true, "eleventh": true,
	"twelfth": true, "thirteenth": true, "fourteenth": true, "fifteenth": true, "sixteenth": true,
	"seventeenth": true, "eighteenth": true, "nineteenth": true, "twentieth": true, "twenty-first": true}

var eras = map[string]bool{"bc": true, "bce": true, "ad": true, "ce": true, "b.c.": true, "a.d.": true, "b.c": true, "a.d": true}

func isNoun(tag string) bool { return strings.HasPrefix(tag, "NN") }
func isAdj(tag string) bool  { return strings.HasPrefix(tag, "JJ") }
func isNum(t *Tok) bool      { return t.Tag == "CD" || numWords[t.Low] || numeric(t.Text) }

// numeric reports whether s is written as a number the tagger may have
// missed: digits with separators, and an optional per cent sign ("172.50",
// "3.2%", "1,200").
func numeric(s string) bool {
	s = strings.TrimSuffix(s, "%")
	if s == "" || s[0] < '0' || s[0] > '9' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if (s[i] < '0' || s[i] > '9') && s[i] != '.' && s[i] != ',' {
			return false
		}
	}
	return true
}
func isYear(t *Tok) bool {
	l := t.Low
	if strings.HasSuffix(l, "s") {
		l = l[:len(l)-1]
	}
	if len(l) < 3 || len(l) > 4 {
		return false
	}
	for i := 0; i < len(l); i++ {
		if l[i] < '0' || l[i] > '9' {
			return false
		}
	}
	return l[0] == '1' || (l[0] == '2' && l[1] == '0') || len(l) == 3
}
func isOrdinal(t *Tok) bool {
	if ordinals[t.Low] {
		return true
	}
	l := t.Low
	return len(l) > 2 && l[0] >= '0' && l[0] <= '9' && (strings.HasSuffix(l, "st") || strings.HasSuffix(l, "nd") || strings.HasSuffix(l, "rd") || strings.HasSuffix(l, "th"))
}
func isMonth(t *Tok) bool {
	l := strings.TrimSuffix(t.Low, ".")
	return months[l] && t.Cap && (l != "may" || t.Tag == "NNP") && (len(l) > 3 || t.Tag == "NNP")
}

// Candidates lists the candidate spans of sentence si of d: the spans of
// every extractor, in a fixed order, each span once with the kinds of all
// the extractors that produced it.
func Candidates(d *Doc, si int) []Cand {
	cs := newCandSet(d, si)
	properCands(cs)
	numberCands(cs)
	dateCands(cs)
	nps := nounPhraseCands(cs)
	ofCands(cs, nps)
	listCands(cs, nps)
	adjCands(cs)
	bracketCands(cs)
	verbCands(cs, nps)
	clauseCands(cs)
	entityCands(cs)
	return cs.out
}

// entityCands adds the named entities that lie within the sentence.
func entityCands(cs *candSet) {
	T := cs.T
	for i := cs.from; i < cs.to; i++ {
		if T[i].NE == "" || !T[i].NEB {
			continue
		}
		if e := entEnd(T, i); e <= cs.to {
			cs.add(i, e, KEnt)
		}
	}
}

// A candSet collects the candidates of one sentence, [from, to) of T.
type candSet struct {
	T        []Tok
	from, to int
	idx      map[[2]int]int
	out      []Cand
}

func newCandSet(d *Doc, si int) *candSet {
	return &candSet{T: d.Toks, from: d.Sents[si][0], to: d.Sents[si][1], idx: map[[2]int]int{}}
}

// add records [s, e) with kind k, trimmed of punctuation (a currency sign
// stays in front, a per cent sign at the end); spans over maxCandToks
// tokens are dropped.
func (cs *candSet) add(s, e int, k Kind) { cs.addUpTo(s, e, k, maxCandToks) }

// addUpTo is add with a cap of limit tokens.
func (cs *candSet) addUpTo(s, e int, k Kind, limit int) {
	T := cs.T
	for s < e && !T[s].Word && !isCurrency(T[s].Text) {
		s++
	}
	for e > s && !T[e-1].Word && T[e-1].Text != "%" {
		e--
	}
	if s >= e || e-s > limit {
		return
	}
	key := [2]int{s, e}
	if i, ok := cs.idx[key]; ok {
		cs.out[i].K |= k
		return
	}
	cs.idx[key] = len(cs.out)
	cs.out = append(cs.out, Cand{S: s, E: e, K: k})
}

func isCurrency(s string) bool { return s == "$" || s == "£" || s == "€" }

// properLike reports whether T[k] counts as part of a name: a proper-noun
// tag, or a capitalised content word inside the sentence, since the tagger
// misses some names ("Greaves" as a plural noun).
func (cs *candSet) properLike(k int) bool {
	t := &cs.T[k]
	if t.Tag == "NNP" || t.Tag == "NNPS" {
		return true
	}
	p := cs.T[max(k-1, 0)].Text
	return t.Cap && t.Word && !t.Stop && k > cs.from && (isNoun(t.Tag) || t.Tag == "VBZ" || t.Tag == "JJ" || t.Tag == "FW") &&
		p != ":" && p != "\"" && p != "“" && p != "("
}

// properCands adds proper-noun runs, allowing "of", "and", "the", "de",
// "for", "&", "von", "van" inside, with a leading "the" and the parts
// between the connectives.
func properCands(cs *candSet) {
	T, from, to := cs.T, cs.from, cs.to
	for i := from; i < to; {
		if !cs.properLike(i) {
			i++
			continue
		}
		j := i + 1
		for j < to {
			if cs.properLike(j) || (T[j].Tag == "CD" && !isYear(&T[j])) && j > i {
				j++
				continue
			}
			l := T[j].Low
			if (l == "of" || l == "and" || l == "the" || l == "de" || l == "for" || l == "&" || l == "von" || l == "van") && j+1 < to && cs.properLike(j+1) {
				j += 2
				continue
			}
			break
		}
		cs.add(i, j, KProper)
		if i > from && T[i-1].Low == "the" {
			cs.add(i-1, j, KProper)
		}
		p := i
		for k := i; k <= j; k++ {
			if k == j || T[k].Low == "and" || T[k].Low == "&" || T[k].Low == "of" {
				if p < k && !(p == i && k == j) {
					cs.add(p, k, KProper)
				}
				p = k + 1
			}
		}
		i = j
	}
}

// numberCands adds numbers with a currency sign, scale words, ranges, a
// hedge ("about 400") and up to three unit words.
func numberCands(cs *candSet) {
	T, from, to := cs.T, cs.from, cs.to
	for i := from; i < to; {
		if !isNum(&T[i]) {
			i++
			continue
		}
		s := i
		if s > from && (isCurrency(T[s-1].Text) || T[s-1].Text == "US$") {
			s--
		}
		j := i + 1
		for j < to && (isNum(&T[j]) || T[j].Text == "%" ||
			((T[j].Low == "and" || T[j].Low == "to" || T[j].Text == "-" || T[j].Text == "–" || T[j].Low == "or") && j+1 < to && isNum(&T[j+1]) && !isYear(&T[j+1]))) {
			j++
		}
		k := KNum
		if j-i == 1 && isYear(&T[i]) {
			k |= KDate
		}
		cs.add(s, j, k)
		if s > from {
			switch T[s-1].Low {
			case "about", "approximately", "over", "nearly", "around", "almost", "some", "roughly", "more", "less", "under", "least":
				cs.add(s-1, j, KNum)
			}
		}
		e := j
		for e < to && e < j+3 && (isNoun(T[e].Tag) || (isAdj(T[e].Tag) && e+1 < to && isNoun(T[e+1].Tag))) {
			e++
			cs.add(s, e, KNum)
		}
		i = j
	}
}

// dateCands adds dates: month with day and year, ordinal centuries and
// millennia, years with an era, and year ranges.
func dateCands(cs *candSet) {
	T, from, to := cs.T, cs.from, cs.to
	for i := from; i < to; i++ {
		t := &T[i]
		switch {
		case isMonth(t):
			s, e := i, i+1
			if s > from && T[s-1].Tag == "CD" && len(T[s-1].Text) <= 2 {
				s--
			}
			if e < to && T[e].Tag == "CD" && len(T[e].Text) <= 2 {
				e++
			}
			if e < to && T[e].Text == "," && e+1 < to && isYear(&T[e+1]) {
				e += 2
			} else if e < to && isYear(&T[e]) {
				e++
			}
			cs.add(s, e, KDate)
		case weekdays()[t.Stem] && t.Cap:
			// "Friday", "Friday, April 7": a month after it is added
			// below as well.
			cs.add(i, i+1, KDate)
			if i+2 < to && T[i+1].Text == "," && isMonth(&T[i+2]) {
				e := i + 3
				if e < to && T[e].Tag == "CD" && len(T[e].Text) <= 2 {
					e++
				}
				if e+1 < to && T[e].Text == "," && isYear(&T[e+1]) {
					e += 2
				}
				cs.add(i, e, KDate)
			}
		case isOrdinal(t) && i+1 < to && (strings.HasPrefix(T[i+1].Low, "centur") || strings.HasPrefix(T[i+1].Low, "millenni")):
			cs.add(i, i+2, KDate)
			if i > from && T[i-1].Low == "the" {
				cs.add(i-1, i+2, KDate)
			}
			if i+2 < to && eras[T[i+2].Low] {
				cs.add(i, i+3, KDate)
			}
		case isYear(t) || (t.Tag == "CD" && i+1 < to && eras[T[i+1].Low]):
			e := i + 1
			if e < to && eras[T[e].Low] {
				e++
			}
			cs.add(i, e, KDate|KNum)
			if i >= from+2 && (T[i-1].Low == "and" || T[i-1].Text == "–" || T[i-1].Text == "-" || T[i-1].Low == "to") && isYear(&T[i-2]) {
				cs.add(i-2, e, KDate)
			}
		}
	}
}

// A span is a token range [s, e).
type span struct{ s, e int }

// nounPhraseCands adds base noun phrases: the maximal run, the run without
// its determiner, its shorter suffixes (modifiers dropped) and the part
// before a possessive. It returns the maximal runs.
func nounPhraseCands(cs *candSet) []span {
	T, from, to := cs.T, cs.from, cs.to
	var nps []span
	for i := from; i < to; {
		if !npStart(T, i, to) {
			i++
			continue
		}
		j := i
		last := -1
		for j < to && npInside(T, j, to) {
			if isNoun(T[j].Tag) || T[j].Tag == "CD" || T[j].Tag == "PRP" {
				last = j
			}
			j++
		}
		if last < 0 {
			i = j
			continue
		}
		e := last + 1
		cs.add(i, e, KNP)
		core := i
		for core < e && (T[core].Tag == "DT" || T[core].Tag == "PRP$" || T[core].Tag == "PDT" || T[core].Tag == "POS") {
			core++
		}
		if core < e {
			cs.add(core, e, KNP)
			for k := core + 1; k < e; k++ {
				if T[k].Word && T[k].Tag != "POS" {
					cs.add(k, e, KNP|KSuffix)
				}
			}
			// A possessive splits the phrase: "Chopin's father".
			for k := core; k < e; k++ {
				if T[k].Tag == "POS" && k > core {
					cs.add(core, k, KNP)
				}
			}
		}
		nps = append(nps, span{i, e})
		i = e
	}
	return nps
}

// ofCands joins adjacent noun phrases over "of", "and", "in", "for",
// "from" (with and without the determiner), and a third over a second
// "of"/"and".
func ofCands(cs *candSet, nps []span) {
	T := cs.T
	for a := 0; a+1 < len(nps); a++ {
		x, y := nps[a], nps[a+1]
		if y.s == x.e+1 && (T[x.e].Low == "of" || T[x.e].Low == "and" || T[x.e].Low == "in" || T[x.e].Low == "for" || T[x.e].Low == "from") {
			k := KOf
			cs.add(x.s, y.e, k)
			c := x.s
			for c < x.e && (T[c].Tag == "DT" || T[c].Tag == "PRP$") {
				c++
			}
			cs.add(c, y.e, k)
			if T[x.e].Low == "of" && a+2 < len(nps) {
				z := nps[a+2]
				if z.s == y.e+1 && (T[y.e].Low == "of" || T[y.e].Low == "and") {
					cs.add(c, z.e, k)
				}
			}
		}
	}
}

// listCands adds lists of noun phrases: "storage conditions, compulsory
// texts and equipment".
func listCands(cs *candSet, nps []span) {
	T := cs.T
	for a := 0; a+1 < len(nps); a++ {
		e, items := nps[a].e, 1
		for b := a + 1; b < len(nps); b++ {
			gap := nps[b].s - e
			ok := false
			switch {
			case gap == 1 && (T[e].Text == "," || T[e].Low == "and" || T[e].Low == "or"):
				ok = true
			case gap == 2 && T[e].Text == "," && (T[e+1].Low == "and" || T[e+1].Low == "or"):
				ok = true
			}
			if !ok {
				break
			}
			e = nps[b].e
			items++
			if items >= 3 || T[nps[b].s-1].Low == "and" || T[nps[b].s-1].Low == "or" {
				c := nps[a].s
				for c < e && (T[c].Tag == "DT" || T[c].Tag == "PRP$") {
					c++
				}
				cs.add(c, e, KOf)
			}
		}
	}
}

// adjCands adds adjective runs, joined by "and" or commas.
func adjCands(cs *candSet) {
	T, to := cs.T, cs.to
	for i := cs.from; i < to; {
		if !isAdj(T[i].Tag) {
			i++
			continue
		}
		j := i + 1
		for j < to && (isAdj(T[j].Tag) || (T[j].Low == "and" || T[j].Text == ",") && j+1 < to && isAdj(T[j+1].Tag)) {
			j++
		}
		cs.add(i, j, KAdj)
		i = j
	}
}

// bracketCands adds the text inside quotes or parentheses.
func bracketCands(cs *candSet) {
	T, to := cs.T, cs.to
	for i := cs.from; i < to; i++ {
		var closer string
		k := KQuote
		switch T[i].Text {
		case "\"", "“", "``":
			closer = "\"”''"
		case "(":
			closer = ")"
			k = KParen
		default:
			continue
		}
		for j := i + 1; j < to && j <= i+maxCandToks+1; j++ {
			if strings.Contains(closer, T[j].Text) {
				if j > i+1 {
					cs.add(i+1, j, k)
				}
				break
			}
		}
	}
}

// verbCands adds a verb with its object, for "what did X do" questions.
func verbCands(cs *candSet, nps []span) {
	T := cs.T
	for i := cs.from; i < cs.to; i++ {
		if (T[i].Tag == "VBG" || T[i].Tag == "VB" || T[i].Tag == "VBD" || T[i].Tag == "VBN") && !T[i].Stop {
			for _, c := range nps {
				if c.s == i+1 || (c.s == i+2 && (T[i+1].Tag == "IN" || T[i+1].Tag == "TO" || T[i+1].Tag == "RP")) {
					cs.add(i, c.e, KVerb)
					break
				}
			}
		}
	}
}

// clauseMarkers open a reason or manner clause; the words after them up to
// the next comma, semicolon, colon or sentence end are a candidate, with
// and without the marker.
var clauseMarkers = [][]string{
	{"because", "of"}, {"because"}, {"due", "to"}, {"owing", "to"}, {"thanks", "to"},
	{"as", "a", "result", "of"}, {"in", "order", "to"}, {"so", "as", "to"}, {"so", "that"},
	{"in", "order", "that"}, {"in", "response", "to"}, {"in", "an", "effort", "to"},
	{"for", "fear", "of"}, {"since"},
}

// clauseBreaks end a clause early: the clause is also a candidate without
// what follows them.
var clauseBreaks = wordSet("and but while which who whereas although though so")

// clauseCands adds reason and manner clauses for why and how questions:
// after a marker ("because", "due to", "in order to"), "to" + verb
// (purpose) and "by" + a verb-ing or a common noun phrase (manner). Each
// ends at the next comma, semicolon, colon or the end of the sentence, and
// also before a conjunction or relative word inside it ("and", "which")
// and at the stop after one comma; at most maxClauseToks tokens.
func clauseCands(cs *candSet) {
	T, to := cs.T, cs.to
	stop := func(e int) bool {
		x := T[e].Text
		return x == "," || x == ";" || x == ":" || x == "." || x == "("
	}
	end := func(s int) int {
		e := s
		for e < to && !stop(e) {
			e++
		}
		return e
	}
	for i := cs.from; i < to; i++ {
		n := 0
		for _, m := range clauseMarkers {
			if i+len(m) >= to {
				continue
			}
			ok := true
			for k, w := range m {
				if T[i+k].Low != w {
					ok = false
					break
				}
			}
			if ok {
				n = len(m)
				break
			}
		}
		switch {
		case n == 0 && (T[i].Low == "to" && i+1 < to && T[i+1].Tag == "VB" ||
			T[i].Low == "by" && i+1 < to && (T[i+1].Tag == "VBG" || T[i+1].Tag == "NN" || T[i+1].Tag == "NNS" ||
				isAdj(T[i+1].Tag) || T[i+1].Tag == "DT")):
			n = 1
		case n == 0:
			continue
		}
		s := i + n
		e := end(s)
		if e <= s {
			continue
		}
		ends := []int{e}
		for j := s + 1; j < e; j++ {
			if clauseBreaks()[T[j].Low] {
				ends = append(ends, j)
				break
			}
		}
		if e < to && T[e].Text == "," && e+1 < to {
			if e2 := end(e + 1); e2 > e+1 {
				ends = append(ends, e2)
			}
		}
		for _, e := range ends {
			cs.addUpTo(i, e, KClause, maxClauseToks)
			cs.addUpTo(s, e, KClause, maxClauseToks)
		}
	}
	if MannerPP {
		mannerCands(cs)
	}
}

// MannerPP turns on mannerCands (an experiment; off by default).
var MannerPP = false

// mannerCands adds the means a preposition names, as a short phrase:
// "by", "via", "through", "using" or "with" and the noun phrase after it
// ("by train" in "travelled to Paris by train to study physics"), with a
// second noun phrase over "of" or "and" ("by foot or air"), and for "by"
// a verb's -ing form with its object ("by joining cloaca").
func mannerCands(cs *candSet) {
	T, to := cs.T, cs.to
	npEnd := func(j int) int {
		if j >= to || !npStart(T, j, to) {
			return -1
		}
		last := -1
		for k := j; k < to && npInside(T, k, to); k++ {
			if isNoun(T[k].Tag) || T[k].Tag == "CD" {
				last = k
			}
		}
		return last + 1
	}
	for i := cs.from; i+1 < to; i++ {
		switch T[i].Low {
		case "by", "via", "through", "using", "with":
		default:
			continue
		}
		j := i + 1
		if T[i].Low == "by" && T[j].Tag == "VBG" {
			j++
		}
		e := npEnd(j)
		if e <= 0 {
			continue
		}
		cs.add(i, e, KClause)
		if e+1 < to && (T[e].Low == "of" || T[e].Low == "and" || T[e].Low == "or") {
			if e2 := npEnd(e + 1); e2 > 0 {
				cs.add(i, e2, KClause)
			}
		}
	}
}

func npStart(T []Tok, i, to int) bool {
	tg := T[i].Tag
	switch {
	case tg == "DT" || tg == "PRP$" || tg == "PDT" || tg == "CD" || tg == "PRP":
		return true
	case isAdj(tg) || isNoun(tg):
		return true
	case (tg == "VBG" || tg == "VBN") && i+1 < to && isNoun(T[i+1].Tag):
		return true
	}
	return false
}

func npInside(T []Tok, j, to int) bool {
	tg := T[j].Tag
	switch {
	case tg == "DT" || tg == "PRP$" || tg == "PDT" || tg == "CD" || tg == "POS" || tg == "HYPH":
		return true
	case isAdj(tg) || isNoun(tg):
		return true
	case tg == "PRP":
		return true
	case (tg == "VBG" || tg == "VBN") && j+1 < to && (isNoun(T[j+1].Tag) || isAdj(T[j+1].Tag)):
		return true
	case T[j].Text == "-" && j+1 < to && (isNoun(T[j+1].Tag) || isAdj(T[j+1].Tag)):
		return true
	}
	return false
}
