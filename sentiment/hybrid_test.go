package sentiment

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/textanalysis/go-textanalysis/sentiment/internal/lr"
)

func TestHybridLabels(t *testing.T) {
	a := newTestAnalyzer(t, Options{Model: ModelHybrid})
	tests := []struct {
		text string
		want string
	}{
		{"An absolute delight from start to finish, I loved every minute.", LabelPositive},
		{"The battery stopped working after two days and support never answered.", LabelNegative},
		{"Boring, predictable and far too long.", LabelNegative},
		{"Not bad at all, actually quite charming.", LabelPositive},
		{"Don't buy this, it broke immediately.", LabelNegative},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			r, err := a.Analyze(t.Context(), tt.text)
			require.NoError(t, err)
			checkResult(t, tt.text, r)
			assert.Equal(t, tt.want, r.Label)
		})
	}
}

// Plain statements of fact carry no sentiment: the hybrid model must call
// them neutral, whatever domain they look like.
func TestHybridFactualNeutral(t *testing.T) {
	a := newTestAnalyzer(t, Options{Model: ModelHybrid})
	for _, text := range []string{
		"The meeting is at 3 pm in room 204.",
		"It is a chair",
		"This is a table.",
		"The train leaves from platform 9 at noon.",
		"Water boils at 100 degrees Celsius at sea level.",
		"The report has twelve pages and three tables.",
		"The store opens at 9 am on weekdays.",
		"she lives in berlin and works as an engineer .",
	} {
		t.Run(text, func(t *testing.T) {
			r, err := a.Analyze(t.Context(), text)
			require.NoError(t, err)
			checkResult(t, text, r)
			assert.Equal(t, LabelNeutral, r.Label, "compound %v", r.Compound)
		})
	}
}

func TestHybridLongText(t *testing.T) {
	a := newTestAnalyzer(t, Options{Model: ModelHybrid})
	text := ""
	for range 300 {
		text += "The acting was wonderful and the music was great. "
	}
	r, err := a.Analyze(t.Context(), text)
	require.NoError(t, err)
	checkResult(t, text, r)
	assert.Len(t, r.Sentences, 300)
	assert.Equal(t, LabelPositive, r.Label)
	// The words of a sentence repeated 300 times weigh as much as once.
	one, err := a.Analyze(t.Context(), "The acting was wonderful and the music was great.")
	require.NoError(t, err)
	assert.InDelta(t, one.Compound, r.Compound, 0.1)
}

func TestHybridScores(t *testing.T) {
	tests := []struct {
		name string
		in   lr.Scores
		want scores
	}{
		{"positive", lr.Scores{PPos: 0.9, PPolar: 0.8}, scores{compound: 0.81, pos: 0.72, neu: 0.2, neg: 0.08}},
		{"negative", lr.Scores{PPos: 0.25, PPolar: 1}, scores{compound: -0.525, pos: 0.25, neu: 0, neg: 0.75}},
		{"neutral keeps the sign", lr.Scores{PPos: 0.75, PPolar: 0.3, Neutral: true}, scores{compound: 0.0245, pos: 0.225, neu: 0.7, neg: 0.075}},
		{"neutral never rounds to zero", lr.Scores{PPos: 0.5001, PPolar: 0.3, Neutral: true}, scores{compound: 0.0001, pos: 0.15, neu: 0.7, neg: 0.15}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := hybridScores(tt.in)
			assert.InDelta(t, tt.want.compound, got.compound, 1e-9)
			assert.InDelta(t, tt.want.pos, got.pos, 1e-9)
			assert.InDelta(t, tt.want.neu, got.neu, 1e-9)
			assert.InDelta(t, tt.want.neg, got.neg, 1e-9)
			assert.Equal(t, tt.in.Neutral, labelOf(got.compound) == LabelNeutral)
		})
	}
}

func BenchmarkAnalyzeHybridSentence(b *testing.B) {
	benchAnalyze(b, ModelHybrid, "The staff were extremely helpful, but the room was NOT clean!!")
}
