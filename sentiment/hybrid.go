package sentiment

import (
	"math"
	"sync"

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
	lr.Featurize(&sc.t, sc.toks, lr.Vader{Compound: v.compound, Pos: v.pos, Neu: v.neu, Neg: v.neg, MeanSentence: meanSentence}, lr.DomainOf(text))
	p := h.m.Predict(&sc.t)
	return hybridScores(p)
}

// hybridScores maps the model's probabilities onto VADER's fields: pos, neu
// and neg are the probabilities of the three classes, and compound is
// 2·P(positive | polar) − 1 squeezed into (−0.05, 0.05) for a neutral text
// and stretched outside it otherwise, so that VADER's ±0.05 thresholds give
// the model's label.
func hybridScores(p lr.Scores) scores {
	d := 2*p.PPos - 1
	var c float64
	if p.Neutral {
		c = 0.049 * d
		if c != 0 && math.Abs(c) < 0.0001 {
			c = math.Copysign(0.0001, c)
		}
	} else {
		c = math.Copysign(0.05+0.95*math.Abs(d), d)
	}
	return scores{
		compound: pyRound(c, 4),
		pos:      pyRound(p.PPolar*p.PPos, 3),
		neu:      pyRound(1-p.PPolar, 3),
		neg:      pyRound(p.PPolar*(1-p.PPos), 3),
	}
}
