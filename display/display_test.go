package display

import (
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

func render(tb testing.TB, text string, spans []Span, opts Options) string {
	tb.Helper()
	var b strings.Builder
	require.NoError(tb, Render(&b, text, spans, opts))
	return b.String()
}

func TestRenderShowsTextAndLabels(t *testing.T) {
	hostile := `<script>alert("x")</script> & 'q' <img src=x onerror=alert(1)>`
	tests := []struct {
		name  string
		text  string
		spans []Span
	}{
		{"no spans", "Just text.", nil},
		{"empty text", "", nil},
		{"one entity", "Ada Lovelace met Charles Babbage in London.", []Span{{0, 12, "PERSON"}, {17, 32, "PERSON"}, {36, 42, "GPE"}}},
		{"unsorted", "Ada met Alan.", []Span{{8, 12, "PERSON"}, {0, 3, "PERSON"}}},
		{"whole text", "London", []Span{{0, 6, "GPE"}}},
		{"non-ASCII offsets", "“Zoë” visited Zürich 🇨🇭.", []Span{{1, 4, "PERSON"}, {14, 20, "GPE"}}},
		{"newlines", "Ada\nmet\r\nAlan\rin\n\nParis", []Span{{0, 3, "PERSON"}, {9, 13, "PERSON"}, {17, 22, "GPE"}}},
		{"crlf cut by a span", "a\r\nb", []Span{{2, 4, "X"}}},
		{"hostile text", hostile, []Span{{0, 8, "ORG"}, {29, 32, "MISC"}}},
		{"hostile label", "Ada met Alan.", []Span{{0, 3, `<b onmouseover="alert(1)">PER</b>`}, {8, 12, "a&b'\"</span></mark><script>x</script>"}}},
		{"NUL and bad UTF-8", "a\x00b\xffc d", []Span{{0, 5, "X\x00"}}},
		{"space-only span", "a   b", []Span{{1, 4, "GAP"}}},
	}
	for _, f := range []Format{FormatEnt, FormatSpan} {
		for _, tt := range tests {
			t.Run(string(f)+"/"+tt.name, func(t *testing.T) {
				out := render(t, tt.text, tt.spans, Options{Format: f})
				assert.Equal(t, want(tt.text, tt.spans, f), shownSorted(parseShown(t, out), f))
			})
		}
	}
}

func TestRenderEscapes(t *testing.T) {
	text := `<script>document.title="pwned"</script> & Tom's`
	spans := []Span{{0, 8, `<i>"LBL"</i>`}, {40, 47, "PERSON"}}
	for _, f := range []Format{FormatEnt, FormatSpan} {
		t.Run(string(f), func(t *testing.T) {
			out := render(t, text, spans, Options{Format: f})
			assert.NotContains(t, out, "<script")
			assert.NotContains(t, out, "<i>")
			assert.Contains(t, out, "&lt;script&gt;")
			assert.Contains(t, out, "document.title=&#34;pwned&#34;&lt;/script&gt; ")
			assert.Contains(t, out, "&amp;")
			assert.Contains(t, out, "Tom&#39;s")
			assert.Contains(t, out, "&lt;i&gt;&#34;LBL&#34;&lt;/i&gt;")
		})
	}
}

func TestRenderColors(t *testing.T) {
	text := "Ada in Paris on Monday with ACME"
	spans := []Span{{0, 3, "PERSON"}, {7, 12, "gpe"}, {16, 22, "DATE"}, {28, 32, "CUSTOM"}}
	tests := []struct {
		name   string
		opts   Options
		colors []string
	}{
		{"displaCy defaults", Options{}, []string{"#aa9cfc", "#feca74", "#bfe1d9", "#ddd"}},
		{"override", Options{Colors: map[string]string{"custom": "#123456", "PERSON": "red"}}, []string{"red", "#feca74", "#bfe1d9", "#123456"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := render(t, text, spans, tt.opts)
			for _, c := range tt.colors {
				assert.Contains(t, out, `<mark class="entity" style="background: `+c+`;`)
			}
		})
	}
	t.Run("bad colour", func(t *testing.T) {
		err := Render(&strings.Builder{}, text, spans, Options{Colors: map[string]string{"X": "red;background:url(x)"}})
		require.Error(t, err)
		assert.Contains(t, err.Error(), "display: colour")
	})
	for label, c := range labelColors {
		assert.Equal(t, c, LabelColor(strings.ToLower(label)), label)
	}
	assert.Len(t, labelColors, 18)
	assert.Equal(t, "#ddd", LabelColor("MISC"))
}

func TestRenderErrors(t *testing.T) {
	text := "Ada met Alan." // 13 code points
	tests := []struct {
		name  string
		spans []Span
		opts  Options
		want  *SpanError
	}{
		{"end beyond text", []Span{{0, 3, "A"}, {8, 14, "B"}}, Options{}, &SpanError{1, "end 14 is beyond the end of the text (13 code points)"}},
		{"negative start", []Span{{-1, 3, "A"}}, Options{}, &SpanError{0, "start -1 is negative"}},
		{"inverted", []Span{{5, 3, "A"}}, Options{}, &SpanError{0, "end 3 is before start 5"}},
		{"empty span", []Span{{3, 3, "A"}}, Options{}, &SpanError{0, "span is empty (start and end are both 3)"}},
		{"empty label", []Span{{0, 3, ""}}, Options{}, &SpanError{0, "label is empty"}},
		{"overlap in ent", []Span{{0, 7, "A"}, {4, 12, "B"}}, Options{}, &SpanError{1, "overlaps span 0; the ent format needs spans that do not overlap (the span format stacks them)"}},
		{"nested in ent", []Span{{4, 7, "A"}, {0, 12, "B"}}, Options{Format: FormatEnt}, &SpanError{0, "overlaps span 1; the ent format needs spans that do not overlap (the span format stacks them)"}},
		{"too deep", []Span{{0, 12, "A"}, {0, 7, "B"}, {4, 7, "C"}}, Options{Format: FormatSpan, MaxOverlap: 2}, &SpanError{2, "more than 2 spans overlap at code point 4"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			err := Render(&b, text, tt.spans, tt.opts)
			var se *SpanError
			require.ErrorAs(t, err, &se)
			assert.Equal(t, tt.want, se)
			assert.Empty(t, b.String(), "nothing written on error")
			assert.Equal(t, err, Validate(text, tt.spans, tt.opts))
		})
	}
	t.Run("overlap allowed in span", func(t *testing.T) {
		spans := []Span{{0, 7, "A"}, {4, 12, "B"}, {0, 12, "C"}}
		require.NoError(t, Validate(text, spans, Options{Format: FormatSpan}))
		require.NoError(t, Validate(text, spans, Options{Format: FormatSpan, MaxOverlap: -1}))
	})
	t.Run("unknown format", func(t *testing.T) {
		err := Render(&strings.Builder{}, text, nil, Options{Format: "dep"})
		require.ErrorIs(t, err, ErrUnknownFormat)
		assert.EqualError(t, err, `display: unknown format "dep" (known: ent, span)`)
	})
	t.Run("write error", func(t *testing.T) {
		err := Render(errWriter{}, text, nil, Options{})
		assert.ErrorIs(t, err, errWrite)
	})
}

var errWrite = errors.New("write refused")

type errWriter struct{}

func (errWriter) Write([]byte) (int, error) { return 0, errWrite }

func TestSpanStacking(t *testing.T) {
	// A and B overlap, C starts after A ends and takes A's row again.
	text := "one two three four"
	spans := []Span{{0, 7, "A"}, {4, 13, "B"}, {8, 18, "C"}}
	out := render(t, text, spans, Options{Format: FormatSpan})
	// "two" is under A (row 0) and B (row 1): two underlines, height for two rows.
	assert.Contains(t, out, `height: 77px;">two<span style="background: #ddd; top: 40px;`)
	assert.Contains(t, out, `top: 57px; height: 4px; left: -1px;`)
	// "four" is under C only, in row 0 (freed by A).
	assert.Contains(t, out, `height: 60px;">four<span style="background: #ddd; top: 40px;`)
	assert.Equal(t, 3, strings.Count(out, `class="span-label"`))
}

func TestFormats(t *testing.T) {
	fs := Formats()
	require.Len(t, fs, 2)
	assert.Equal(t, FormatEnt, fs[0].Name)
	assert.Equal(t, FormatSpan, fs[1].Name)
	fs[0].Name = "changed"
	assert.Equal(t, FormatEnt, Formats()[0].Name, "Formats returns a copy")
	for _, tt := range []struct {
		in   string
		want Format
	}{{"ent", FormatEnt}, {" SPAN ", FormatSpan}} {
		got, err := ParseFormat(tt.in)
		require.NoError(t, err)
		assert.Equal(t, tt.want, got)
	}
	for _, in := range []string{"", "dep", "entity"} {
		_, err := ParseFormat(in)
		assert.ErrorIs(t, err, ErrUnknownFormat, in)
	}
}

func TestPage(t *testing.T) {
	var b strings.Builder
	require.NoError(t, Page(&b, `Tom's <b>"page"</b>`, `<div class="entities">x</div>`))
	out := b.String()
	assert.True(t, strings.HasPrefix(out, "<!DOCTYPE html>\n"))
	assert.Contains(t, out, `<meta charset="utf-8">`)
	assert.Contains(t, out, "<title>Tom&#39;s &lt;b&gt;&#34;page&#34;&lt;/b&gt;</title>")
	assert.Contains(t, out, `<h2 style="margin: 0">Tom&#39;s &lt;b&gt;`)
	assert.Contains(t, out, `<div class="entities">x</div>`)
	b.Reset()
	require.NoError(t, Page(&b, "", "x"))
	assert.Contains(t, b.String(), "<title>displaCy</title>")
	assert.NotContains(t, b.String(), "<h2")
	assert.ErrorIs(t, Page(errWriter{}, "", "x"), errWrite)
}

// TestGolden pins the exact markup; run go test ./display -update to rewrite
// testdata/golden after a deliberate change, and review the diff.
func TestGolden(t *testing.T) {
	text := "Ada Lovelace wrote to Charles Babbage from London on 5 June 1843.\nShe paid £3 <for> \"Notes\"."
	ents := []Span{{0, 12, "PERSON"}, {22, 37, "PERSON"}, {43, 49, "GPE"}, {53, 64, "DATE"}, {75, 77, "MONEY"}, {85, 90, "WORK_OF_ART"}}
	spans := append([]Span{{0, 37, "PAIR"}, {22, 29, "GIVEN"}}, ents...)
	tests := []struct {
		name  string
		spans []Span
		opts  Options
	}{
		{"ent", ents, Options{}},
		{"span", spans, Options{Format: FormatSpan}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := render(t, text, tt.spans, tt.opts) + "\n"
			path := filepath.Join("testdata", "golden", tt.name+".html")
			if *update {
				require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
				require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
			}
			wantB, err := os.ReadFile(path)
			require.NoError(t, err, "run go test ./display -update to create it")
			assert.Equal(t, string(wantB), got)
		})
	}
}
