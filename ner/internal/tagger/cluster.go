package tagger

import (
	"math"
	"slices"
	"unicode"
	"unicode/utf8"
)

// ClusterOptions controls Cluster.
type ClusterOptions struct {
	MinCount int  // words seen fewer times get no cluster
	Context  int  // the most frequent words used as context dimensions
	Coarse   int  // number of coarse clusters
	Fine     int  // number of fine clusters
	Iters    int  // k-means iterations
	PPMI     bool // weigh contexts by positive PMI rather than log counts
	// Evidence: words seen fewer times (and at least MinCount times) keep
	// only their coarse cluster, marked ClusterThin, and no fine one: a
	// cluster read from a handful of contexts is a guess, and the fine
	// grouping of a rare word is the least reliable part of it ("tesla"
	// among first names from 5 contexts). Marked, its coarse cluster gets
	// weights of its own, learned from words of the same evidence. 0: off.
	Evidence int
	// Case marks words written in lower case in most of their occurrences
	// that do not start a sentence (ClusterLower).
	Case bool
}

// Layout of a cluster value: the fine cluster in the high half, the coarse
// one and the marks in the low half.
const (
	ClusterCoarse = 0x0fff // the coarse cluster id
	ClusterThin   = 0x1000 // seen fewer than Evidence times: no fine cluster
	ClusterLower  = 0x2000 // mostly lower case inside sentences
	ClusterNoFine = 0x7fff // fine id of a thin word
	clusterLow    = 0x1fff // what the coarse features read (id and thin mark)
)

// Cluster groups the words of texts (lower case, digits as 0, as the
// features see them) by the words seen next to them: each word is a vector of
// log counts of its left and right neighbours among the Context most
// frequent words, and spherical k-means groups the vectors twice, coarsely
// and finely. The result maps a word to fine<<16 | coarse, with the marks
// of Evidence and Case (see ClusterThin and ClusterLower).
func Cluster(texts []string, opt ClusterOptions) map[string]int32 {
	// Word ids in order of first sight; counts.
	ids := map[string]int32{}
	var words []string
	var counts []int
	var lowerInside []int // occurrences not at a sentence start, in lower case
	var casedInside []int // occurrences not at a sentence start with a letter
	var seqs [][]int32
	var d Doc
	var toks []Span
	for _, text := range texts {
		toks = Tokenize(toks[:0], text)
		d.Reset(text, toks)
		seq := make([]int32, len(toks))
		for i := range toks {
			w := d.s(d.norm[i])
			id, ok := ids[string(w)]
			if !ok {
				id = int32(len(words))
				ids[string(w)] = id
				words = append(words, string(w))
				counts = append(counts, 0)
				lowerInside = append(lowerInside, 0)
				casedInside = append(casedInside, 0)
			}
			counts[id]++
			if i > 0 {
				r, _ := utf8.DecodeRuneInString(text[toks[i].Start:toks[i].End])
				if unicode.IsLetter(r) {
					casedInside[id]++
					if unicode.IsLower(r) {
						lowerInside[id]++
					}
				}
			}
			seq[i] = id
		}
		seqs = append(seqs, seq)
	}
	// Rank words by frequency (ties by word, for determinism).
	order := make([]int32, len(words))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int {
		if counts[a] != counts[b] {
			return counts[b] - counts[a]
		}
		if words[a] < words[b] {
			return -1
		}
		return 1
	})
	ctxDim := map[int32]int32{} // word id → context dimension (left; right is +Context)
	for r, id := range order {
		if r >= opt.Context {
			break
		}
		ctxDim[id] = int32(r)
	}
	row := map[int32]int32{} // word id → vector row
	var rowWord []int32
	for _, id := range order {
		if counts[id] < opt.MinCount {
			break
		}
		row[id] = int32(len(rowWord))
		rowWord = append(rowWord, id)
	}
	dim := 2 * opt.Context
	vecs := make([]map[int32]float32, len(rowWord))
	for i := range vecs {
		vecs[i] = map[int32]float32{}
	}
	for _, seq := range seqs {
		for i, id := range seq {
			r, ok := row[id]
			if !ok {
				continue
			}
			if i > 0 {
				if c, ok := ctxDim[seq[i-1]]; ok {
					vecs[r][c]++
				}
			}
			if i+1 < len(seq) {
				if c, ok := ctxDim[seq[i+1]]; ok {
					vecs[r][c+int32(opt.Context)]++
				}
			}
		}
	}
	// Sparse, log-scaled, unit-length vectors.
	type entry struct {
		dim int32
		v   float32
	}
	// Context counts, for PPMI.
	ctxCount := make([]float64, dim)
	var total float64
	for _, m := range vecs {
		for k, v := range m {
			ctxCount[k] += float64(v)
			total += float64(v)
		}
	}
	sparse := make([][]entry, len(vecs))
	for i, m := range vecs {
		es := make([]entry, 0, len(m))
		var rowSum float64
		for _, v := range m {
			rowSum += float64(v)
		}
		for k, v := range m {
			var x float32
			if opt.PPMI {
				// Positive pointwise mutual information, with the
				// context distribution smoothed (power 0.75) so rare
				// contexts do not dominate.
				pmi := math.Log(float64(v) * total / (rowSum * math.Pow(ctxCount[k], 0.75) * math.Pow(total, 0.25)))
				if pmi <= 0 {
					continue
				}
				x = float32(pmi)
			} else {
				x = float32(math.Log1p(float64(v)))
			}
			es = append(es, entry{k, x})
		}
		slices.SortFunc(es, func(a, b entry) int { return int(a.dim - b.dim) })
		// The norm is summed in dimension order, not the map's: float64
		// addition is not associative, and the map's order changes from
		// run to run, so summing over it could change the last bits of
		// a vector and, rarely, a cluster.
		var norm float64
		for _, e := range es {
			norm += float64(e.v * e.v)
		}
		if norm > 0 {
			inv := float32(1 / math.Sqrt(norm))
			for k := range es {
				es[k].v *= inv
			}
		}
		sparse[i] = es
	}
	kmeans := func(K int) []int32 {
		K = min(K, len(sparse))
		cent := make([]float32, K*dim)
		// Seeds spread over the frequency ranking.
		for k := 0; k < K; k++ {
			for _, e := range sparse[k*len(sparse)/K] {
				cent[k*dim+int(e.dim)] = e.v
			}
		}
		assign := make([]int32, len(sparse))
		for it := 0; it < opt.Iters; it++ {
			for i, es := range sparse {
				best, arg := float32(-1), int32(0)
				for k := 0; k < K; k++ {
					c := cent[k*dim : (k+1)*dim]
					var s float32
					for _, e := range es {
						s += e.v * c[e.dim]
					}
					if s > best {
						best, arg = s, int32(k)
					}
				}
				assign[i] = arg
			}
			clear(cent)
			for i, es := range sparse {
				c := cent[int(assign[i])*dim:]
				for _, e := range es {
					c[e.dim] += e.v
				}
			}
			for k := 0; k < K; k++ {
				c := cent[k*dim : (k+1)*dim]
				var norm float64
				for _, v := range c {
					norm += float64(v * v)
				}
				if norm > 0 {
					inv := float32(1 / math.Sqrt(norm))
					for j := range c {
						c[j] *= inv
					}
				}
			}
		}
		return assign
	}
	coarse := kmeans(opt.Coarse)
	fine := kmeans(opt.Fine)
	out := make(map[string]int32, len(rowWord))
	for i, id := range rowWord {
		v := fine[i]<<16 | coarse[i]
		if counts[id] < opt.Evidence {
			v = ClusterNoFine<<16 | ClusterThin | coarse[i]
		}
		if opt.Case && 2*lowerInside[id] > casedInside[id] {
			v |= ClusterLower
		}
		out[words[id]] = v
	}
	return out
}
