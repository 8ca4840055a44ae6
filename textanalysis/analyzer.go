package textanalysis

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/textanalysis/go-textanalysis/display"
	"github.com/textanalysis/go-textanalysis/extract"
	"github.com/textanalysis/go-textanalysis/internal/nlp"
	"github.com/textanalysis/go-textanalysis/ner"
	"github.com/textanalysis/go-textanalysis/qa"
	"github.com/textanalysis/go-textanalysis/sentiment"
)

// Version is the API version the service reports.
const Version = "0.1.0"

// Options configure an Analyzer. The zero value works.
type Options struct {
	// Limits caps input sizes; zero fields mean the defaults.
	Limits Limits
	// Fetch configures page fetching for Text and AnswerURL. Its zero value
	// means extract's defaults (5 MiB, 10 s, 10 redirects, private
	// addresses refused, 1,000,000 elements and runs of text).
	Fetch extract.Options
	// NERModel is the default entity model; "" means ner.DefaultModel.
	NERModel string
	// SentimentModel is the default sentiment model; "" means
	// sentiment.DefaultModel.
	SentimentModel string
	// QAThreshold is the score under which Answer finds no answer; 0 means
	// qa's documented default.
	QAThreshold float64
	// Lazy defers loading each model to its first use. A server wants the
	// default (load everything in New, fail early, keep the first request
	// fast); a command that runs one function wants Lazy.
	Lazy bool
}

// An Analyzer runs the five analysis functions. It is safe for concurrent
// use; build one per process with New.
type Analyzer struct {
	limits         Limits
	fetch          extract.Options
	nerModel       string
	sentimentModel string
	recognizers    *registry[string, *ner.Recognizer]
	scorers        *registry[scorerKey, *sentiment.Analyzer]
	reader         func() (*qa.Reader, error)
}

// New builds an Analyzer and loads the default models, so that the first
// request does not pay for them and a broken model fails here.
func New(opts Options) (*Analyzer, error) {
	a := &Analyzer{
		limits:         opts.Limits.withDefaults(),
		fetch:          opts.Fetch,
		nerModel:       opts.NERModel,
		sentimentModel: opts.SentimentModel,
	}
	if a.nerModel == "" {
		a.nerModel = ner.DefaultModel
	}
	if a.sentimentModel == "" {
		a.sentimentModel = sentiment.DefaultModel
	}
	if a.fetch.MaxBytes == 0 {
		a.fetch.MaxBytes = DefaultMaxPageBytes
	}
	if a.fetch.MaxNodes == 0 {
		a.fetch.MaxNodes = DefaultMaxPageNodes
	}
	if a.fetch.Timeout == 0 {
		a.fetch.Timeout = DefaultFetchTimeout
	}
	a.recognizers = newRegistry(func(name string) (*ner.Recognizer, error) {
		return ner.New(ner.Options{Model: name, MaxRunes: a.limits.MaxTextRunes})
	})
	a.scorers = newRegistry(func(k scorerKey) (*sentiment.Analyzer, error) {
		return sentiment.New(sentiment.Options{Model: k.model, WholeOnly: k.wholeOnly, MaxRunes: a.limits.MaxTextRunes})
	})
	if !knownNERModel(a.nerModel) {
		return nil, fmt.Errorf("textanalysis: %w", &UnknownModelError{Kind: "ner", Name: a.nerModel, Known: NERModelNames()})
	}
	if !knownSentimentModel(a.sentimentModel) {
		return nil, fmt.Errorf("textanalysis: %w", &UnknownModelError{Kind: "sentiment", Name: a.sentimentModel, Known: SentimentModelNames()})
	}
	a.reader = sync.OnceValues(func() (*qa.Reader, error) {
		r, err := qa.New(qa.Options{
			MaxContextRunes:  a.limits.MaxTextRunes,
			MaxQuestionRunes: a.limits.MaxQuestionRunes,
			Threshold:        opts.QAThreshold,
		})
		if err != nil {
			return nil, fmt.Errorf("textanalysis: load qa model: %w", err)
		}
		return r, nil
	})
	if opts.Lazy {
		return a, nil
	}
	if err := nlp.Load(); err != nil {
		return nil, fmt.Errorf("textanalysis: %w", err)
	}
	if _, err := a.recognizers.get(a.nerModel); err != nil {
		return nil, fmt.Errorf("textanalysis: load ner model: %w", err)
	}
	if _, err := a.scorers.get(scorerKey{model: a.sentimentModel}); err != nil {
		return nil, fmt.Errorf("textanalysis: load sentiment model: %w", err)
	}
	if _, err := a.reader(); err != nil {
		return nil, err
	}
	return a, nil
}

// Limits returns the limits in force, defaults filled in.
func (a *Analyzer) Limits() Limits { return a.limits }

// MaxPageBytes returns the cap on a fetched page, in bytes.
func (a *Analyzer) MaxPageBytes() int64 {
	if a.fetch.MaxBytes <= 0 {
		return extract.DefaultMaxBytes
	}
	return a.fetch.MaxBytes
}

// DefaultNERModel returns the name of the entity model used when none is given.
func (a *Analyzer) DefaultNERModel() string { return a.nerModel }

// An UnknownModelError names a model that does not exist and the ones that do.
type UnknownModelError struct {
	Kind  string // "ner" or "sentiment"
	Name  string
	Known []string
}

func (e *UnknownModelError) Error() string {
	return fmt.Sprintf("unknown %s model %q; known models: %s", e.Kind, e.Name, strings.Join(e.Known, ", "))
}

// A TooLongError says an input exceeds its limit.
type TooLongError struct {
	Field string // "text", "context", "question", "url"
	Max   int    // in code points
}

func (e *TooLongError) Error() string {
	return fmt.Sprintf("textanalysis: %s is longer than %d characters", e.Field, e.Max)
}

// ErrNoText is returned by Display when spans are given without text, or
// neither is given.
var ErrNoText = errors.New("textanalysis: text is required")

func checkLen(field, s string, max int) error {
	// Counting is cheap next to analysis, and a byte count can't exceed
	// the rune count, so most texts skip it.
	if len(s) > max && utf8.RuneCountInString(s) > max {
		return &TooLongError{Field: field, Max: max}
	}
	return nil
}

// NERModelNames lists the entity models, the default first.
func NERModelNames() []string {
	var names []string
	for _, m := range ner.Models() {
		names = append(names, m.Name)
	}
	return names
}

// SentimentModelNames lists the sentiment models.
func SentimentModelNames() []string {
	var names []string
	for _, m := range sentiment.Models() {
		names = append(names, m.Name)
	}
	return names
}

// The registries are fixed at build time; every request checks its model
// name against them, so the names are collected once.
var (
	nerModelSet       = sync.OnceValue(func() map[string]bool { return nameSet(NERModelNames()) })
	sentimentModelSet = sync.OnceValue(func() map[string]bool { return nameSet(SentimentModelNames()) })
)

func nameSet(names []string) map[string]bool {
	set := make(map[string]bool, len(names))
	for _, n := range names {
		set[n] = true
	}
	return set
}

func knownNERModel(name string) bool       { return nerModelSet()[name] }
func knownSentimentModel(name string) bool { return sentimentModelSet()[name] }

// Text fetches rawURL and returns its main text and metadata. Errors:
// *extract.URLError when the URL may not be fetched, *extract.FetchError
// when the page could not be fetched or needs more work to extract than
// Fetch.MaxNodes allows (cause "too_complex", wrapping
// extract.ErrTooComplex), and ctx's error, wrapped, when it ends while the
// page is being extracted.
func (a *Analyzer) Text(ctx context.Context, rawURL string) (*extract.Page, error) {
	if err := checkLen("url", rawURL, a.limits.MaxURLRunes); err != nil {
		return nil, err
	}
	return extract.FromURL(ctx, rawURL, a.fetch)
}

// TextFromHTML extracts the main text of a page the caller already has;
// pageURL (may be empty) resolves relative links and fills Page.URL. A
// page that needs more work than Fetch.MaxNodes allows is
// extract.ErrTooComplex.
func (a *Analyzer) TextFromHTML(ctx context.Context, r io.Reader, pageURL string) (*extract.Page, error) {
	return extract.FromHTML(ctx, r, pageURL, a.fetch)
}

// Entities is the /ner result: the model used and its entities.
type Entities struct {
	Model    string       `json:"model"`
	Entities []ner.Entity `json:"entities"`
}

// Entities recognizes named entities in text with the named model ("" means
// the default). An unknown model is an *UnknownModelError.
func (a *Analyzer) Entities(ctx context.Context, text, model string) (*Entities, error) {
	if model == "" {
		model = a.nerModel
	}
	if !knownNERModel(model) {
		return nil, &UnknownModelError{Kind: "ner", Name: model, Known: NERModelNames()}
	}
	if err := checkLen("text", text, a.limits.MaxTextRunes); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	rec, err := a.recognizers.get(model)
	if err != nil {
		return nil, fmt.Errorf("textanalysis: load ner model %s: %w", model, err)
	}
	ents, err := rec.Recognize(ctx, text)
	if err != nil {
		return nil, err
	}
	if ents == nil {
		ents = []ner.Entity{}
	}
	return &Entities{Model: model, Entities: ents}, nil
}

// DisplayRequest is what Display draws: Text with the given Spans, or, when
// Spans is nil, the entities that Model recognizes in Text.
type DisplayRequest struct {
	Text   string
	Spans  []display.Span // nil: run NER
	Model  string         // "" means the default entity model
	Format display.Format // "" means "ent" without spans, "span" with them
}

// Display renders entities (or the given spans) of a text as an HTML
// fragment, streamed to w. A drawing larger than Limits.MaxDisplayBytes is
// a *display.OutputTooLargeError (errors.Is display.ErrOutputTooLarge),
// returned before anything is written, as every error but w's own is.
func (a *Analyzer) Display(ctx context.Context, req DisplayRequest, w io.Writer) error {
	if err := checkLen("text", req.Text, a.limits.MaxTextRunes); err != nil {
		return err
	}
	spans := req.Spans
	format := req.Format
	if spans == nil {
		res, err := a.Entities(ctx, req.Text, req.Model)
		if err != nil {
			return err
		}
		spans = make([]display.Span, len(res.Entities))
		for i, e := range res.Entities {
			spans[i] = display.Span{Start: e.Start, End: e.End, Label: string(e.Label)}
		}
		if format == "" {
			format = display.FormatEnt
		}
	} else {
		if len(spans) > a.limits.MaxSpans {
			return &TooLongError{Field: "spans", Max: a.limits.MaxSpans}
		}
		if format == "" {
			format = display.FormatSpan
		}
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	return display.Render(w, req.Text, spans, display.Options{Format: format, MaxOutputBytes: a.limits.MaxDisplayBytes})
}

// Sentiment scores text, and each of its sentences, with the named model
// ("" means the default).
func (a *Analyzer) Sentiment(ctx context.Context, text, model string) (*sentiment.Result, error) {
	return a.sentiment(ctx, text, scorerKey{model: model})
}

// SentimentWhole scores the whole text only (Result.Sentences is empty):
// the same whole-text scores as Sentiment for less work, for batches.
func (a *Analyzer) SentimentWhole(ctx context.Context, text, model string) (*sentiment.Result, error) {
	return a.sentiment(ctx, text, scorerKey{model: model, wholeOnly: true})
}

// scorerKey names one loaded sentiment scorer.
type scorerKey struct {
	model     string
	wholeOnly bool
}

func (a *Analyzer) sentiment(ctx context.Context, text string, k scorerKey) (*sentiment.Result, error) {
	if k.model == "" {
		k.model = a.sentimentModel
	}
	if !knownSentimentModel(k.model) {
		return nil, &UnknownModelError{Kind: "sentiment", Name: k.model, Known: SentimentModelNames()}
	}
	if err := checkLen("text", text, a.limits.MaxTextRunes); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	sc, err := a.scorers.get(k)
	if err != nil {
		return nil, fmt.Errorf("textanalysis: load sentiment model %s: %w", k.model, err)
	}
	return sc.Analyze(ctx, text)
}

// Answer is an answer to a question. Start and End index the context that
// was searched: the given context, or the extracted text of URL. When
// Found is false, Text is empty and Start and End are zero.
type Answer struct {
	Found   bool
	Text    string  // the answer, a span of the searched text
	Score   float64 // in [0, 1]
	Start   int     // code points, end exclusive
	End     int
	Source  string // "context" or "url"
	URL     string // the page's final URL, for Source "url"
	Context string // the searched text, when asked for
}

func newAnswer(ans qa.Answer, source string) *Answer {
	return &Answer{Found: ans.Found, Text: ans.Text, Score: ans.Score, Start: ans.Start, End: ans.End, Source: source}
}

// Answer answers question from passage, the text to search (the API's
// "context"). A passage longer than Limits.MaxTextRunes is a
// *TooLongError for the field "context".
func (a *Analyzer) Answer(ctx context.Context, question, passage string) (*Answer, error) {
	if err := checkLen("question", question, a.limits.MaxQuestionRunes); err != nil {
		return nil, err
	}
	if err := checkLen("context", passage, a.limits.MaxTextRunes); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	reader, err := a.reader()
	if err != nil {
		return nil, err
	}
	ans, err := reader.Answer(ctx, question, passage)
	if err != nil {
		return nil, err
	}
	return newAnswer(ans, "context"), nil
}

// AnswerURLOptions configure [Analyzer.AnswerURL]. The zero value answers
// without the searched text.
type AnswerURLOptions struct {
	// WithContext puts the searched text (the page's main text, cut to
	// Limits.MaxTextRunes) in Answer.Context, which Start and End index.
	WithContext bool
}

// AnswerURL fetches rawURL, extracts its main text and answers question from
// it. Fetch errors are those of Text.
func (a *Analyzer) AnswerURL(ctx context.Context, question, rawURL string, opts AnswerURLOptions) (*Answer, error) {
	if err := checkLen("question", question, a.limits.MaxQuestionRunes); err != nil {
		return nil, err
	}
	page, err := a.Text(ctx, rawURL)
	if err != nil {
		return nil, err
	}
	text := page.Text
	if utf8.RuneCountInString(text) > a.limits.MaxTextRunes {
		// A long page is still worth answering from; its beginning is
		// where articles put what they are about.
		text = string([]rune(text)[:a.limits.MaxTextRunes])
	}
	reader, err := a.reader()
	if err != nil {
		return nil, err
	}
	ans, err := reader.Answer(ctx, question, text)
	if err != nil {
		return nil, err
	}
	out := newAnswer(ans, "url")
	out.URL = page.FinalURL
	if out.URL == "" {
		out.URL = rawURL
	}
	if opts.WithContext {
		out.Context = text
	}
	return out, nil
}
