package tagger

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// bruteForce enumerates every tag sequence of n tokens that s allows and
// returns the log partition function, the tag marginals and the expected
// transition counts.
func bruteForce(s *Scheme, scores, trans []float64, n int) (float64, []float64, []float64) {
	T := s.T
	allowed := func(p, t int) bool {
		for _, q := range s.preds(t) {
			if int(q) == p {
				return true
			}
		}
		return false
	}
	marg := make([]float64, n*T)
	pair := make([]float64, (T+1)*T)
	// Every sequence's score less the sum of each token's best score,
	// so that large scores do not overflow.
	shift := 0.0
	for j := 0; j < n; j++ {
		shift += slices.Max(scores[j*T : (j+1)*T])
	}
	Z := 0.0
	tags := make([]int, n)
	var walk func(i int)
	walk = func(i int) {
		if i == n {
			if !s.final[tags[n-1]] || !s.start[tags[0]] {
				return
			}
			score, prev := 0.0, T
			for j, t := range tags {
				if j > 0 && !allowed(prev, t) {
					return
				}
				score += scores[j*T+t] + trans[prev*T+t]
				prev = t
			}
			p := math.Exp(score - shift)
			Z += p
			prev = T
			for j, t := range tags {
				marg[j*T+t] += p
				pair[prev*T+t] += p
				prev = t
			}
			return
		}
		for t := 0; t < T; t++ {
			tags[i] = t
			walk(i + 1)
		}
	}
	walk(0)
	for i := range marg {
		marg[i] /= Z
	}
	for i := range pair {
		pair[i] /= Z
	}
	return math.Log(Z) + shift, marg, pair
}

func TestForwardBackward(t *testing.T) {
	tests := []struct {
		name     string
		per, lab int // tags per label, labels
		n        int
		spread   float64 // scores drawn from [-spread, spread]
	}{
		{"BIO one label, 3 tokens", 2, 1, 3, 2},
		{"BIO one label, 1 token", 2, 1, 1, 2},
		{"BILOU one label, 3 tokens", 4, 1, 3, 2},
		{"BILOU two labels, 4 tokens", 4, 2, 4, 3},
		{"BIO two labels, large scores", 2, 2, 4, 300},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := NewScheme(tt.per, tt.lab)
			T := s.T
			rng := rand.New(rand.NewPCG(7, uint64(tt.n)))
			scores := make([]float64, tt.n*T)
			for i := range scores {
				scores[i] = tt.spread * (2*rng.Float64() - 1)
			}
			trans := make([]float64, (T+1)*T)
			for i := range trans {
				trans[i] = 2*rng.Float64() - 1
			}
			var fb fbBuf
			require.True(t, s.forwardBackward(scores, trans, tt.n, &fb))
			logZ, marg, pair := bruteForce(s, scores, trans, tt.n)
			assert.InDelta(t, logZ, fb.logZ, 1e-9*math.Max(1, math.Abs(logZ)))
			for i := 0; i < tt.n; i++ {
				sum := 0.0
				for k := 0; k < T; k++ {
					sum += fb.marg[i*T+k]
					assert.InDelta(t, marg[i*T+k], fb.marg[i*T+k], 1e-9, "token %d tag %d", i, k)
				}
				assert.InDelta(t, 1, sum, 1e-9, "token %d", i)
			}
			for i := range pair {
				assert.InDelta(t, pair[i], fb.pair[i], 1e-9, "transition %d", i)
			}
		})
	}
}

func TestForwardBackwardUnderflow(t *testing.T) {
	// Token 1 prefers I by far more than float64 can hold, but I cannot
	// follow O, the only tag token 0 allows.
	s := NewScheme(2, 1)
	scores := []float64{0, -1e4, -1e4, -1e4, -1e4, 0}
	var fb fbBuf
	assert.False(t, s.forwardBackward(scores, make([]float64, 4*3), 2, &fb))
}
