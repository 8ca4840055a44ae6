package server

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"

	"github.com/textanalysis/go-textanalysis/extract"
	"github.com/textanalysis/go-textanalysis/textanalysis"
)

// The wire shapes of the answers whose JSON is the API's own (DESIGN.md
// §2), built from the library's plain types: the library says nothing
// about HTTP, and the API, the MCP tools (which answer the API's bodies)
// and the CLI all write these.

// TextBody is the answer of /text: fields not found are null. Language is
// the page's language as a BCP 47 primary language subtag ("en" for a page
// that declares "en-US"), and LanguageTag the tag as the page declares it.
type TextBody struct {
	URL         *string `json:"url"`
	FinalURL    *string `json:"final_url"`
	Title       *string `json:"title"`
	Author      *string `json:"author"`
	Published   *string `json:"published"`
	Language    *string `json:"language"`
	LanguageTag *string `json:"language_tag"`
	Text        string  `json:"text"`
	WordCount   int     `json:"word_count"`
	Warning     *string `json:"warning"`
	PageType    *string `json:"page_type"`
}

// NewTextBody is the /text answer for p.
func NewTextBody(p *extract.Page) TextBody {
	return TextBody{
		URL: orNull(p.URL), FinalURL: orNull(p.FinalURL), Title: orNull(p.Title), Author: orNull(p.Author),
		Published: orNull(p.Published), Language: orNull(baseLanguage(p.Language)), LanguageTag: orNull(p.Language),
		Text: p.Text, WordCount: p.WordCount, Warning: orNull(p.Warning), PageType: orNull(p.PageType),
	}
}

// baseLanguage is the primary language subtag of a BCP 47 tag, lower-cased
// ("en-US" and "EN_us" give "en"), or "" when the tag has none ("und",
// private use "x-…", or not a tag at all).
func baseLanguage(tag string) string {
	primary, _, _ := strings.Cut(strings.ReplaceAll(strings.TrimSpace(tag), "_", "-"), "-")
	primary = strings.ToLower(primary)
	if len(primary) < 2 || len(primary) > 3 || primary == "und" || strings.Trim(primary, "abcdefghijklmnopqrstuvwxyz") != "" {
		return ""
	}
	return primary
}

// AnswerBody is the answer of /qa: answer, start and end are null when
// nothing answers well enough. Start and End index the searched text: the
// context, or the extracted text of the page (Context, when asked for).
type AnswerBody struct {
	Answer  *string `json:"answer"`
	Score   float64 `json:"score"`
	Start   *int    `json:"start"`
	End     *int    `json:"end"`
	Source  string  `json:"source"`
	URL     string  `json:"url,omitempty"`
	Context string  `json:"context,omitempty"`
}

// NewAnswerBody is the /qa answer for a.
func NewAnswerBody(a *textanalysis.Answer) AnswerBody {
	b := AnswerBody{Score: a.Score, Source: a.Source, URL: a.URL, Context: a.Context}
	if a.Found {
		text, start, end := a.Text, a.Start, a.End
		b.Answer, b.Start, b.End = &text, &start, &end
	}
	return b
}

func orNull(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// EncodeJSON writes v as one line of JSON (indented with indent), with
// no HTML escaping: "AT&T <Inc>" stays as it is. It is the one JSON encoder
// of the API's answers, the MCP results and the CLI's output.
func EncodeJSON(w io.Writer, v any, indent bool) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if indent {
		enc.SetIndent("", "  ")
	}
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(buf.Bytes())
	return err
}
