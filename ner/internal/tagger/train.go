package tagger

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"time"
	"unicode/utf8"
)

// TrainOptions controls Train.
type TrainOptions struct {
	Labels      []string // entity labels; gold entities with other labels are ignored
	Epochs      int      // perceptron passes over the data
	MinCount    int      // features seen fewer times are dropped
	Prune       float32  // averaged weights with |w| below this are dropped
	Folds       int      // gazetteer jackknife folds; 0 means no gazetteer
	Clusters    map[string]int32
	Extra       bool // the second feature set
	BILOU       bool // BILOU tags rather than BIO
	Extra2      bool // the third feature set
	Extra3      bool // the fourth feature set
	Extra4      bool // the fifth feature set
	GazLower    bool // the gazetteer also matches phrases in lower case in sentences all in capitals or all in lower case
	GazLowerAll bool // ... and in every sentence
	// Margin is added during training to the score of every wrong tag of
	// a token before decoding (cost-augmented decoding: an update comes
	// whenever the gold tagging does not win by at least the margin per
	// token). 0: the plain perceptron.
	Margin float32
	// Ext, when set, is an external gazetteer (phrases from outside the
	// training data, not jackknifed), kept in the model.
	Ext *Gazetteer
	// Seeds > 1 trains that many times over different orders of the data
	// and averages the averaged weights (a cheap ensemble: features are
	// extracted once).
	Seeds int
	// CRF, when set, trains the weights as a linear-chain CRF rather
	// than by the perceptron (Epochs, Seeds and MinCount keep their
	// meaning; Prune applies to the CRF's weights, on another scale than
	// the perceptron's; Margin is unused). Nil: the perceptron.
	CRF  *CRFOptions
	Logf func(format string, args ...any)
	// OnEpoch, when set, is called after every epoch but the last with
	// the averaged model so far (to choose the number of epochs on
	// held-out data).
	OnEpoch func(epoch int, m *Model)
}

type example struct {
	text string
	toks []Span
	gold []int
	fold int
	off  int // index of the first token's feature list in featOff
}

// GoldTags tokenizes s and returns its tokens and BIO tags for labels (a
// label index map), and the number of gold entities whose boundaries do not
// fall on token boundaries.
func GoldTags(s Sentence, labels map[string]int) ([]Span, []int, int) {
	toks := Tokenize(nil, s.Text)
	tags := make([]int, len(toks))
	byteOf := runeToByte(s.Text)
	bad := 0
	for _, e := range s.Entities {
		k, ok := labels[e.Label]
		if !ok || e.Start < 0 || e.End >= len(byteOf) || e.Start >= e.End {
			continue
		}
		bs, be := byteOf[e.Start], byteOf[e.End]
		first := true
		startOK, endOK := false, false
		for i, t := range toks {
			if t.Start >= bs && t.End <= be {
				if first {
					tags[i] = 1 + 2*k
					first = false
				} else {
					tags[i] = 2 + 2*k
				}
				startOK = startOK || t.Start == bs
				endOK = endOK || t.End == be
			}
		}
		if !startOK || !endOK {
			bad++
		}
	}
	return toks, tags, bad
}

// runeToByte returns the byte offset of every code-point offset of s,
// including len.
func runeToByte(s string) []int {
	out := make([]int, 0, len(s)+1)
	for i := 0; i < len(s); {
		out = append(out, i)
		_, n := utf8.DecodeRuneInString(s[i:])
		i += n
	}
	return append(out, len(s))
}

// Train trains an averaged structured perceptron on train and returns the
// model and its feature hashes (for Write).
func Train(train []Sentence, opt TrainOptions) (*Model, []uint64, error) {
	logf := opt.Logf
	if logf == nil {
		logf = func(string, ...any) {}
	}
	t0 := time.Now()
	labelIdx := map[string]int{}
	for i, l := range opt.Labels {
		labelIdx[l] = i
	}
	per := 2
	if opt.BILOU {
		per = 4
	}
	sch := NewScheme(per, len(opt.Labels))
	bio := NewScheme(2, len(opt.Labels))
	T := sch.T
	// Folds by document, so that a gazetteer never sees the document it is
	// applied to.
	docFold := map[string]int{}
	exs := make([]example, 0, len(train))
	bad, total := 0, 0
	for _, s := range train {
		toks, tags, b := GoldTags(s, labelIdx)
		bad += b
		total += len(s.Entities)
		f, ok := docFold[s.Doc]
		if !ok {
			f = len(docFold)
			docFold[s.Doc] = f
		}
		if opt.Folds > 0 {
			f %= opt.Folds
		}
		tags = sch.Encode(bio.Chunks(nil, tags), len(tags))
		exs = append(exs, example{text: s.Text, toks: toks, gold: tags, fold: f})
	}
	logf("tokenized %d sentences; %d of %d entities off token boundaries (%s)", len(exs), bad, total, time.Since(t0))
	var full *Gazetteer
	var foldGaz []*Gazetteer
	if opt.Folds > 0 {
		full = NewGazetteer(6)
		full.Lower, full.LowerAll = opt.GazLower || opt.GazLowerAll, opt.GazLowerAll
		for k := 0; k < opt.Folds; k++ {
			foldGaz = append(foldGaz, NewGazetteer(6))
			foldGaz[k].Lower, foldGaz[k].LowerAll = full.Lower, full.LowerAll
		}
		for _, ex := range exs {
			for _, c := range sch.Chunks(nil, ex.gold) {
				full.Add(ex.text, ex.toks[c.Start:c.End], c.Label)
				for k := range foldGaz {
					if k != ex.fold {
						foldGaz[k].Add(ex.text, ex.toks[c.Start:c.End], c.Label)
					}
				}
			}
		}
		logf("gazetteer: %d phrases", len(full.Phrases))
	}
	// Feature extraction.
	var flat []uint64
	var featOff []int
	d := Doc{Extra: opt.Extra, Extra2: opt.Extra2, Extra3: opt.Extra3, Extra4: opt.Extra4}
	for i := range exs {
		ex := &exs[i]
		d.Reset(ex.text, ex.toks)
		var g *Gazetteer
		if foldGaz != nil {
			g = foldGaz[ex.fold]
		}
		d.Prepare(opt.Clusters, g, opt.Ext)
		ex.off = len(featOff)
		for j := range ex.toks {
			featOff = append(featOff, len(flat))
			flat = d.Features(flat, j)
		}
	}
	featOff = append(featOff, len(flat))
	counts := map[uint64]int32{}
	for _, h := range flat {
		counts[h]++
	}
	ids := map[uint64]int32{}
	var hashes []uint64
	for _, h := range flat {
		if counts[h] >= int32(opt.MinCount) {
			if _, ok := ids[h]; !ok {
				ids[h] = int32(len(hashes))
				hashes = append(hashes, h)
			}
		}
	}
	counts = nil
	fid := make([]int32, len(flat))
	for i, h := range flat {
		if id, ok := ids[h]; ok {
			fid[i] = id
		} else {
			fid[i] = -1
		}
	}
	flat, ids = nil, nil
	logf("features: %d kept, %d occurrences (%s)", len(hashes), len(fid), time.Since(t0))
	if opt.CRF != nil {
		return trainCRF(exs, fid, featOff, hashes, sch, full, opt, logf, t0)
	}

	nf := len(hashes)
	w := make([]float32, nf*T)
	u := make([]float32, nf*T) // c-weighted updates, for averaging
	tr := make([]float32, (T+1)*T)
	tu := make([]float32, (T+1)*T)
	trT := make([]float32, (T+1)*T) // tr laid out by Transpose, for Viterbi
	c := float32(1)
	order := make([]int, len(exs))
	var scores []float32
	var back []int32
	var pred []int
	vprev, vcur := make([]float32, T), make([]float32, T)
	seeds := max(1, opt.Seeds)
	var sumW, sumTr []float32
	if seeds > 1 {
		sumW, sumTr = make([]float32, nf*T), make([]float32, (T+1)*T)
	}
	for seed := 0; seed < seeds; seed++ {
		if seed > 0 {
			clear(w)
			clear(u)
			clear(tr)
			clear(tu)
			clear(trT)
			c = 1
		}
		for i := range order {
			order[i] = i
		}
		rng := rand.New(rand.NewPCG(1+uint64(seed), 2))
		for ep := 0; ep < opt.Epochs; ep++ {
			rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
			errs, ntok := 0, 0
			for _, oi := range order {
				ex := &exs[oi]
				n := len(ex.toks)
				if n == 0 {
					continue
				}
				if cap(scores) < n*T {
					scores = make([]float32, n*T)
					back = make([]int32, n*T)
				}
				sc := scores[:n*T]
				for i := 0; i < n; i++ {
					sumWeights(sc[i*T:(i+1)*T], w, fid[featOff[ex.off+i]:featOff[ex.off+i+1]])
				}
				if opt.Margin > 0 {
					for i := 0; i < n; i++ {
						row := sc[i*T : (i+1)*T]
						for t := range row {
							if t != ex.gold[i] {
								row[t] += opt.Margin
							}
						}
					}
				}
				pred = sch.Viterbi(sc, trT, n, back[:n*T], pred, vprev, vcur)
				ntok += n
				for i := 0; i < n; i++ {
					g, p := ex.gold[i], pred[i]
					pg, pp := T, T
					if i > 0 {
						pg, pp = ex.gold[i-1], pred[i-1]
					}
					if g != p {
						errs++
						for _, f := range fid[featOff[ex.off+i]:featOff[ex.off+i+1]] {
							if f < 0 {
								continue
							}
							w[int(f)*T+g]++
							u[int(f)*T+g] += c
							w[int(f)*T+p]--
							u[int(f)*T+p] -= c
						}
					}
					if g != p || pg != pp {
						tr[pg*T+g]++
						tu[pg*T+g] += c
						tr[pp*T+p]--
						tu[pp*T+p] -= c
						trT[g*(T+1)+pg]++
						trT[p*(T+1)+pp]--
					}
				}
				c++
			}
			logf("epoch %d: %d token errors of %d (%.2f%%) (%s)", ep+1, errs, ntok, 100*float64(errs)/float64(ntok), time.Since(t0))
			if opt.OnEpoch != nil && ep+1 < opt.Epochs && seeds == 1 {
				m, _, err := average(opt, sch, hashes, w, u, tr, tu, c, full)
				if err != nil {
					return nil, nil, err
				}
				opt.OnEpoch(ep+1, m)
			}
		}
		if seeds > 1 {
			// Each order's averaged weights, averaged again over the orders.
			for i := range sumW {
				sumW[i] += (w[i] - u[i]/c) / float32(seeds)
			}
			for i := range sumTr {
				sumTr[i] += (tr[i] - tu[i]/c) / float32(seeds)
			}
			logf("order %d of %d done (%s)", seed+1, seeds, time.Since(t0))
		}
	}
	if seeds > 1 {
		w, tr, c = sumW, sumTr, 1
		clear(u)
		clear(tu)
	}
	m, kept, err := average(opt, sch, hashes, w, u, tr, tu, c, full)
	if err != nil {
		return nil, nil, err
	}
	logf("model: %d features, %d weights (%s)", len(kept), len(m.w), time.Since(t0))
	return m, kept, nil
}

// sumWeights sets row (one token's T scores) to the sum of the weight rows
// in w of the features fids; a negative ID is a feature the model does not
// keep.
func sumWeights(row, w []float32, fids []int32) {
	T := len(row)
	clear(row)
	for _, f := range fids {
		if f < 0 {
			continue
		}
		ws := w[int(f)*T : int(f)*T+T]
		for t := range row {
			row[t] += ws[t]
		}
	}
}

// average returns the model of the averaged weights (w less u/c), pruned,
// and the hashes of the features it keeps.
func average(opt TrainOptions, sch *Scheme, hashes []uint64, w, u, tr, tu []float32, c float32, full *Gazetteer) (*Model, []uint64, error) {
	T := sch.T
	nf := len(hashes)
	m := &Model{Labels: slices.Clone(opt.Labels), Extra: opt.Extra, Extra2: opt.Extra2, Extra3: opt.Extra3, Extra4: opt.Extra4, Scheme: sch, T: T, Clus: opt.Clusters, Gaz: full, Ext: opt.Ext}
	m.Trans = make([]float32, len(tr))
	for i := range tr {
		m.Trans[i] = tr[i] - tu[i]/c
	}
	var kept []uint64
	m.off = []uint32{0}
	for f := 0; f < nf; f++ {
		n0 := len(m.tag)
		for t := 0; t < T; t++ {
			v := w[f*T+t] - u[f*T+t]/c
			if float32(math.Abs(float64(v))) >= opt.Prune && v != 0 {
				m.tag = append(m.tag, uint8(t))
				m.w = append(m.w, v)
			}
		}
		if len(m.tag) > n0 {
			kept = append(kept, hashes[f])
			m.off = append(m.off, uint32(len(m.tag)))
		}
	}
	if err := m.buildTable(kept); err != nil {
		return nil, nil, err
	}
	return m, kept, nil
}

// Eval tags sents with m and returns entity-level precision, recall and F1
// (exact span and label), per label as well.
func Eval(m *Model, sents []Sentence) (p, r, f float64, per map[string][3]int) {
	per = map[string][3]int{} // tp, pred, gold
	var b Buffers
	var tp, np, ng int
	for _, s := range sents {
		toks := Tokenize(nil, s.Text)
		byteOf := runeToByte(s.Text)
		gold := map[[3]int]bool{}
		li := map[string]int{}
		for i, l := range m.Labels {
			li[l] = i
		}
		for _, e := range s.Entities {
			k, ok := li[e.Label]
			if !ok {
				k = -1
			}
			gold[[3]int{byteOf[e.Start], byteOf[e.End], k}] = true
			x := per[e.Label]
			x[2]++
			per[e.Label] = x
			ng++
		}
		for _, c := range m.Tag(nil, s.Text, toks, &b) {
			key := [3]int{toks[c.Start].Start, toks[c.End-1].End, c.Label}
			l := m.Labels[c.Label]
			x := per[l]
			x[1]++
			np++
			if gold[key] {
				x[0]++
				tp++
			}
			per[l] = x
		}
	}
	p = float64(tp) / math.Max(1, float64(np))
	r = float64(tp) / math.Max(1, float64(ng))
	if p+r > 0 {
		f = 2 * p * r / (p + r)
	}
	return p, r, f, per
}

// String formats an Eval result.
func FormatEval(p, r, f float64, per map[string][3]int) string {
	s := fmt.Sprintf("P %.2f R %.2f F1 %.2f\n", 100*p, 100*r, 100*f)
	keys := make([]string, 0, len(per))
	for k := range per {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		x := per[k]
		lp := float64(x[0]) / math.Max(1, float64(x[1]))
		lr := float64(x[0]) / math.Max(1, float64(x[2]))
		lf := 0.0
		if lp+lr > 0 {
			lf = 2 * lp * lr / (lp + lr)
		}
		s += fmt.Sprintf("  %-12s P %6.2f R %6.2f F1 %6.2f  (gold %d)\n", k, 100*lp, 100*lr, 100*lf, x[2])
	}
	return s
}
