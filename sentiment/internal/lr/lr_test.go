package lr

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTokens(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"Don't buy it!!", []string{"do", "not", "buy", "it", "!", "!"}},
		{"it does n't work .", []string{"it", "does", "not", "work", "."}},
		{"@bob sooooo good :) http://x.co/a", []string{"@user", "soo", "good", ":)", "<url>"}},
		{`I\u2019m happy, 100%`, []string{"i'm", "happy", ".", "0"}},
		{"Can't; won't", []string{"can", "not", ".", "will", "not"}},
		{"love it ❤️ <3", []string{"love", "it", "❤", "<3"}},
		// one token per face, whatever its spelling
		{"ok :-) =] (: :))) ;-) xD XDD", []string{"ok", ":)", ":)", ":)", ":)", ";)", ":D", ":D"}},
		{"sad :'( =[ :-/ :|", []string{"sad", ":(", ":(", ":/", ":/"}},
		{"Tesco &amp; me &lt;3", []string{"tesco", "me", "<3"}},
		// not faces: a time, a word after the eyes, "(:" inside a word's brackets
		{"at 10:30 Note:Dear (:x", []string{"at", "0", ".", "0", "note", ".", "dear", ".", "x"}},
		{"xdd xylophone", []string{":D", "xylophone"}},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			assert.Equal(t, tt.want, Tokens(nil, tt.in))
		})
	}
}

func TestHashesNegationAndPresence(t *testing.T) {
	pos := Hashes(nil, []string{"good"})
	neg := Hashes(nil, []string{"not", "good"})
	word := hashString(fnvOffset, "good")
	assert.Contains(t, pos, word)
	assert.NotContains(t, neg, word, "negated word hashes differently")
	assert.Equal(t, Hashes(nil, []string{"good", ".", "good"}), Hashes(nil, []string{"good"}))
}

func TestAfterContrast(t *testing.T) {
	tests := []struct {
		in   []string
		want []string
	}{
		{[]string{"good", "cast", "but", "dull", "script"}, []string{"dull", "script"}},
		{[]string{"a", "but", "b", "however", "c"}, []string{"c"}},
		{[]string{"fine", "but"}, nil},
		{[]string{"no", "contrast"}, nil},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, AfterContrast(tt.in), "%v", tt.in)
	}
}

func TestFeaturize(t *testing.T) {
	var x Text
	toks := Tokens(nil, "The cast is fine, but the script is a mess.")
	Featurize(&x, toks, Vader{Compound: 0.2}, DomainOf("The cast is fine"))
	assert.Equal(t, Hashes(nil, toks), x.Hashes)
	assert.Equal(t, Hashes(nil, []string{"the", "script", "is", "a", "mess", "."}), x.After)
	require.Len(t, x.ClauseEnd, 2)
	assert.Equal(t, len(x.Clauses), x.ClauseEnd[1])
	assert.InDelta(t, 0.2, x.Dense[0], 1e-12)

	// Reuse: a text without contrast or clauses clears them.
	Featurize(&x, Tokens(nil, "fine"), Vader{}, Domain{})
	assert.Nil(t, x.After)
	assert.Empty(t, x.ClauseEnd)
	assert.Empty(t, x.Clauses)
}

func TestModelRoundTrip(t *testing.T) {
	m := &Model{Pol: NewHead(4), Subj: NewHead(3), Tok: NewHead(2), Tau: 0.4, Band: 0.2, Kappa: 0.7}
	m.Pol.W[3], m.Pol.Dense[1], m.Pol.Bias = 0.5, -1.25, 0.125
	m.Subj.W[7] = -2
	m.Blend[2] = 3
	m.SubjBlend[1], m.SubjBlend[4] = 1, -0.5
	var b bytes.Buffer
	require.NoError(t, m.Write(&b))
	got, err := Read(&b)
	require.NoError(t, err)
	assert.InDelta(t, 0.5, got.Pol.W[3], 1e-4)
	assert.InDelta(t, -2, got.Subj.W[7], 1e-4)
	assert.Equal(t, m.Pol.Dense, got.Pol.Dense)
	assert.Equal(t, m.Blend, got.Blend)
	assert.Equal(t, m.SubjBlend, got.SubjBlend)
	assert.Equal(t, m.Tau, got.Tau)
	assert.Equal(t, m.Band, got.Band)
	assert.Equal(t, m.Kappa, got.Kappa)
	assert.False(t, got.HasTweet())
	_, err = Read(bytes.NewReader([]byte("nope")))
	assert.Error(t, err)

	// with the tweet heads
	m.Dom, m.Neu, m.TauTweet, m.BandTweet, m.KappaTweet = NewHead(3), NewHead(5), 0.45, 0.3, 0.8
	m.Dom.W[2], m.Neu.W[9], m.Neu.Bias = 1.5, -0.75, 0.25
	b.Reset()
	require.NoError(t, m.Write(&b))
	got, err = Read(&b)
	require.NoError(t, err)
	require.True(t, got.HasTweet())
	assert.InDelta(t, 1.5, got.Dom.W[2], 1e-4)
	assert.InDelta(t, -0.75, got.Neu.W[9], 1e-4)
	assert.Equal(t, m.Neu.Bias, got.Neu.Bias)
	assert.Equal(t, m.TauTweet, got.TauTweet)
	assert.Equal(t, m.BandTweet, got.BandTweet)
	assert.Equal(t, m.KappaTweet, got.KappaTweet)
}

// The tweet heads read character n-grams, so that a stretched or
// misspelt word shares most features with the word, and a few cues.
func TestTweetFeatures(t *testing.T) {
	shared := func(a, b []uint32) int {
		in := map[uint32]bool{}
		for _, x := range a {
			in[x] = true
		}
		n := 0
		for _, x := range b {
			if in[x] {
				n++
			}
		}
		return n
	}
	love := CharGrams(nil, Tokens(nil, "love"))
	stretched := CharGrams(nil, Tokens(nil, "LOOOOVE"))
	assert.GreaterOrEqual(t, shared(love, stretched), 4, "char n-grams of love and loove")
	assert.Zero(t, shared(love, CharGrams(nil, Tokens(nil, "dull"))))
	assert.Equal(t, love, CharGrams(nil, Tokens(nil, "love")), "deterministic")
	cues := TweetCues(nil, "LOOOOVE", Tokens(nil, "LOOOOVE"), 0.6)
	assert.Contains(t, cues, hashString(cueSeed, "<caps>"))
	assert.Contains(t, cues, hashString(cueSeed, "<elong>"))
	assert.NotContains(t, TweetCues(nil, "love", Tokens(nil, "love"), 0.6), hashString(cueSeed, "<caps>"))
	assert.Contains(t, TweetCues(nil, "#win", Tokens(nil, "#win"), 0), hashString(cueSeed, "<hash>"))
}

// Only short texts that the domain head takes for tweets get the
// character n-grams (and the Neu head); long texts are never tweets.
func TestPrepareTweet(t *testing.T) {
	m := &Model{Dom: NewHead(4), Neu: NewHead(4)}
	prep := func(text string) *Text {
		var x Text
		toks := Tokens(nil, text)
		Featurize(&x, toks, Vader{}, DomainOf(text))
		m.PrepareTweet(&x, text, toks)
		return &x
	}
	m.Dom.Bias = 1 // everything looks like a tweet
	x := prep("so good")
	assert.True(t, x.Tweet())
	assert.Greater(t, len(x.Extra), 5, "cues and char n-grams")
	long := strings.Repeat("word ", LongWords)
	x = prep(long)
	assert.False(t, x.Tweet())
	assert.Nil(t, x.Extra)
	m.Dom.Bias = -1 // nothing does
	x = prep("so good")
	assert.False(t, x.Tweet())
	assert.Len(t, x.Extra, 2, "cues only: length and VADER bin")
	toks := Tokens(nil, "so good")
	Featurize(x, toks, Vader{}, DomainOf("so good"))
	assert.Nil(t, x.Extra, "Featurize clears it")
	assert.False(t, (&Model{}).HasTweet())
}

func TestIsNeutral(t *testing.T) {
	const tau, band, kappa = 0.3, 0.2, 0.6
	tests := []struct {
		name            string
		pPos, pPolar, c float64
		want            bool
	}{
		{"unlikely polar", 0.9, 0.2, 0.3, true},
		{"likely polar", 0.9, 0.5, 0.3, false},
		{"no VADER word, balanced", 0.55, 0.5, 0, true},
		{"no VADER word, one-sided", 0.8, 0.5, 0, false},
		{"VADER sentiment agreeing: never neutral", 0.9, 0.1, 0.7, false},
		{"VADER sentiment agreeing, negative", 0.1, 0.1, -0.7, false},
		{"VADER sentiment disagreeing", 0.1, 0.1, 0.7, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, IsNeutral(tt.pPos, tt.pPolar, tt.c, tau, band, kappa))
		})
	}
}

func TestEmbedded(t *testing.T) {
	m, err := Embedded()
	require.NoError(t, err)
	assert.Greater(t, m.Tau, 0.0)
}

func FuzzTokens(f *testing.F) {
	for _, s := range []string{"Don't :) @x #y http://z", `\u00e9\u`, "sooo!!", ":D:Dear <3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		toks := Tokens(nil, s)
		for _, tok := range toks {
			if tok == "" {
				t.Fatalf("empty token in %q", s)
			}
		}
		var x Text
		Featurize(&x, toks, Vader{}, DomainOf(s))
		if n := len(x.ClauseEnd); n > 0 && x.ClauseEnd[n-1] != len(x.Clauses) {
			t.Fatalf("clause ends %v for %d clause hashes", x.ClauseEnd, len(x.Clauses))
		}
	})
}

func TestNotNegating(t *testing.T) {
	tests := []struct {
		text string
		want bool // the first negator opens no negation scope
	}{
		{"I can't recommend this enough!", true},
		{"I cannot thank you enough", true},
		{"couldn't be happier", true},
		{"it couldn't be worse", true},
		{"I can't stand it", false},
		{"not enough", false},
		{"I can't say, but it was enough", false},
		{"don't buy it, enough said", false},
		{"It couldn't have been better.", true},
		{"Setup couldn't have been simpler.", true},
		{"it couldn't have been the cause", false},
		{"I can't tell you how disappointed I was.", true},
		{"Words cannot describe how good it is.", true},
		{"We could not believe how dirty the oysters were!", true},
		{"I can't begin to describe how bad it was", true},
		{"I can't tell you where it is", false},
		{"I can't believe it works", false},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			toks := Tokens(nil, tt.text)
			i := slices.IndexFunc(toks, isNegator)
			require.GreaterOrEqual(t, i, 0)
			assert.Equal(t, tt.want, notNegating(toks, i))
		})
	}
}

// Featurize reuses the whole text's word hashes for its parts; the parts
// must hash exactly as they would alone.
func TestFeaturizePartsMatchHashes(t *testing.T) {
	texts := []string{
		"The cast is fine, but the script is a mess.",
		"It is not good however the ending is bad",
		"not great. not bad, but never boring!",
		"I can't recommend it enough, but it is not cheap",
		"no; nothing but NOT bad... can't be happier",
		"",
		"but",
	}
	for _, text := range texts {
		t.Run(text, func(t *testing.T) {
			var x Text
			toks := Tokens(nil, text)
			Featurize(&x, toks, Vader{}, DomainOf(text))
			assert.Equal(t, Hashes(nil, toks), x.Hashes)
			if ac := AfterContrast(toks); ac != nil {
				assert.Equal(t, Hashes(nil, ac), x.After)
			} else {
				assert.Nil(t, x.After)
			}
			start := 0
			for _, end := range x.ClauseEnd {
				require.NotEmpty(t, x.Clauses[start:end])
				start = end
			}
			var want []uint32
			clauses := 0
			for c := range strings.SplitSeq(strings.Join(toks, " "), ".") {
				if f := strings.Fields(c); len(f) > 0 {
					want = append(want, Hashes(nil, f)...)
					clauses++
				}
			}
			if clauses >= 2 {
				assert.Equal(t, want, x.Clauses)
			} else {
				assert.Empty(t, x.Clauses)
			}
		})
	}
}

func TestSqueezeAndDomainASCIIAndNot(t *testing.T) {
	for in, want := range map[string]string{
		"soooo": "soo", "good": "good", "aaa": "aa", "ééé": "éé", "❤❤❤": "❤❤", "noooé": "nooé",
	} {
		assert.Equal(t, want, squeeze(in), in)
	}
	assert.Equal(t, Domain{Tweet: true}, DomainOf("@bob hi"))
	assert.Equal(t, Domain{Tok: true}, DomainOf("it 's fine ."))
	assert.Equal(t, Domain{}, DomainOf("It 's fine ."))
	assert.Equal(t, Domain{}, DomainOf("Élan 's fine ."), "non-ASCII upper case")
	assert.True(t, DomainOf(strings.Repeat("a\u00a0", LongWords)).Long, "a no-break space separates words")
}

func TestCuesOf(t *testing.T) {
	tests := []struct {
		in   string
		want Cues
	}{
		{"plain words here.", Cues{}},
		{"@bob wow!! really? :) <3 ❤️ http://x.co", Cues{Excl: 2, Quest: 1, Emo: 3, URL: 1, User: 1}},
		{"it's 10:30", Cues{}},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			assert.Equal(t, tt.want, CuesOf(Tokens(nil, tt.in)))
		})
	}
}

// The subjectivity logit with the blend that passes the head's logit
// through is the head's logit: the blend can only add to it.
func TestSubjLogitPassThrough(t *testing.T) {
	var m Model
	m.SubjBlend[1] = 1
	var x Text
	Featurize(&x, Tokens(nil, "great!! :)"), Vader{Compound: 0.8, Pos: 0.9, Neu: 0.1}, Domain{Tweet: true})
	for _, z := range []float64{-3, 0, 0.7} {
		assert.InDelta(t, z, m.SubjLogit(z, 5, &x), 1e-12)
	}
}

func TestSortHashes(t *testing.T) {
	for _, n := range []int{0, 1, 5, radixMin - 1, radixMin, 3000} {
		a := make([]uint32, n)
		x := uint32(12345)
		for i := range a {
			x ^= x << 13
			x ^= x >> 17
			x ^= x << 5
			a[i] = x
			if i%7 == 0 && i > 0 {
				a[i] = a[i-1] // repeats
			}
		}
		want := slices.Clone(a)
		slices.Sort(want)
		sortHashes(a)
		assert.Equal(t, want, a, "n=%d", n)
	}
}

// The negator of a non-negating idiom carries no weight of "not": it hashes
// as a word of its own, and what follows it is not negated.
func TestHashesIdiomNegator(t *testing.T) {
	not := hashString(fnvOffset, "not")
	idiom := Hashes(nil, Tokens(nil, "I can't thank you enough"))
	plain := Hashes(nil, Tokens(nil, "I can't thank you"))
	assert.NotContains(t, idiom, not)
	assert.Contains(t, plain, not)
	assert.Contains(t, idiom, hashString(fnvOffset, "thank"), "not negated")
	assert.NotContains(t, plain, hashString(fnvOffset, "thank"), "negated")
}

// The embedded weights decode and encode again to the same bytes: the
// file format has not drifted, so the training program still reproduces
// the file it documents.
func TestEmbeddedWeightsEncodeToTheirBytes(t *testing.T) {
	m, err := Read(bytes.NewReader(weights))
	require.NoError(t, err)
	var b bytes.Buffer
	require.NoError(t, m.Write(&b))
	assert.True(t, bytes.Equal(weights, b.Bytes()), "re-encoded %d bytes, embedded %d", b.Len(), len(weights))
}

func TestReadTruncated(t *testing.T) {
	for _, n := range []int{0, 10, 100, len(weights) / 2, len(weights) - 1} {
		_, err := Read(bytes.NewReader(weights[:n]))
		assert.Error(t, err, "cut at %d", n)
	}
}

// A comparative that a modal makes a wish is read as negated; the same
// word after "couldn't have been" or on its own is not.
func TestCounterfactual(t *testing.T) {
	tests := []struct {
		text string
		want bool
	}{
		{"could be better", true},
		{"it should have been much better", true},
		{"might be a lot worse", true},
		{"would be so much better if", true},
		{"couldn't have been better", false},
		{"this is better", false},
		{"could be good", false},
		{"be better", false},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			toks := Tokens(nil, tt.text)
			k := len(toks) - 1
			for toks[k] != "better" && toks[k] != "worse" && toks[k] != "good" {
				k--
			}
			assert.Equal(t, tt.want, counterfactual(toks, k))
			assert.Equal(t, tt.want, Counterfactual(toks[:k+1]))
			plain := hashString(fnvOffset, toks[k])
			if tt.want {
				assert.NotContains(t, Hashes(nil, toks), plain, "read as negated")
			} else {
				assert.Contains(t, Hashes(nil, toks), plain)
			}
		})
	}
}
