package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/textanalysis/go-textanalysis/ner/internal/tagger"
)

func TestHyphenCompound(t *testing.T) {
	tests := []struct {
		name, text, ent string // ent: the OntoNotes entity, first occurrence in text
		want, label     string
	}{
		{"suffix", "Ohio-based KeyCorp", "Ohio", "Ohio-based", "MISC"},
		{"two-word name", "a Hong Kong-listed company", "Hong Kong", "Hong Kong-listed", "MISC"},
		{"prefix", "the neo-Nazi party", "Nazi", "neo-Nazi", "MISC"},
		{"both sides", "an anti-Soviet-led bloc", "Soviet", "anti-Soviet-led", "MISC"},
		{"two names", "Israel-PLO talks", "Israel", "Israel", "LOC"},
		{"spaced dash", "Ohio - based", "Ohio", "Ohio", "LOC"},
		{"plain", "in Ohio.", "Ohio", "Ohio", "LOC"},
		{"dash at the end", "Ohio-", "Ohio", "Ohio", "LOC"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rs := []rune(tt.text)
			a := len([]rune(tt.text[:strings.Index(tt.text, tt.ent)]))
			b := a + len([]rune(tt.ent))
			na, nb, l := hyphenCompound(rs, a, b, "LOC")
			assert.Equal(t, tt.want, string(rs[na:nb]))
			assert.Equal(t, tt.label, l)
		})
	}
}

func TestSplitDocs(t *testing.T) {
	var sents []tagger.Sentence
	for _, d := range []string{"a", "a", "b", "c", "c", "d"} {
		sents = append(sents, tagger.Sentence{Doc: d, Text: d})
	}
	kept, held := splitDocs(sents, 2)
	var k, h []string
	for _, s := range kept {
		k = append(k, s.Doc)
	}
	for _, s := range held {
		h = append(h, s.Doc)
	}
	assert.Equal(t, []string{"a", "a", "c", "c"}, k)
	assert.Equal(t, []string{"b", "d"}, h)
}

func TestStripEdge(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Wal-Mart's", "Wal-Mart"},
		{"Wal-Mart ’s", "Wal-Mart"},
		{"``USA Today''", "USA Today"},
		{"\"The Crying Game\"", "The Crying Game"},
		{"Paris", "Paris"},
		{"Jones'", "Jones"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			rs := []rune(tt.in)
			a, b := stripEdge(rs, 0, len(rs))
			assert.Equal(t, tt.want, string(rs[a:b]))
		})
	}
}

func TestReadExtGaz(t *testing.T) {
	// Labels outside the label set are dropped; for CoNLL the OntoNotes
	// labels are mapped first (GPE and LOC both to LOC); the common flag
	// is kept as CommonBit.
	tests := []struct {
		name   string
		labels []string
		conll  bool
		want   map[string]uint32
	}{
		{"ontonotes", labelSets["ontonotes"], false, map[string]uint32{"Burkina Faso": 1<<4 | 1<<5, "Reading": 1<<4 | tagger.CommonBit, "Aeneid": 1 << 8}},
		{"conll", labelSets["conll"], true, map[string]uint32{"Burkina Faso": 1 << 1, "Reading": 1<<1 | tagger.CommonBit, "Aeneid": 1 << 3}},
		{"places only", []string{"GPE"}, false, map[string]uint32{"Burkina Faso": 1, "Reading": 1 | tagger.CommonBit}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := readExtGaz("testdata/ext.tsv", tt.labels, tt.conll, false, false)
			require.NoError(t, err)
			assert.True(t, g.External)
			want := tagger.NewGazetteer(6)
			for p, bits := range tt.want {
				want.AddBits(p, tagger.Tokenize(nil, p), bits)
			}
			assert.Equal(t, want.Phrases, g.Phrases)
		})
	}
}
