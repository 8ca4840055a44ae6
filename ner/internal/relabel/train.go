package relabel

import (
	"math"
	"math/rand/v2"
	"slices"
)

// An Example is a training candidate's features and its gold class
// (len(labels) for no entity).
type Example struct {
	F    Features
	Pred int
	Gold int
}

// Train trains an averaged multiclass perceptron on exs over epochs passes
// in an order drawn from seed, and returns it with zero margins.
func Train(labels []string, exs []Example, epochs int, seed uint64) *Model {
	n := 1 << bits
	w, u := make([]float32, n), make([]float32, n)
	c := float32(1)
	order := make([]int, len(exs))
	for i := range order {
		order[i] = i
	}
	rng := rand.New(rand.NewPCG(seed, 7))
	var s []float32
	upd := func(f *Features, y int, d float32) {
		for _, h := range f.X {
			k := slot(h, y)
			w[k] += d
			u[k] += c * d
		}
		for _, h := range f.Per[y] {
			k := slot(h, -1)
			w[k] += d
			u[k] += c * d
		}
		w[f.vs] += d * f.Val[y]
		u[f.vs] += c * d * f.Val[y]
		if len(f.PerD) > 0 {
			for _, h := range f.PerD[y] {
				k := slot(h, -1)
				w[k] += d
				u[k] += c * d
			}
			w[valDSlot] += d * f.ValD[y]
			u[valDSlot] += c * d * f.ValD[y]
		}
	}
	for range epochs {
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		for _, i := range order {
			ex := &exs[i]
			s = s[:0]
			for y := range ex.F.Per {
				s = append(s, score(w, &ex.F, y))
			}
			p := argmax(s, ex.Pred)
			if p != ex.Gold {
				upd(&ex.F, ex.Gold, 1)
				upd(&ex.F, p, -1)
			}
			c++
		}
	}
	for i := range w {
		w[i] -= u[i] / c
	}
	return &Model{Labels: slices.Clone(labels), w: w}
}

// argmax returns the best class of s, ties to first (the tagger's label
// first of all).
func argmax(s []float32, first int) int {
	arg := first
	for y, v := range s {
		if v > s[arg] {
			arg = y
		}
	}
	return arg
}

// Decide returns the class m chooses from scores s for a candidate the
// tagger labelled pred, len(s)-1 for no entity.
func (m *Model) Decide(s []float32, pred int) int {
	y := m.decide(s, pred)
	if y < 0 {
		return len(s) - 1
	}
	return y
}

// ScoresOf returns the score of every class for features f.
func (m *Model) ScoresOf(f *Features) []float32 {
	out := make([]float32, len(f.Per))
	for y := range f.Per {
		out[y] = score(m.w, f, y)
	}
	return out
}

// TrainLog trains a multiclass logistic regression (softmax) on exs with
// AdaGrad at rate lr and L2 penalty l2 (applied lazily, per example, to the
// weights the example reads), over epochs passes in an order drawn from
// seed.
func TrainLog(labels []string, exs []Example, epochs int, seed uint64, lr, l2 float32) *Model {
	n := 1 << bits
	w, g2 := make([]float32, n), make([]float32, n)
	order := make([]int, len(exs))
	for i := range order {
		order[i] = i
	}
	rng := rand.New(rand.NewPCG(seed, 7))
	var s, p []float32
	step := func(k uint32, grad float32) {
		grad += l2 * w[k]
		g2[k] += grad * grad
		w[k] -= lr * grad / float32(math.Sqrt(float64(g2[k])+1e-6))
	}
	for range epochs {
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		for _, i := range order {
			ex := &exs[i]
			s = s[:0]
			for y := range ex.F.Per {
				s = append(s, score(w, &ex.F, y))
			}
			p = softmax(p[:0], s)
			var gv, gd float32
			for y := range p {
				g := p[y]
				if y == ex.Gold {
					g -= 1
				}
				if g > -1e-4 && g < 1e-4 {
					continue
				}
				for _, h := range ex.F.X {
					step(slot(h, y), g)
				}
				for _, h := range ex.F.Per[y] {
					step(slot(h, -1), g)
				}
				gv += g * ex.F.Val[y]
				if len(ex.F.PerD) > 0 {
					for _, h := range ex.F.PerD[y] {
						step(slot(h, -1), g)
					}
					gd += g * ex.F.ValD[y]
				}
			}
			step(ex.F.vs, gv)
			if len(ex.F.PerD) > 0 {
				step(valDSlot, gd)
			}
		}
	}
	return &Model{Labels: slices.Clone(labels), w: w}
}

func softmax(dst, s []float32) []float32 {
	mx := s[0]
	for _, v := range s {
		mx = max(mx, v)
	}
	var z float32
	for _, v := range s {
		e := float32(math.Exp(float64(v - mx)))
		dst = append(dst, e)
		z += e
	}
	for i := range dst {
		dst[i] /= z
	}
	return dst
}
