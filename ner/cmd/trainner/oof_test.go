package main

import (
	"compress/gzip"
	"encoding/gob"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/textanalysis/go-textanalysis/ner/internal/tagger"
)

func TestRunOOF(t *testing.T) {
	var sents []tagger.Sentence
	for i, name := range []string{"Alice", "Bob", "Carol", "Dave", "Erin", "Frank"} {
		for j, city := range []string{"Paris", "Rome", "Oslo"} {
			text := name + " flew to " + city + " today."
			sents = append(sents, tagger.Sentence{Doc: string(rune('a' + i*3 + j)), Text: text, Entities: []tagger.GoldEntity{
				{Start: 0, End: len(name), Label: "PER"},
				{Start: len(name) + 9, End: len(name) + 9 + len(city), Label: "LOC"},
			}})
		}
	}
	out := filepath.Join(t.TempDir(), "oof.gob.gz")
	opt := tagger.TrainOptions{Labels: []string{"PER", "LOC"}, Epochs: 3, MinCount: 1, Folds: 2, BILOU: true, Extra: true}
	require.NoError(t, runOOF(sents, opt, 3, out))
	f, err := os.Open(out)
	require.NoError(t, err)
	defer f.Close()
	zr, err := gzip.NewReader(f)
	require.NoError(t, err)
	var d OOFDump
	require.NoError(t, gob.NewDecoder(zr).Decode(&d))
	assert.Equal(t, []string{"PER", "LOC"}, d.Labels)
	assert.Equal(t, []int{12, 12, 12}, d.Gold, "two entities in each of six sentences per fold")
	require.NotEmpty(t, d.Recs)
	for _, r := range d.Recs {
		assert.Len(t, r.C.Scores, 3)
		assert.Less(t, r.Fold, 3)
		assert.LessOrEqual(t, r.Gold, 2)
	}
}
