package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/urfave/cli/v2"

	"github.com/textanalysis/go-textanalysis/display"
	"github.com/textanalysis/go-textanalysis/extract"
	"github.com/textanalysis/go-textanalysis/server"
	"github.com/textanalysis/go-textanalysis/textanalysis"
)

// errNoTextField answers a batch line that has no "text": scoring it as an
// empty text would hide a misspelt key.
var errNoTextField = errors.New(`a line needs "text"`)

// decodeLine reads a batch line into v, naming the line's problem plainly.
func decodeLine(line json.RawMessage, v any) error {
	if err := json.Unmarshal(line, v); err != nil {
		return fmt.Errorf("invalid input line: %w", err)
	}
	return nil
}

func textCommand(analyzer analyzerFunc) *cli.Command {
	return &cli.Command{
		Name:      "text",
		Usage:     "extract the main text, title, author, date and language of a web page",
		ArgsUsage: "URL",
		Description: `Fetches URL and prints its main text and metadata as JSON. With --html it reads a
page you already have (a file, or - for standard input) and prints just its text;
--json prints the whole result instead.

Batch lines: {"id", "url", "html"?} in; {"id", "url", "final_url", "title", "author",
"published", "language", "language_tag", "text", "word_count", "warning", "page_type"} out, as the API answers
("language" is the base language, "en"; "language_tag" as the page declares it, "en-US").
With "html" the page is not fetched.

Examples:
   textanalysis text https://en.wikipedia.org/wiki/Ada_Lovelace
   curl -s https://example.com | textanalysis text --html - --url https://example.com
   textanalysis text --input pages.jsonl --output texts.jsonl`,
		Flags: append(append(batchFlags(), fetchFlags()...),
			&cli.StringFlag{Name: "html", Usage: "extract from the page in `FILE` (- for standard input) instead of fetching"},
			&cli.StringFlag{Name: "url", Usage: "the page's `URL` (with --html: resolves links, fills \"url\")"},
			&cli.BoolFlag{Name: "json", Usage: "with --html, print the whole result as JSON instead of the text"},
		),
		Action: func(c *cli.Context) error {
			an, err := analyzer(c)
			if err != nil {
				return err
			}
			if c.String("input") != "" {
				return runBatch(c, func(ctx context.Context, line json.RawMessage, id *json.RawMessage) (any, error) {
					bp := pageBufs.Get().(*[]byte)
					defer putPageBuf(bp)
					if pid, url, html, ok := decodePageLine(line, *bp); ok && len(html) > 0 {
						// The fast path for the common line of string
						// fields. The Page holds copies of what it keeps.
						*bp = html
						*id = marshalJSONString(pid)
						return textBody(an.TextFromHTML(ctx, bytes.NewReader(html), url))
					}
					var in struct {
						ID   json.RawMessage `json:"id"`
						URL  string          `json:"url"`
						HTML *string         `json:"html"`
					}
					if err := decodeLine(line, &in); err != nil {
						return nil, err
					}
					*id = in.ID
					if in.HTML != nil {
						return textBody(an.TextFromHTML(ctx, strings.NewReader(*in.HTML), in.URL))
					}
					if in.URL == "" {
						return nil, fmt.Errorf("a line needs \"url\" or \"html\"")
					}
					return textBody(an.Text(ctx, in.URL))
				})
			}
			if name := c.String("html"); name != "" {
				page, err := readFileOrStdin(c, name)
				if err != nil {
					return err
				}
				res, err := an.TextFromHTML(c.Context, strings.NewReader(page), c.String("url"))
				if err != nil {
					return err
				}
				if c.Bool("json") || c.Bool("pretty") {
					return printResult(c, server.NewTextBody(res))
				}
				w, closeOut, err := openOutput(c)
				if err != nil {
					return err
				}
				defer closeOut()
				_, err = fmt.Fprintln(w, res.Text)
				return err
			}
			url := c.String("url")
			if c.Args().Len() > 1 || (url != "" && c.Args().Present()) {
				return usagef("give one URL")
			}
			if url == "" {
				url = c.Args().First()
			}
			if url == "" {
				return usagef("no URL: give one as an argument, or use --html to read a page")
			}
			res, err := an.Text(c.Context, url)
			if err != nil {
				return err
			}
			return printResult(c, server.NewTextBody(res))
		},
	}
}

func nerCommand(analyzer analyzerFunc) *cli.Command {
	return &cli.Command{
		Name:      "ner",
		Usage:     "recognize named entities (people, organisations, places, dates, amounts, ...)",
		ArgsUsage: "[TEXT...]",
		Description: `Prints {"model", "entities": [{"text", "label", "start", "end"}]}; offsets count
Unicode code points, end exclusive.

Batch lines: {"id", "text", "model"?} in; {"id", "model", "entities"} out.

Examples:
   textanalysis ner "Ada Lovelace was born in London in 1815."
   textanalysis ner --file article.txt --pretty
   textanalysis ner --model MODEL --input sentences.jsonl`,
		Flags: append(append(batchFlags(), inputFlags()...),
			&cli.StringFlag{Name: "model", Aliases: []string{"m"}, Usage: "entity `MODEL` (see GET / or the README for the list)"},
		),
		Action: textModelAction(analyzer, func(ctx context.Context, an *textanalysis.Analyzer, text, model string) (any, error) {
			return an.Entities(ctx, text, model)
		}),
	}
}

func displayCommand(analyzer analyzerFunc) *cli.Command {
	return &cli.Command{
		Name:      "display",
		Usage:     "render entities, or spans you give, as HTML (displaCy style)",
		ArgsUsage: "[TEXT...]",
		Description: `Prints an HTML fragment; --page wraps it in a whole document that opens in a
browser. Without --spans, the entities of the text are recognized with --model.
Spans: a JSON array [{"start":0,"end":5,"label":"PERSON"}] or 0:5:PERSON,10:16:ORG.

Batch lines: {"id", "text", "spans"?, "model"?, "format"?} in; {"id", "html"} out.

Examples:
   textanalysis display --page "Ada Lovelace was born in London." > entities.html
   textanalysis display --spans 0:3:PERSON --format span "Ada wrote notes."`,
		// The answer is HTML: --pretty has nothing to indent.
		Flags: append(append(withoutFlag(batchFlags(), "pretty"), inputFlags()...),
			&cli.StringFlag{Name: "spans", Aliases: []string{"s"}, Usage: "draw these `SPANS` instead of recognized entities"},
			&cli.StringFlag{Name: "model", Aliases: []string{"m"}, Usage: "entity `MODEL` when no spans are given"},
			&cli.StringFlag{Name: "format", Usage: "`FORMAT`: ent (inline entities) or span (underlined, overlapping spans)"},
			&cli.BoolFlag{Name: "page", Usage: "write a whole HTML page instead of a fragment"},
		),
		Action: func(c *cli.Context) error {
			an, err := analyzer(c)
			if err != nil {
				return err
			}
			render := func(ctx context.Context, text, spans, model, format string, hasSpans bool) (string, error) {
				req := displayRequest(text, model, format)
				if hasSpans {
					parsed, err := display.ParseSpans(spans)
					if err != nil {
						return "", err
					}
					if parsed == nil {
						parsed = []display.Span{}
					}
					req.Spans = parsed
				}
				var buf bytes.Buffer
				if err := an.Display(ctx, req, &buf); err != nil {
					return "", err
				}
				return buf.String(), nil
			}
			if c.String("input") != "" {
				return runBatch(c, func(ctx context.Context, line json.RawMessage, id *json.RawMessage) (any, error) {
					var in struct {
						ID     json.RawMessage `json:"id"`
						Text   *string         `json:"text"`
						Spans  json.RawMessage `json:"spans"`
						Model  string          `json:"model"`
						Format string          `json:"format"`
					}
					if err := decodeLine(line, &in); err != nil {
						return nil, err
					}
					*id = in.ID
					if in.Text == nil {
						return nil, errNoTextField
					}
					spans, hasSpans, err := batchSpans(in.Spans)
					if err != nil {
						return nil, err
					}
					html, err := render(ctx, *in.Text, spans, orDefault(in.Model, c.String("model")), orDefault(in.Format, c.String("format")), hasSpans)
					if err != nil {
						return nil, err
					}
					return struct {
						HTML string `json:"html"`
					}{html}, nil
				})
			}
			text, err := readText(c)
			if err != nil {
				return err
			}
			html, err := render(c.Context, text, c.String("spans"), c.String("model"), c.String("format"), c.IsSet("spans"))
			if err != nil {
				return err
			}
			w, closeOut, err := openOutput(c)
			if err != nil {
				return err
			}
			defer closeOut()
			if c.Bool("page") {
				return display.Page(w, "Entities", html)
			}
			_, err = fmt.Fprintln(w, html)
			return err
		},
	}
}

// batchSpans reads a batch line's "spans" as the API does: a JSON array of
// {start, end, label}, or a string holding one or the compact form; null
// or absent means none.
func batchSpans(raw json.RawMessage) (spans string, ok bool, err error) {
	raw = bytes.TrimSpace(raw)
	switch {
	case len(raw) == 0 || string(raw) == "null":
		return "", false, nil
	case raw[0] == '[':
		return string(raw), true, nil
	case raw[0] == '"':
		if err := json.Unmarshal(raw, &spans); err != nil {
			return "", false, fmt.Errorf("invalid input line: %w", err)
		}
		return spans, true, nil
	}
	return "", false, errors.New(`"spans" must be a JSON array of {"start","end","label"} or a string`)
}

// pageBufs holds the buffers that batch lines' pages are unescaped into.
var pageBufs = sync.Pool{New: func() any { return new([]byte) }}

// maxPooledPage is the largest page buffer kept for reuse: one huge page
// should not pin its buffer.
const maxPooledPage = 4 << 20

func putPageBuf(bp *[]byte) {
	if cap(*bp) <= maxPooledPage {
		*bp = (*bp)[:0]
		pageBufs.Put(bp)
	}
}

// textBody and answerBody give results the API's wire shapes, so that the
// CLI prints what the API answers.
func textBody(p *extract.Page, err error) (any, error) {
	if err != nil {
		return nil, err
	}
	return textJSON{server.NewTextBody(p)}, nil
}

func answerBody(a *textanalysis.Answer, err error) (any, error) {
	if err != nil {
		return nil, err
	}
	return server.NewAnswerBody(a), nil
}

func orDefault(v, def string) string {
	if v == "" {
		return def
	}
	return v
}

func sentimentCommand(analyzer analyzerFunc) *cli.Command {
	return &cli.Command{
		Name:      "sentiment",
		Usage:     "score the sentiment of a text and of each of its sentences",
		ArgsUsage: "[TEXT...]",
		Description: `Prints {"label", "compound", "pos", "neu", "neg", "sentences": [...]}; compound
runs from -1 (most negative) to 1 (most positive). --model vader gives exactly the
scores of the reference VADER.

Batch lines: {"id", "text"} in; {"id", "label", "compound", "pos", "neu", "neg",
"sentences"} out.

Examples:
   textanalysis sentiment "The food was great, the service slow."
   textanalysis sentiment --model vader --input tweets.jsonl`,
		Flags: append(append(batchFlags(), inputFlags()...),
			&cli.StringFlag{Name: "model", Aliases: []string{"m"}, Usage: "sentiment `MODEL`"},
			&cli.BoolFlag{Name: "sentences", Value: true, Usage: "also score each sentence (--sentences=false: whole texts only, faster for batches)"},
		),
		Action: func(c *cli.Context) error {
			score := (*textanalysis.Analyzer).Sentiment
			if !c.Bool("sentences") {
				score = (*textanalysis.Analyzer).SentimentWhole
			}
			return textModelAction(analyzer, func(ctx context.Context, an *textanalysis.Analyzer, text, model string) (any, error) {
				res, err := score(an, ctx, text, model)
				if err != nil {
					return nil, err
				}
				return sentimentJSON{res}, nil
			})(c)
		},
	}
}

func qaCommand(analyzer analyzerFunc) *cli.Command {
	return &cli.Command{
		Name:      "qa",
		Usage:     "answer a question with a span of a text or of a web page",
		ArgsUsage: "[CONTEXT...]",
		Description: `Prints {"answer", "score", "start", "end", "source"}; "answer" is null when
nothing answers well enough. The context comes from --context, --url (a web page),
arguments, --file or standard input.

Batch lines: {"id", "question", "context"} or {"id", "question", "url"} in;
{"id", "answer", "score", "start", "end", "source"} out.

Examples:
   textanalysis qa -q "Where was Ada born?" --context "Ada was born in London."
   textanalysis qa -q "When was she born?" --url https://en.wikipedia.org/wiki/Ada_Lovelace
   textanalysis qa --input questions.jsonl`,
		Flags: append(append(append(batchFlags(), inputFlags()...), fetchFlags()...),
			&cli.StringFlag{Name: "question", Aliases: []string{"q"}, Usage: "the `QUESTION`"},
			&cli.StringFlag{Name: "context", Aliases: []string{"c"}, Usage: "the `TEXT` to search"},
			&cli.StringFlag{Name: "url", Usage: "search the main text of the page at `URL`"},
			&cli.BoolFlag{Name: "with-context", Usage: "with --url, include the searched text in the result"},
		),
		Action: func(c *cli.Context) error {
			an, err := analyzer(c)
			if err != nil {
				return err
			}
			if c.String("input") != "" {
				return runBatch(c, func(ctx context.Context, line json.RawMessage, id *json.RawMessage) (any, error) {
					var in struct {
						ID       json.RawMessage `json:"id"`
						Question string          `json:"question"`
						Context  *string         `json:"context"`
						URL      *string         `json:"url"`
					}
					if err := decodeLine(line, &in); err != nil {
						return nil, err
					}
					*id = in.ID
					switch {
					case (in.Context == nil) == (in.URL == nil):
						return nil, fmt.Errorf("a line needs exactly one of \"context\" and \"url\"")
					case in.URL != nil:
						return answerBody(an.AnswerURL(ctx, in.Question, *in.URL, textanalysis.AnswerURLOptions{WithContext: c.Bool("with-context")}))
					}
					return answerBody(an.Answer(ctx, in.Question, *in.Context))
				})
			}
			q := c.String("question")
			if q == "" {
				return usagef("no question: give one with -q")
			}
			if u := c.String("url"); u != "" {
				if c.IsSet("context") || c.Args().Present() || c.IsSet("file") {
					return usagef("give the context or a --url, not both")
				}
				res, err := an.AnswerURL(c.Context, q, u, textanalysis.AnswerURLOptions{WithContext: c.Bool("with-context")})
				if err != nil {
					return err
				}
				return printResult(c, server.NewAnswerBody(res))
			}
			text := c.String("context")
			if !c.IsSet("context") {
				if text, err = readText(c); err != nil {
					return err
				}
			}
			res, err := an.Answer(c.Context, q, text)
			if err != nil {
				return err
			}
			return printResult(c, server.NewAnswerBody(res))
		},
	}
}

func displayRequest(text, model, format string) textanalysis.DisplayRequest {
	return textanalysis.DisplayRequest{Text: text, Model: model, Format: display.Format(format)}
}

// textModelAction runs a function of a text and a model name: once on the
// text from arguments, --file or standard input, or over JSON lines
// {"id", "text", "model"?} with --input (a line's model wins over --model).
func textModelAction(analyzer analyzerFunc, analyse func(ctx context.Context, an *textanalysis.Analyzer, text, model string) (any, error)) cli.ActionFunc {
	return func(c *cli.Context) error {
		an, err := analyzer(c)
		if err != nil {
			return err
		}
		model := c.String("model")
		if c.String("input") != "" {
			return runBatch(c, func(ctx context.Context, line json.RawMessage, id *json.RawMessage) (any, error) {
				if vals, ok := decodeStringLine(line, "id", "text", "model"); ok && vals[0] != "" && vals[1] != "" {
					*id = marshalJSONString(vals[0])
					return analyse(ctx, an, vals[1], orDefault(vals[2], model))
				}
				var in struct {
					ID    json.RawMessage `json:"id"`
					Text  *string         `json:"text"`
					Model string          `json:"model"`
				}
				if err := decodeLine(line, &in); err != nil {
					return nil, err
				}
				*id = in.ID
				if in.Text == nil {
					return nil, errNoTextField
				}
				return analyse(ctx, an, *in.Text, orDefault(in.Model, model))
			})
		}
		text, err := readText(c)
		if err != nil {
			return err
		}
		res, err := analyse(c.Context, an, text, model)
		if err != nil {
			return err
		}
		return printResult(c, res)
	}
}
