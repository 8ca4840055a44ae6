package display

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// recordWriter keeps what it is given and the size of its largest write.
type recordWriter struct {
	strings.Builder
	writes, largest int
}

func (w *recordWriter) Write(p []byte) (int, error) {
	w.writes++
	w.largest = max(w.largest, len(p))
	return w.Builder.Write(p)
}

// amplification is the attack: ten spans over 100,000 code points
// of one-letter words, which draws 65 MB in the span format.
func amplification() (string, []Span) {
	text := strings.Repeat("a ", 50_000)
	spans := make([]Span, 10)
	for i := range spans {
		spans[i] = Span{Start: 0, End: len(text), Label: "PERSON"}
	}
	return text, spans
}

func TestRenderOutputLimit(t *testing.T) {
	text := "Ada Lovelace met Charles Babbage in London."
	spans := []Span{{0, 12, "PERSON"}, {17, 32, "PERSON"}, {36, 42, "GPE"}}
	full := render(t, text, spans, Options{Format: FormatSpan, MaxOutputBytes: -1})
	bigText, bigSpans := amplification()
	tests := []struct {
		name  string
		text  string
		spans []Span
		opts  Options
		fail  bool
	}{
		{"exactly the limit", text, spans, Options{Format: FormatSpan, MaxOutputBytes: len(full)}, false},
		{"one byte over", text, spans, Options{Format: FormatSpan, MaxOutputBytes: len(full) - 1}, true},
		{"ent format over", text, spans, Options{MaxOutputBytes: 100}, true},
		{"amplification under the default", bigText, bigSpans, Options{Format: FormatSpan}, true},
		{"amplification with no limit", bigText, bigSpans, Options{Format: FormatSpan, MaxOutputBytes: -1}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var w recordWriter
			err := Render(&w, tt.text, tt.spans, tt.opts)
			if !tt.fail {
				require.NoError(t, err)
				assert.Positive(t, w.Len())
				return
			}
			require.ErrorIs(t, err, ErrOutputTooLarge)
			var tooLarge *OutputTooLargeError
			require.ErrorAs(t, err, &tooLarge)
			want := tt.opts.MaxOutputBytes
			if want == 0 {
				want = DefaultMaxOutputBytes
			}
			assert.Equal(t, want, tooLarge.Max)
			assert.Zero(t, w.writes, "nothing written when the output is too large")
		})
	}
}

// TestRenderStreams checks that a large drawing reaches the writer in
// chunks rather than as one copy held by Render.
func TestRenderStreams(t *testing.T) {
	text, spans := amplification()
	var w recordWriter
	require.NoError(t, Render(&w, text, spans[:1], Options{Format: FormatSpan}))
	assert.Greater(t, w.Len(), 10<<20)
	assert.Greater(t, w.writes, 100)
	assert.Less(t, w.largest, 2*chunkBytes)
	// Streaming must not change the drawing.
	var b strings.Builder
	require.NoError(t, Render(&b, "Ada met Alan.", []Span{{0, 3, "PERSON"}}, Options{}))
	assert.Equal(t, b.String(), render(t, "Ada met Alan.", []Span{{0, 3, "PERSON"}}, Options{MaxOutputBytes: -1}))
}

// TestDefaultOutputLimitFitsOrdinaryInput draws the largest ordinary
// input, 100,000 code points with 10,000 two-word spans, in both formats.
func TestDefaultOutputLimitFitsOrdinaryInput(t *testing.T) {
	text := strings.Repeat("word ", 20_000)
	spans := make([]Span, 10_000)
	for i := range spans {
		spans[i] = Span{Start: 10 * i, End: 10*i + 9, Label: "WORK_OF_ART"}
	}
	for _, f := range []Format{FormatEnt, FormatSpan} {
		var w recordWriter
		require.NoError(t, Render(&w, text, spans, Options{Format: f}), f)
	}
}

func BenchmarkRenderRefused(b *testing.B) {
	text, spans := amplification()
	b.ReportAllocs()
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		if err := Render(&recordWriter{}, text, spans, Options{Format: FormatSpan}); err == nil {
			b.Fatal("want an error")
		}
	}
}
