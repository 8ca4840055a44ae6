package display

import (
	"encoding/json"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// article loads testdata/article.txt (a 1.7 kB news text) and its 54
// OntoNotes entities from testdata/article.spans.
func article(tb testing.TB) (string, string, []Span) {
	tb.Helper()
	text, err := os.ReadFile("testdata/article.txt")
	require.NoError(tb, err)
	compact, err := os.ReadFile("testdata/article.spans")
	require.NoError(tb, err)
	spans, err := ParseSpans(string(compact))
	require.NoError(tb, err)
	require.NoError(tb, Validate(string(text), spans, Options{}))
	return string(text), strings.TrimSpace(string(compact)), spans
}

func TestArticle(t *testing.T) {
	text, _, spans := article(t)
	for _, f := range []Format{FormatEnt, FormatSpan} {
		out := render(t, text, spans, Options{Format: f})
		require.Equal(t, want(text, spans, f), shownSorted(parseShown(t, out), f), f)
	}
}

func BenchmarkRender(b *testing.B) {
	text, _, spans := article(b)
	// For the span style, add one span per line over the entities, so that
	// every entity is stacked under a second one.
	stacked := append([]Span(nil), spans...)
	start := 0
	for i, r := range []rune(text) {
		if r == '\n' {
			stacked = append(stacked, Span{Start: start, End: i, Label: "PARAGRAPH"})
			start = i + 1
		}
	}
	for _, bc := range []struct {
		name  string
		spans []Span
		opts  Options
	}{
		{"ent", spans, Options{}},
		{"span", stacked, Options{Format: FormatSpan}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				if err := Render(io.Discard, text, bc.spans, bc.opts); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkParseSpans(b *testing.B) {
	_, compact, spans := article(b)
	js, err := json.Marshal(spans)
	require.NoError(b, err)
	for _, bc := range []struct{ name, in string }{{"compact", compact}, {"json", string(js)}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(bc.in)))
			for b.Loop() {
				if _, err := ParseSpans(bc.in); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
