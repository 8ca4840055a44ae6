package sentiment

import (
	"math"
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
	} {
		t.Run(text, func(t *testing.T) {
			r, err := a.Analyze(t.Context(), text)
			require.NoError(t, err)
			checkResult(t, text, r)
			assert.Equal(t, LabelNeutral, r.Label, "compound %v", r.Compound)
		})
	}
}

// Tweets go to the tweet model: everyday posts that carry sentiment are
// polar, questions and plans that carry none are neutral.
func TestHybridTweets(t *testing.T) {
	a := newTestAnalyzer(t, Options{Model: ModelHybrid})
	tests := []struct {
		text string
		want string
	}{
		{"omg I love this song sooo much!!! #happy", LabelPositive},
		{"cant wait for the weekend :)", LabelPositive},
		{"@user worst customer service ever, still waiting for a refund", LabelNegative},
		{"ugh my flight got cancelled AGAIN", LabelNegative},
		{"@user are you going to the game on Saturday?", LabelNeutral},
		{"Watching the debate tonight at 9pm on CNN", LabelNeutral},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			r, err := a.Analyze(t.Context(), tt.text)
			require.NoError(t, err)
			checkResult(t, tt.text, r)
			assert.Equal(t, tt.want, r.Label, "compound %v", r.Compound)
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
		name  string
		in    lr.Scores
		limit float64
		want  scores
	}{
		{"positive: pos - neg", lr.Scores{PPos: 0.9, PPolar: 0.8}, 0, scores{compound: 0.64, pos: 0.72, neu: 0.2, neg: 0.08}},
		{"negative: pos - neg", lr.Scores{PPos: 0.25, PPolar: 1}, 0, scores{compound: -0.5, pos: 0.25, neu: 0, neg: 0.75}},
		{"weak polar stays polar", lr.Scores{PPos: 0.51, PPolar: 0.9}, 0, scores{compound: 0.05, pos: 0.459, neu: 0.1, neg: 0.441}},
		{"neutral keeps the sign", lr.Scores{PPos: 0.75, PPolar: 0.3, Neutral: true}, 0, scores{compound: 0.0073, pos: 0.225, neu: 0.7, neg: 0.075}},
		{"neutral never rounds to zero", lr.Scores{PPos: 0.5001, PPolar: 0.3, Neutral: true}, 0, scores{compound: 0.0001, pos: 0.15, neu: 0.7, neg: 0.15}},
		{"short text: confidence limited, mass moves to neu", lr.Scores{PPos: 0.02, PPolar: 0.5}, 0.0772, scores{compound: -0.0772, pos: 0.002, neu: 0.92, neg: 0.079}},
		{"limit above the confidence changes nothing", lr.Scores{PPos: 0.9, PPolar: 0.8}, 0.7, scores{compound: 0.64, pos: 0.72, neu: 0.2, neg: 0.08}},
		{"a limited polar text stays polar", lr.Scores{PPos: 0.1, PPolar: 0.9}, 0.02, scores{compound: -0.05, pos: 0.003, neu: 0.975, neg: 0.023}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := hybridScores(tt.in, tt.limit)
			assert.InDelta(t, tt.want.compound, got.compound, 1e-9)
			assert.InDelta(t, tt.want.pos, got.pos, 1e-9)
			assert.InDelta(t, tt.want.neu, got.neu, 1e-9)
			assert.InDelta(t, tt.want.neg, got.neg, 1e-9)
			assert.Equal(t, tt.in.Neutral, labelOf(got.compound) == LabelNeutral)
			if !tt.in.Neutral {
				assert.Equal(t, got.pos > got.neg, got.compound > 0, "the label follows the larger of pos and neg")
			}
		})
	}
}

func BenchmarkAnalyzeHybridSentence(b *testing.B) {
	benchAnalyze(b, ModelHybrid, "The staff were extremely helpful, but the room was NOT clean!!")
}

// An empty text gets all zeros and the neutral label, as the package doc
// promises, for every model; the hybrid model does the same for a text with
// nothing to score.
func TestEmptyText(t *testing.T) {
	for model, texts := range map[string][]string{
		ModelHybrid: {"", " ", "\n\t ", "...", " , "},
		// VADER gives neu 1 to punctuation alone, as the reference does
		ModelVADER: {"", " ", "\n\t "},
	} {
		a := newTestAnalyzer(t, Options{Model: model})
		for _, text := range texts {
			t.Run(model+"/"+text, func(t *testing.T) {
				r, err := a.Analyze(t.Context(), text)
				require.NoError(t, err)
				assert.Equal(t, LabelNeutral, r.Label)
				assert.Zero(t, r.Compound)
				assert.Zero(t, r.Pos)
				assert.Zero(t, r.Neu)
				assert.Zero(t, r.Neg)
			})
		}
	}
}

// The label, compound and pos/neg tell the same story: positive means
// compound >= 0.05 and pos > neg, negative the mirror image, and a polar
// compound is pos - neg (up to rounding and the 0.05 floor).
func TestHybridScoresConsistent(t *testing.T) {
	a := newTestAnalyzer(t, Options{Model: ModelHybrid})
	for _, text := range []string{
		"I loved it.", "I hated it.", "It is a chair", "meh", "ok", "Not bad at all.",
		"The plot was dull but the acting was superb.", "great!!!", "worst purchase ever :(",
		"@user see you at 5", "The shares plunged 20% after the report.",
	} {
		t.Run(text, func(t *testing.T) {
			r, err := a.Analyze(t.Context(), text)
			require.NoError(t, err)
			checkResult(t, text, r)
			assert.InDelta(t, 1, r.Pos+r.Neu+r.Neg, 0.002)
			switch r.Label {
			case LabelPositive:
				assert.Greater(t, r.Pos, r.Neg)
				assert.InDelta(t, max(0.05, r.Pos-r.Neg), r.Compound, 0.002)
			case LabelNegative:
				assert.Greater(t, r.Neg, r.Pos)
				assert.InDelta(t, min(-0.05, r.Pos-r.Neg), r.Compound, 0.002)
			default:
				assert.Less(t, math.Abs(r.Compound), 0.05)
			}
		})
	}
}

// More evidence of the same sign moves compound further the same way.
func TestHybridMonotone(t *testing.T) {
	a := newTestAnalyzer(t, Options{Model: ModelHybrid, WholeOnly: true})
	for _, chain := range [][]string{
		{"The room was clean.", "The room was clean and the staff were friendly.", "The room was spotless, the staff were wonderful and I loved every minute."},
		{"The room was dirty.", "The room was dirty and the staff were rude.", "The room was filthy, the staff were awful and I hated every minute."},
	} {
		t.Run(chain[0], func(t *testing.T) {
			prev := 0.0
			for k, text := range chain {
				r, err := a.Analyze(t.Context(), text)
				require.NoError(t, err)
				if k > 0 {
					assert.Greater(t, math.Abs(r.Compound), math.Abs(prev), text)
					assert.Equal(t, math.Signbit(prev), math.Signbit(r.Compound), text)
				}
				prev = r.Compound
			}
		})
	}
}

// Idioms whose negator does not negate, and negations of neutral verbs.
func TestHybridIdioms(t *testing.T) {
	a := newTestAnalyzer(t, Options{Model: ModelHybrid, WholeOnly: true})
	tests := []struct {
		text string
		want string
	}{
		{"I can't recommend this enough!", LabelPositive},
		{"I couldn't be happier with it.", LabelPositive},
		{"The service couldn't be worse.", LabelNegative},
		{"I can't stand this phone.", LabelNegative},
		{"Not bad at all.", LabelPositive},
		{"Support never answered my emails.", LabelNegative},
		{"It doesn't work.", LabelNegative},
		{"It couldn't have been better.", LabelPositive},
		{"Setup couldn't have been simpler.", LabelPositive},
		{"I can't tell you how disappointed I was.", LabelNegative},
		{"Words cannot describe how bad this movie is.", LabelNegative},
		{"I can't believe how good this is.", LabelPositive},
		// a comparative a modal makes a wish
		{"Could be better.", LabelNegative},
		{"It could have been better.", LabelNegative},
		{"The service should have been much better.", LabelNegative},
		{"This is better than the last one.", LabelPositive},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			r, err := a.Analyze(t.Context(), tt.text)
			require.NoError(t, err)
			assert.Equal(t, tt.want, r.Label, "compound %v", r.Compound)
		})
	}
}

// The sentences a new user tried (issue 14): the label and the sign of
// compound, not exact numbers.
func TestHybridUserExamples(t *testing.T) {
	a := newTestAnalyzer(t, Options{Model: ModelHybrid})
	tests := []struct {
		text string
		want []string // acceptable labels
		sign int      // the sign compound must have (0: any, but not positive)
	}{
		{"The new policy has been widely praised by experts and residents alike.", []string{LabelPositive}, 1},
		{"Not bad at all.", []string{LabelPositive}, 1},
		{"The battery dies within an hour.", []string{LabelNegative}, -1},
		{"I can't recommend this enough!", []string{LabelPositive}, 1},
		// weak: neutral or negative, never positive
		{"meh", []string{LabelNeutral, LabelNegative}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			r, err := a.Analyze(t.Context(), tt.text)
			require.NoError(t, err)
			checkResult(t, tt.text, r)
			assert.Contains(t, tt.want, r.Label, "compound %v", r.Compound)
			switch tt.sign {
			case 1:
				assert.Greater(t, r.Compound, 0.0)
			case -1:
				assert.Less(t, r.Compound, 0.0)
			default:
				assert.Less(t, r.Compound, 0.05)
			}
		})
	}
}

// The hybrid model's VADER features read the domain words VADER lacks; the
// vader model does not, so that it keeps the reference's scores.
func TestHybridSupplement(t *testing.T) {
	v := newTestAnalyzer(t, Options{Model: ModelVADER})
	for _, text := range []string{"The battery dies within an hour.", "Exports plunged.", "The film was widely acclaimed."} {
		t.Run(text, func(t *testing.T) {
			r, err := v.Analyze(t.Context(), text)
			require.NoError(t, err)
			assert.Zero(t, r.Compound, "the vader model reads no supplement word")
			assert.NotZero(t, hybridVaderFeatures(text).Compound, "the hybrid's VADER features do")
		})
	}
	for w := range hybridSupplement {
		assert.Zero(t, loadVADER().words[w].flags&flagLex, "%q is in VADER's lexicon already", w)
	}
}

func TestWordClass(t *testing.T) {
	for w, v := range hybridSupplement {
		want := "lex:pos"
		if v < 0 {
			want = "lex:neg"
		}
		assert.Equal(t, []string{"shares", want, "0"}, lr.Tokens(nil, "Shares "+w+" 5%"), w)
	}
}

func TestShortText(t *testing.T) {
	tests := []struct {
		text string
		want bool
	}{
		{"meh", true},
		{"meh!!! :(", true},
		{"not bad at all", false},
		{"so so good", true},
		{"@user ugh 😩", true},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			assert.Equal(t, tt.want, shortText(lr.Tokens(nil, tt.text)))
		})
	}
}

// A text of a few words is no surer than VADER's rating of its words says,
// and keeps its label.
func TestHybridShortTextConfidence(t *testing.T) {
	h := newTestAnalyzer(t, Options{})
	for _, text := range []string{"meh", "ugh", "nice", "blah", "ok", "great!", "so bad", "love it"} {
		t.Run(text, func(t *testing.T) {
			r, err := h.Analyze(t.Context(), text)
			require.NoError(t, err)
			c := hybridVaderFeatures(text).Compound
			require.NotZero(t, c)
			assert.LessOrEqual(t, math.Abs(r.Compound), max(0.05, math.Abs(c))+1e-9)
			assert.InDelta(t, 1, r.Pos+r.Neu+r.Neg, 0.002)
		})
	}
}

// A face counts the same whatever its spelling (":)", ":-)", "=]", "(:";
// ":(", ":-(", "=["), and in the direction it shows; an HTML-escaped
// heart as in tweets from some APIs is a heart.
func TestHybridEmoticonSpellings(t *testing.T) {
	a := newTestAnalyzer(t, Options{Model: ModelHybrid, WholeOnly: true})
	leanPos := func(text string) float64 {
		r, err := a.Analyze(t.Context(), text)
		require.NoError(t, err)
		return r.Pos / (r.Pos + r.Neg)
	}
	for _, base := range []string{"the bus is late", "back to work tomorrow", "I lost my keys"} {
		t.Run(base, func(t *testing.T) {
			plain := leanPos(base)
			for face, spellings := range map[string][]string{
				"smile": {":)", ":-)", "=]", "(:", ":D", "xD"},
				"frown": {":(", ":-(", "=["},
			} {
				first := leanPos(base + " " + spellings[0])
				for _, s := range spellings {
					got := leanPos(base + " " + s)
					if face == "smile" {
						assert.Greater(t, got, plain+0.1, s)
					} else {
						assert.Less(t, got, plain, s)
					}
					if s != "xD" && s != ":D" {
						assert.InDelta(t, first, got, 0.1, "%s reads as %s", s, spellings[0])
					}
				}
			}
		})
	}
	assert.Greater(t, leanPos("Love you &lt;3"), 0.8)
}

// TestHybridEmoji: the training data holds no emoji, so the word model
// reads one by VADER's description of it ("👍" as "thumbs up"), and a
// variation selector or a skin tone changes nothing; the vader model
// keeps the reference's reading ("❤️" gives 0 there).
func TestHybridEmoji(t *testing.T) {
	a := newTestAnalyzer(t, Options{Model: ModelHybrid, WholeOnly: true})
	analyze := func(text string) *Result {
		r, err := a.Analyze(t.Context(), text)
		require.NoError(t, err)
		return r
	}
	tests := []struct {
		text, label string
	}{
		{"👍", "positive"},
		{"👎", "negative"},
		{"❤️", "positive"},
		{"I ❤️ this", "positive"},
		{"💩", "negative"},
		{"great job 🎉", "positive"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.label, analyze(tt.text).Label, tt.text)
	}
	for plain, variant := range map[string]string{"👍": "👍🏽", "❤": "❤️", "I ❤ this": "I ❤️ this", "😍": "😍🏿"} {
		assert.Equal(t, analyze(plain).Compound, analyze(variant).Compound, "%q reads as %q", variant, plain)
	}
	v := newTestAnalyzer(t, Options{Model: ModelVADER, WholeOnly: true})
	r, err := v.Analyze(t.Context(), "❤️")
	require.NoError(t, err)
	assert.Zero(t, r.Compound, "the reference reads a heart with a variation selector as nothing")
}
