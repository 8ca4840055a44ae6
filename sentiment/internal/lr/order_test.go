package lr

import (
	"bytes"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// scoreBoth scores text with the sorted features of [Featurize] and with
// the unsorted ones of [Model.Featurize], as package sentiment does.
func scoreBoth(m *Model, text string, v Vader) (sorted, unsorted Scores, ut *Text) {
	toks := Tokens(nil, text)
	var a, b Text
	Featurize(&a, toks, v, DomainOf(text))
	m.PrepareTweet(&a, text, toks)
	m.Featurize(&b, toks, v, DomainOf(text))
	m.PrepareTweet(&b, text, toks)
	return m.Predict(&a), m.Predict(&b), &b
}

// randomText builds a text from words that exercise negation, contrast,
// clauses, tweets and repeats.
func randomText(r *rand.Rand, words int) string {
	vocab := []string{"good", "bad", "not", "never", "but", "however", "great", "awful", "the", "movie",
		"can't", "enough", "be", "happier", "@bob", "#win", "http://x.co/a", ":)", ":(", "❤", "!", "?",
		"LOVE", "sooo", "meh", "42", "it", "is", "was", "really", "n't", "and", "a", "plot", "boring"}
	seps := []string{" ", " ", " ", ", ", ". ", "; ", "\n", "! "}
	var b strings.Builder
	for i := range words {
		if i > 0 {
			b.WriteString(seps[r.IntN(len(seps))])
		}
		b.WriteString(vocab[r.IntN(len(vocab))])
	}
	return b.String()
}

// Unsorted features give bit for bit the scores of sorted ones: the sums
// over them are exact, and a list too long for that is sorted.
func TestFeaturizeUnorderedSameScores(t *testing.T) {
	m, err := Embedded()
	require.NoError(t, err)
	require.Greater(t, m.exact, 1000, "quantised weights allow long lists unsorted")
	small := *m
	small.exact = 7 // most lists are longer: the sorted fallbacks
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 3000 {
		text := randomText(r, 1+r.IntN(90))
		v := Vader{Compound: r.Float64()*2 - 1, Pos: r.Float64(), Neu: r.Float64(), Neg: r.Float64(), MeanSentence: r.Float64()*2 - 1}
		for _, mm := range []*Model{m, &small} {
			want, got, x := scoreBoth(mm, text, v)
			require.Equal(t, want, got, "text %d %q (exact %d)", i, text, mm.exact)
			if len(x.Hashes) > mm.exact {
				assert.True(t, slices.IsSorted(x.Hashes), "a list longer than the limit is sorted")
			}
		}
	}
}

// A text longer than the exact limit itself is scored as sorted.
func TestFeaturizeUnorderedLongText(t *testing.T) {
	m, err := Embedded()
	require.NoError(t, err)
	// Few spaces (not a long text, so the tweet heads read it too), many
	// tokens: commas split "w0,w1,…".
	var b strings.Builder
	for i := range 50 {
		b.WriteByte(' ')
		for j := range 250 {
			b.WriteString("w")
			b.WriteString(strings.Repeat("x", (i*250+j)%7))
			b.WriteString(string(rune('a' + (i*250+j)%26)))
			b.WriteString(string(rune('a' + (i*250+j)/26%26)))
			b.WriteString(string(rune('a' + (i*250+j)/676%26)))
			b.WriteString(",")
		}
	}
	text := b.String()
	want, got, x := scoreBoth(m, text, Vader{Compound: 0.3})
	require.Greater(t, len(x.Hashes)+len(x.Extra), m.exact, "the test text must pass the limit")
	assert.Equal(t, want, got)
}

func TestExactTerms(t *testing.T) {
	assert.Equal(t, math.MaxInt, exactTerms([]float32{0, 0}))
	assert.Equal(t, 0, exactTerms([]float32{float32(math.Inf(1))}))
	// 1 and 2^-10: units of 2^-10, the largest 1024 of them: 2^43
	// terms, capped.
	assert.Equal(t, math.MaxInt32, exactTerms([]float32{1, 0.5, -1.0 / 1024}))
	// 2^20 and 2^-20: 2^40 units, 2^13 terms.
	assert.Equal(t, 1<<13, exactTerms([]float32{1 << 20, 1.0 / (1 << 20)}))
	// Weights of a quantised head: int16 times a float32 scale.
	scale := float32(0.0123)
	w := []float32{float32(32767) * scale, float32(-1) * scale, float32(12345) * scale}
	n := exactTerms(w)
	assert.Greater(t, n, 1000)
	// The claim itself: n of the extreme weights add up to the same in
	// either order.
	big, tiny := float64(w[0]), float64(w[1])
	first, last := tiny, 0.0
	for range min(n, 1<<20) - 1 {
		first += big
		last += big
	}
	assert.Equal(t, first, last+tiny)
}

func FuzzFeaturizeUnordered(f *testing.F) {
	for _, s := range []string{"not good, but fine", "can't be happier!! @x #y", "a. b. a. b however c", "❤ :) LOVE it"} {
		f.Add(s, 0.4)
	}
	m, err := Embedded()
	require.NoError(f, err)
	small := *m
	small.exact = 5
	f.Fuzz(func(t *testing.T, text string, c float64) {
		if math.IsNaN(c) || math.IsInf(c, 0) {
			return
		}
		for _, mm := range []*Model{m, &small} {
			want, got, _ := scoreBoth(mm, text, Vader{Compound: c, MeanSentence: c / 2})
			require.Equal(t, want, got)
		}
	})
}

// The cue hashes are those of their names: "<len3>", "vc-2" and so on.
func TestTweetCueHashes(t *testing.T) {
	for n, h := range lenCueHashes {
		assert.Equal(t, hashString(cueSeed, "<len"+strconv.Itoa(n)+">"), h)
	}
	tests := []struct {
		c    float64
		name string
	}{
		{0, "0"}, {0.049, "0"}, {-0.049, "0"}, {0.05, "+1"}, {0.29, "+1"}, {0.3, "+2"}, {0.59, "+2"},
		{0.6, "+3"}, {0.84, "+3"}, {0.85, "+4"}, {1, "+4"}, {-0.05, "-1"}, {-0.3, "-2"}, {-0.6, "-3"}, {-0.9, "-4"},
	}
	for _, tt := range tests {
		assert.Equal(t, hashString(vaderSeed, "vc"+tt.name), vaderBinHash(tt.c), "%v", tt.c)
	}
}

// exactTerms reads the bits as math.Frexp would read the values.
func TestExactTermsByFrexp(t *testing.T) {
	byFrexp := func(w []float32) int {
		minExp, maxAbs := math.MaxInt, 0.0
		for _, x := range w {
			if x == 0 {
				continue
			}
			a := math.Abs(float64(x))
			frac, exp := math.Frexp(a)
			mant := uint64(frac * (1 << 24))
			tz := 0
			for mant&1 == 0 {
				mant >>= 1
				tz++
			}
			minExp = min(minExp, exp-24+tz)
			maxAbs = max(maxAbs, a)
		}
		if maxAbs == 0 {
			return math.MaxInt
		}
		return int(math.Min(math.Ldexp(1, 53)/math.Ldexp(maxAbs, -minExp), math.MaxInt32))
	}
	r := rand.New(rand.NewPCG(3, 4))
	for range 200 {
		w := make([]float32, 1+r.IntN(50))
		scale := float32(math.Ldexp(r.Float64(), -r.IntN(140)))
		for i := range w {
			w[i] = float32(r.IntN(65535)-32767) * scale
		}
		assert.Equal(t, byFrexp(w), exactTerms(w), "scale %g", scale)
	}
	m, err := Embedded()
	require.NoError(t, err)
	for _, h := range []*Head{&m.Pol, &m.Subj, &m.Tok, &m.Dom, &m.Neu} {
		assert.Equal(t, byFrexp(h.W), h.exact)
	}
}

// BenchmarkRead is the model's load: what a process pays before its
// first text.
func BenchmarkRead(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Read(bytes.NewReader(weights)); err != nil {
			b.Fatal(err)
		}
	}
}
