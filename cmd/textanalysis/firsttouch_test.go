package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/textanalysis/go-textanalysis/display"
	"github.com/textanalysis/go-textanalysis/server/access"
)

func TestUnknownCommandIsUsage(t *testing.T) {
	_, _, code := run(t, "", "nope")
	assert.Equal(t, exitUsage, code)
	out, _, code := run(t, "")
	assert.Equal(t, exitOK, code)
	assert.Contains(t, out, "COMMANDS:")
}

func TestFlagsOfferedWhereTheyApply(t *testing.T) {
	tests := []struct {
		cmd         string
		has, hasNot []string
	}{
		{"ner", []string{"--pretty"}, []string{"--allow-private"}},
		{"sentiment", []string{"--pretty"}, []string{"--allow-private"}},
		{"display", []string{"--format FORMAT", "ent (inline entities) or span"}, []string{"--allow-private", "--pretty", "`"}},
		{"text", []string{"--allow-private"}, nil},
		{"qa", []string{"--allow-private"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.cmd, func(t *testing.T) {
			out, _, code := run(t, "", tt.cmd, "--help")
			require.Equal(t, exitOK, code)
			for _, s := range tt.has {
				assert.Contains(t, out, s)
			}
			for _, s := range tt.hasNot {
				assert.NotContains(t, out, s)
			}
		})
	}
	t.Run("allow-private on ner is a usage error", func(t *testing.T) {
		_, _, code := run(t, "", "ner", "--allow-private", "Ada")
		assert.Equal(t, exitUsage, code)
	})
	t.Run("pretty in batch mode is a usage error", func(t *testing.T) {
		_, _, code := run(t, `{"id":1,"text":"great"}`+"\n", "sentiment", "--input", "-", "--pretty")
		assert.Equal(t, exitUsage, code)
	})
}

func TestBatchLineWithoutText(t *testing.T) {
	for _, cmd := range []string{"sentiment", "ner", "display"} {
		t.Run(cmd, func(t *testing.T) {
			out, _, code := run(t, `{"id":"a","txt":"great"}`+"\n"+`{"id":"b","text":"Ada was great."}`+"\n", cmd, "--input", "-")
			assert.Equal(t, exitBatchFailed, code)
			lines := strings.Split(strings.TrimSpace(out), "\n")
			require.Len(t, lines, 2)
			assert.JSONEq(t, `{"id":"a","error":"a line needs \"text\""}`, lines[0])
			assert.NotContains(t, lines[1], `"error"`)
		})
	}
}

func TestProgressEndsFull(t *testing.T) {
	tests := []struct {
		name, input string
	}{
		{"lines", strings.Repeat(`{"id":1,"text":"x"}`+"\n", 7)},
		{"no final newline", `{"id":1,"text":"x"}` + "\n" + `{"id":2,"text":"y"}`},
		{"blank lines", "\n\n" + `{"id":1,"text":"x"}` + "\n\n"},
	}
	echo := func(_ context.Context, line json.RawMessage, id *json.RawMessage) (any, error) {
		*id = json.RawMessage("1")
		return map[string]int{}, nil
	}
	runners := map[string]func(in io.Reader, bar *progress) error{
		"serial": func(in io.Reader, bar *progress) error {
			_, err := runSerial(context.Background(), in, io.Discard, echo, bar, 1)
			return err
		},
		"parallel": func(in io.Reader, bar *progress) error {
			_, err := runParallel(context.Background(), in, io.Discard, echo, bar, 2)
			return err
		},
	}
	for _, tt := range tests {
		for name, runner := range runners {
			t.Run(tt.name+" "+name, func(t *testing.T) {
				var buf bytes.Buffer
				bar := newProgress(&buf, int64(len(tt.input)))
				require.NoError(t, runner(strings.NewReader(tt.input), bar))
				bar.complete()
				bar.finish()
				draws := strings.Split(strings.TrimSpace(buf.String()), "\r")
				last := draws[len(draws)-1]
				assert.Contains(t, last, "["+strings.Repeat("#", 30)+"] 100%", last)
				assert.Contains(t, last, fmt.Sprintf(" %d lines", strings.Count(tt.input, `"id"`)), last)
			})
		}
	}
}

func TestMessagesNameNoGoPackage(t *testing.T) {
	an, err := guardedAnalyzer()
	require.NoError(t, err)
	_, tooLong := an.Entities(context.Background(), strings.Repeat("a", an.Limits().MaxTextRunes+1), "")
	require.Error(t, tooLong)
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"too long", tooLong, "text is longer than 100000 characters"},
		{"too long, wrapped", fmt.Errorf("line 3: %w", tooLong), "text is longer than 100000 characters"},
		{"span", &display.SpanError{Index: 0, Reason: "end 9 is past the text"}, "span 0: end 9 is past the text"},
		{"bad e-mail", &usageError{access.ErrBadEmail}, "invalid e-mail address"},
		{"doubled prefix", errors.New("textanalysis: textanalysis: something"), "something"},
		{"plain", errors.New("no question: give one with -q"), "no question: give one with -q"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, userMessage(tt.err))
		})
	}
	t.Run("batch error line", func(t *testing.T) {
		out, _, code := run(t, `{"id":1,"text":"Ada","spans":"0:9:PERSON"}`+"\n", "display", "--input", "-")
		assert.Equal(t, exitBatchFailed, code)
		assert.Contains(t, out, `"error":"span 0: `)
		assert.NotContains(t, out, "display:")
	})
}

func TestBatchSpansAsArrayOrString(t *testing.T) {
	in := `{"id":1,"text":"Ada was here.","spans":[{"start":0,"end":3,"label":"PERSON"}]}
{"id":2,"text":"Ada was here.","spans":"[{\"start\":0,\"end\":3,\"label\":\"PERSON\"}]"}
{"id":3,"text":"Ada was here.","spans":"0:3:PERSON"}
{"id":4,"text":"Ada was here.","spans":7}
`
	out, _, code := run(t, in, "display", "--input", "-", "--workers", "1")
	assert.Equal(t, exitBatchFailed, code)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.Len(t, lines, 4)
	var first struct{ HTML string }
	require.NoError(t, json.Unmarshal([]byte(lines[0]), &first))
	assert.Contains(t, first.HTML, "PERSON")
	for i := 1; i < 3; i++ {
		var other struct{ HTML string }
		require.NoError(t, json.Unmarshal([]byte(lines[i]), &other))
		assert.Equal(t, first.HTML, other.HTML, "line %d", i+1)
	}
	assert.Contains(t, lines[3], `"error":"\"spans\" must be`)
}

// The CLI writes the API's wire shapes with the API's encoder: no HTML
// escaping, in results and in batch error lines.
func TestCLIJSONIsNotHTMLEscaped(t *testing.T) {
	out, errOut, code := run(t, "", "qa", "-q", "Who bought the company?", "--context", "The company was bought by AT&T <Inc> in 2005.")
	require.Equal(t, exitOK, code, errOut)
	assert.NotContains(t, out, `\u0026`)
	assert.Contains(t, out, `"source":"context"`)
	out, _, _ = run(t, `{"id":"<a&b>","text":"x","spans":"bad<"}`+"\n", "display", "--input", "-")
	assert.Contains(t, out, `{"id":"<a&b>","error":`)
	assert.NotContains(t, out, `\u003c`)
	html := "<html lang=\"de-AT\"><head><title>A&amp;B</title></head><body><article><p>" + strings.Repeat("Plain words in a paragraph of the article. ", 8) + "</p></article></body></html>"
	out, errOut, code = run(t, html, "text", "--html", "-", "--json")
	require.Equal(t, exitOK, code, errOut)
	assert.Contains(t, out, `"title":"A&B"`)
	assert.Contains(t, out, `"language":"de","language_tag":"de-AT"`)
}
