package sentiment

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"unicode/utf8"

	"github.com/textanalysis/go-textanalysis/sentiment/internal/lr"
)

// Model names accepted by [Options.Model].
const (
	// ModelVADER is a faithful port of VADER 3.3.2: the whole-text scores
	// equal those of the reference Python polarity_scores.
	ModelVADER = "vader"

	// ModelHybrid is a learned model: logistic regressions over words and
	// word pairs with negation marking, blended with VADER's scores, trained
	// on public review, movie-phrase and tweet corpora (see [Models]).
	ModelHybrid = "hybrid"

	// DefaultModel is the model used when [Options.Model] is empty.
	DefaultModel = ModelHybrid
)

// DefaultMaxRunes is the text length [Analyzer.Analyze] accepts when
// [Options.MaxRunes] is zero.
const DefaultMaxRunes = 100_000

// Label values of [Result] and [Sentence].
const (
	LabelPositive = "positive"
	LabelNegative = "negative"
	LabelNeutral  = "neutral"
)

var (
	// ErrTooLong is returned by [Analyzer.Analyze] when the text has more
	// code points than [Options.MaxRunes].
	ErrTooLong = errors.New("sentiment: text too long")

	// ErrUnknownModel is wrapped by the error [New] returns for a model name
	// that [Models] does not list.
	ErrUnknownModel = errors.New("sentiment: unknown model")
)

// ModelInfo describes one model.
type ModelInfo struct {
	Name        string `json:"name"`
	Description string `json:"description"`
}

// Models lists the models [New] accepts, the default first.
func Models() []ModelInfo {
	return []ModelInfo{
		{Name: ModelHybrid, Description: "logistic regressions over words and word pairs with negation " +
			"marking and naive Bayes scaling, blended with VADER's scores; trained on SST phrases, IMDB " +
			"and Amazon reviews, SemEval tweets and Sentiment140; pos/neu/neg are class probabilities, " +
			"compound is pos - neg, and the label is neutral only for text that carries no sentiment"},
		{Name: ModelVADER, Description: "VADER 3.3.2 (Hutto & Gilbert 2014), a faithful port: " +
			"the same scores as the Python vaderSentiment package, quirks included"},
	}
}

// Options configure an [Analyzer]. The zero value is ready to use.
type Options struct {
	// Model is the name of the model, one of [Models]. Empty means
	// [DefaultModel].
	Model string

	// MaxRunes caps the length of the text, in code points. Zero (or a
	// negative value) means [DefaultMaxRunes].
	MaxRunes int

	// WholeOnly scores the whole text only and leaves Result.Sentences
	// empty: for batch scoring where per-sentence scores are not wanted.
	// With the vader model a text of several sentences then costs one
	// pass instead of two, and with the hybrid model the sentences are
	// not scored by the learned model; the whole-text scores are the same
	// either way.
	WholeOnly bool
}

// Result is the sentiment of a whole text.
type Result struct {
	// Label is "positive", "negative" or "neutral": positive means
	// Compound >= 0.05 and negative Compound <= -0.05, for every model.
	Label string `json:"label"`
	// Compound is the overall score in [-1, 1].
	Compound float64 `json:"compound"`
	// Pos, Neu and Neg are, for the vader model, the shares of positive,
	// neutral and negative content and, for the hybrid model, the
	// probabilities of the three classes (see the package doc); they add
	// up to 1 (up to rounding) or are all 0 for an empty text.
	Pos float64 `json:"pos"`
	Neu float64 `json:"neu"`
	Neg float64 `json:"neg"`
	// Sentences are the scores of each sentence, in order; empty, not nil,
	// when the text has none.
	Sentences []Sentence `json:"sentences"`
}

// Sentence is the sentiment of one sentence of the text. Start and End are
// code point offsets into the text, end exclusive:
// string([]rune(text)[s.Start:s.End]) == s.Text (a byte of invalid UTF-8
// counts as one code point, as in a []rune conversion).
type Sentence struct {
	Text     string  `json:"text"`
	Start    int     `json:"start"`
	End      int     `json:"end"`
	Label    string  `json:"label"`
	Compound float64 `json:"compound"`
	Pos      float64 `json:"pos"`
	Neu      float64 `json:"neu"`
	Neg      float64 `json:"neg"`
}

// Analyzer scores texts with one model. It is safe for concurrent use.
type Analyzer struct {
	model     string
	maxRunes  int
	wholeOnly bool
	vader     *vader
	hybrid    *hybrid // nil unless the model is ModelHybrid
}

// New returns an Analyzer for opts.Model. An unknown model name gives an
// error wrapping [ErrUnknownModel].
func New(opts Options) (*Analyzer, error) {
	a := &Analyzer{model: opts.Model, maxRunes: opts.MaxRunes, wholeOnly: opts.WholeOnly}
	if a.model == "" {
		a.model = DefaultModel
	}
	if a.maxRunes <= 0 {
		a.maxRunes = DefaultMaxRunes
	}
	switch a.model {
	case ModelVADER:
		a.vader = &vader{t: loadVADER()}
	case ModelHybrid:
		a.vader = &vader{t: loadHybridVADER()}
		m, err := lr.Embedded()
		if err != nil {
			return nil, fmt.Errorf("new %q: %w", a.model, err)
		}
		a.hybrid = &hybrid{m: m}
	default:
		return nil, fmt.Errorf("new %q (known: %s): %w", opts.Model, knownModels(), ErrUnknownModel)
	}
	return a, nil
}

func knownModels() string {
	s := ""
	for i, m := range Models() {
		if i > 0 {
			s += ", "
		}
		s += m.Name
	}
	return s
}

// Model returns the name of the model a scores with.
func (a *Analyzer) Model() string { return a.model }

// Analyze scores text as a whole and sentence by sentence. It returns
// [ErrTooLong] when text has more code points than [Options.MaxRunes].
func (a *Analyzer) Analyze(ctx context.Context, text string) (*Result, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if len(text) > a.maxRunes && utf8.RuneCountInString(text) > a.maxRunes {
		return nil, ErrTooLong
	}
	if a.wholeOnly && a.hybrid == nil {
		res := newResult(a.vader.polarity(text))
		res.Sentences = []Sentence{}
		return res, nil
	}
	var spans []span
	var sents []scores
	if a.wholeOnly {
		// Nothing of the sentences leaves: their memory is reused.
		sc := sentencePool.Get().(*sentenceScratch)
		defer sentencePool.Put(sc)
		sc.spans = appendSentences(sc.spans[:0], text)
		sc.sents = append(sc.sents[:0], make([]scores, len(sc.spans))...)
		spans, sents = sc.spans, sc.sents
	} else {
		spans = splitSentences(text)
		sents = make([]scores, len(spans))
	}
	var whole scores
	if len(spans) > 1 {
		whole = a.vader.polaritySentences(text, spans, sents)
	} else {
		whole = a.vader.polarity(text)
		if len(spans) == 1 {
			sents[0] = whole
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if a.hybrid != nil {
		// Long texts: the VADER feature is the mean over sentences, and the
		// word features are length-normalised, so nothing saturates.
		mean := 0.0
		for _, s := range sents {
			mean += s.compound
		}
		if len(sents) > 0 {
			mean /= float64(len(sents))
		}
		whole = a.hybrid.score(text, whole, mean)
		for k, sp := range spans {
			if a.wholeOnly {
				// the sentences' own scores are not wanted
				break
			}
			if len(spans) == 1 {
				sents[k] = whole
				break
			}
			sents[k] = a.hybrid.score(text[sp.start:sp.end], sents[k], sents[k].compound)
		}
	}
	res := newResult(whole)
	if a.wholeOnly {
		res.Sentences = []Sentence{}
		return res, nil
	}
	res.Sentences = make([]Sentence, len(spans))
	for k, sp := range spans {
		sc := sents[k]
		res.Sentences[k] = Sentence{
			Text: text[sp.start:sp.end], Start: sp.rstart, End: sp.rend,
			Label: labelOf(sc.compound), Compound: sc.compound, Pos: sc.pos, Neu: sc.neu, Neg: sc.neg,
		}
	}
	return res, nil
}

// sentenceScratch holds a whole-text analysis's sentences.
type sentenceScratch struct {
	spans []span
	sents []scores
}

var sentencePool = sync.Pool{New: func() any { return new(sentenceScratch) }}

func newResult(s scores) *Result {
	return &Result{Label: labelOf(s.compound), Compound: s.compound, Pos: s.pos, Neu: s.neu, Neg: s.neg}
}

// labelOf applies VADER's thresholds.
func labelOf(compound float64) string {
	switch {
	case compound >= 0.05:
		return LabelPositive
	case compound <= -0.05:
		return LabelNegative
	}
	return LabelNeutral
}
