package qa

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/textanalysis/go-textanalysis/internal/align"
	"github.com/textanalysis/go-textanalysis/internal/nlp"
	"github.com/textanalysis/go-textanalysis/qa/internal/core"
)

// Defaults for the zero values of [Options].
const (
	DefaultMaxContextRunes  = 100_000
	DefaultMaxQuestionRunes = 1_000
	// DefaultThreshold is the score below which no answer is given. The
	// score is the model's probability that the answer is right (summed
	// over the places the same text occurs). On SQuAD-style paragraphs
	// (dev half, trainqa -evalonly -dump) about 1.6% of questions score
	// below 0.1, and one in eleven of those would have been answered
	// right; 38% score above 0.5, and three in four of those are exactly
	// right.
	//
	// The threshold, and the rule that a context sharing no content word
	// with the question gets no answer, apply only to questions whose
	// words do not name an answer type. A question that asks for a date
	// (when, what year), an amount (how much, what price, what
	// percentage), a number (how many, how tall) or a name (who, where)
	// is answered whenever the context holds a span of that type: the
	// best-ranked such span, whatever its score; when the context shares
	// no content word with the question, only if the question names no
	// one and nothing (no capitalised word after its first). A
	// why-question is never answered with a name or a bare date or
	// amount (when the context gives no reason, it gets no answer), nor
	// a question for an activity ("What does she do?"), nor a
	// how-question of manner with a bare date; a what-question that
	// calls a person only "she" or "he" is not answered with the name of
	// the person the context names most (see core.DropReferent).
	DefaultThreshold = 0.1
	// DefaultCacheSize is the number of tagged passages a Reader keeps.
	DefaultCacheSize = 32
)

// Sizes of the passages a long context is cut into, and how many of them
// are read.
const (
	passageRunes = 1500
	wholeRunes   = 3000
	passagesRead = 3
)

var (
	// ErrTooLong is returned when the context or the question exceeds
	// Options.MaxContextRunes or Options.MaxQuestionRunes.
	ErrTooLong = errors.New("qa: text too long")
	// ErrEmptyQuestion is returned when the question has no letters or
	// digits.
	ErrEmptyQuestion = errors.New("qa: empty question")
)

// Options configures a [Reader]. The zero value is ready to use.
type Options struct {
	// MaxContextRunes caps the context in code points. Zero means
	// DefaultMaxContextRunes.
	MaxContextRunes int
	// MaxQuestionRunes caps the question in code points. Zero means
	// DefaultMaxQuestionRunes.
	MaxQuestionRunes int
	// Threshold is the score below which Answer reports no answer, for
	// questions that name no answer type (see DefaultThreshold). Zero
	// means DefaultThreshold; a negative value means always answer when
	// the context has any candidate.
	Threshold float64
	// CacheSize is how many tagged passages the Reader keeps for
	// questions that come back to the same text. Zero means
	// DefaultCacheSize; a negative value turns the cache off.
	CacheSize int
}

// An Answer is a span of the context searched, in code points, end
// exclusive: string([]rune(context)[a.Start:a.End]) == a.Text. When Found
// is false, Text is empty and Score, Start and End are zero.
//
// As JSON it is {"answer", "score", "start", "end"}; an Answer that was not
// found is {"answer": null, "score": 0, "start": null, "end": null}.
type Answer struct {
	Text  string  // the span of the context
	Score float64 // in [0,1]: the model's probability that Text is right
	Start int
	End   int
	Found bool
}

type answerJSON struct {
	Answer *string `json:"answer"`
	Score  float64 `json:"score"`
	Start  *int    `json:"start"`
	End    *int    `json:"end"`
}

// MarshalJSON writes {"answer","score","start","end"}, with nulls for an
// answer not found.
func (a Answer) MarshalJSON() ([]byte, error) {
	if !a.Found {
		return json.Marshal(answerJSON{})
	}
	return json.Marshal(answerJSON{Answer: &a.Text, Score: a.Score, Start: &a.Start, End: &a.End})
}

// UnmarshalJSON reads what MarshalJSON writes.
func (a *Answer) UnmarshalJSON(b []byte) error {
	var j answerJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return fmt.Errorf("qa: decode answer: %w", err)
	}
	*a = Answer{}
	if j.Answer == nil {
		return nil
	}
	a.Text, a.Score, a.Found = *j.Answer, j.Score, true
	if j.Start != nil {
		a.Start = *j.Start
	}
	if j.End != nil {
		a.End = *j.End
	}
	return nil
}

// A Reader answers questions from context texts. Its methods are safe for
// concurrent use.
type Reader struct {
	opts   Options
	model  *core.Model
	forest *core.Forest
	cache  *docCache
}

// docCache keeps the last few tagged passages, so that several questions
// about one text (the usual case: a page and its FAQ) tag it once. Tagging
// is most of the cost of a question.
type docCache struct {
	mu    sync.Mutex
	size  int
	order []string
	m     map[string]cached
}

type cached struct {
	doc   *core.Doc
	cands []core.Cand
}

func (c *docCache) get(p core.Passage) (cached, error) {
	key := strconv.Itoa(p.Start) + "\x00" + p.Text
	c.mu.Lock()
	e, ok := c.m[key]
	c.mu.Unlock()
	if ok {
		return e, nil
	}
	d, err := core.NewDoc(p.Text, p.Start)
	if err != nil {
		return cached{}, fmt.Errorf("qa: read context: %w", err)
	}
	e = cached{doc: d, cands: core.AllCandidates(d)}
	if c.size <= 0 {
		return e, nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.m[key]; !ok {
		if len(c.order) >= c.size {
			delete(c.m, c.order[0])
			c.order = c.order[1:]
		}
		c.order = append(c.order, key)
		c.m[key] = e
	}
	return e, nil
}

//go:embed model.bin.gz
var modelData []byte

var loadModel = sync.OnceValues(func() (*core.Model, error) {
	return core.Decode(bytes.NewReader(modelData))
})

// rerankData is the second stage: boosted trees that choose among the
// linear model's best answer texts (trainqa -rerank).
//
//go:embed rerank.bin.gz
var rerankData []byte

var loadForest = sync.OnceValues(func() (*core.Forest, error) {
	return core.DecodeForest(bytes.NewReader(rerankData))
})

// rerankGroups is how many answer texts the second stage chooses among.
const rerankGroups = 5

// New returns a Reader. The embedded model is decoded once per process and
// shared by all Readers; the part-of-speech tagger is loaded too, so that
// a broken model shows here rather than on the first question.
func New(opts Options) (*Reader, error) {
	if opts.MaxContextRunes <= 0 {
		opts.MaxContextRunes = DefaultMaxContextRunes
	}
	if opts.MaxQuestionRunes <= 0 {
		opts.MaxQuestionRunes = DefaultMaxQuestionRunes
	}
	if opts.Threshold == 0 {
		opts.Threshold = DefaultThreshold
	}
	m, err := loadModel()
	if err != nil {
		return nil, err
	}
	f, err := loadForest()
	if err != nil {
		return nil, err
	}
	if err := nlp.Load(); err != nil {
		return nil, fmt.Errorf("qa: %w", err)
	}
	core.LoadTables()
	if err := core.LoadEntities(); err != nil {
		return nil, fmt.Errorf("qa: %w", err)
	}
	cs := opts.CacheSize
	if cs == 0 {
		cs = DefaultCacheSize
	}
	return &Reader{opts: opts, model: m, forest: f, cache: &docCache{size: cs, m: map[string]cached{}}}, nil
}

// Answer finds the span of context that best answers question. It returns
// ErrTooLong when either text is over its limit and ErrEmptyQuestion when
// the question has no letters or digits. A context with nothing that
// scores at least Options.Threshold, or that shares no content word with
// the question, gives an Answer with Found false and a nil error, unless
// the question asks for a type of answer the context holds (see
// DefaultThreshold).
func (r *Reader) Answer(ctx context.Context, question, context string) (Answer, error) {
	if utf8.RuneCountInString(question) > r.opts.MaxQuestionRunes ||
		utf8.RuneCountInString(context) > r.opts.MaxContextRunes {
		return Answer{}, ErrTooLong
	}
	if strings.IndexFunc(question, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) < 0 {
		return Answer{}, ErrEmptyQuestion
	}
	if err := ctx.Err(); err != nil {
		return Answer{}, err
	}
	context = align.Valid(context)
	q, err := core.NewQuestion(align.Valid(question), r.model.Weight)
	if err != nil {
		return Answer{}, fmt.Errorf("qa: read question: %w", err)
	}
	var ps []core.Passage
	if utf8.RuneCountInString(context) <= wholeRunes {
		ps = []core.Passage{{Text: context}}
	} else {
		ps = core.Retrieve(core.Split(context, passageRunes), question, passagesRead, r.model.Weight)
	}
	docs := make([]*core.Doc, 0, len(ps))
	cs := make([][]core.Cand, 0, len(ps))
	for _, p := range ps {
		if err := ctx.Err(); err != nil {
			return Answer{}, err
		}
		e, err := r.cache.get(p)
		if err != nil {
			return Answer{}, err
		}
		docs = append(docs, e.doc)
		cs = append(cs, e.cands)
	}
	d, cands := core.Merge(docs, cs)
	if len(cands) == 0 {
		return Answer{}, nil
	}
	c := core.NewCtx(d, q, r.model.Weight)
	ss, err := r.model.Rank(ctx, c, cands)
	if err != nil {
		return Answer{}, err
	}
	ss = core.DropReferent(d, q, core.DropMistyped(d, q, core.DropEchoes(d, q, ss)))
	best, score, ok := core.Best(d, ss)
	top := score
	if ok {
		// Whether to answer is the linear model's call (the best text's
		// probability); which text, the second stage's.
		g, _ := r.forest.Rerank(r.model, c, ss, core.Groups(d, ss, rerankGroups))
		best, score = g.Scored, math.Min(1, g.Mass)
	}
	if over := overlaps(d, q); !ok || !over || (r.opts.Threshold > 0 && top < r.opts.Threshold) {
		// Abstain, unless the question asks for a type (a date, an
		// amount, a name) and the context has a span of that type. A
		// context that shares no word with a question naming someone or
		// something ("the capital of Peru") is about something else.
		if !over && q.Named() {
			return Answer{}, nil
		}
		best, score, ok = core.BestTyped(d, q, ss)
		if !ok {
			return Answer{}, nil
		}
	}
	start, end := d.Toks[best.S].Start, d.Toks[best.E-1].End
	rs := []rune(context)
	if start < 0 || end > len(rs) || start >= end {
		return Answer{}, nil
	}
	return Answer{Text: string(rs[start:end]), Score: score, Start: start, End: end, Found: true}, nil
}

// overlaps reports whether the context shares a content word with the
// question; a question of function words only ("Who is it?") overlaps
// any context. Without overlap the ranking is a guess, so no answer is
// given.
func overlaps(d *core.Doc, q *core.Question) bool {
	if len(q.Terms) == 0 {
		return true
	}
	for i := range d.Toks {
		if _, ok := q.Terms[d.Toks[i].Stem]; ok && !d.Toks[i].Stop {
			return true
		}
	}
	return false
}
