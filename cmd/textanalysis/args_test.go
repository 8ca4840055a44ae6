package main

import (
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestReorderArgs(t *testing.T) {
	app := newApp(strings.NewReader(""), io.Discard, io.Discard)
	tests := []struct {
		name string
		args []string
		want []string
	}{
		{"flag after text", []string{"sentiment", "great", "--pretty"}, []string{"sentiment", "--pretty", "--", "great"}},
		{"valued flag after text", []string{"ner", "Ada Lovelace", "--model", "conll"}, []string{"ner", "--model", "conll", "--", "Ada Lovelace"}},
		{"short valued flag between words", []string{"ner", "Ada", "-m", "x", "Lovelace"}, []string{"ner", "-m", "x", "--", "Ada", "Lovelace"}},
		{"name=value", []string{"ner", "Ada", "--model=x"}, []string{"ner", "--model=x", "--", "Ada"}},
		{"double dash ends flags", []string{"sentiment", "--pretty", "--", "great", "--pretty"}, []string{"sentiment", "--pretty", "--", "great", "--pretty"}},
		{"stdin dash stays an argument", []string{"ner", "-", "--pretty"}, []string{"ner", "--pretty", "--", "-"}},
		{"flags only", []string{"ner", "--pretty"}, []string{"ner", "--pretty"}},
		{"subcommand", []string{"keys", "delete-account", "ada@example.com", "--json"}, []string{"keys", "delete-account", "--json", "--", "ada@example.com"}},
		{"subcommand flag with a value", []string{"keys", "revoke", "ta_live_ab12cd…", "--db", "x.db"}, []string{"keys", "revoke", "--db", "x.db", "--", "ta_live_ab12cd…"}},
		{"unknown command left alone", []string{"nope", "a", "--b"}, []string{"nope", "a", "--b"}},
		{"global flag", []string{"--help"}, []string{"--help"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := reorderArgs(app, append([]string{"textanalysis"}, tt.args...))
			assert.Equal(t, append([]string{"textanalysis"}, tt.want...), got)
		})
	}
}

func TestFlagsAfterText(t *testing.T) {
	t.Run("pretty after the text", func(t *testing.T) {
		out, errOut, code := run(t, "", "sentiment", "What a great day", "--pretty")
		require.Equal(t, exitOK, code, errOut)
		assert.Contains(t, out, "\n  \"label\": ")
		var res struct {
			Sentences []struct{ Text string } `json:"sentences"`
		}
		require.NoError(t, json.Unmarshal([]byte(out), &res))
		require.NotEmpty(t, res.Sentences)
		assert.Equal(t, "What a great day", res.Sentences[0].Text)
	})
	t.Run("model after the text", func(t *testing.T) {
		_, errOut, code := run(t, "", "ner", "Ada Lovelace", "--model", "nonexistent")
		// Read as the text "Ada Lovelace --model nonexistent", this ran
		// the default model and succeeded.
		assert.Equal(t, exitUsage, code, errOut)
	})
	t.Run("double dash keeps a dash word as text", func(t *testing.T) {
		out, errOut, code := run(t, "", "sentiment", "--", "great", "--pretty")
		require.Equal(t, exitOK, code, errOut)
		assert.Contains(t, out, `"text":"great --pretty"`)
	})
}
