package core

import (
	"strings"

	"github.com/textanalysis/go-textanalysis/internal/nlp"
)

// A Question is a tagged question with its answer-type cues.
type Question struct {
	Toks  []Tok
	Wh    string // what, which, who, when, where, why, how, how_many, ..., or "none"
	WhPos int    // token index of the wh-word, -1 if none
	Head  string // stem of the noun the wh-word asks for ("year", "country"), or ""
	// Type is the answer type asked for (TDate, TMoney, ...), TOther when
	// the question's words do not say.
	Type string
	// Terms are the distinct content stems with their weights (idf).
	Terms map[string]float64
	// Pos gives, for each content stem, its token index in the question.
	Pos map[string]int
	// Verbs are the stems of the question's content verbs.
	Verbs map[string]bool
	// Bigrams are adjacent content-stem pairs of the question, "a b".
	Bigrams map[string]bool
	// Prefix maps the first prefixLen bytes of the longer terms to the term,
	// for loose matches ("invented" and "inventor", "Norway" and "Norwegian").
	Prefix map[string]string
	// Number says whether the question asks for one thing or several
	// (see qNumber).
	Number string
	// Count is the number of things asked for when a number word says
	// it ("what were three sites"), 2 to 5, or 0.
	Count int
}

const prefixLen = 5

var whWords = map[string]bool{"what": true, "which": true, "who": true, "whom": true, "whose": true,
	"when": true, "where": true, "why": true, "how": true}

var howMods = map[string]bool{"many": true, "much": true, "long": true, "old": true, "far": true,
	"big": true, "large": true, "often": true, "tall": true, "high": true, "few": true, "early": true,
	"late": true, "deep": true, "wide": true, "fast": true, "soon": true, "small": true, "heavy": true}

// NewQuestion tags and analyses a question. idf weighs its terms.
func NewQuestion(text string, idf func(string) float64) (*Question, error) {
	ntoks, err := nlp.Tag(text)
	if err != nil {
		return nil, err
	}
	q := &Question{Wh: "none", WhPos: -1, Terms: map[string]float64{}, Pos: map[string]int{},
		Verbs: map[string]bool{}, Bigrams: map[string]bool{}, Prefix: map[string]string{}}
	for _, nt := range ntoks {
		t := MakeTok(nt.Text, nt.Tag)
		t.Start, t.End = nt.Start, nt.End
		q.Toks = append(q.Toks, t)
	}
	aux := false
	for i := range q.Toks {
		// After "did" or "does", "found" is to found, not the past of
		// find (the tagger is not sure of the tag).
		if q.Toks[i].Low == "found" && aux {
			q.Toks[i].Stem = "found"
		}
		aux = aux || q.Toks[i].Stem == "do"
	}
	for i, t := range q.Toks {
		if whWords[t.Low] {
			q.WhPos = i
			q.Wh = t.Low
			if t.Low == "whom" {
				q.Wh = "who"
			}
			break
		}
	}
	if q.WhPos < 0 {
		// "Name the ...", "In 1990 X did ..." : the type is unknown.
		if len(q.Toks) > 0 && (q.Toks[0].Low == "name" || q.Toks[0].Low == "list") {
			q.Wh = "name"
		}
	} else {
		j := q.WhPos + 1
		if q.Wh == "how" && j < len(q.Toks) && howMods[q.Toks[j].Low] {
			q.Wh = "how_" + q.Toks[j].Low
		}
		if q.Wh == "what" || q.Wh == "which" || q.Wh == "whose" || strings.HasPrefix(q.Wh, "how_") {
			// Skip adjectives and determiners to reach the head noun:
			// "what kind of", "which European country".
			for k := j; k < len(q.Toks) && k < j+4; k++ {
				tg := q.Toks[k].Tag
				if strings.HasPrefix(tg, "NN") {
					// The last of a run of nouns: "which oil producer".
					for k+1 < len(q.Toks) && (q.Toks[k+1].Tag == "NN" || q.Toks[k+1].Tag == "NNS") && !ofHeads[q.Toks[k].Low] {
						k++
					}
					q.Head = q.Toks[k].Stem
					if ofHeads[q.Toks[k].Low] && k+1 < len(q.Toks) && q.Toks[k+1].Low == "of" {
						if h := subjectHead(q.Toks, k+2); h != "" {
							q.Head += "_of_" + h
						}
					}
					break
				}
				if !(strings.HasPrefix(tg, "JJ") || tg == "DT" || tg == "RB" || q.Toks[k].Low == "many" || q.Toks[k].Low == "much") {
					break
				}
			}
		}
		if (q.Wh == "what" || q.Wh == "which") && q.Head == "" && j < len(q.Toks) && q.Toks[j].Stem == "be" {
			// "What was the wedding date?": the subject names the class
			// of the answer.
			q.Head = subjectHead(q.Toks, j+1)
		}
		if (q.Wh == "what" || q.Wh == "which") && q.Head == "" && j < len(q.Toks) {
			// "what is", "what did": keep the verb as a weak cue.
			if strings.HasPrefix(q.Toks[j].Tag, "VB") || q.Toks[j].Tag == "MD" {
				q.Head = "v:" + q.Toks[j].Stem
			}
		}
	}
	q.Type = questionType(q.Wh, q.Head)
	q.Number = qNumber(q)
	q.Count = qCount(q)
	if q.Type == TOther && q.Head != "" && !strings.HasPrefix(q.Head, "v:") && !strings.Contains(q.Head, "_of_") {
		q.Type = classType(q.Toks, q.Head)
	}
	prev := ""
	for i, t := range q.Toks {
		if !t.Word || t.Stop {
			prev = ""
			continue
		}
		if _, ok := q.Terms[t.Stem]; !ok {
			q.Terms[t.Stem] = idf(t.Stem)
			q.Pos[t.Stem] = i
			if len(t.Stem) >= prefixLen+1 {
				q.Prefix[t.Stem[:prefixLen]] = t.Stem
			}
		}
		if strings.HasPrefix(t.Tag, "VB") {
			q.Verbs[t.Stem] = true
		}
		if prev != "" {
			q.Bigrams[prev+" "+t.Stem] = true
		}
		prev = t.Stem
	}
	return q, nil
}

// endsWithDo reports whether the question's last word is "do" or
// "doing" ("What does the Sieve of Eratosthenes do?"): it asks for an
// activity.
func (q *Question) endsWithDo() bool {
	for i := len(q.Toks) - 1; i >= 0; i-- {
		if t := &q.Toks[i]; t.Word {
			return t.Low == "do" || t.Low == "doing"
		}
	}
	return false
}

// Named reports whether the question names someone or something: a
// proper noun, or a capitalised content word after the first word.
func (q *Question) Named() bool {
	for i, t := range q.Toks {
		if t.Word && !t.Stop && (t.Tag == "NNP" || t.Tag == "NNPS" || i > 0 && t.Cap) {
			return true
		}
	}
	return false
}

// ofHeads are the nouns that name the class by the noun after "of": "the
// kind of stone".
var ofHeads = map[string]bool{"kind": true, "kinds": true, "type": true, "types": true, "sort": true,
	"form": true, "forms": true, "part": true, "name": true}

// subjectHead is the head noun of the noun phrase at toks[k:] after "what
// is": the last noun of its first run of nouns, past a possessive ("the
// language's final form"), as "kind_of_x" for "the kind of x". It is ""
// when the phrase has no common noun (a name says nothing of the class).
func subjectHead(toks []Tok, k int) string {
	head, low := "", ""
	for ; k < len(toks); k++ {
		t := &toks[k]
		switch {
		case t.Tag == "NN" || t.Tag == "NNS":
			head, low = t.Stem, t.Low
			continue
		case t.Tag == "NNP" || t.Tag == "NNPS" || isAdj(t.Tag) || t.Tag == "DT" || t.Tag == "PRP$" || t.Tag == "CD" || strings.HasPrefix(t.Tag, "RB"):
			if head == "" {
				continue
			}
		case t.Tag == "POS":
			head = ""
			continue
		}
		break
	}
	if ofHeads[low] && k < len(toks) && toks[k].Low == "of" {
		if h := subjectHead(toks, k+1); h != "" {
			head += "_of_" + h
		}
	}
	return head
}

// classType is the answer type that the head noun's WordNet classes
// imply ("which senator": a person, a name), TOther if none.
func classType(toks []Tok, head string) string {
	for _, t := range toks {
		if t.Stem != head {
			continue
		}
		for _, c := range [...]struct{ class, typ string }{
			{"person", TName}, {"organization", TName}, {"country", TPlace}, {"city", TPlace}, {"region", TPlace},
			{"period", TDate},
		} {
			if _, is := IsA(t.Low, Stem(c.class)); is {
				return c.typ
			}
		}
		break
	}
	return TOther
}

// qNumber says whether the question asks for one thing or several,
// from the five tokens after the wh-word: "n" for a number other than
// one ("what three sites"; any CD counts, a year too: not telling years
// apart measured +0.05 EM, +0.08 F1 on six held-out folds, within noise,
// so the trained features were kept), "pl" or "sg" for the first noun
// ("what countries"), with "s" or "v" before "sg" when the verb after
// the wh-word is singular or plural, and "s", "v" or "?" without a noun
// ("what were built").
func qNumber(q *Question) string {
	if q.WhPos < 0 {
		return "?"
	}
	aux := "?"
	for k := q.WhPos + 1; k < len(q.Toks) && k < q.WhPos+6; k++ {
		t := &q.Toks[k]
		switch {
		case t.Tag == "CD" || numWords[t.Low] && t.Low != "half" && t.Low != "percent":
			if t.Low != "one" {
				return "n"
			}
		case t.Tag == "NNS" || t.Tag == "NNPS":
			return "pl"
		case t.Tag == "NN" || t.Tag == "NNP":
			if aux != "?" {
				return aux + "sg"
			}
			return "sg"
		case k == q.WhPos+1 && (t.Low == "were" || t.Low == "are" || t.Low == "have"):
			aux = "v"
		case k == q.WhPos+1 && (t.Low == "was" || t.Low == "is" || t.Low == "has"):
			aux = "s"
		}
	}
	return aux
}

// qCount is the number word within three tokens after the wh-word
// ("what were three sites", "which two"), 2 to 5, or 0.
func qCount(q *Question) int {
	if q.WhPos < 0 {
		return 0
	}
	n := 0
	for k := q.WhPos + 1; k < len(q.Toks) && k < q.WhPos+4; k++ {
		switch q.Toks[k].Low {
		case "two", "both":
			n = 2
		case "three":
			n = 3
		case "four":
			n = 4
		case "five":
			n = 5
		}
	}
	return n
}
