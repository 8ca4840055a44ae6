package server

import (
	"context"
	"io"
	"net/http"
	"strconv"

	"github.com/textanalysis/go-textanalysis/display"
	"github.com/textanalysis/go-textanalysis/sentiment"
	"github.com/textanalysis/go-textanalysis/textanalysis"
)

// A field is one input of an operation: a query parameter of the GET form
// and a property of the POST form's JSON body. Every input is a string.
type field struct {
	Name        string
	Description string
	Example     string
	Required    bool
	// MinRunes and MaxRunes bound the value in code points; MaxRunes
	// comes from the Analyzer's limits so that docs and checks agree.
	MinRunes int
	MaxRunes func(textanalysis.Limits) int
	// Enum lists the allowed values, when the set is closed.
	Enum func() []string
	// SpanArray says the field also takes a JSON array of spans
	// ({start, end, label} objects) in a POST body, besides a string that
	// holds one or the compact form; the array reaches the operation as
	// its JSON text.
	SpanArray bool
}

// An operation is one row of the API: SPEC.md §4's operation id, method
// and path, the inputs, what it answers and the function that answers.
type operation struct {
	ID          string
	Method      string
	Path        string
	Summary     string
	Description string
	// Schema names the POST body's schema (SPEC.md §2); "" for GET.
	Schema string
	Fields []field
	// Result names the 200 body's schema; "html" for text/html.
	Result string
	// Fetches says the operation may fetch a web page (502 possible).
	Fetches bool
	// BodyCheck runs after the fields are valid, as a Pydantic model
	// validator does, and returns the errors of the whole input.
	BodyCheck func(in *input) []errorDetail
	run       func(s *Server, ctx context.Context, in *input) (any, error)
}

func maxText(l textanalysis.Limits) int     { return l.MaxTextRunes }
func maxQuestion(l textanalysis.Limits) int { return l.MaxQuestionRunes }
func maxURL(l textanalysis.Limits) int      { return l.MaxURLRunes }

func formatNames() []string {
	var names []string
	for _, f := range display.Formats() {
		names = append(names, string(f.Name))
	}
	return names
}

var (
	urlField = field{Name: "url", Required: true, MinRunes: 1, MaxRunes: maxURL, Example: "https://en.wikipedia.org/wiki/Ada_Lovelace",
		Description: "Address of the web page (http or https). Addresses on private, loopback or link-local networks are refused."}
	textField = field{Name: "text", Required: true, MaxRunes: maxText, Example: "Ada Lovelace was born in London on 10 December 1815.",
		Description: "The text to analyse, in UTF-8."}
	nerModelField = field{Name: "model", Enum: textanalysis.NERModelNames, Example: "",
		Description: "Entity model; the default when absent. `GET /` lists the models and the labels each produces."}
	sentimentModelField = field{Name: "model", Enum: textanalysis.SentimentModelNames, Example: "",
		Description: "Sentiment model; `" + sentiment.DefaultModel + "` when absent. `" + sentiment.ModelHybrid + "`: pos, neu and neg are the " +
			"probabilities of the positive, neutral and negative classes. `" + sentiment.ModelVADER + "`: the reference VADER's scores, " +
			"where they are proportions (the positive words' intensity, the neutral words' count and the negative words' intensity, each over their sum). " +
			"Choosing: `" + sentiment.ModelHybrid + "` reads reviews, tweets and news more accurately by the label; `" + sentiment.ModelVADER + "` gives exact parity with " +
			"Python's vaderSentiment and a score you can trace word by word. `GET /` lists the models."}
	displayText = field{Name: "text", MaxRunes: maxText, Example: "Ada Lovelace was born in London.",
		Description: "The text to draw; a call without it is answered 422 (missing), with or without `spans`. Without `spans`, its entities are recognized with `model`."}
	spansField = field{Name: "spans", Example: "0:12:PERSON,25:31:GPE", SpanArray: true,
		Description: "Spans to draw instead of recognized entities, in code points, end exclusive: a JSON array " +
			"`[{\"start\":0,\"end\":12,\"label\":\"PERSON\"}]` (in a POST body as an array or as a string holding one; " +
			"in a query parameter as its text) or the compact form `0:12:PERSON,25:31:GPE`. Spans may overlap in format `span`, at most " + strconv.Itoa(display.DefaultMaxOverlap) + " at one character (422 above); in format `ent` they may not."}
	formatField = field{Name: "format", Enum: formatNames, Example: "ent",
		Description: "`ent`: entities highlighted inline with their label (default without spans); `span`: spans underlined, overlaps stacked (default with spans)."}
	questionField = field{Name: "question", Required: true, MinRunes: 1, MaxRunes: maxQuestion, Example: "Where was Ada Lovelace born?",
		Description: "The question to answer."}
	contextField = field{Name: "context", MaxRunes: maxText, Example: "Ada Lovelace was born in London in 1815.",
		Description: "The text to find the answer in."}
	qaURLField = field{Name: "url", MinRunes: 1, MaxRunes: maxURL, Example: "",
		Description: "A web page whose main text is searched instead of `context`. Exactly one of `url` and `context` is required."}
)

func required(f field) field { f.Required = true; return f }

// example gives a field an example that suits one operation.
func example(f field, ex string) field { f.Example = ex; return f }

const sentimentExample = "The food was wonderful, but the service was painfully slow."

// operations is the API: every route, OpenAPI operation, docs entry and
// MCP tool is built from this table.
var operations = []operation{
	{
		ID: "get_text", Method: http.MethodGet, Path: "/text", Result: "TextResult", Fetches: true,
		Summary:     "Extract the main text of a web page",
		Description: "Fetches the page at `url` and returns its main readable text (without menus, ads or comments) with its title, author, publication date and language.",
		Fields:      []field{urlField}, run: (*Server).getText,
	},
	{
		ID: "get_text_post", Method: http.MethodPost, Path: "/text", Schema: "Website", Result: "TextResult", Fetches: true,
		Summary:     "Extract the main text of a web page",
		Description: "Same as `get_text`, with the input as a JSON body.",
		Fields:      []field{urlField}, run: (*Server).getText,
	},
	{
		ID: "analyze_ner", Method: http.MethodGet, Path: "/ner", Result: "NERResult",
		Summary:     "Recognize named entities",
		Description: "Finds people, organisations, places, dates, amounts and the other OntoNotes entity types in `text`, with code-point offsets.",
		Fields:      []field{textField, nerModelField}, run: (*Server).analyzeNER,
	},
	{
		ID: "analyze_ner_post", Method: http.MethodPost, Path: "/ner", Schema: "Entities", Result: "NERResult",
		Summary:     "Recognize named entities",
		Description: "Same as `analyze_ner`, with the input as a JSON body.",
		Fields:      []field{textField, nerModelField}, run: (*Server).analyzeNER,
	},
	{
		ID: "display_ner", Method: http.MethodGet, Path: "/ner/display", Result: "html",
		Summary:     "Render entities as HTML",
		Description: "Draws the entities of `text` (or the `spans` you give) as an HTML fragment in the style of displaCy. All text is escaped.",
		Fields:      []field{displayText, spansField, nerModelField, formatField}, run: (*Server).displayNER,
	},
	{
		ID: "display_ner_post", Method: http.MethodPost, Path: "/ner/display", Schema: "DisplayEntities", Result: "html",
		Summary:     "Render entities as HTML",
		Description: "Same as `display_ner`, with the input as a JSON body.",
		Fields:      []field{displayText, spansField, nerModelField, formatField}, run: (*Server).displayNER,
	},
	{
		ID: "analyze_sentiment", Method: http.MethodGet, Path: "/sentiment", Result: "SentimentResult",
		Summary:     "Analyze sentiment",
		Description: "Scores the sentiment of `text` as a whole and of each of its sentences: a label, a compound score in [-1, 1] and the positive, neutral and negative proportions.",
		Fields:      []field{example(textField, sentimentExample), sentimentModelField}, run: (*Server).analyzeSentiment,
	},
	{
		ID: "analyze_sentiment_post", Method: http.MethodPost, Path: "/sentiment", Schema: "Text", Result: "SentimentResult",
		Summary:     "Analyze sentiment",
		Description: "Same as `analyze_sentiment`, with the input as a JSON body.",
		Fields:      []field{example(textField, sentimentExample), sentimentModelField}, run: (*Server).analyzeSentiment,
	},
	{
		ID: "qa", Method: http.MethodGet, Path: "/qa", Result: "QAResult",
		Summary:     "Answer a question from a text",
		Description: "Finds the span of `context` that answers `question`. When nothing answers well enough, `answer` is null.",
		Fields:      []field{questionField, required(contextField)}, run: (*Server).answer,
	},
	{
		ID: "qa_post", Method: http.MethodPost, Path: "/qa", Schema: "QA", Result: "QAResult", Fetches: true,
		Summary:     "Answer a question from a text or a web page",
		Description: "Finds the span of `context`, or of the main text of the page at `url`, that answers `question`. Exactly one of `url` and `context` is required.",
		Fields:      []field{questionField, qaURLField, contextField}, run: (*Server).answer,
		BodyCheck: exactlyOneOfURLAndContext,
	},
}

// operationByID finds a row of the table.
func operationByID(id string) (operation, bool) {
	for _, op := range operations {
		if op.ID == id {
			return op, true
		}
	}
	return operation{}, false
}

func exactlyOneOfURLAndContext(in *input) []errorDetail {
	_, hasURL := in.values["url"]
	_, hasContext := in.values["context"]
	if hasURL == hasContext {
		return []errorDetail{{
			Type: "value_error", Loc: []any{in.source}, Msg: "Value error, exactly one of url and context is required",
			Input: in.whole, Ctx: map[string]any{"error": map[string]any{}},
		}}
	}
	return nil
}

func (s *Server) getText(ctx context.Context, in *input) (any, error) {
	p, err := s.an.Text(ctx, in.values["url"])
	if err != nil {
		return nil, err
	}
	return NewTextBody(p), nil
}

func (s *Server) analyzeNER(ctx context.Context, in *input) (any, error) {
	return s.an.Entities(ctx, in.values["text"], in.values["model"])
}

// htmlBody is a 200 answered as text/html, drawn straight into the
// response so that the server holds no copy of it. It writes nothing when
// it fails, so that its error can still be answered.
type htmlBody func(w io.Writer) error

// writeHTML answers with h: a 200 as soon as h writes, or h's error if it
// fails before writing.
func (s *Server) writeHTML(w http.ResponseWriter, r *http.Request, h htmlBody, source string, in *input) {
	hw := &htmlWriter{w: w}
	err := h(hw)
	switch {
	case err != nil && !hw.started:
		s.writeError(w, r, err, source, in)
	case err != nil:
		// The status line is gone: all that is left is to stop.
		s.log.Debug("html answer cut short", "request_id", requestIDFrom(r.Context()), "err", err)
	case !hw.started:
		hw.start()
	}
}

// htmlWriter sends the 200 status line before the first byte of HTML.
type htmlWriter struct {
	w       http.ResponseWriter
	started bool
}

func (h *htmlWriter) start() {
	h.started = true
	h.w.Header().Set("Content-Type", "text/html; charset=utf-8")
	h.w.WriteHeader(http.StatusOK)
}

func (h *htmlWriter) Write(p []byte) (int, error) {
	if !h.started {
		h.start()
	}
	return h.w.Write(p)
}

func (s *Server) displayNER(ctx context.Context, in *input) (any, error) {
	text, hasText := in.values["text"]
	if !hasText {
		return nil, missing(in, "text")
	}
	req := textanalysis.DisplayRequest{Text: text, Model: in.values["model"], Format: display.Format(in.values["format"])}
	if raw, ok := in.values["spans"]; ok {
		spans, err := display.ParseSpans(raw)
		if err != nil {
			return nil, err
		}
		if spans == nil {
			spans = []display.Span{}
		}
		req.Spans = spans
	}
	return htmlBody(func(w io.Writer) error { return s.an.Display(ctx, req, w) }), nil
}

func (s *Server) analyzeSentiment(ctx context.Context, in *input) (any, error) {
	return s.an.Sentiment(ctx, in.values["text"], in.values["model"])
}

func (s *Server) answer(ctx context.Context, in *input) (any, error) {
	var a *textanalysis.Answer
	var err error
	if u, ok := in.values["url"]; ok {
		a, err = s.an.AnswerURL(ctx, in.values["question"], u, textanalysis.AnswerURLOptions{})
	} else {
		a, err = s.an.Answer(ctx, in.values["question"], in.values["context"])
	}
	if err != nil {
		return nil, err
	}
	return NewAnswerBody(a), nil
}
