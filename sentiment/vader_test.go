package sentiment

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// lex is the lexicon valence of word.
func lex(t testing.TB, word string) float64 {
	t.Helper()
	wi, ok := loadVADER().words[word]
	require.True(t, ok && wi.flags&flagLex != 0, "%q not in lexicon", word)
	return wi.val
}

// norm is the compound VADER gives for a valence sum.
func norm(sum float64) float64 { return pyRound(normalize(sum), 4) }

func vaderCompound(text string) float64 {
	v := &vader{t: loadVADER()}
	return v.polarity(text).compound
}

// TestVADERRules checks each rule of the reference on sentences written for
// it, against the valence sum the rule prescribes.
func TestVADERRules(t *testing.T) {
	good, bad, great, sad := lex(t, "good"), lex(t, "bad"), lex(t, "great"), lex(t, "sad")
	tests := []struct {
		name string
		text string
		sum  float64
	}{
		{"lexicon word", "The soup is good.", good},
		{"unknown words are neutral", "The table is wooden.", 0},
		{"case folded for lookup", "Good soup.", good},
		{"all caps emphasis when others are not", "The soup is GOOD.", good + cIncr},
		{"no caps emphasis when every word is caps", "THE SOUP IS GOOD.", good},
		{"booster right before", "The soup is very good.", good + bIncr},
		{"booster two before, 0.95", "Soup: really rather good.", good + bIncr*0.95},
		{"booster three before, 0.9", "Soup: really, rather tasty good.", good + bIncr*0.9},
		{"dampener", "The soup is slightly good.", good + bDecr},
		{"booster sign follows valence", "The soup is very bad.", bad - bIncr},
		{"caps booster", "The soup is VERY good.", good + bIncr + cIncr},
		{"negation right before", "The soup is not good.", good * nScalar},
		{"negation two before", "The soup isn't very good.", (good + bIncr) * nScalar},
		{"negation three before", "The soup was never a tad good.", good * nScalar},
		{"contraction n't negates", "The soup wasn't good.", good * nScalar},
		{"double negation flips back", "Nope, not good.", good * nScalar * nScalar},
		{"despite negates", "Despite good soup.", good * nScalar},
		{"without doubt does not negate the next word", "Lunch was without doubt good.", good + lex(t, "doubt")*nScalar},
		{"no before a lexicon word", "The soup had no good taste.", good * nScalar},
		{"no alone keeps its valence", "No soup today", lex(t, "no")},
		{"never so", "It was never so good", (good + bIncr) * 1.25 * 1.25},
		{"so quirk: x1.25 after so", "It was so good.", (good + bIncr) * 1.25},
		{"this quirk: x1.25 after this", "I ate this good soup.", good * 1.25},
		{"kind of dampens", "The soup is kind of good.", good + bDecr},
		{"sort of dampens", "The soup is sort of good.", good + bDecr},
		{"least negates", "The soup was the least good.", good * nScalar},
		{"at least does not negate", "Soup was at least good.", good},
		{"sentence-initial least negates", "Least good soup.", good * nScalar},
		{"idiom the bomb", "The new album is the bomb.", 3},
		{"idiom yeah right", "The plan? Oh yeah right.", -2},
		{"idiom beating heart (lexicon completed)", "I felt my beating heart.", 3.1 + 3.1},
		{"heart from the completed lexicon", "With all my heart.", lex(t, "heart")},
		{"but halves before and boosts after", "The soup is good but the bread is sad.", good*0.5 + sad*1.5},
		{"only the first but counts", "Good but sad but great.", good*0.5 + sad*1.5 + great*1.5},
		{"exclamation marks add up to four", "The soup is good!!!!!!", good + 4*0.292},
		{"exclamation marks push negatives down", "The soup is bad!", bad - 0.292},
		{"one question mark adds nothing", "Is the soup good?", good},
		{"two question marks", "Is the soup good??", good + 2*0.18},
		{"many question marks are capped", "Is the soup good?????", good + 0.96},
		{"punctuation alone adds nothing", "Soup!!!", 0},
		{"emoticon kept when stripping leaves two characters", "Soup :)", lex(t, ":)")},
		{"emoji replaced by its description", "Soup 😀", lex(t, "grinning")},
		{"unicode whitespace splits", "The\u00a0soup\u2003is\tnot\ngood.", good * nScalar},
		{"empty text", "", 0},
		{"whitespace only", " \t\n\u3000", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.InDelta(t, norm(tt.sum), vaderCompound(tt.text), 1e-9)
		})
	}
}

func TestVADERProportions(t *testing.T) {
	v := &vader{t: loadVADER()}
	good := lex(t, "good")
	// "The soup is good": three neutral words and one positive one.
	got := v.polarity("The soup is good")
	total := good + 1 + 3
	assert.Equal(t, scores{compound: norm(good), pos: pyRound((good+1)/total, 3), neu: pyRound(3/total, 3)}, got)
	assert.Equal(t, scores{}, v.polarity("  "))
}

func TestButCheckByValue(t *testing.T) {
	// The reference finds a valence's position by value, so the third
	// valence (equal to the first after halving) halves the first again.
	toks := []token{{lower: "x"}, {lower: "but"}, {lower: "y"}}
	sents := []float64{2, 0, 1}
	butCheck(toks, sents)
	assert.Equal(t, []float64{0.5, 0, 1}, sents)

	sents = []float64{2, 2, 0, 0, 2}
	butCheck([]token{{}, {}, {lower: "but"}, {lower: "BUT"}, {}}, sents)
	assert.Equal(t, []float64{1, 1, 0, 0, 3}, sents)
}

func TestEmojiSpacing(t *testing.T) {
	v := &vader{t: loadVADER()}
	tests := []struct{ name, in, want string }{
		{"after space", "I 😀 it", "I grinning face it"},
		{"glued to words", "a😀b", "a grinning faceb"},
		{"adjacent emoji", "😀😀", "grinning face grinning face"},
		{"tab before is not a space", "a\t😀", "a\t grinning face"},
		{"no emoji", "plain text", "plain text"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, v.expandEmoji(tt.in, new(vaderScratch)))
		})
	}
}

func TestPyIsUpper(t *testing.T) {
	tests := []struct {
		in   string
		want bool
	}{
		{"GOOD", true}, {"Good", false}, {"GOOD!", true}, {"123", false}, {":D", true},
		{"ÉTÉ", true}, {"ÉtÉ", false}, {"ǅ", false}, {"Ⅻ", true}, {"ΑΒΓ", true}, {"", false},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			assert.Equal(t, tt.want, pyIsUpper(tt.in))
		})
	}
}

func TestStripPuncIfWord(t *testing.T) {
	tests := []struct{ in, want string }{
		{"good!", "good"}, {"(good)", "good"}, {":)", ":)"}, {":-)", ":-)"}, {"ok.", "ok."},
		{"'90s", "90s"}, {"don't", "don't"}, {"...", "..."}, {"é!", "é!"}, {"éé!", "éé!"}, {"ééé!", "ééé"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			assert.Equal(t, tt.want, stripPuncIfWord(tt.in))
		})
	}
}

func TestPyRound(t *testing.T) {
	tests := []struct {
		x    float64
		prec int
		want float64
	}{
		{0.12345, 4, 0.1235},                  // 0.12345 is stored slightly above
		{0.5, 0, 0}, {1.5, 0, 2}, {2.5, 0, 2}, // ties to even
		{0.0005, 3, 0.001},                 // 0.0005 is stored slightly above
		{2.675, 2, 2.67},                   // stored slightly below
		{0.125, 2, 0.12}, {0.375, 2, 0.38}, // exact ties to even
		{-0.43045, 4, -0.4304},
		{-1, 4, -1},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, pyRound(tt.x, tt.prec), "round(%v, %d)", tt.x, tt.prec)
	}
}

// The hybrid's VADER scores read an idiom's negator as no negation; the
// VADER model keeps the reference's negation.
func TestIdiomNegators(t *testing.T) {
	tests := []struct {
		text  string
		plain []string // the negators marked as not negating
	}{
		{"It couldn't have been better.", []string{"couldn't"}},
		{"I can not tell you how happy I am", []string{"not"}},
		{"I cannot recommend it enough!", []string{"cannot"}},
		{"I cannot recommend it. It is enough", nil},
		{"I can't stand it", nil},
		{"It wasn't better", nil},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			v := &vader{t: loadHybridVADER()}
			sc := new(vaderScratch)
			toks := v.tokenize(tt.text, sc)
			valences(nil, toks, true)
			var plain []string
			for _, tk := range toks {
				if tk.plain {
					plain = append(plain, tk.lower)
				}
			}
			assert.Equal(t, tt.plain, plain)
		})
	}
	ref := &vader{t: loadVADER()}
	hyb := &vader{t: loadHybridVADER()}
	text := "It couldn't have been better."
	assert.Less(t, ref.polarity(text).compound, 0.0, "the reference negates")
	assert.Greater(t, hyb.polarity(text).compound, 0.0, "the hybrid's features do not")
}

// The hybrid's VADER scores read a comparative a modal makes a wish
// ("could be better") as negated, as the word model does; the reference
// does not.
func TestHybridVADERWish(t *testing.T) {
	ref := &vader{t: loadVADER()}
	hyb := &vader{t: loadHybridVADER()}
	for _, text := range []string{"It could be better.", "The service should have been much better."} {
		assert.Greater(t, ref.polarity(text).compound, 0.0, "the reference: %s", text)
		assert.Less(t, hyb.polarity(text).compound, 0.0, "the hybrid's: %s", text)
	}
	assert.Greater(t, hyb.polarity("It is better now.").compound, 0.0)
}
