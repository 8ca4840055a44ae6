package tagger

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSpanScores(t *testing.T) {
	sents := flightSentences()
	for _, bilou := range []bool{true, false} {
		m, _, err := Train(sents, TrainOptions{Labels: []string{"PER", "LOC"}, Epochs: 5, MinCount: 1, Folds: 2, BILOU: bilou, Extra: true})
		require.NoError(t, err)
		for _, text := range []string{"Carol flew to Oslo today.", "Alice flew to Rome today."} {
			var b Buffers
			toks := Tokenize(nil, text)
			chunks := m.Tag(nil, text, toks, &b)
			require.Len(t, chunks, 2, text)
			for _, c := range chunks {
				s := m.SpanScores(nil, &b, c)
				require.Len(t, s, len(m.Labels)+1)
				for k, v := range s {
					if k != c.Label {
						assert.Greater(t, s[c.Label], v, "%s: %s %v", text, text[toks[c.Start].Start:toks[c.End-1].End], s)
					}
				}
			}
			cased, _ := m.Gaz.Lookup(text, toks[:1])
			assert.Equal(t, uint32(1), cased, "the gazetteer knows the name as PER")
		}
	}
}

func TestRegionScores(t *testing.T) {
	sents := flightSentences()
	for _, bilou := range []bool{true, false} {
		m, _, err := Train(sents, TrainOptions{Labels: []string{"PER", "LOC"}, Epochs: 5, MinCount: 1, Folds: 2, BILOU: bilou, Extra: true})
		require.NoError(t, err)
		text := "Carol flew to Oslo today."
		var b Buffers
		toks := Tokenize(nil, text)
		chunks := m.Tag(nil, text, toks, &b)
		require.Len(t, chunks, 2)
		for _, c := range chunks {
			s := m.SpanScores(nil, &b, c)
			r := m.RegionScores(nil, &b, c, c.Start, c.End)
			require.Len(t, r, len(m.Labels)+1)
			assert.InDelta(t, 0, r[c.Label], 1e-3, "the tagging itself")
			for k := range r {
				assert.InDelta(t, s[k]-s[c.Label], r[k], 1e-3, "the same differences as SpanScores")
			}
			// One word more: never better than the best tagging.
			if c.End < len(toks) {
				w := Chunk{Start: c.Start, End: c.End + 1}
				for _, v := range m.RegionScores(nil, &b, w, c.Start, c.End+1) {
					assert.LessOrEqual(t, v, float32(1e-3))
				}
			}
		}
	}
}
