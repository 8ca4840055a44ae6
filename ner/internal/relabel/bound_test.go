package relabel

import (
	"bytes"
	"slices"
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

// TestChooserApply runs both stages on a toy tagger: without a Bound the
// Chooser relabels as Model.Relabel does; with one, out-of-reach
// alternatives change nothing, and whatever it picks stays in order.
func TestChooserApply(t *testing.T) {
	var sents []tagger.Sentence
	for i, name := range []string{"Alice", "Bob", "Carol", "Dave"} {
		for j, city := range []string{"Paris", "Rome", "Oslo"} {
			text := name + " flew to " + city + " today."
			sents = append(sents, tagger.Sentence{Doc: string(rune('a' + i*3 + j)), Text: text, Entities: []tagger.GoldEntity{
				{Start: 0, End: len(name), Label: "PERSON"},
				{Start: len(name) + 9, End: len(name) + 9 + len(city), Label: "GPE"},
			}})
		}
	}
	tm, _, err := tagger.Train(sents, tagger.TrainOptions{Labels: []string{"PERSON", "GPE"}, Epochs: 5, MinCount: 1, Folds: 2, BILOU: true, Extra: true})
	require.NoError(t, err)
	m := Train([]string{"PERSON", "GPE"}, toy(), 5, 1)
	text := "Carol and Bob flew to Oslo and Rome today."
	toks := tagger.Tokenize(nil, text)
	var b tagger.Buffers
	var ch Chooser
	tagged := tm.Tag(nil, text, toks, &b)
	require.NotEmpty(t, tagged)
	want := slices.Clone(tagged)
	var f Features
	var buf []float32
	want = want[:0]
	for _, c := range tagged {
		var cand Candidate
		FromTagger(&cand, tm, &b, text, toks, c)
		var y int
		y, buf = m.Relabel(&f, buf, &cand)
		if y >= 0 {
			c.Label = y
			want = append(want, c)
		}
	}
	got := ch.Apply(m, tm, &b, text, toks, slices.Clone(tagged))
	assert.Equal(t, want, got)
	m.Bound = &Bound{Allow: 1<<NumEdits - 1, Cost: 0.4, Margin: 0.1, Reach: -1e9}
	assert.Equal(t, want, ch.Apply(m, tm, &b, text, toks, slices.Clone(tagged)), "nothing in reach")
	m.Bound.Reach, m.Bound.Margin = 1e9, -1
	got = ch.Apply(m, tm, &b, text, toks, slices.Clone(tagged))
	require.NotEmpty(t, got)
	for i, c := range got {
		assert.Less(t, c.Start, c.End)
		if i > 0 {
			assert.LessOrEqual(t, got[i-1].Start, c.Start)
		}
	}
	assert.Equal(t, got, ch.Apply(m, tm, &b, text, toks, slices.Clone(tagged)), "deterministic")
}
