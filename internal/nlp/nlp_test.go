package nlp

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTag(t *testing.T) {
	text := "Zoë said “don’t go” to Ada Lovelace in London."
	toks, err := Tag(text)
	require.NoError(t, err)
	rs := []rune(text)
	var words []string
	for _, tok := range toks {
		assert.Equal(t, tok.Text, string(rs[tok.Start:tok.End]))
		words = append(words, tok.Text)
	}
	assert.Equal(t, []string{"Zoë", "said", "“", "do", "n’t", "go", "”", "to", "Ada", "Lovelace", "in", "London", "."}, words)
	assert.Equal(t, "NNP", toks[8].Tag)
}

func TestSentences(t *testing.T) {
	tests := []struct {
		name string
		text string
		want []string
	}{
		{"two", "Dr. Smith arrived. He   sat down!", []string{"Dr. Smith arrived.", "He   sat down!"}},
		{"leading space", "  Hello there.  ", []string{"Hello there."}},
		{"unicode", "Köln ist schön. Ja.", []string{"Köln ist schön.", "Ja."}},
		{"empty", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Sentences(tt.text)
			require.NoError(t, err)
			rs := []rune(tt.text)
			var texts []string
			for _, s := range got {
				assert.Equal(t, s.Text, string(rs[s.Start:s.End]))
				texts = append(texts, s.Text)
			}
			assert.Equal(t, tt.want, texts)
		})
	}
}

func FuzzTag(f *testing.F) {
	f.Add("Zoë said “don’t go” to Ada &rsquo; in\nLondon.")
	f.Add("$100 (approx.) U.S. e-mail: a@b.co :-)")
	f.Fuzz(func(t *testing.T, text string) {
		toks, err := Tag(text)
		if err != nil {
			return
		}
		rs := []rune(text)
		prev := 0
		for _, tok := range toks {
			if tok.Start < prev || tok.Start >= tok.End || tok.End > len(rs) || string(rs[tok.Start:tok.End]) != tok.Text {
				t.Fatalf("bad token %+v in %q", tok, text)
			}
			prev = tok.End
		}
		sents, err := Sentences(text)
		if err != nil {
			return
		}
		for _, s := range sents {
			if s.Start < 0 || s.Start >= s.End || s.End > len(rs) || string(rs[s.Start:s.End]) != s.Text {
				t.Fatalf("bad sentence %+v in %q", s, text)
			}
		}
	})
}

func BenchmarkTag(b *testing.B) {
	text := "The European Commission said on Thursday it disagreed with German advice to consumers to shun British lamb until scientists determine whether mad cow disease can be transmitted to sheep."
	b.ReportAllocs()
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		if _, err := Tag(text); err != nil {
			b.Fatal(err)
		}
	}
}
