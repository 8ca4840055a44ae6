package main

import (
	"bytes"
	"context"
	"encoding/gob"
	"fmt"
	"log"
	"math"
	"os"
	"slices"
	"strings"

	"github.com/textanalysis/go-textanalysis/qa/internal/core"
)

// rr holds the settings of -rerank.
var rr struct {
	folds, k int
	rows     string
	gb       gbdtParams
	label    string
	list     bool
	use      int
	drop     string
	seeds    int
	epochs   int
	lr, l2   float64
	average  bool
	prune    string
	// foldCache, when set, names files PREFIX-K.gob that keep the
	// first-stage weights of fold K: read when they exist, else written,
	// so that new dense features need no retraining of the first stage.
	foldCache string
	// allFolds scores the second stage on every held-out fold.
	allFolds bool
	// extra names more SQuAD files whose questions give the second stage
	// training rows only (never scored): question i under fold model i
	// mod folds, none of which saw them.
	extra string
}

// rquestion is one question's best answer groups as the second stage
// sees them: dense features and how right each group's text is.
type rquestion struct {
	Fold   int
	X      [][]float32
	EM, F1 []float64
}

// rankCached ranks ex's candidates from its cached features.
func rankCached(m *core.Model, ex *example) []core.Scored {
	out := make([]core.Scored, len(ex.p.cands))
	for i, cd := range ex.p.cands {
		out[i] = core.Scored{Cand: cd, Score: m.Score(ex.feats[ex.off[i]:ex.off[i+1]])}
	}
	core.Softmax(out)
	return out
}

// questionRows returns the groups of ex under m as second-stage rows.
func questionRows(m *core.Model, ex *example, k int) rquestion {
	c := core.NewCtx(ex.p.doc, ex.q, m.Weight)
	var ss []core.Scored
	if ex.off != nil {
		ss = rankCached(m, ex)
	} else {
		ss, _ = m.Rank(context.Background(), c, ex.p.cands)
	}
	ss = core.DropEchoes(ex.p.doc, ex.q, ss)
	gs := core.Groups(ex.p.doc, ss, k)
	var rq rquestion
	dn := c.NewDense(m, ss, gs)
	for i, g := range gs {
		rq.X = append(rq.X, dn.Row(i, nil))
		em, f1 := scoreAnswer(normalize(spanText(ex.p, g.Cand)), ex.gold)
		rq.EM = append(rq.EM, em)
		rq.F1 = append(rq.F1, f1)
	}
	return rq
}

// pruneWeights zeroes the weights below the first -prune value, as the
// saved model's are.
func pruneWeights(m *core.Model, prune string) {
	var p float64
	fmt.Sscanf(strings.Split(prune, ",")[0], "%g", &p)
	for k, w := range m.W {
		if math.Abs(float64(w)) < p {
			m.W[k] = 0
		}
	}
}

// crossFit trains the first stage once per article fold without that
// fold's articles and returns the rows of every training question under
// the model that did not see it.
func crossFit(m *core.Model, train []*example) []rquestion {
	out := make([]rquestion, len(train))
	var extra []*example
	for _, s := range loadList(rr.extra) {
		extra = append(extra, prepare(s, m)...)
	}
	if len(extra) > 0 {
		log.Printf("second stage: %d more questions from %s", len(extra), rr.extra)
	}
	extraRows := make([]rquestion, len(extra))
	for k := range rr.folds {
		var in []*example
		for _, ex := range train {
			if ex.art%rr.folds != k {
				in = append(in, ex)
			}
		}
		mk := &core.Model{W: make([]float32, len(m.W)), IDF: m.IDF, MaxIDF: m.MaxIDF}
		cache := ""
		if rr.foldCache != "" {
			cache = fmt.Sprintf("%s-%d.gob", rr.foldCache, k)
		}
		if b, err := os.ReadFile(cache); cache != "" && err == nil {
			if err := gob.NewDecoder(bytes.NewReader(b)).Decode(&mk.W); err != nil {
				log.Fatalf("trainqa: %s: %v", cache, err)
			}
			log.Printf("fold %d: first stage read from %s", k, cache)
		} else {
			fitSeeds(mk, in, nil, rr.seeds, rr.epochs, rr.lr, rr.l2, rr.average)
			pruneWeights(mk, rr.prune)
			if cache != "" {
				var b bytes.Buffer
				if err := gob.NewEncoder(&b).Encode(mk.W); err != nil {
					log.Fatalf("trainqa: %v", err)
				}
				if err := os.WriteFile(cache, b.Bytes(), 0o644); err != nil {
					log.Fatalf("trainqa: %v", err)
				}
			}
		}
		em, f1, n := 0.0, 0.0, 0
		for i, ex := range train {
			if ex.art%rr.folds == k {
				out[i] = questionRows(mk, ex, rr.k)
				out[i].Fold = k
				if len(out[i].EM) > 0 {
					em += out[i].EM[0]
					f1 += out[i].F1[0]
				}
				n++
			}
		}
		log.Printf("fold %d: %d questions held out, first stage EM %.2f F1 %.2f", k, n, 100*em/float64(n), 100*f1/float64(n))
		for i, ex := range extra {
			if i%rr.folds == k {
				extraRows[i] = questionRows(mk, ex, rr.k)
				extraRows[i].Fold = -1
			}
		}
	}
	return append(out, extraRows...)
}

// fitRerank trains the second stage on the questions qs.
func fitRerank(qs []rquestion) *core.Forest {
	var rows [][]float32
	var y, w []float64
	var grp []int32
	for qi, q := range qs {
		for i, x := range q.X {
			grp = append(grp, int32(qi))
			rows = append(rows, x)
			switch rr.label {
			case "em":
				y = append(y, q.EM[i])
			case "mix":
				y = append(y, (q.EM[i]+q.F1[i])/2)
			default:
				y = append(y, q.F1[i])
			}
			w = append(w, 1)
		}
	}
	p := rr.gb
	p.MaxBins = 64
	if rr.list {
		p.Groups = grp
	}
	if rr.drop != "" {
		p.Features = make([]bool, core.NumDense)
		for i := range p.Features {
			p.Features[i] = true
		}
		for _, d := range strings.Split(rr.drop, ",") {
			if d == "groups" {
				for i := len(core.DenseNames); i < core.NumDense; i++ {
					p.Features[i] = false
				}
			}
			if i := slices.Index(core.DenseNames, d); i >= 0 {
				p.Features[i] = false
			}
		}
	}
	return fitForest(rows, y, w, p)
}

// scoreRerank returns EM and F1 (in %) of the first group and of the
// forest's choice over qs.
func scoreRerank(f *core.Forest, qs []rquestion) (em0, f10, em1, f11 float64) {
	for _, q := range qs {
		if len(q.X) == 0 {
			continue
		}
		em0 += q.EM[0]
		f10 += q.F1[0]
		best, bs := 0, math.Inf(-1)
		for i, x := range q.X {
			if s := f.Predict(x); s > bs {
				best, bs = i, s
			}
		}
		em1 += q.EM[best]
		f11 += q.F1[best]
	}
	n := float64(max(len(qs), 1))
	orc := 0.0
	for _, q := range qs {
		orc += slices.Max(append([]float64{0}, q.EM...))
	}
	log.Printf("oracle EM of the %d groups: %.2f", rr.k, 100*orc/n)
	return 100 * em0 / n, 100 * f10 / n, 100 * em1 / n, 100 * f11 / n
}

func runRerank(m *core.Model, train []*example, devPath, modelPath, out string) error {
	var qs []rquestion
	if b, err := os.ReadFile(rr.rows); err == nil {
		if err := gob.NewDecoder(bytes.NewReader(b)).Decode(&qs); err != nil {
			return err
		}
		log.Printf("read %d questions' rows from %s", len(qs), rr.rows)
	} else {
		qs = crossFit(m, train)
		if rr.rows != "" {
			var b bytes.Buffer
			if err := gob.NewEncoder(&b).Encode(qs); err != nil {
				return err
			}
			if err := os.WriteFile(rr.rows, b.Bytes(), 0o644); err != nil {
				return err
			}
		}
	}
	for i := range qs {
		if len(qs[i].X) > rr.use {
			qs[i].X, qs[i].EM, qs[i].F1 = qs[i].X[:rr.use], qs[i].EM[:rr.use], qs[i].F1[:rr.use]
		}
	}
	// Held-out folds: the second stage trained on the other folds' rows.
	var s0, s1 [2]float64
	evalFolds := []int{9, 4, 1, 0, 2, 3}
	if rr.allFolds {
		evalFolds = evalFolds[:0]
		for k := range rr.folds {
			evalFolds = append(evalFolds, k)
		}
	}
	for _, k := range evalFolds {
		var tr, te []rquestion
		for _, q := range qs {
			if q.Fold == k {
				te = append(te, q)
			} else {
				tr = append(tr, q)
			}
		}
		f := fitRerank(tr)
		em0, f10, em1, f11 := scoreRerank(f, te)
		log.Printf("fold %d: first stage EM %.2f F1 %.2f; reranked EM %.2f F1 %.2f (%+.2f/%+.2f)", k, em0, f10, em1, f11, em1-em0, f11-f10)
		s0[0] += em0
		s0[1] += f10
		s1[0] += em1
		s1[1] += f11
	}
	nf := float64(len(evalFolds))
	log.Printf("%d-fold mean: first stage EM %.2f F1 %.2f; reranked EM %.2f F1 %.2f (%+.2f/%+.2f)",
		len(evalFolds), s0[0]/nf, s0[1]/nf, s1[0]/nf, s1[1]/nf, (s1[0]-s0[0])/nf, (s1[1]-s0[1])/nf)
	f := fitRerank(qs)
	if devPath != "" {
		sm, err := readModel(modelPath)
		if err != nil {
			return err
		}
		s, err := load(devPath)
		if err != nil {
			return err
		}
		dev := prepare(s, sm)
		var dq []rquestion
		for _, ex := range dev {
			dq = append(dq, questionRows(sm, ex, rr.k))
		}
		for i := range dq {
			if len(dq[i].X) > rr.use {
				dq[i].X, dq[i].EM, dq[i].F1 = dq[i].X[:rr.use], dq[i].EM[:rr.use], dq[i].F1[:rr.use]
			}
		}
		em0, f10, em1, f11 := scoreRerank(f, dq)
		log.Printf("dev (model %s): first stage EM %.2f F1 %.2f; reranked EM %.2f F1 %.2f (%+.2f/%+.2f)", modelPath, em0, f10, em1, f11, em1-em0, f11-f10)
	}
	fo, err := os.Create(out)
	if err != nil {
		return err
	}
	if err := f.Encode(fo); err != nil {
		return err
	}
	if err := fo.Close(); err != nil {
		return err
	}
	st, _ := os.Stat(out)
	log.Printf("wrote %s: %d trees, %d bytes", out, len(f.Trees), st.Size())
	return nil
}
