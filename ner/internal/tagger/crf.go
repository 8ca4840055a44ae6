package tagger

import (
	"math"
	"math/rand/v2"
	"time"
)

// CRFOptions trains the tagger's weights as a linear-chain CRF (conditional
// log-likelihood with L2, by averaged SGD) rather than by the perceptron:
// every token's tag posterior moves the weights, not only the mistakes.
// The features, tags, transitions and model file are the perceptron's.
type CRFOptions struct {
	// Rate is the initial SGD step; it decays as Rate/(1+Rate*L2*t) over
	// the t sentences seen (Bottou's schedule). 0 means 0.02.
	Rate float64
	// L2 is the regulariser per sentence (the objective is each
	// sentence's negative log-likelihood plus L2/2 times the squared
	// weights). 0 means 1e-6.
	L2 float64
	// MinMarginal: a token's features are updated for the gold tag and
	// for the tags whose marginal exceeds it, for speed (the others'
	// gradients are smaller than it). 0 means 1e-3.
	MinMarginal float64
}

func (o CRFOptions) withDefaults() CRFOptions {
	if o.Rate == 0 {
		o.Rate = 0.02
	}
	if o.L2 == 0 {
		o.L2 = 1e-6
	}
	if o.MinMarginal == 0 {
		o.MinMarginal = 1e-3
	}
	return o
}

// fbBuf is forwardBackward's scratch space and result.
type fbBuf struct {
	a, b, e []float64 // scaled forward and backward values, exp'd emissions (n*T)
	z       []float64 // forward scale of each position
	ex      []float64 // exp'd transitions ((T+1)*T), zero where not allowed
	marg    []float64 // tag marginals (n*T)
	pair    []float64 // expected transition counts ((T+1)*T, row T the start)
	logZ    float64
}

// preds returns the tags that may precede t.
func (s *Scheme) preds(t int) []int32 {
	if s.cont[t] {
		return s.contPreds[t][:]
	}
	return s.closed
}

// forwardBackward computes, for emission scores (n*T) and transition
// weights trans ((T+1)*T, trans[p*T+t], row T the start), the tag
// marginals of every token, the expected count of every transition and
// the log partition function, over the tag sequences the scheme allows
// (those Viterbi decodes among). It works in probabilities scaled at every
// position (Rabiner's scaling), each position's emissions shifted by their
// maximum, which keeps the values in range without logarithms in the inner
// loops. It reports false when a position has no probability left (the
// scores are too far apart for float64), and the results are then unset.
func (s *Scheme) forwardBackward(scores, trans []float64, n int, fb *fbBuf) bool {
	T := s.T
	grow := func(x []float64, k int) []float64 {
		if cap(x) < k {
			return make([]float64, k)
		}
		x = x[:k]
		clear(x)
		return x
	}
	fb.a, fb.b, fb.e, fb.marg = grow(fb.a, n*T), grow(fb.b, n*T), grow(fb.e, n*T), grow(fb.marg, n*T)
	fb.z = grow(fb.z, n)
	fb.ex, fb.pair = grow(fb.ex, (T+1)*T), grow(fb.pair, (T+1)*T)
	ex, a, b, e := fb.ex, fb.a, fb.b, fb.e
	for t := 0; t < T; t++ {
		if s.start[t] {
			ex[T*T+t] = math.Exp(trans[T*T+t])
		}
		for _, p := range s.preds(t) {
			ex[int(p)*T+t] = math.Exp(trans[int(p)*T+t])
		}
	}
	logZ := 0.0
	for i := 0; i < n; i++ {
		row := scores[i*T : (i+1)*T]
		m := math.Inf(-1)
		for _, v := range row {
			m = max(m, v)
		}
		logZ += m
		er := e[i*T : (i+1)*T]
		for t, v := range row {
			er[t] = math.Exp(v - m)
		}
	}
	// Forward.
	z := 0.0
	for t := 0; t < T; t++ {
		a[t] = ex[T*T+t] * e[t]
		z += a[t]
	}
	for i := 0; ; i++ {
		if !(z > 0) || math.IsInf(z, 0) {
			return false
		}
		fb.z[i] = z
		logZ += math.Log(z)
		ar := a[i*T : (i+1)*T]
		for t := range ar {
			ar[t] /= z
		}
		if i+1 == n {
			break
		}
		next := a[(i+1)*T : (i+2)*T]
		er := e[(i+1)*T : (i+2)*T]
		z = 0
		for t := 0; t < T; t++ {
			if er[t] == 0 {
				continue
			}
			sum := 0.0
			for _, p := range s.preds(t) {
				sum += ar[p] * ex[int(p)*T+t]
			}
			next[t] = sum * er[t]
			z += next[t]
		}
	}
	zf := 0.0
	last := a[(n-1)*T:]
	for t := 0; t < T; t++ {
		if s.final[t] {
			zf += last[t]
		}
	}
	if !(zf > 0) {
		return false
	}
	fb.logZ = logZ + math.Log(zf)
	// Backward, with the expected transitions from position i to i+1.
	for t := 0; t < T; t++ {
		if s.final[t] {
			b[(n-1)*T+t] = 1 / zf
		}
	}
	for i := n - 2; i >= 0; i-- {
		br, ar := b[i*T:(i+1)*T], a[i*T:(i+1)*T]
		bn, en := b[(i+1)*T:(i+2)*T], e[(i+1)*T:(i+2)*T]
		zn := fb.z[i+1]
		for t := 0; t < T; t++ {
			x := en[t] * bn[t] / zn
			if x == 0 {
				continue
			}
			for _, p := range s.preds(t) {
				y := ex[int(p)*T+t] * x
				br[p] += y
				fb.pair[int(p)*T+t] += ar[p] * y
			}
		}
	}
	for i := 0; i < n*T; i++ {
		fb.marg[i] = a[i] * b[i]
	}
	for t := 0; t < T; t++ {
		fb.pair[T*T+t] = fb.marg[t]
	}
	return true
}

// trainCRF is Train's CRF path, from the extracted features on: fid holds
// the feature ids of every token (featOff[ex.off+i] to featOff[ex.off+i+1]
// for token i of ex; -1 for dropped features).
//
// The weights are W = s*v, so that the L2 decay of every step is one
// multiplication of s, and the average of W over the steps is kept as in
// the perceptron (the sum of W over steps 1..k is P*v - u, where P sums s
// over the steps and u sums each change of v times P before it).
func trainCRF(exs []example, fid []int32, featOff []int, hashes []uint64, sch *Scheme, full *Gazetteer, opt TrainOptions, logf func(string, ...any), t0 time.Time) (*Model, []uint64, error) {
	co := opt.CRF.withDefaults()
	T := sch.T
	nf := len(hashes)
	v := make([]float32, nf*T)
	u := make([]float32, nf*T)
	trv := make([]float64, (T+1)*T)
	tru := make([]float64, (T+1)*T)
	seeds := max(1, opt.Seeds)
	var sumW []float32
	var sumTr []float64
	if seeds > 1 {
		sumW, sumTr = make([]float32, nf*T), make([]float64, (T+1)*T)
	}
	order := make([]int, len(exs))
	var sc32 []float32
	var sc, trs []float64
	trs = make([]float64, (T+1)*T)
	var fb fbBuf
	type upd struct {
		t int
		d float32
	}
	var ups []upd
	// averaged returns the average of W over the steps so far (into dst,
	// or v itself when dst is nil) and of the transitions.
	var s, P float64
	var k int
	averaged := func(dst []float32) ([]float32, []float64) {
		if dst == nil {
			dst = v
		}
		pf, kf := float32(P), float32(k)
		for i := range dst {
			dst[i] = (pf*v[i] - u[i]) / kf
		}
		tr := make([]float64, len(trv))
		for i := range tr {
			tr[i] = (P*trv[i] - tru[i]) / float64(k)
		}
		return dst, tr
	}
	toModel := func(w []float32, tr []float64) (*Model, []uint64, error) {
		tr32 := make([]float32, len(tr))
		for i, x := range tr {
			tr32[i] = float32(x)
		}
		return average(opt, sch, hashes, w, make([]float32, len(w)), tr32, make([]float32, len(tr32)), 1, full)
	}
	for seed := 0; seed < seeds; seed++ {
		clear(v)
		clear(u)
		clear(trv)
		clear(tru)
		s, P, k = 1, 0, 0
		for i := range order {
			order[i] = i
		}
		rng := rand.New(rand.NewPCG(1+uint64(seed), 2))
		for ep := 0; ep < opt.Epochs; ep++ {
			rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
			loss, skipped, ntok, nupd := 0.0, 0, 0, 0
			for _, oi := range order {
				ex := &exs[oi]
				n := len(ex.toks)
				if n == 0 {
					continue
				}
				if cap(sc32) < n*T {
					sc32 = make([]float32, n*T)
					sc = make([]float64, n*T)
				}
				for i := 0; i < n; i++ {
					row := sc32[i*T : (i+1)*T]
					sumWeights(row, v, fid[featOff[ex.off+i]:featOff[ex.off+i+1]])
					for t, x := range row {
						sc[i*T+t] = s * float64(x)
					}
				}
				for i, x := range trv {
					trs[i] = s * x
				}
				if !sch.forwardBackward(sc[:n*T], trs, n, &fb) {
					skipped++
					continue
				}
				gold := fb.logZ
				prev := T
				for i, g := range ex.gold[:n] {
					gold -= sc[i*T+g] + trs[prev*T+g]
					prev = g
				}
				loss += gold
				ntok += n
				eta := co.Rate / (1 + co.Rate*co.L2*float64(k))
				s *= 1 - eta*co.L2
				step := eta / s
				pf := float32(P)
				for i := 0; i < n; i++ {
					g := ex.gold[i]
					ups = ups[:0]
					for t, p := range fb.marg[i*T : (i+1)*T] {
						c := -p
						if t == g {
							c++
						} else if p <= co.MinMarginal {
							continue
						}
						ups = append(ups, upd{t, float32(step * c)})
					}
					nupd += len(ups)
					for _, f := range fid[featOff[ex.off+i]:featOff[ex.off+i+1]] {
						if f < 0 {
							continue
						}
						ws, us := v[int(f)*T:int(f)*T+T], u[int(f)*T:int(f)*T+T]
						for _, x := range ups {
							ws[x.t] += x.d
							us[x.t] += pf * x.d
						}
					}
				}
				// Transitions: observed less expected counts.
				prev = T
				for _, g := range ex.gold[:n] {
					fb.pair[prev*T+g]--
					prev = g
				}
				for i, x := range fb.pair {
					if x != 0 {
						d := -step * x
						trv[i] += d
						tru[i] += P * d
					}
				}
				P += s
				k++
				if s < 1e-6 {
					// W = s*v = 1*(s*v); P*v = (P/s)*(s*v) keeps u.
					for i := range v {
						v[i] *= float32(s)
					}
					for i := range trv {
						trv[i] *= s
					}
					P /= s
					s = 1
				}
			}
			logf("epoch %d: loss %.4f per token, %.2f updated tags per token, %d sentences skipped, scale %.4f (%s)",
				ep+1, loss/float64(max(1, ntok)), float64(nupd)/float64(max(1, ntok)), skipped, s, time.Since(t0))
			if opt.OnEpoch != nil && ep+1 < opt.Epochs && seeds == 1 {
				w, tr := averaged(make([]float32, len(v)))
				m, _, err := toModel(w, tr)
				if err != nil {
					return nil, nil, err
				}
				opt.OnEpoch(ep+1, m)
			}
		}
		w, tr := averaged(nil)
		if seeds == 1 {
			m, kept, err := toModel(w, tr)
			if err != nil {
				return nil, nil, err
			}
			logf("model: %d features, %d weights (%s)", len(kept), len(m.w), time.Since(t0))
			return m, kept, nil
		}
		for i := range sumW {
			sumW[i] += w[i] / float32(seeds)
		}
		for i := range sumTr {
			sumTr[i] += tr[i] / float64(seeds)
		}
		logf("order %d of %d done (%s)", seed+1, seeds, time.Since(t0))
	}
	m, kept, err := toModel(sumW, sumTr)
	if err != nil {
		return nil, nil, err
	}
	logf("model: %d features, %d weights (%s)", len(kept), len(m.w), time.Since(t0))
	return m, kept, nil
}
