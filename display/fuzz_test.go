package display

import (
	"errors"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// FuzzParseSpans checks that ParseSpans never panics, that its errors are
// *SpanError with an index in range, and that what it accepts is valid
// whatever the text and survives a round trip through the compact form.
func FuzzParseSpans(f *testing.F) {
	for _, s := range []string{
		"", "0:5:PERSON,10:16:ORG", " 1 : 2 : a:b ", "0:5:A,", "5:1:A", "-1:2:A", "x:1:A",
		`[{"start":0,"end":5,"label":"PERSON"}]`, `[{"start":0.5,"end":1,"label":"X"}]`,
		`[{"text":"Ada","label":"PERSON","start":0,"end":3}]`, `[null]`, `[`, `{}`, "null",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		spans, err := ParseSpans(s)
		if err != nil {
			var se *SpanError
			require.True(t, errors.As(err, &se), "error %T %v", err, err)
			require.Nil(t, spans)
			require.GreaterOrEqual(t, se.Index, -1)
			require.NotEmpty(t, se.Reason)
			return
		}
		var compact []string
		ok := true
		for _, sp := range spans {
			require.Empty(t, checkSpan(sp), "%+v", sp)
			if strings.ContainsRune(sp.Label, ',') || strings.TrimSpace(sp.Label) != sp.Label {
				ok = false
			}
			compact = append(compact, strconv.Itoa(sp.Start)+":"+strconv.Itoa(sp.End)+":"+sp.Label)
		}
		if ok && len(spans) > 0 {
			again, err := ParseSpans(strings.Join(compact, ","))
			require.NoError(t, err)
			require.Equal(t, spans, again)
		}
	})
}

// fuzzLabels are the labels FuzzRender picks from, hostile ones included.
var fuzzLabels = []string{"PERSON", "GPE", "x", "<script>alert(1)</script>", `"'&<>`, "a\r\nb", "\x00", "\xff", "ORG"}

// FuzzRender checks that Render never panics, that it fails only with the
// documented errors and writes nothing then, and that what it writes parses
// as HTML showing exactly the text (line breaks as <br>) and the labels,
// whatever the text and spans.
func FuzzRender(f *testing.F) {
	f.Add("Ada met Alan in London.", []byte{0, 3, 0, 16, 22, 1}, false)
	f.Add("Ada met Alan in London.", []byte{0, 12, 2, 4, 7, 3, 8, 23, 4}, true)
	f.Add("<script>alert(1)</script>\r\nx", []byte{0, 8, 3, 8, 28, 5}, false)
	f.Add("a\r\nb\x00\xffc", []byte{2, 5, 6, 1, 3, 7}, true)
	f.Add("   ", []byte{0, 2, 0}, true)
	f.Fuzz(func(t *testing.T, text string, raw []byte, spanFormat bool) {
		n := utf8.RuneCountInString(text)
		var spans []Span
		for i := 0; i+2 < len(raw) && len(spans) < 32; i += 3 {
			// Mostly valid spans; n+2 lets some fall off the end.
			start, end := int(raw[i])%(n+2), int(raw[i+1])%(n+2)
			spans = append(spans, Span{Start: start, End: end, Label: fuzzLabels[int(raw[i+2])%len(fuzzLabels)]})
		}
		format := FormatEnt
		if spanFormat {
			format = FormatSpan
		}
		var b strings.Builder
		err := Render(&b, text, spans, Options{Format: format})
		if err != nil {
			var se *SpanError
			require.True(t, errors.As(err, &se), "error %T %v", err, err)
			require.True(t, se.Index >= 0 && se.Index < len(spans), "index %d of %d", se.Index, len(spans))
			require.Empty(t, b.String())
			return
		}
		got := shownSorted(parseShown(t, b.String()), format)
		assert.Equal(t, want(text, spans, format), got)
	})
}
