package lr

import (
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"math"
	"math/bits"
	"sync"

	"github.com/textanalysis/go-textanalysis/internal/modelfile"
)

// Head is one logistic regression: hashed sparse weights (2^Bits of them),
// dense weights and a bias.
type Head struct {
	Bits  uint
	W     []float32
	Dense [NumDense]float32
	Bias  float32

	// exact is how many of W's weights, whichever they are, add up
	// exactly in float64 (see [exactTerms]); 0 when unknown (a head being
	// trained). [Read] sets it.
	exact int
}

// NewHead returns a zero head with 2^bits sparse weights.
func NewHead(bits uint) Head {
	return Head{Bits: bits, W: make([]float32, 1<<bits)}
}

// Logit is the head's score for a text's hashes and dense features. The
// sparse part is scaled by 1/sqrt(len(hashes)), so that long texts do not
// saturate.
func (h *Head) Logit(hashes []uint32, dense *[NumDense]float64) float64 {
	mask := uint32(len(h.W) - 1)
	s := 0.0
	for _, x := range hashes {
		s += float64(h.W[x&mask])
	}
	if len(hashes) > 0 {
		s /= math.Sqrt(float64(len(hashes)))
	}
	for i, d := range dense {
		s += float64(h.Dense[i]) * d
	}
	return s + float64(h.Bias)
}

// Model is the learned model: Pol tells positive from negative, Subj polar
// from neutral; a text is neutral when it is unlikely to be polar,
// sigmoid([Model.SubjLogit]) < Tau, or when it holds no sentiment word VADER knows
// (|VADER compound| < 0.05) and the polarity evidence is balanced,
// |2·P(positive)−1| < Band; but never when VADER finds clear sentiment
// that agrees with the polarity, |VADER compound| ≥ Kappa with the sign of
// 2·P(positive)−1 (see [Model.IsNeutral]).
type Model struct {
	Pol, Subj Head
	// Tok is a polarity head trained on the tokenised movie sentences and
	// phrases alone; the blend weighs it in for tokenised text.
	Tok  Head
	Tau  float64
	Band float64
	// Kappa is the VADER compound from which a text whose polarity agrees
	// with VADER's is never neutral (above 1: no such text).
	Kappa float64
	// Blend weighs [BlendFeatures] into the final polarity logit.
	Blend [NumBlend]float32
	// SubjBlend weighs [SubjFeatures] into the final subjectivity logit:
	// the subjectivity head's logit, the polarity logit's strength,
	// VADER's scores and the text's cues.
	SubjBlend [NumSubj]float32
	// Dom tells tweets from other text (reviews, film sentences) by the
	// word hashes and [TweetCues], and Neu polar from neutral tweets by
	// those and [CharGrams]. A text that Dom takes for a tweet, P(tweet) ≥ 1/2, is
	// judged by Neu with its own thresholds: neutral when sigmoid(Neu) <
	// TauTweet (with BandTweet and, for agreeing VADER sentiment,
	// KappaTweet as in [IsNeutral]). Without them (Dom.Bits 0) every text
	// goes the Subj way.
	Dom, Neu                        Head
	TauTweet, BandTweet, KappaTweet float64

	// exact is the least [Head.exact] of the heads: texts whose feature
	// lists are no longer need not sort them (see [Model.Featurize]).
	exact int
}

// Scores are the model's probabilities for one text.
type Scores struct {
	PPos    float64 // P(positive | polar)
	PPolar  float64 // P(polar)
	Neutral bool    // see [Model.IsNeutral]
	Tweet   bool    // judged as a tweet (see [Model.Dom])
}

// Predict scores a featurised text.
func (m *Model) Predict(t *Text) Scores {
	zp := m.PolLogit(t)
	pp := sigmoid(zp)
	if t.tweet && m.HasTweet() {
		ps := sigmoid(m.Neu.Logit2(t.Hashes, t.Extra, &t.Dense))
		return Scores{PPos: pp, PPolar: ps, Tweet: true, Neutral: IsNeutral(pp, ps, t.Dense[0], m.TauTweet, m.BandTweet, m.KappaTweet)}
	}
	ps := sigmoid(m.SubjLogit(m.Subj.Logit(t.Hashes, &t.Dense), zp, t))
	return Scores{PPos: pp, PPolar: ps, Neutral: IsNeutral(pp, ps, t.Dense[0], m.Tau, m.Band, m.Kappa)}
}

// HasTweet reports whether m has the tweet heads, so that texts are to go
// through [Model.PrepareTweet].
func (m *Model) HasTweet() bool { return m.Dom.Bits > 0 }

// IsNeutral is the neutral decision for a text with P(positive | polar)
// pPos, P(polar) pPolar and VADER compound c: neutral when the text is
// unlikely to be polar (pPolar < tau), or when VADER finds no sentiment
// word (|c| < 0.05) and the polarity evidence is balanced (|2·pPos−1| <
// band); never when VADER's compound is at least kappa in magnitude and
// agrees in sign with the polarity (the text carries sentiment both
// models see).
func IsNeutral(pPos, pPolar, c, tau, band, kappa float64) bool {
	if math.Abs(c) >= kappa && (c > 0) == (pPos > 0.5) {
		return false
	}
	return pPolar < tau || math.Abs(c) < 0.05 && math.Abs(2*pPos-1) < band
}

// PolLogit is the blended polarity logit.
func (m *Model) PolLogit(t *Text) float64 {
	var zero [NumDense]float64
	bf := BlendFeatures(m.Pol.Logits(t), m.Tok.Logit(t.Hashes, &zero), t)
	z := 0.0
	for i, x := range bf {
		z += float64(m.Blend[i]) * x
	}
	return z
}

// SubjLogit is the final subjectivity logit from the subjectivity head's
// logit zSubj and the polarity logit zPol.
func (m *Model) SubjLogit(zSubj, zPol float64, t *Text) float64 {
	sf := SubjFeatures(zSubj, zPol, t)
	z := 0.0
	for i, x := range sf {
		z += float64(m.SubjBlend[i]) * x
	}
	return z
}

// Logit2 is [Head.Logit] of the hashes a and b together.
func (h *Head) Logit2(a, b []uint32, dense *[NumDense]float64) float64 {
	mask := uint32(len(h.W) - 1)
	s := 0.0
	for _, x := range a {
		s += float64(h.W[x&mask])
	}
	for _, x := range b {
		s += float64(h.W[x&mask])
	}
	if n := len(a) + len(b); n > 0 {
		s /= math.Sqrt(float64(n))
	}
	for i, d := range dense {
		s += float64(h.Dense[i]) * d
	}
	return s + float64(h.Bias)
}

func sigmoid(z float64) float64 { return 1 / (1 + math.Exp(-z)) }

var magic = [4]byte{'S', 'L', 'R', 'A'}

// magicNoTweet marks the format before the tweet heads (read for
// -pol-from).
var magicNoTweet = [4]byte{'S', 'L', 'R', '9'}

// Write writes m in the embedded format: gzip of a magic, then per head
// (Pol, Subj, Tok) bits, quantisation scale, int16 weights, dense weights
// and bias, then Tau, Band, the polarity blend, the subjectivity blend and
// Kappa, then a flag for the tweet heads and, when set, Dom and Neu as the
// other heads, TauTweet, BandTweet and KappaTweet.
func (m *Model) Write(w io.Writer) error {
	mw := modelfile.NewWriter(w)
	mw.LE(magic)
	putHead := func(h *Head) {
		scale := modelfile.Scale16(h.W)
		mw.LE(uint32(h.Bits))
		mw.LE(scale)
		mw.Dense16(h.W, scale)
		mw.LE(h.Dense)
		mw.LE(h.Bias)
	}
	for _, h := range []*Head{&m.Pol, &m.Subj, &m.Tok} {
		putHead(h)
	}
	for _, v := range []any{m.Tau, m.Band, m.Blend, m.SubjBlend, m.Kappa, m.HasTweet()} {
		mw.LE(v)
	}
	if m.HasTweet() {
		putHead(&m.Dom)
		putHead(&m.Neu)
		for _, v := range []any{m.TauTweet, m.BandTweet, m.KappaTweet} {
			mw.LE(v)
		}
	}
	return mw.Close()
}

// Read reads a model written by [Model.Write].
func Read(r io.Reader) (*Model, error) {
	var m Model
	// The magic says whether the tweet heads follow: read it as a
	// model of the older format, then look.
	mr, err := modelfile.NewReader(r, "")
	if err != nil {
		return nil, err
	}
	var got [4]byte
	if mr.LE(&got); mr.Err() == nil && got != magic && got != magicNoTweet {
		return nil, errors.New("lr: not a model file")
	}
	readHead := func(h *Head) {
		var bits uint32
		var scale float32
		if mr.LE(&bits); mr.Err() == nil && (bits == 0 || bits > 24) {
			mr.Fail("head size %d", bits)
		}
		if mr.LE(&scale); mr.Err() != nil {
			return
		}
		*h = NewHead(uint(bits))
		mr.Dense16(h.W, scale)
		h.exact = exactTerms(h.W)
		mr.LE(&h.Dense)
		mr.LE(&h.Bias)
	}
	for _, h := range []*Head{&m.Pol, &m.Subj, &m.Tok} {
		readHead(h)
	}
	for _, v := range []any{&m.Tau, &m.Band, &m.Blend, &m.SubjBlend, &m.Kappa} {
		mr.LE(v)
	}
	var tweet bool
	if got == magic {
		mr.LE(&tweet)
	}
	if tweet {
		readHead(&m.Dom)
		readHead(&m.Neu)
		for _, v := range []any{&m.TauTweet, &m.BandTweet, &m.KappaTweet} {
			mr.LE(v)
		}
	}
	if err := mr.End(); err != nil {
		return nil, fmt.Errorf("lr: read model: %w", err)
	}
	m.exact = min(m.Pol.exact, m.Subj.exact, m.Tok.exact)
	if m.HasTweet() {
		m.exact = min(m.exact, m.Dom.exact, m.Neu.exact)
	}
	return &m, nil
}

// exactTerms is the number of terms up to which a float64 sum of weights
// of w is exact, and so the same in any order: every float32 weight is an
// integer multiple of the smallest power of two u that divides them all,
// at most U units in magnitude, so a sum of n ≤ 2^53/U of them is a
// multiple of u at most 2^53 units in magnitude, which float64 holds
// exactly at every step. Quantised weights (int16 times a scale) span
// about 2^38 units, which allows some 20,000 terms.
func exactTerms(w []float32) int {
	// From the bits, for speed at load: a float32 with biased exponent
	// e and mantissa field f is m·2^(e−150), m = 2^23+f (or f and
	// e = 1 for a subnormal); its lowest set bit is 2^(e−150+tz(m)).
	minExp, maxBits := math.MaxInt, uint32(0)
	for _, x := range w {
		b := math.Float32bits(x) &^ (1 << 31)
		if b == 0 {
			continue
		}
		e, m := int(b>>23), b&(1<<23-1)
		if e == 0xff {
			return 0 // Inf or NaN
		}
		if e == 0 {
			e = 1
		} else {
			m |= 1 << 23
		}
		minExp = min(minExp, e-150+bits.TrailingZeros32(m))
		maxBits = max(maxBits, b) // the order of the bits is that of |x|
	}
	if maxBits == 0 {
		return math.MaxInt
	}
	units := math.Ldexp(float64(math.Float32frombits(maxBits)), -minExp)
	return int(math.Min(math.Ldexp(1, 53)/units, math.MaxInt32))
}

//go:embed weights.bin.gz
var weights []byte

// Embedded returns the model embedded in the binary, decoded once.
var Embedded = sync.OnceValues(func() (*Model, error) {
	m, err := Read(bytes.NewReader(weights))
	if err != nil {
		return nil, fmt.Errorf("lr: read embedded model: %w", err)
	}
	return m, nil
})
