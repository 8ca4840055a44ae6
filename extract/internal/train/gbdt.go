package main

import (
	"hash/fnv"
	"math"
	"slices"
	"strconv"

	"github.com/textanalysis/go-textanalysis/extract/internal/blockmodel"
)

// data is a training matrix: features binned column by column.
type data struct {
	n, nf int
	bins  [][]uint8   // bins[f][row]
	edges [][]float32 // edges[f]: bin b holds x with edges[b-1] <= x < edges[b]
	y, w  []float64
	keys  []uint64 // keys[row]: the row's identity (rowKey), which alone decides its sampling
}

// rowKey names a row by its page and block (block -1 for a page's own
// row), so that whether a row is sampled for a tree depends on nothing
// else: adding, removing or changing one page leaves every other page's
// rows sampled as before, and cross-validation figures move by that
// page's effect only, not by a reshuffled random stream.
func rowKey(pg *page, block int) uint64 {
	h := fnv.New64a()
	h.Write([]byte(pg.Set))
	h.Write([]byte{0})
	h.Write([]byte(pg.ID))
	h.Write([]byte{0})
	h.Write([]byte(strconv.Itoa(block)))
	return h.Sum64()
}

// mix64 is splitmix64's finaliser: a bijection of uint64 whose output
// bits each depend on every input bit.
func mix64(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}

// sampled reports whether the row with key k is in tree t's subsample.
func sampled(k, seed uint64, t int, rate float64) bool {
	u := mix64(k ^ mix64(seed*0x9e3779b97f4a7c15+uint64(t)+1))
	return float64(u>>11)/(1<<53) < rate
}

const maxBins = 64

// makeEdges picks up to maxBins-1 split points per feature from quantiles
// of the values (unsupervised: labels are not looked at).
func makeEdges(rows [][]float32, nf int) [][]float32 {
	edges := make([][]float32, nf)
	vals := make([]float32, len(rows))
	for f := 0; f < nf; f++ {
		for i, r := range rows {
			vals[i] = r[f]
		}
		s := slices.Clone(vals)
		slices.Sort(s)
		s = slices.Compact(s)
		var e []float32
		if len(s) <= maxBins {
			// Split halfway between neighbouring values.
			for i := 1; i < len(s); i++ {
				e = append(e, s[i-1]+(s[i]-s[i-1])/2)
			}
		} else {
			sorted := slices.Clone(vals)
			slices.Sort(sorted)
			for q := 1; q < maxBins; q++ {
				v := sorted[q*len(sorted)/maxBins]
				if len(e) == 0 || v > e[len(e)-1] {
					e = append(e, v)
				}
			}
		}
		edges[f] = e
	}
	return edges
}

func binOf(e []float32, x float32) uint8 {
	// Number of edges <= x.
	i, _ := slices.BinarySearchFunc(e, x, func(a, b float32) int {
		if a <= b {
			return -1
		}
		return 1
	})
	return uint8(i)
}

func newData(rows [][]float32, y, w []float64, keys []uint64, edges [][]float32) *data {
	nf := len(edges)
	d := &data{n: len(rows), nf: nf, edges: edges, y: y, w: w, keys: keys, bins: make([][]uint8, nf)}
	for f := 0; f < nf; f++ {
		b := make([]uint8, len(rows))
		for i, r := range rows {
			b[i] = binOf(edges[f], r[f])
		}
		d.bins[f] = b
	}
	return d
}

type params struct {
	trees     int
	depth     int
	lr        float64
	lambda    float64
	minHess   float64
	subsample float64
	seed      uint64
	threshold float64
}

// fit trains gradient-boosted trees for logistic loss with soft labels.
func fit(d *data, p params, names []string) *blockmodel.Model {
	m := &blockmodel.Model{Features: names}
	// Base: the weighted mean label's log-odds.
	sy, sw := 0.0, 0.0
	for i := 0; i < d.n; i++ {
		sy += d.y[i] * d.w[i]
		sw += d.w[i]
	}
	mean := min(max(sy/sw, 1e-4), 1-1e-4)
	m.Base = float32(math.Log(mean / (1 - mean)))
	score := make([]float64, d.n)
	for i := range score {
		score[i] = float64(m.Base)
	}
	g := make([]float64, d.n)
	h := make([]float64, d.n)
	rows := make([]int32, 0, d.n)
	for t := 0; t < p.trees; t++ {
		for i := 0; i < d.n; i++ {
			pr := 1 / (1 + math.Exp(-score[i]))
			g[i] = (pr - d.y[i]) * d.w[i]
			h[i] = max(pr*(1-pr), 1e-6) * d.w[i]
		}
		rows = rows[:0]
		for i := 0; i < d.n; i++ {
			if sampled(d.keys[i], p.seed, t, p.subsample) {
				rows = append(rows, int32(i))
			}
		}
		tree, split := growTree(d, g, h, rows, p)
		// Update every row's score with the tree (all rows, not only the sample).
		for i := 0; i < d.n; i++ {
			score[i] += float64(evalBinned(&tree, split, d, i))
		}
		// Thresholds as values for the model.
		m.Trees = append(m.Trees, tree)
	}
	return m
}

// fitBag fits bag models with seeds p.seed, p.seed+1, … (each tree sees
// its own 70% of the rows) and returns their average: one model holding
// all their trees, leaf values divided by bag, and the mean of their
// bases, so that its score is the mean of theirs. Averaging models that
// differ only in their subsampling lowers the seed's noise, which moved
// the dev figures by about as much as the last features gained.
func fitBag(d *data, p params, names []string, bag int) *blockmodel.Model {
	if bag <= 1 {
		return fit(d, p, names)
	}
	var out *blockmodel.Model
	base := 0.0
	for k := range bag {
		q := p
		q.seed = p.seed + uint64(k)
		m := fit(d, q, names)
		base += float64(m.Base)
		for _, t := range m.Trees {
			for j := range t.Val {
				t.Val[j] /= float32(bag)
			}
		}
		if out == nil {
			out = m
		} else {
			out.Trees = append(out.Trees, m.Trees...)
		}
	}
	out.Base = float32(base / float64(bag))
	return out
}

// evalBinned evaluates a tree on row i of d through its bins: split[j] is
// the bin node j splits at (bin < split[j] ⇔ x < Thr[j]).
func evalBinned(t *blockmodel.Tree, split []uint8, d *data, i int) float32 {
	j := int32(0)
	for {
		f := t.Feat[j]
		if f < 0 {
			return t.Val[j]
		}
		// Thr is edges[f][b-1] for a split at bin b: bin < b ⇔ x < Thr.
		if d.bins[f][i] < split[j] {
			j = t.Left[j]
		} else {
			j = t.Right[j]
		}
	}
}

type nodeWork struct {
	rows  []int32
	depth int
	index int32
}

func growTree(d *data, g, h []float64, rows []int32, p params) (blockmodel.Tree, []uint8) {
	var t blockmodel.Tree
	var split []uint8
	newNode := func() int32 {
		split = append(split, 0)
		t.Feat = append(t.Feat, -1)
		t.Thr = append(t.Thr, 0)
		t.Left = append(t.Left, 0)
		t.Right = append(t.Right, 0)
		t.Val = append(t.Val, 0)
		return int32(len(t.Feat) - 1)
	}
	queue := []nodeWork{{rows: rows, depth: 0, index: newNode()}}
	hg := make([]float64, maxBins)
	hh := make([]float64, maxBins)
	for len(queue) > 0 {
		nw := queue[0]
		queue = queue[1:]
		G, H := 0.0, 0.0
		for _, r := range nw.rows {
			G += g[r]
			H += h[r]
		}
		t.Val[nw.index] = float32(-G / (H + p.lambda) * p.lr)
		if nw.depth >= p.depth || H < 2*p.minHess {
			continue
		}
		parentGain := G * G / (H + p.lambda)
		bestGain, bestF, bestB := 1e-9, -1, 0
		for f := 0; f < d.nf; f++ {
			nb := len(d.edges[f]) + 1
			if nb < 2 {
				continue
			}
			clear(hg[:nb])
			clear(hh[:nb])
			bf := d.bins[f]
			for _, r := range nw.rows {
				b := bf[r]
				hg[b] += g[r]
				hh[b] += h[r]
			}
			gl, hl := 0.0, 0.0
			for b := 1; b < nb; b++ {
				gl += hg[b-1]
				hl += hh[b-1]
				if hl < p.minHess || H-hl < p.minHess {
					continue
				}
				gr, hr := G-gl, H-hl
				gain := gl*gl/(hl+p.lambda) + gr*gr/(hr+p.lambda) - parentGain
				if gain > bestGain {
					bestGain, bestF, bestB = gain, f, b
				}
			}
		}
		if bestF < 0 {
			continue
		}
		var left, right []int32
		bf := d.bins[bestF]
		for _, r := range nw.rows {
			if int(bf[r]) < bestB {
				left = append(left, r)
			} else {
				right = append(right, r)
			}
		}
		i := nw.index
		t.Feat[i] = int16(bestF)
		t.Thr[i] = d.edges[bestF][bestB-1]
		split[i] = uint8(bestB)
		l := newNode()
		r := newNode()
		t.Left[i], t.Right[i] = l, r
		queue = append(queue, nodeWork{left, nw.depth + 1, l}, nodeWork{right, nw.depth + 1, r})
	}
	return t, split
}
