package relabel

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/textanalysis/go-textanalysis/ner/internal/tagger"
)

func TestAlternatives(t *testing.T) {
	text := "Yesterday the Bank of England and Paris - London rates rose"
	toks := tagger.Tokenize(nil, text)
	word := func(a Alt) string { return text[toks[a.Start].Start:toks[a.End-1].End] }
	// "Bank of England", "Paris - London" as the tagger's entities.
	chunks := []tagger.Chunk{{Start: 2, End: 5, Label: 0}, {Start: 6, End: 9, Label: 1}}
	got := map[int][]string{}
	for _, a := range Alternatives(nil, text, toks, chunks, 0, 1<<NumEdits-1) {
		got[a.Edit] = append(got[a.Edit], word(a))
	}
	assert.Equal(t, map[int][]string{
		EditTrimL: {"of England"}, EditTrimR: {"Bank of"}, EditExtL: {"the Bank of England"},
		EditExtR: {"Bank of England and"}, EditTrimL2: {"England"}, EditTrimR2: {"Bank"},
		EditExtL2: {"Yesterday the Bank of England"},
		EditMerge: {"Bank of England and Paris - London"},
	}, got, "no extension reaches into the next entity")
	got = map[int][]string{}
	for _, a := range Alternatives(nil, text, toks, chunks, 1, 1<<EditSplitL|1<<EditSplitR|1<<EditExtL) {
		got[a.Edit] = append(got[a.Edit], word(a))
	}
	assert.Equal(t, map[int][]string{EditExtL: {"and Paris - London"}, EditSplitL: {"Paris"}, EditSplitR: {"London"}}, got)
}

func TestPick(t *testing.T) {
	b := &Bound{Allow: 1<<NumEdits - 1, Cost: 0.4, Margin: 0.1, Reach: 100}
	p0 := []float32{0.3, 0.1, 0.6} // the entity: label 0 (or none)
	alts := []Alt{{Edit: EditTrimL}, {Edit: EditExtR}, {Edit: EditSplitL}, {Edit: EditSplitR}}
	// An alternative clearly right.
	pa := [][]float32{{0.9, 0.05, 0.05}, {0.2, 0.1, 0.7}, {0.1, 0.1, 0.8}, {0.1, 0.1, 0.8}}
	assert.Equal(t, Pick{Alt: 0, Y: 0, Y2: 2}, b.Pick(p0, 0, alts, pa, 0))
	// Out of reach, or not allowed: the entity stays.
	assert.Equal(t, Pick{Alt: -1}, b.Pick(p0, 0, alts, [][]float32{nil, pa[1], pa[2], pa[3]}, 0))
	b.Allow &^= 1 << EditTrimL
	assert.Equal(t, Pick{Alt: -1}, b.Pick(p0, 0, alts, pa, 0))
	// A split into two likely entities beats a dropped entity.
	b.Allow = 1<<NumEdits - 1
	pa = [][]float32{{0.1, 0.1, 0.8}, {0.1, 0.1, 0.8}, {0.7, 0.2, 0.1}, {0.1, 0.8, 0.1}}
	assert.Equal(t, Pick{Alt: 2, Y: 0, Y2: 1}, b.Pick(p0, 2, alts, pa, 0))
}

func TestWriteReadBound(t *testing.T) {
	m := Train([]string{"PERSON", "GPE"}, toy(), 5, 1)
	m.Bound = &Bound{Allow: 0b110, Cost: 0.4, Margin: 0.2, Reach: 150}
	var buf bytes.Buffer
	require.NoError(t, m.Write(&buf))
	m2, err := Read(buf.Bytes())
	require.NoError(t, err)
	assert.Nil(t, m2.Ext)
	assert.Equal(t, m.Bound, m2.Bound)
}
