package sentiment

import (
	"math"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/textanalysis/go-textanalysis/sentiment/internal/lr"
)

// hybrid is the learned model: two logistic regressions over hashed words
// and bigrams with negation marking, blended with VADER's scores.
type hybrid struct {
	m *lr.Model
}

type hybridScratch struct {
	toks []string
	t    lr.Text
}

var hybridPool = sync.Pool{New: func() any { return new(hybridScratch) }}

// score rates text given its VADER scores and the mean VADER compound of
// its sentences.
func (h *hybrid) score(text string, v scores, meanSentence float64) scores {
	sc := hybridPool.Get().(*hybridScratch)
	defer hybridPool.Put(sc)
	sc.toks = lr.Tokens(sc.toks[:0], text)
	if len(sc.toks) == 0 {
		// no word, number, emoji or "!": nothing to score (all zeros,
		// neutral), as with VADER
		return scores{}
	}
	h.m.Featurize(&sc.t, sc.toks, lr.Vader{Compound: v.compound, Pos: v.pos, Neu: v.neu, Neg: v.neg, MeanSentence: meanSentence}, lr.DomainOf(text))
	h.m.PrepareTweet(&sc.t, text, sc.toks)
	p := h.m.Predict(&sc.t)
	limit := 0.0
	if math.Abs(v.compound) >= 0.05 && shortText(sc.toks) {
		limit = math.Abs(v.compound)
	}
	return hybridScores(p, limit)
}

// shortWords is the most words a text may have for [shortText].
const shortWords = 3

// shortText reports whether toks hold at most shortWords words (tokens
// that start with a letter or digit; "!", emoticons and emoji do not
// count).
func shortText(toks []string) bool {
	n := 0
	for _, t := range toks {
		if r, _ := utf8.DecodeRuneInString(t); unicode.IsLetter(r) || unicode.IsDigit(r) {
			n++
			if n > shortWords {
				return false
			}
		}
	}
	return true
}

// hybridScores maps the model's probabilities onto VADER's fields. pos,
// neu and neg are the probabilities of the three classes:
// P(polar)·P(positive | polar), 1 − P(polar) and P(polar)·P(negative |
// polar). compound is pos − neg, the expected polarity, so its sign follows
// the evidence and its magnitude is a confidence; the label is carried by
// VADER's ±0.05 thresholds: a polar text's compound is at least 0.05 in
// magnitude, and a neutral text's is pos − neg scaled into (−0.05, 0.05).
//
// A limit above 0 bounds the confidence of a text with little evidence (a
// very short one, see [shortText]): pos and neg are scaled down, and neu
// up, until |pos − neg| is at most limit, VADER's own |compound|, which for
// a word or two is the words' rated intensity ("meh" is mildly negative,
// not −0.5). The label is unchanged.
func hybridScores(p lr.Scores, limit float64) scores {
	pos := p.PPolar * p.PPos
	neg := p.PPolar * (1 - p.PPos)
	neu := 1 - p.PPolar
	d := pos - neg
	if limit > 0 && math.Abs(d) > limit {
		s := limit / math.Abs(d)
		pos, neg, d = pos*s, neg*s, d*s
		neu = 1 - pos - neg
	}
	var c float64
	if p.Neutral {
		c = 0.049 * d
		if c != 0 && math.Abs(c) < 0.0001 {
			c = math.Copysign(0.0001, c)
		}
	} else {
		c = math.Copysign(max(0.05, math.Abs(d)), d)
		if d == 0 {
			c = 0.05
		}
	}
	// Python's round-half-even is VADER's business; plain rounding is
	// enough here and much cheaper than pyRound.
	return scores{
		compound: round(c, 1e4),
		pos:      round(pos, 1e3),
		neu:      round(neu, 1e3),
		neg:      round(neg, 1e3),
	}
}

func round(x, scale float64) float64 {
	return math.Round(x*scale) / scale
}
