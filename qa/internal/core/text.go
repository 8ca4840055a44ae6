package core

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"io"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/textanalysis/go-textanalysis/internal/nlp"
)

// A Tok is a token of a context or a question with what the features need.
type Tok struct {
	Text  string
	Low   string // lower case
	Stem  string // light stem of Low
	Tag   string // Penn Treebank tag
	Start int    // code points, end exclusive
	End   int
	Sent  int  // sentence index in the Doc
	Word  bool // has a letter or digit
	Stop  bool // a function word
	Cap   bool // starts with an upper-case letter
	Digit bool // holds a digit
	// NE is the label of the named entity (package ner, default model)
	// the token is part of, "" outside entities; NEB marks an entity's
	// first token.
	NE    string
	NEB   bool
	index int // position in the Doc
}

// A Doc is a tagged context (or one passage of it), split into sentences.
type Doc struct {
	Toks  []Tok
	Sents [][2]int // token ranges [from, to)
}

// NewDoc tags text and splits it into sentences. base is added to every
// offset, so a passage of a longer text keeps the offsets of the whole.
func NewDoc(text string, base int) (*Doc, error) {
	spaced, orig := spaceDashes(text)
	ntoks, err := nlp.Tag(spaced)
	if err != nil {
		return nil, err
	}
	sents, err := nlp.Sentences(spaced)
	if err != nil {
		return nil, err
	}
	if orig != nil {
		for i := range ntoks {
			ntoks[i].Start, ntoks[i].End = orig[ntoks[i].Start], orig[ntoks[i].End-1]+1
		}
		for i := range sents {
			sents[i].Start, sents[i].End = orig[sents[i].Start], orig[sents[i].End-1]+1
		}
	}
	d := &Doc{Toks: make([]Tok, 0, len(ntoks))}
	si := 0
	rs := []rune(text)
	lineToks := 0 // tokens since the last line break
	extra := 0    // sentences added at line breaks
	for k, nt := range ntoks {
		// A token belongs to the sentence whose end it does not pass.
		for si < len(sents)-1 && nt.Start >= sents[si].End {
			si++
		}
		// The splitter runs headings and paragraphs together when they
		// lack a full stop: a blank line always ends a sentence, a line
		// break does after a short line without final punctuation.
		if k > 0 {
			prev := ntoks[k-1]
			nl := 0
			for _, r := range rs[min(prev.End, len(rs)):min(nt.Start, len(rs))] {
				if r == '\n' {
					nl++
				}
			}
			if nl > 0 {
				last := prev.Text
				if nl > 1 || (lineToks <= 12 && last != "." && last != "," && last != ";" && last != ":") {
					if d.Toks[len(d.Toks)-1].Sent == si+extra {
						extra++
					}
				}
				lineToks = 0
			}
		}
		lineToks++
		// The tagger guesses at the symbols spaceDashes splits off
		// ("—" as NNP, "[" as a verb); they get their Penn Treebank tags.
		tag := nt.Tag
		switch nt.Text {
		case "—":
			tag = ":"
		case "[":
			tag = "("
		case "]":
			tag = ")"
		case "£", "€":
			tag = "$"
		case "~":
			tag = "SYM"
		}
		t := MakeTok(nt.Text, tag)
		t.Start, t.End = nt.Start+base, nt.End+base
		t.Sent = si + extra
		d.Toks = append(d.Toks, t)
	}
	// Sentence token ranges; empty sentences are dropped and indices
	// renumbered.
	from := 0
	for i := 0; i <= len(d.Toks); i++ {
		if i == len(d.Toks) || (i > from && d.Toks[i].Sent != d.Toks[from].Sent) {
			if i > from {
				d.Sents = append(d.Sents, [2]int{from, i})
			}
			from = i
		}
	}
	for si, r := range d.Sents {
		for i := r[0]; i < r[1]; i++ {
			d.Toks[i].Sent = si
		}
	}
	for i := range d.Toks {
		d.Toks[i].index = i
	}
	if err := markEntities(d, text, base); err != nil {
		return nil, err
	}
	// Very long sentences (lists, tables flattened to text) are cut so
	// that window features and candidate counts stay bounded.
	d.Sents = cutLong(d, 80)
	return d, nil
}

// spaceDashes puts spaces around the symbols the tagger keeps inside a
// token, so that the words on either side can be answers: an em dash
// between words ("Dyrrachium—one"), a footnote mark ("oxygen.[b]"), and a
// currency sign or "~" before a number ("£20,427", "~74,000"; "$" is split
// by the tagger already). En dashes stay: they join names and ranges that
// answers keep whole ("Miller–Rabin test", "1914–1918"). orig maps each
// code point of the spaced text to its place in text; it is nil when
// nothing changed.
func spaceDashes(text string) (spaced string, orig []int) {
	rs := []rune(text)
	split := func(i int) bool {
		if i+1 >= len(rs) {
			return false
		}
		switch rs[i] {
		case '—', '[':
			return i > 0 && !unicode.IsSpace(rs[i-1]) && !unicode.IsSpace(rs[i+1])
		case '~', '£', '€':
			return unicode.IsDigit(rs[i+1])
		}
		return false
	}
	n := 0
	for i := range rs {
		if split(i) {
			n++
		}
	}
	if n == 0 {
		return text, nil
	}
	out := make([]rune, 0, len(rs)+2*n)
	orig = make([]int, 0, len(rs)+2*n)
	for i, r := range rs {
		if split(i) {
			out = append(out, ' ', r, ' ')
			orig = append(orig, i, i, i)
			continue
		}
		out = append(out, r)
		orig = append(orig, i)
	}
	return string(out), orig
}

func cutLong(d *Doc, max int) [][2]int {
	var out [][2]int
	for _, r := range d.Sents {
		for r[1]-r[0] > max {
			out = append(out, [2]int{r[0], r[0] + max})
			r[0] += max
		}
		out = append(out, r)
	}
	for si, r := range out {
		for i := r[0]; i < r[1]; i++ {
			d.Toks[i].Sent = si
		}
	}
	return out
}

// MakeTok fills the derived fields of a token.
func MakeTok(text, tag string) Tok {
	low := strings.ToLower(text)
	t := Tok{Text: text, Low: low, Tag: tag}
	for _, r := range text {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			t.Word = true
		}
		if unicode.IsDigit(r) {
			t.Digit = true
		}
	}
	if r, _ := utf8.DecodeRuneInString(text); unicode.IsUpper(r) {
		t.Cap = true
	}
	t.Stop = stopWords[low]
	t.Stem = Stem(low)
	if low == "found" && (tag == "VB" || tag == "VBP") {
		// "they found companies": to found, not the past of find.
		t.Stem = "found"
	}
	return t
}

// Stem is a light suffix stripper: enough to match "founded" with
// "founding" and "cities" with "city", cheap and predictable. Irregular
// forms and nouns made from verbs stem as their lemma does ("invasion"
// and "invaded", "better" and "good"; see lemmas).
func Stem(w string) string {
	if l, ok := lemmas()[w]; ok {
		return l
	}
	return lightStem(w)
}

//go:embed lemmas.txt.gz
var lemmaData []byte

// lemmas maps irregular and derived forms to the light stem of their
// lemma, so that a form and its lemma stem alike ("made" and "make"): the
// words of lemmas.txt.gz (written by qa/cmd/genlemmas from WordNet:
// irregular inflections and nouns derived from verbs), then the list
// irregular, which wins.
var lemmas = sync.OnceValue(func() map[string]string {
	m := map[string]string{}
	if zr, err := gzip.NewReader(bytes.NewReader(lemmaData)); err == nil {
		if b, err := io.ReadAll(zr); err == nil {
			for _, line := range strings.Split(string(b), "\n") {
				if form, base, ok := strings.Cut(line, "\t"); ok {
					m[form] = lightStem(base)
				}
			}
		}
	}
	for form, base := range irregular {
		m[form] = lightStem(base)
	}
	return m
})

// lightStem is Stem's suffix rules.
func lightStem(w string) string {
	if len(w) <= 3 {
		return w
	}
	switch {
	case strings.HasSuffix(w, "ies") && len(w) > 4:
		return w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "ied") && len(w) > 4:
		return w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "sses"):
		return w[:len(w)-2]
	case strings.HasSuffix(w, "ness") && len(w) > 6:
		return w[:len(w)-4]
	case strings.HasSuffix(w, "ing") && len(w) > 5:
		return undouble(w[:len(w)-3])
	case strings.HasSuffix(w, "ed") && len(w) > 4:
		return undouble(w[:len(w)-2])
	case strings.HasSuffix(w, "ly") && len(w) > 5:
		return w[:len(w)-2]
	case strings.HasSuffix(w, "'s") || strings.HasSuffix(w, "’s"):
		return strings.TrimSuffix(strings.TrimSuffix(w, "'s"), "’s")
	case strings.HasSuffix(w, "es") && len(w) > 4 && (strings.HasSuffix(w, "shes") || strings.HasSuffix(w, "ches") || strings.HasSuffix(w, "xes")):
		return w[:len(w)-2]
	case strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is"):
		return strings.TrimSuffix(w[:len(w)-1], "e") // "produces" as "produce"
	}
	return strings.TrimSuffix(w, "e")
}

func undouble(w string) string {
	n := len(w)
	if n >= 2 && w[n-1] == w[n-2] && !strings.ContainsRune("lsz", rune(w[n-1])) {
		return w[:n-1]
	}
	return strings.TrimSuffix(w, "e")
}

var irregular = map[string]string{
	"was": "be", "were": "be", "is": "be", "are": "be", "been": "be", "being": "be",
	"has": "have", "had": "have", "having": "have", "did": "do", "does": "do", "done": "do",
	"went": "go", "gone": "go", "made": "make", "built": "build", "won": "win", "began": "begin",
	"begun": "begin", "wrote": "write", "written": "write", "took": "take", "taken": "take",
	"gave": "give", "given": "give", "found": "find", "became": "become", "known": "know",
	"knew": "know", "held": "hold", "led": "lead", "left": "leave", "lost": "lose", "paid": "pay",
	"sold": "sell", "told": "tell", "thought": "think", "brought": "bring", "bought": "buy",
	"men": "man", "women": "woman", "children": "child", "people": "person", "saw": "see",
	"seen": "see", "came": "come", "ran": "run", "spoke": "speak", "spoken": "speak",
	"chose": "choose", "chosen": "choose", "fell": "fall", "fallen": "fall", "grew": "grow",
	"grown": "grow", "drew": "draw", "drawn": "draw", "meant": "mean", "sent": "send",
	"spent": "spend", "stood": "stand", "struck": "strike", "taught": "teach", "fought": "fight",
	"caught": "catch", "sought": "seek", "died": "die", "dies": "die", "dying": "die",
	"named": "name", "called": "call",
	// More irregular verbs, and the nouns and adjectives that stand for a
	// verb in questions ("born" and "birth", "died" and "death").
	"met": "meet", "meets": "meet", "meeting": "meet", "born": "birth", "births": "birth",
	"death": "die", "deaths": "die", "dead": "die", "ate": "eat", "eaten": "eat",
	"fed": "feed", "felt": "feel", "fled": "flee", "flew": "fly", "flown": "fly",
	"forgot": "forget", "forgotten": "forget", "froze": "freeze", "frozen": "freeze",
	"got": "get", "gotten": "get", "hid": "hide", "hidden": "hide", "hit": "hit",
	"hung": "hang", "heard": "hear", "kept": "keep", "laid": "lay", "lain": "lie",
	"lay": "lie", "lent": "lend", "lit": "light", "rode": "ride", "ridden": "ride",
	"rang": "ring", "rung": "ring", "rose": "rise", "risen": "rise", "said": "say",
	"says": "say", "shook": "shake", "shaken": "shake", "shot": "shoot", "showed": "show",
	"shown": "show", "sang": "sing", "sung": "sing", "sank": "sink", "sunk": "sink",
	"sat": "sit", "slept": "sleep", "slid": "slide", "stole": "steal", "stolen": "steal",
	"stuck": "stick", "swam": "swim", "swum": "swim", "swore": "swear", "sworn": "swear",
	"tore": "tear", "torn": "tear", "threw": "throw", "thrown": "throw", "understood": "understand",
	"woke": "wake", "woken": "wake", "wore": "wear", "worn": "wear",
	"withdrew": "withdraw", "withdrawn": "withdraw", "arose": "arise", "arisen": "arise",
	"awoke": "awake", "bore": "bear", "borne": "bear", "beat": "beat", "beaten": "beat",
	"bent": "bend", "bet": "bet", "bit": "bite", "bitten": "bite", "bled": "bleed",
	"blew": "blow", "blown": "blow", "broke": "break", "broken": "break", "bred": "breed",
	"burnt": "burn", "dealt": "deal", "dug": "dig", "drank": "drink", "drunk": "drink",
	"drove": "drive", "driven": "drive", "dwelt": "dwell", "forbade": "forbid", "forbidden": "forbid",
	"foresaw": "foresee", "foreseen": "foresee", "forgave": "forgive", "forgiven": "forgive",
	"overcame": "overcome", "overtook": "overtake", "overthrew": "overthrow", "overthrown": "overthrow",
	"quit": "quit", "sped": "speed", "spun": "spin", "spread": "spread", "sprang": "spring",
	"sprung": "spring", "stung": "sting", "strove": "strive", "swept": "sweep", "swung": "swing",
	"undertook": "undertake", "undertaken": "undertake", "upheld": "uphold", "wept": "weep",
	"won't": "will", "wrought": "work", "mice": "mouse", "geese": "goose", "teeth": "tooth",
	"feet": "foot", "wives": "wife", "wolves": "wolf",
	"marriage": "marry", "married": "marry", "founder": "found", "founders": "found",
	"foundation": "found", "invention": "invent", "inventor": "invent", "discovery": "discover",
	"creation": "create", "creator": "create", "election": "elect", "elected": "elect",
	"construction": "construct", "production": "produce", "producer": "produce",
	"publication": "publish", "destruction": "destroy", "destroyed": "destroy",
	"retirement": "retire", "retired": "retire", "arrival": "arrive", "arrived": "arrive",
	"departure": "depart", "beginning": "begin", "ending": "end",
}

var stopWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a an the of in on at to for from by with about as into onto upon
		and or but nor so yet if then than that this these those there here
		is are was were be been being am do does did done have has had having
		i me my we our you your he him his she her it its they them their
		what which who whom whose when where why how
		not no can could would should will shall may might must
		also very more most some any all each other such only own same just
		one ' 's ’s , . ; : ? ! " “ ” ( ) - – — ' ‘ ’`) {
		m[w] = true
	}
	return m
}()
