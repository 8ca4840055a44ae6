package main

import (
	"math"
	"slices"

	"github.com/textanalysis/go-textanalysis/qa/internal/core"
)

// gbdtParams are the settings of a boosted forest with logistic loss.
type gbdtParams struct {
	Trees   int
	Depth   int
	Rate    float64
	Lambda  float64 // L2 penalty on leaf values
	MinHess float64 // least summed hessian in a leaf
	MaxBins int
	// Groups, when not nil, makes the loss listwise: the rows of each
	// question (group[i] is row i's question, rows of a question
	// together) share a softmax, trained towards the labels normalised
	// to sum to one; questions whose labels are all zero teach nothing.
	Groups   []int32
	Features []bool // when not nil, the features trees may split on
}

// binned is a training matrix with each feature cut into quantile bins.
type binned struct {
	n, nf int
	bins  [][]uint8   // bins[f][row]
	edges [][]float32 // bin b holds x with edges[b-1] <= x < edges[b]
}

// binRows cuts each feature at up to maxBins-1 quantiles of its values;
// labels are not looked at, and ties stay in one bin.
func binRows(rows [][]float32, nf, maxBins int) *binned {
	b := &binned{n: len(rows), nf: nf, bins: make([][]uint8, nf), edges: make([][]float32, nf)}
	vals := make([]float32, len(rows))
	for f := 0; f < nf; f++ {
		for i, r := range rows {
			vals[i] = r[f]
		}
		s := slices.Clone(vals)
		slices.Sort(s)
		u := slices.Compact(slices.Clone(s))
		var e []float32
		if len(u) <= maxBins {
			for i := 1; i < len(u); i++ {
				e = append(e, u[i-1]+(u[i]-u[i-1])/2)
			}
		} else {
			for q := 1; q < maxBins; q++ {
				v := s[q*len(s)/maxBins]
				if v > s[0] && (len(e) == 0 || v > e[len(e)-1]) {
					e = append(e, v)
				}
			}
		}
		b.edges[f] = e
		col := make([]uint8, len(rows))
		for i, v := range vals {
			col[i] = uint8(upperBound(e, v))
		}
		b.bins[f] = col
	}
	return b
}

// upperBound is the number of edges at or below v: v's bin.
func upperBound(e []float32, v float32) int {
	lo, hi := 0, len(e)
	for lo < hi {
		m := (lo + hi) / 2
		if e[m] <= v {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// fitForest boosts trees on rows with soft labels y in [0,1] under the
// logistic loss, each row weighed by w. Everything is deterministic: no
// sampling, and ties between splits go to the lower feature and bin.
func fitForest(rows [][]float32, y, w []float64, p gbdtParams) *core.Forest {
	nf := len(rows[0])
	b := binRows(rows, nf, p.MaxBins)
	sy, sw := 0.0, 0.0
	for i := range y {
		sy += w[i] * y[i]
		sw += w[i]
	}
	pr := math.Min(math.Max(sy/sw, 1e-6), 1-1e-6)
	base := math.Log(pr / (1 - pr))
	f := &core.Forest{Base: float32(base)}
	score := make([]float64, len(rows))
	for i := range score {
		score[i] = base
	}
	g := make([]float64, len(rows))
	h := make([]float64, len(rows))
	all := make([]int32, len(rows))
	for i := range all {
		all[i] = int32(i)
	}
	if p.Groups != nil {
		base = 0
		f.Base = 0
		clear(score)
	}
	for range p.Trees {
		if p.Groups != nil {
			listGrad(p.Groups, score, y, w, g, h)
		} else {
			for i := range rows {
				q := 1 / (1 + math.Exp(-score[i]))
				g[i] = w[i] * (q - y[i])
				h[i] = w[i] * math.Max(q*(1-q), 1e-6)
			}
		}
		t := &core.Tree{}
		grow(t, b, slices.Clone(all), g, h, p, 0)
		// Scale the leaves by the learning rate.
		for n := range t.Value {
			t.Value[n] *= float32(p.Rate)
		}
		f.Trees = append(f.Trees, *t)
		for i, r := range rows {
			score[i] += float64(t.Leaf(r))
		}
	}
	return f
}

// grow adds the subtree over rows to t and returns its node index.
func grow(t *core.Tree, b *binned, rows []int32, g, h []float64, p gbdtParams, depth int) int32 {
	node := int32(len(t.Feat))
	t.Feat = append(t.Feat, -1)
	t.Thr = append(t.Thr, 0)
	t.Left = append(t.Left, 0)
	t.Right = append(t.Right, 0)
	sg, sh := 0.0, 0.0
	for _, r := range rows {
		sg += g[r]
		sh += h[r]
	}
	t.Value = append(t.Value, float32(-sg/(sh+p.Lambda)))
	if depth >= p.Depth || sh < 2*p.MinHess {
		return node
	}
	parent := sg * sg / (sh + p.Lambda)
	bestGain, bestF, bestBin := 1e-9, -1, 0
	hg := make([]float64, p.MaxBins+1)
	hh := make([]float64, p.MaxBins+1)
	for f := 0; f < b.nf; f++ {
		if p.Features != nil && !p.Features[f] {
			continue
		}
		nb := len(b.edges[f]) + 1
		if nb < 2 {
			continue
		}
		clear(hg[:nb])
		clear(hh[:nb])
		col := b.bins[f]
		for _, r := range rows {
			hg[col[r]] += g[r]
			hh[col[r]] += h[r]
		}
		lg, lh := 0.0, 0.0
		for k := 0; k < nb-1; k++ {
			lg += hg[k]
			lh += hh[k]
			rg, rh := sg-lg, sh-lh
			if lh < p.MinHess || rh < p.MinHess {
				continue
			}
			gain := lg*lg/(lh+p.Lambda) + rg*rg/(rh+p.Lambda) - parent
			if gain > bestGain {
				bestGain, bestF, bestBin = gain, f, k
			}
		}
	}
	if bestF < 0 {
		return node
	}
	col := b.bins[bestF]
	var left, right []int32
	for _, r := range rows {
		if int(col[r]) <= bestBin {
			left = append(left, r)
		} else {
			right = append(right, r)
		}
	}
	t.Feat[node] = int16(bestF)
	t.Thr[node] = b.edges[bestF][bestBin]
	l := grow(t, b, left, g, h, p, depth+1)
	r := grow(t, b, right, g, h, p, depth+1)
	t.Left[node], t.Right[node] = l, r
	return node
}

// listGrad sets the gradient and hessian of the listwise softmax loss.
func listGrad(grp []int32, score, y, w, g, h []float64) {
	for s := 0; s < len(grp); {
		e := s
		for e < len(grp) && grp[e] == grp[s] {
			e++
		}
		sy, mx := 0.0, math.Inf(-1)
		for i := s; i < e; i++ {
			sy += y[i]
			mx = math.Max(mx, score[i])
		}
		z := 0.0
		for i := s; i < e; i++ {
			z += math.Exp(score[i] - mx)
		}
		for i := s; i < e; i++ {
			if sy == 0 {
				g[i], h[i] = 0, 0
				continue
			}
			p := math.Exp(score[i]-mx) / z
			g[i] = w[i] * (p - y[i]/sy)
			h[i] = w[i] * math.Max(p*(1-p), 1e-6)
		}
		s = e
	}
}
