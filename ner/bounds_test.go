package ner

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/textanalysis/go-textanalysis/ner/internal/tagger"
)

// bracketed returns marked without its brackets, its tokens and the token
// range [s, e) the brackets marked.
func bracketed(t *testing.T, marked string) (text string, toks []tagger.Span, s, e int) {
	t.Helper()
	open, closer := strings.Index(marked, "["), strings.Index(marked, "]")
	require.True(t, open >= 0 && closer > open)
	text = marked[:open] + marked[open+1:closer] + marked[closer+1:]
	toks = tagger.Tokenize(nil, text)
	s, e = -1, -1
	for k, tok := range toks {
		if tok.Start == open {
			s = k
		}
		if tok.End == closer-1 {
			e = k + 1
		}
	}
	require.True(t, s >= 0 && e > s, "the brackets must fall on token edges")
	return text, toks, s, e
}

// The model's entity boundaries are corrected by class; each case gives
// the words the model took (between [ and ]) and what the entity becomes.
func TestBounds(t *testing.T) {
	tests := []struct {
		name  string
		text  string // the model's entity between [ and ]
		label Label
		want  string // "" when nothing is left
	}{
		{"currency sign joins MONEY", "rose to $[172.50] today", Money, "$172.50"},
		{"currency with country letters", "cost C$ [1,000] each", Money, "C$ 1,000"},
		{"sign already in", "rose to [$172.50] today", Money, "$172.50"},
		{"no sign for other labels", "rose to $[172.50] today", Cardinal, "172.50"},
		{"percent sign joins PERCENT", "fell [3.2] % in May", Percent, "3.2 %"},
		{"trailing comma dropped", "on [Friday, April 7, 2023,] the", Date, "Friday, April 7, 2023"},
		{"trailing period dropped", "in [New York .]", GPE, "New York"},
		{"leading dash dropped", "[-- Dorothy L. Sayers]", Person, "Dorothy L. Sayers"},
		{"quotes kept in pairs", "the [``USS Cole''] sailed", Product, "``USS Cole''"},
		{"unpaired quote dropped", "[``City Lights] opened", WorkOfArt, "City Lights"},
		{"brackets kept in pairs", "[{Ethel} Klein] said", Person, "{Ethel} Klein"},
		{"emoji ends an entity", "[Angela Merkel 👍🏽] said", Person, "Angela Merkel"},
		{"script change ends an entity", "[Barack Obama בירושלים] spoke", Person, "Barack Obama"},
		{"a leading emoji is dropped", "[👍 Angela Merkel] said", Person, "Angela Merkel"},
		{"a keycap emoji is an emoji", "[1️⃣ Angela Merkel] said", Person, "Angela Merkel"},
		{"a keycap joined to an emoji is one", "[1️‍👩0 207]", Cardinal, "0 207"},
		{"punctuation alone is nothing", "well [,] then", Org, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text, toks, s, e := bracketed(t, tt.text)
			s, e, ok := bounds(text, toks, s, e, tt.label)
			got := ""
			if ok {
				got = text[toks[s].Start:toks[e-1].End]
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

// A capitalised function word between a title and a PERSON entity is the
// name's first word; the model's entity is between [ and ].
func TestTitledName(t *testing.T) {
	tests := []struct {
		name, text, want string
	}{
		{"after a title", "Vice Premier He [Lifeng] met them.", "He Lifeng"},
		{"after a title with a full stop", "Dr. Will [Wade] spoke.", "Will Wade"},
		{"a word usually capitalised", "Premier Zhou [Lifeng] met them.", "Lifeng"},
		{"a title after a title", "General Counsel [Matthew Mayer] said so.", "Matthew Mayer"},
		{"no title before it", "Yesterday He [Lifeng] met them.", "Lifeng"},
		{"the sentence's first word", "He [Lifeng] met them.", "Lifeng"},
		{"a comma between", "Premier, He [Lifeng] met them.", "Lifeng"},
		{"capitals throughout", "PREMIER HE [Lifeng] met them.", "Lifeng"},
		{"the pronoun I", "Premier I [Lifeng] met them.", "Lifeng"},
		{"a title is no part of the name", "Vice Premier [He Lifeng] met them.", "He Lifeng"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text, toks, s, e := bracketed(t, tt.text)
			s = titledName(text, toks, 0, s)
			assert.Equal(t, tt.want, text[toks[s].Start:toks[e-1].End])
		})
	}
}

// A name written with a combining accent (NFD) is read as its precomposed
// form, and its offsets and text are the caller's own.
func TestRecognizeNormalizesForTheModel(t *testing.T) {
	r, err := New(Options{})
	require.NoError(t, err)
	composed := "Amélie Poulain moved to Paris in 2001."
	decomposed := "Ame\u0301lie Poulain moved to Paris in 2001."
	want, err := r.Recognize(t.Context(), composed)
	require.NoError(t, err)
	got, err := r.Recognize(t.Context(), decomposed)
	require.NoError(t, err)
	require.Len(t, got, len(want), "the same entities in both spellings")
	runes := []rune(decomposed)
	for k, e := range got {
		assert.Equal(t, want[k].Label, e.Label)
		assert.Equal(t, string(runes[e.Start:e.End]), e.Text, "offsets index the caller's text")
	}
	assert.Equal(t, "Ame\u0301lie Poulain", got[0].Text)
}

// The models learned from unaccented text: an accented Latin name reads as
// its unaccented spelling, with the caller's text and offsets.
func TestRecognizeFoldsLatinAccents(t *testing.T) {
	r, err := New(Options{})
	require.NoError(t, err)
	for _, tt := range []struct{ accented, plain string }{
		{"Amélie Poulain lives in Paris.", "Amelie Poulain lives in Paris."},
		{"Björn Borg lives in Monaco.", "Bjorn Borg lives in Monaco."},
		{"François Hollande visited Zürich.", "Francois Hollande visited Zurich."},
	} {
		t.Run(tt.accented, func(t *testing.T) {
			want, err := r.Recognize(t.Context(), tt.plain)
			require.NoError(t, err)
			got, err := r.Recognize(t.Context(), tt.accented)
			require.NoError(t, err)
			require.Len(t, got, len(want))
			runes := []rune(tt.accented)
			for k, e := range got {
				assert.Equal(t, want[k].Label, e.Label, e.Text)
				assert.Equal(t, want[k].Start, e.Start)
				assert.Equal(t, string(runes[e.Start:e.End]), e.Text)
			}
		})
	}
}
