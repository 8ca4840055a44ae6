package sentiment

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRatings: the hybrid's VADER scores read a rating as a sentiment word
// that follows it, and only a rating.
func TestRatings(t *testing.T) {
	v := &vader{t: loadHybridVADER()}
	tests := []struct {
		text  string
		valid bool    // a rating is read
		share float64 // its share of the scale
	}{
		{"10/10", true, 1},
		{"9 out of 10.", true, 0.9},
		{"9 out of 10 points", true, 0.9},
		{"5 stars", true, 1},
		{"five stars", true, 1},
		{"one star", true, 0.2},
		{"a 4-star hotel", true, 0.8},
		{"8.5/10.", true, 0.85},
		{"2.5/5", false, 0},
		{"the fair is on Wednesday 10/10", false, 0},
		{"until 1/10", false, 0},
		{"8 out of 10 dentists agree", false, 0},
		{"open 24/7", false, 0},
		{"on 10/10/2020", false, 0},
		{"a star is born", false, 0},
		{"12/10", false, 0},
		{"6 stars", false, 0},
	}
	sc := &vaderScratch{}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			toks := v.tokenize(tt.text, sc)
			found := false
			for i := range toks {
				if share, _, ok := ratingOf(toks, i); ok {
					found = true
					assert.InDelta(t, tt.share, share, 1e-9)
					break
				}
			}
			assert.Equal(t, tt.valid, found)
		})
	}
}

// TestHybridRatings: "10/10" alone was neutral, as the word model reads
// every number as "0"; a rating is positive or negative by its share,
// and VADER's negation applies to it.
func TestHybridRatings(t *testing.T) {
	a := newTestAnalyzer(t, Options{Model: ModelHybrid, WholeOnly: true})
	for text, label := range map[string]string{
		"10/10":                        "positive",
		"9 out of 10.":                 "positive",
		"Five stars, would buy again.": "positive",
		"1/10":                         "negative",
		"One star.":                    "negative",
		"It does not deserve 5 stars.": "negative",
	} {
		r, err := a.Analyze(t.Context(), text)
		require.NoError(t, err)
		assert.Equal(t, label, r.Label, text)
	}
	// the vader model keeps the reference's reading: no rating
	v := newTestAnalyzer(t, Options{Model: ModelVADER, WholeOnly: true})
	r, err := v.Analyze(t.Context(), "10/10")
	require.NoError(t, err)
	assert.Zero(t, r.Compound)
}
