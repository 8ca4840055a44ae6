package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"hash/fnv"
	"log"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/textanalysis/go-textanalysis/internal/datafile"

	// sets lr.VaderOf
	_ "github.com/textanalysis/go-textanalysis/sentiment"
	"github.com/textanalysis/go-textanalysis/sentiment/internal/lr"
)

type record struct {
	ID     string `json:"id"`
	Text   string `json:"text"`
	Label2 string `json:"label2"`
	Label3 string `json:"label3"`
	Label5 *int   `json:"label5"`
	Kind   string `json:"kind"`
	Source string `json:"source"`
}

// example is one featurised text.
type example struct {
	sst  bool // from the SST phrases
	s140 bool // from Sentiment140
	// inFold has bit f set when the text is a token n-gram of an SST
	// record of fold f (SST records only, see sstFolds).
	inFold uint8
	fold   int8       // the SST record's own fold, -1 for the others
	polIdx int        // index in the polarity training examples, -1 if none
	zSubj  float64    // out-of-fold logit of the subjectivity head
	zPol   float64    // out-of-fold polarity logit (blended)
	cache  *lr.Scores // the final model's scores (predict3)
	zTok   float64    // out-of-fold logit of the SST-only head
	ntoks  int
	t      lr.Text
	tw     []uint32 // what the tweet heads read (see featurizeTweet)
	twDom  []uint32
	y      float64 // 1 positive (Pol) or polar (Subj)
	w      float64 // sample weight
	label3 string
}

func main() {
	// The model learns from words as written; misspelt words are read as
	// the words they misspell at run time only (see doc.go, "Spelling").
	lr.SetSpelling(nil)
	data := flag.String("data", "../shared/data/sentiment/train", "training data directory")
	dev := flag.String("dev", "", "dev data directory for a report (optional)")
	out := flag.String("out", "", "output model file (weights.bin.gz)")
	polBits := flag.Uint("pol-bits", 20, "log2 of the polarity head's hashed weights")
	subjBits := flag.Uint("subj-bits", 18, "log2 of the subjectivity head's hashed weights")
	epochs := flag.Int("epochs", 3, "passes over the data")
	eta := flag.Float64("eta", 0.2, "AdaGrad learning rate")
	l2 := flag.Float64("l2", 1e-7, "L2 penalty per update")
	seed := flag.Uint64("seed", 1, "shuffle seed")
	s140 := flag.Float64("s140", 0.1, "sample weight of Sentiment140 (noisy labels)")
	sstW := flag.Float64("sst", 4, "sample weight of SST sentences (phrases get half)")
	sstTok := flag.Bool("sst-tok", true, "treat every SST phrase as tokenised text (lr.Domain.Tok)")
	avg := flag.Int("avg", 1, "average the weights over the updates of the last N epochs (0: last weights)")
	nb := flag.Float64("nb", 1, "naive Bayes scaling of the polarity features (0: none)")
	nbAlpha := flag.Float64("nb-alpha", 1, "smoothing of the naive Bayes counts (weighted records) of the polarity features")
	ens := flag.Int("ens", 16, "polarity heads trained on different shuffles and averaged")
	tokBits := flag.Uint("tok-bits", 18, "log2 of the tokenised-text (SST-only) polarity head's hashed weights")
	blendMin := flag.Int("blend-min", 16, "fewest tokens of an SST phrase in the blend's training data")
	bandTol := flag.Float64("band-tol", 0.003, "macro-F1 the neutral band may cost on the held-out tweets")
	nFolds := flag.Int("folds", 2, "folds of the out-of-fold logits the blend is trained on (at most 8)")
	sstNeu := flag.Float64("sst-neu", 2, "sample weight of the neutral SST phrases relative to the polar ones, target 0.5 (0: left out)")
	neuMin := flag.Int("sst-neu-min", 6, "fewest tokens of a neutral SST phrase used")
	subjSST := flag.Float64("subj-sst", 1, "sample weight of the SST records (neutral: label5 2) in the subjectivity head's training (0: left out)")
	subjSSTMin := flag.Int("subj-sst-min", 3, "fewest tokens of an SST record used by the subjectivity head")
	subjNeu := flag.Float64("subj-neu", 1, "factor on the sample weight of the neutral records in the subjectivity head's training")
	subjNB := flag.Float64("subj-nb", 0, "naive Bayes scaling of the subjectivity head's features (0: none)")
	subjBlend := flag.Bool("subj-blend", false, "fit the subjectivity blend on out-of-fold logits (false: the head's logit alone)")
	subjBlendMin := flag.Int("subj-blend-min", 10, "fewest tokens of an SST record in the subjectivity blend's training data")
	polFrom := flag.String("pol-from", "", "take the polarity heads and blend from this model file instead of training them (experiments on the neutral decision only)")
	subjS140 := flag.Float64("subj-s140", 0, "sample weight of the Sentiment140 tweets, as polar, in the subjectivity head's training (0: left out)")
	blendS140 := flag.Float64("blend-s140", 1, "factor on the Sentiment140 sample weight (-s140) in the blend's training data")
	kappaFlag := flag.Float64("kappa", 0.8, "VADER compound from which a text whose polarity agrees with VADER's is never neutral (negative: chosen with the other thresholds; above 1: off)")
	bandFlag := flag.Float64("band", 0.2, "neutral band (see lr.IsNeutral; negative: chosen with the other thresholds)")
	tauMid := flag.Bool("tau-mid", true, "take the tau in the middle of the taus within -band-tol of the best (false: the best)")
	tweet := flag.Bool("tweet", true, "train the tweet heads (Dom, Neu) and TauTweet")
	tweetS140 := flag.Float64("tweet-s140", 0.2, "sample weight of the Sentiment140 tweets, as polar, in the Neu head's training")
	neuBits := flag.Uint("neu-bits", 20, "log2 of the Neu head's hashed weights")
	domBits := flag.Uint("dom-bits", 18, "log2 of the Dom head's hashed weights")
	tweetS140Words := flag.Bool("tweet-s140-words", true, "use only the Sentiment140 tweets in which VADER finds a sentiment word (|compound| >= 0.05), in the Neu head's training and in the choice of TauTweet: their label came from an emoticon that was removed, and the others may carry no sentiment")
	tweetBand := flag.Float64("tweet-band", 0.2, "BandTweet: as -band, for texts judged as tweets (negative: chosen with TauTweet)")
	tweetKappa := flag.Float64("tweet-kappa", 0.8, "KappaTweet: as -kappa, for texts judged as tweets")
	tweetEpochs := flag.Int("tweet-epochs", 4, "passes over the data of the tweet heads")
	tweetEta := flag.Float64("tweet-eta", 0.1, "AdaGrad learning rate of the tweet heads")
	treeFolds := flag.Bool("tree-folds", true, "split the SST records into folds by parse tree, leaving out of each fold's training every n-gram of its held-out records")
	flag.Parse()
	if *nFolds < 2 || *nFolds > 8 {
		log.Fatalf("-folds %d: want 2..8", *nFolds)
	}

	fz := newFeaturizer()
	var pol, subj, holdout, holdoutSST, holdoutRev []example
	rng := rand.New(rand.NewPCG(*seed, 7))
	// Sample weights per source: balance big noisy sets against small clean ones.
	for _, src := range []struct {
		file   string
		weight float64
		subj   bool
		tok    bool
	}{
		{"sst-phrases.jsonl.gz", *sstW, false, true},
		{"imdb.jsonl.gz", 1, false, false},
		{"semeval-tweets.jsonl.gz", 1, true, false},
		{"sentiment140.jsonl.gz", *s140, false, false},
		{"amazon-mds.jsonl.gz", 2, false, false},
	} {
		recs, err := readJSONL(filepath.Join(*data, src.file))
		if err != nil {
			log.Fatal(err)
		}
		exs := fz.featurize(recs, src.tok && *sstTok)
		var inFold []uint8
		var folds []int8
		if src.tok && *treeFolds {
			folds, inFold = sstFolds(recs, *nFolds)
		}
		for i, r := range recs {
			e := exs[i]
			e.polIdx = -1
			e.fold = -1
			if folds != nil {
				e.fold = folds[i]
			}
			w := src.weight
			if r.Kind == "phrase" {
				w *= 0.5
			}
			if src.file == "amazon-mds.jsonl.gz" && heldOut(r.ID) {
				re := e
				re.label3 = r.Label2
				holdoutRev = append(holdoutRev, re)
			}
			isHoldout := src.subj && heldOut(r.ID)
			if isHoldout {
				e.label3 = r.Label3
				holdout = append(holdout, e)
				continue
			}
			// Neutral SST phrases teach the heads that a span of plain
			// words carries no polarity, which sharpens their clause
			// logits on sentences; the short ones (single words) would
			// mostly blunt the word weights VADER-like texts rely on.
			neu := src.tok && *sstNeu > 0 && r.Label5 != nil && *r.Label5 == 2 && e.ntoks >= *neuMin
			if r.Label2 == "pos" || r.Label2 == "neg" || neu {
				pe := e
				pe.sst = src.tok
				pe.s140 = src.file == "sentiment140.jsonl.gz"
				pe.fold = -1
				if inFold != nil {
					pe.fold, pe.inFold = folds[i], inFold[i]
				}
				pe.y = b2f(r.Label2 == "pos")
				pe.w = w
				if neu {
					pe.y = 0.5
					pe.w *= *sstNeu
				}
				pol = append(pol, pe)
				e.polIdx = len(pol) - 1
			}
			if src.tok && r.Label5 != nil && (e.ntoks >= *subjSSTMin || heldOut(r.ID)) {
				se := e
				se.y = b2f(*r.Label5 != 2)
				if heldOut(r.ID) {
					// choose the neutral decision on these too
					se.label3 = map[int]string{0: "neg", 1: "neg", 2: "neu", 3: "pos", 4: "pos"}[*r.Label5]
					if r.Kind == "sentence" || e.ntoks >= 10 {
						holdoutSST = append(holdoutSST, se)
					}
				} else if *subjSST > 0 {
					se.sst = true
					se.w = *subjSST * w / src.weight
					if se.y == 0 {
						se.w *= *subjNeu
					}
					subj = append(subj, se)
				}
			}
			if src.file == "sentiment140.jsonl.gz" && *subjS140 > 0 {
				se := e
				se.y, se.w = 1, *subjS140
				subj = append(subj, se)
			}
			if src.subj && r.Label3 != "" {
				se := e
				se.y = b2f(r.Label3 != "neu")
				se.w = 1
				if se.y == 0 {
					se.w = *subjNeu
				}
				subj = append(subj, se)
			}
		}
		log.Printf("%s: %d records", src.file, len(recs))
	}
	m := &lr.Model{Pol: lr.NewHead(*polBits), Tok: lr.NewHead(*tokBits), Subj: lr.NewHead(*subjBits)}
	log.Printf("training polarity on %d, subjectivity on %d", len(pol), len(subj))
	// Stacking: the text models' out-of-fold logits train the blend with
	// VADER, so the blend sees the text models as they are on unseen text.
	st := stacker{folds: *nFolds, ens: *ens, epochs: *epochs, eta: *eta, l2: *l2, avg: *avg, nb: *nb, nbAlpha: *nbAlpha, seed: *seed}
	if *polFrom != "" {
		f, err := os.Open(*polFrom)
		if err != nil {
			log.Fatal(err)
		}
		pm, err := lr.Read(f)
		if err != nil {
			log.Fatal(err)
		}
		f.Close()
		m.Pol, m.Tok, m.Blend = pm.Pol, pm.Tok, pm.Blend
	} else {
		oof := st.fit(&m.Pol, pol, func(*example) bool { return true })
		oofTok := st.fit(&m.Tok, pol, func(e *example) bool { return e.sst })
		for i := range pol {
			pol[i].zTok = oofTok[i].Z
		}
		// The blend learns how far to trust each part on whole sentences, not
		// on the short SST phrases (where VADER's lexicon does well).
		var bl []example
		var blOOF []lr.Logits
		for i := range pol {
			if pol[i].y != 0.5 && (!pol[i].sst || pol[i].ntoks >= *blendMin) {
				e := pol[i]
				if e.s140 {
					e.w *= *blendS140
				}
				bl = append(bl, e)
				blOOF = append(blOOF, oof[i])
			}
		}
		log.Printf("blend on %d examples", len(bl))
		trainBlend(m, bl, blOOF, rng)
		log.Printf("blend %v", m.Blend)
		// the polarity logits the subjectivity blend learns from: out of
		// fold for the polarity heads' own training records
		for i := range subj {
			if k := subj[i].polIdx; k >= 0 {
				bf := lr.BlendFeatures(oof[k], pol[k].zTok, &pol[k].t)
				z := 0.0
				for j, x := range bf {
					z += float64(m.Blend[j]) * x
				}
				subj[i].zPol = z
			} else {
				subj[i].zPol = m.PolLogit(&subj[i].t)
			}
		}
	}
	if *polFrom != "" {
		// approximate: in-sample logits for the heads' training records
		for i := range subj {
			subj[i].zPol = m.PolLogit(&subj[i].t)
		}
	}
	// The subjectivity head has its own random stream, so that -pol-from
	// reproduces it.
	trainSubj := func(h *lr.Head, exs []example, rng *rand.Rand) {
		var r []float32
		if *subjNB > 0 {
			r = nbRatios(h.Bits, exs, 1, *subjNB)
		}
		trainNB(h, exs, r, *epochs, *eta, *l2, true, *avg, rng)
	}
	trainSubj(&m.Subj, subj, rand.New(rand.NewPCG(*seed, 8)))
	// Its out-of-fold logits (two folds, the SST records by parse tree)
	// train the subjectivity blend.
	m.SubjBlend[1] = 1 // the head's logit alone, without -subj-blend
	for fold := range 2 {
		if !*subjBlend {
			break
		}
		var in, out []int
		for i := range subj {
			f := i % 2
			if subj[i].fold >= 0 {
				f = int(subj[i].fold) % 2
			}
			if f == fold {
				out = append(out, i)
			} else {
				in = append(in, i)
			}
		}
		fh := lr.NewHead(*subjBits)
		trainSubj(&fh, pick(subj, in), rand.New(rand.NewPCG(*seed, 9+uint64(fold))))
		for _, i := range out {
			subj[i].zSubj = fh.Logit(subj[i].t.Hashes, &subj[i].t.Dense)
		}
	}
	// The blend learns on texts like those it judges: tweets and SST
	// records of -subj-blend-min tokens or more, not the short phrases.
	var sb []example
	for _, e := range subj {
		if !e.sst || e.ntoks >= *subjBlendMin {
			sb = append(sb, e)
		}
	}
	if *subjBlend {
		log.Printf("subjectivity blend on %d examples", len(sb))
		trainSubjBlend(m, sb, rand.New(rand.NewPCG(*seed, 11)))
	}
	log.Printf("subjectivity blend %v", m.SubjBlend)
	m.Tau, m.Band, m.Kappa = chooseNeutral(m, holdout, holdoutSST, holdoutRev, *bandTol, *kappaFlag, *bandFlag, *tauMid)
	log.Printf("tau %.2f band %.2f kappa %.2f (held-out macro-F1: SemEval %.3f on %d, SST %.3f on %d; reviews accuracy %.3f on %d)", m.Tau, m.Band, m.Kappa,
		macroF1(m, holdout, m.Tau, m.Band, m.Kappa), len(holdout), macroF1(m, holdoutSST, m.Tau, m.Band, m.Kappa), len(holdoutSST),
		accuracy(m, holdoutRev, m.Tau, m.Band, m.Kappa), len(holdoutRev))
	if *tweet {
		trainTweet(m, *data, tweetConfig{neuBits: *neuBits, domBits: *domBits, s140: *tweetS140, s140Words: *tweetS140Words, kappa: *tweetKappa, band: *tweetBand,
			tol: *bandTol, epochs: *tweetEpochs, eta: *tweetEta, l2: *l2, seed: *seed})
	}
	if *out != "" {
		f, err := os.Create(*out)
		if err != nil {
			log.Fatal(err)
		}
		if err := m.Write(f); err != nil {
			log.Fatal(err)
		}
		if err := f.Close(); err != nil {
			log.Fatal(err)
		}
		// Report on what was written (the weights are quantised).
		f, err = os.Open(*out)
		if err != nil {
			log.Fatal(err)
		}
		m, err = lr.Read(f)
		if err != nil {
			log.Fatal(err)
		}
		f.Close()
	}
	if *dev != "" {
		report(fz, m, *dev)
	}
}

// heldOut picks a tenth of the tweets, by id, to choose the neutral
// thresholds on; they train nothing.
func heldOut(id string) bool {
	h := fnv.New32a()
	h.Write([]byte(id))
	return h.Sum32()%10 == 0
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

func readJSONL(path string) ([]record, error) {
	f, err := datafile.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := bufio.NewScanner(f)
	r.Buffer(make([]byte, 1<<20), 16<<20)
	var recs []record
	for r.Scan() {
		var rec record
		if err := json.Unmarshal(r.Bytes(), &rec); err != nil {
			return nil, err
		}
		recs = append(recs, rec)
	}
	return recs, r.Err()
}

// featurizer computes the features exactly as the sentiment package does at
// run time (VADER with the hybrid's lexicon through lr.VaderOf, which
// package sentiment sets; tokens and hashes through lr).
type featurizer struct{}

func newFeaturizer() *featurizer {
	if lr.VaderOf == nil {
		log.Fatal("lr.VaderOf is not set: package sentiment is not linked in")
	}
	return &featurizer{}
}

// featurize computes the features of recs; tok marks them all as
// tokenised text (the SST phrases, most of which are too short to tell).
func (fz *featurizer) featurize(recs []record, tok bool) []example {
	return featurizeEach(recs, func(int) bool { return tok }, nil)
}

// featurizeEach computes, on two workers, the features package sentiment
// computes at run time for each record, tokenised(i) saying whether record
// i is tokenised text; then, if not nil, adds more to each example.
func featurizeEach(recs []record, tokenised func(i int) bool, then func(e *example, text string, toks []string)) []example {
	out := make([]example, len(recs))
	var wg sync.WaitGroup
	const workers = 2
	for k := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var toks []string
			for i := k; i < len(recs); i += workers {
				text := recs[i].Text
				toks = lr.Tokens(toks[:0], text)
				d := lr.DomainOf(text)
				if tokenised(i) {
					d.Tok = true
				}
				e := &out[i]
				lr.Featurize(&e.t, toks, lr.VaderOf(text), d)
				e.ntoks = len(toks)
				if then != nil {
					then(e, text, toks)
				}
			}
		}()
	}
	wg.Wait()
	return out
}

func pick(exs []example, idx []int) []example {
	out := make([]example, len(idx))
	for k, i := range idx {
		out[k] = exs[i]
	}
	return out
}

// trainBlend fits m.Blend on the blend features of the out-of-fold logits.
func trainBlend(m *lr.Model, exs []example, oof []lr.Logits, rng *rand.Rand) {
	w := fitDense(exs, lr.NumBlend, "blend", rng, func(dst []float64, i int, e *example) {
		f := lr.BlendFeatures(oof[i], e.zTok, &e.t)
		copy(dst, f[:])
	})
	for k := range w {
		m.Blend[k] = float32(w[k])
	}
}

// trainSubjBlend fits m.SubjBlend on the subjectivity blend features of
// the out-of-fold logits of exs.
func trainSubjBlend(m *lr.Model, exs []example, rng *rand.Rand) {
	w := fitDense(exs, lr.NumSubj, "subjectivity blend", rng, func(dst []float64, _ int, e *example) {
		f := lr.SubjFeatures(e.zSubj, e.zPol, &e.t)
		copy(dst, f[:])
	})
	for k := range w {
		m.SubjBlend[k] = float32(w[k])
	}
}

// fitDense fits a logistic regression over the dim dense features that
// feats writes into dst for exs[i]: AdaGrad (rate 0.05) for 6 epochs, the
// weights averaged over the updates of the last 3. Both blends use it.
func fitDense(exs []example, dim int, name string, rng *rand.Rand, feats func(dst []float64, i int, e *example)) []float64 {
	const epochs, averaged = 6, 3
	g2, sum, w := make([]float64, dim), make([]float64, dim), make([]float64, dim)
	f := make([]float64, dim)
	n := 0
	for ep := range epochs {
		loss := 0.0
		for _, i := range rng.Perm(len(exs)) {
			e := &exs[i]
			feats(f, i, e)
			s := 0.0
			for k, x := range f {
				s += w[k] * x
			}
			p := 1 / (1 + math.Exp(-s))
			loss -= e.w * (e.y*math.Log(p+1e-12) + (1-e.y)*math.Log(1-p+1e-12))
			g := e.w * (p - e.y)
			for k, x := range f {
				gk := g * x
				g2[k] += gk * gk
				w[k] -= 0.05 * gk / math.Sqrt(g2[k]+1e-8)
			}
			if ep >= epochs-averaged {
				for k := range w {
					sum[k] += w[k]
				}
				n++
			}
		}
		log.Printf("%s epoch %d: loss %.4f", name, ep+1, loss/float64(len(exs)))
	}
	for k := range sum {
		sum[k] /= float64(n)
	}
	return sum
}

// train fits a head with AdaGrad on the logistic loss. With avg the head
// ends with the average of its weights over all updates (averaged SGD,
// computed lazily: w̄ = w − u/c with u the sum of c·Δw).
func train(h *lr.Head, exs []example, epochs int, eta, l2 float64, useDense bool, avg int, rng *rand.Rand) {
	trainNB(h, exs, nil, epochs, eta, l2, useDense, avg, rng)
}

// nbRatios are the naive Bayes log-count ratios of the hashed features
// (Wang & Manning 2012), smoothed with alpha and shrunk by beta toward 1:
// r = 1 + beta·(log(p/|p|) − log(q/|q|)).
func nbRatios(bits uint, exs []example, alpha, beta float64) []float32 {
	mask := uint32(1<<bits - 1)
	p := make([]float64, 1<<bits)
	q := make([]float64, 1<<bits)
	for _, e := range exs {
		wp, wq := e.w*e.y, e.w*(1-e.y)
		for _, x := range e.t.Hashes {
			p[x&mask] += wp
			q[x&mask] += wq
		}
	}
	sp, sq := 0.0, 0.0
	for j := range p {
		p[j] += alpha
		q[j] += alpha
		sp += p[j]
		sq += q[j]
	}
	r := make([]float32, len(p))
	for j := range r {
		r[j] = float32(math.Abs(math.Log(p[j]/sp) - math.Log(q[j]/sq)))
		r[j] = float32(1 + beta*float64(r[j]))
	}
	return r
}

// trainNB is train with feature values r (nil: all 1); the returned head
// has r folded into its weights.
func trainNB(h *lr.Head, exs []example, r []float32, epochs int, eta, l2 float64, useDense bool, avg int, rng *rand.Rand) {
	if r == nil {
		r = make([]float32, len(h.W))
		for j := range r {
			r[j] = 1
		}
	}
	g2 := make([]float32, len(h.W))
	u := make([]float64, len(h.W))
	var gd, ud [lr.NumDense]float64
	var gb, ub float64
	c := 1.0
	mask := uint32(len(h.W) - 1)
	idx := make([]int, len(exs))
	for i := range idx {
		idx[i] = i
	}
	for ep := range epochs {
		rng.Shuffle(len(idx), func(i, j int) { idx[i], idx[j] = idx[j], idx[i] })
		loss := 0.0
		averaging := avg > 0 && ep >= epochs-avg
		for _, i := range idx {
			e := exs[i]
			if !useDense {
				e.t.Dense = [lr.NumDense]float64{}
			}
			z := logitNB(h, r, e.t.Hashes, &e.t.Dense)
			p := 1 / (1 + math.Exp(-z))
			loss -= e.w * (e.y*math.Log(p+1e-12) + (1-e.y)*math.Log(1-p+1e-12))
			g := e.w * (p - e.y)
			if len(e.t.Hashes) > 0 {
				v := g / math.Sqrt(float64(len(e.t.Hashes)))
				for _, x := range e.t.Hashes {
					j := x & mask
					gj := v*float64(r[j]) + l2*float64(h.W[j])
					g2[j] += float32(gj * gj)
					d := float32(eta * gj / math.Sqrt(float64(g2[j])+1e-8))
					h.W[j] -= d
					if averaging {
						u[j] -= c * float64(d)
					}
				}
			}
			for k, dv := range e.t.Dense {
				gk := g * dv
				gd[k] += gk * gk
				d := eta * gk / math.Sqrt(gd[k]+1e-8)
				h.Dense[k] -= float32(d)
				if averaging {
					ud[k] -= c * d
				}
			}
			gb += g * g
			d := eta * g / math.Sqrt(gb+1e-8)
			h.Bias -= float32(d)
			if averaging {
				ub -= c * d
				c++
			}
		}
		log.Printf("epoch %d: loss %.4f", ep+1, loss/float64(len(exs)))
	}
	if avg > 0 {
		for j := range h.W {
			h.W[j] -= float32(u[j] / c)
		}
		for k := range h.Dense {
			h.Dense[k] -= float32(ud[k] / c)
		}
		h.Bias -= float32(ub / c)
	}
	for j := range h.W {
		h.W[j] *= r[j]
	}
}

// trainEnsemble trains n polarity heads (no dense features) on different
// shuffles of exs, two at a time, and sets h to their average: the order
// of the updates moves a single head's accuracy by a point or more on
// sentence sets, the average much less.
func trainEnsemble(h *lr.Head, exs []example, r []float32, n, epochs int, eta, l2 float64, avg int, seed uint64) {
	heads := make([]lr.Head, n)
	var wg sync.WaitGroup
	sem := make(chan struct{}, 2)
	for k := range heads {
		heads[k] = lr.NewHead(h.Bits)
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			rng := rand.New(rand.NewPCG(seed, uint64(k)+100))
			trainNB(&heads[k], exs, r, epochs, eta, l2, false, avg, rng)
		}()
	}
	wg.Wait()
	inv := 1 / float32(n)
	for j := range h.W {
		s := float32(0)
		for k := range heads {
			s += heads[k].W[j]
		}
		h.W[j] = s * inv
	}
	h.Dense = [lr.NumDense]float32{}
	h.Bias = 0
	for k := range heads {
		for i := range h.Dense {
			h.Dense[i] += heads[k].Dense[i] * inv
		}
		h.Bias += heads[k].Bias * inv
	}
}

// stacker trains the polarity heads and their out-of-fold logits.
type stacker struct {
	folds, ens, epochs, avg int
	eta, l2, nb, nbAlpha    float64
	seed                    uint64
}

// fit trains h on the examples sel picks and returns, for every example,
// the logits of a head that did not see it (st.folds folds for the picked
// ones, h itself for the others), for the whole text and its parts. An SST
// record is held out with its whole parse tree, and its fold's head sees no
// n-gram of any held-out record: that is how the SST dev sentences stand to
// the training data (see sstFolds), so the blend learns how far to trust
// the heads on sentences whose phrases they never saw.
func (st *stacker) fit(h *lr.Head, exs []example, sel func(*example) bool) []lr.Logits {
	oof := make([]lr.Logits, len(exs))
	logits := func(h *lr.Head, i int) { oof[i] = h.Logits(&exs[i].t) }
	train := func(h *lr.Head, sub []example, seed uint64) {
		var r []float32
		if st.nb > 0 {
			r = nbRatios(h.Bits, sub, st.nbAlpha, st.nb)
		}
		trainEnsemble(h, sub, r, st.ens, st.epochs, st.eta, st.l2, st.avg, seed)
	}
	var all []int
	for i := range exs {
		if sel(&exs[i]) {
			all = append(all, i)
		}
	}
	for fold := range st.folds {
		var in, out []int
		for k, i := range all {
			e := &exs[i]
			switch {
			case e.fold == int8(fold) || e.fold < 0 && k%st.folds == fold:
				out = append(out, i)
			case e.inFold&(1<<fold) == 0:
				in = append(in, i)
			}
		}
		fh := lr.NewHead(h.Bits)
		train(&fh, pick(exs, in), st.seed+uint64(fold+1)*1000)
		for _, i := range out {
			logits(&fh, i)
		}
	}
	train(h, pick(exs, all), st.seed)
	for i := range exs {
		if !sel(&exs[i]) {
			logits(h, i)
		}
	}
	return oof
}

func logitNB(h *lr.Head, r []float32, hashes []uint32, dense *[lr.NumDense]float64) float64 {
	mask := uint32(len(h.W) - 1)
	s := 0.0
	for _, x := range hashes {
		s += float64(h.W[x&mask] * r[x&mask])
	}
	if len(hashes) > 0 {
		s /= math.Sqrt(float64(len(hashes)))
	}
	for i, d := range dense {
		s += float64(h.Dense[i]) * d
	}
	return s + float64(h.Bias)
}

func predict3(m *lr.Model, e *example, tau, band, kappa float64) string {
	if e.cache == nil {
		s := m.Predict(&e.t)
		e.cache = &s
	}
	s := *e.cache
	s.Neutral = lr.IsNeutral(s.PPos, s.PPolar, e.t.Dense[0], tau, band, kappa)
	switch {
	case s.Neutral:
		return "neu"
	case s.PPos >= 0.5:
		return "pos"
	}
	return "neg"
}

// accuracy is the share of exs whose 3-class prediction is their label3.
func accuracy(m *lr.Model, exs []example, tau, band, kappa float64) float64 {
	ok := 0
	for i := range exs {
		if predict3(m, &exs[i], tau, band, kappa) == exs[i].label3 {
			ok++
		}
	}
	return float64(ok) / float64(max(len(exs), 1))
}

// polarAccuracy is the share of the polar records of exs whose 3-class
// prediction is their label: binary accuracy where neutral counts as wrong.
func polarAccuracy(m *lr.Model, exs []example, tau, band, kappa float64) float64 {
	var polar []example
	for _, e := range exs {
		if e.label3 != "neu" {
			polar = append(polar, e)
		}
	}
	return accuracy(m, polar, tau, band, kappa)
}

func macroF1(m *lr.Model, exs []example, tau, band, kappa float64) float64 {
	pred := make([]string, len(exs))
	for i := range exs {
		pred[i] = predict3(m, &exs[i], tau, band, kappa)
	}
	return macroF1Of(exs, pred)
}

// chooseNeutral picks the neutral thresholds (see lr.IsNeutral) on
// held-out sets with neutral gold (tweets, SST sentences) and polar
// reviews: the best mean of their figures, and among the points within tol
// of it the narrowest band, then the lowest kappa (a text is called neutral
// for lack of sentiment, not for doubt). kappa ≥ 0 fixes kappa, band ≥ 0
// the band. With mid, tau is then the one within tol nearest the middle of
// the taus within tol: the objective is flat over a range of taus, and the
// middle of that range moves less with the seed than its best point.
func chooseNeutral(m *lr.Model, tweets, sst, reviews []example, tol, kappa, band float64, mid bool) (tau, bnd, kap float64) {
	type point struct{ tau, band, kappa, f float64 }
	kappas := []float64{kappa}
	if kappa < 0 {
		kappas = []float64{0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 2}
	}
	var pts []point
	bestF := -1.0
	for _, k := range kappas {
		for t := 5; t <= 80; t += 1 {
			for b := 0; b <= 100; b += 5 {
				p := point{float64(t) / 100, float64(b) / 100, k, 0}
				if band >= 0 {
					if b > 0 {
						break
					}
					p.band = band
				}
				p.f = (macroF1(m, tweets, p.tau, p.band, k) + polarAccuracy(m, tweets, p.tau, p.band, k) +
					macroF1(m, sst, p.tau, p.band, k) + polarAccuracy(m, sst, p.tau, p.band, k) +
					accuracy(m, reviews, p.tau, p.band, k)) / 5
				pts = append(pts, p)
				bestF = max(bestF, p.f)
			}
		}
	}
	best := point{band: 2, kappa: 3}
	for _, p := range pts {
		if p.f < bestF-tol {
			continue
		}
		if p.band < best.band || p.band == best.band && (p.kappa < best.kappa || p.kappa == best.kappa && p.f > best.f) {
			best = p
		}
	}
	// the taus within tol at the chosen band and kappa
	lo, hi := 2.0, -1.0
	for _, p := range pts {
		if p.f >= bestF-tol && p.band == best.band && p.kappa == best.kappa {
			lo, hi = min(lo, p.tau), max(hi, p.tau)
		}
	}
	if mid {
		c := (lo + hi) / 2
		for _, p := range pts {
			if p.f >= bestF-tol && p.band == best.band && p.kappa == best.kappa &&
				(math.Abs(p.tau-c) < math.Abs(best.tau-c)-1e-9 || math.Abs(math.Abs(p.tau-c)-math.Abs(best.tau-c)) <= 1e-9 && p.tau < best.tau) {
				best = p
			}
		}
	}
	log.Printf("neutral: best mean macro-F1 %.3f, chosen tau %.2f band %.2f kappa %.2f (%.3f); taus within tol %.2f–%.2f", bestF, best.tau, best.band, best.kappa, best.f, lo, hi)
	for t := 15; t <= 45; t += 2 {
		for _, p := range pts {
			if p.tau == float64(t)/100 && p.band == best.band && p.kappa == best.kappa {
				log.Printf("  tau %.2f: %.4f (SemEval macro-F1 %.3f)", p.tau, p.f, macroF1(m, tweets, p.tau, p.band, p.kappa))
			}
		}
	}
	return best.tau, best.band, best.kappa
}

func report(fz *featurizer, m *lr.Model, dir string) {
	sets := []string{"sst", "imdb", "tweeteval", "uci-sentences", "vader-tweets", "vader-amazon", "vader-nyt", "vader-movies"}
	var lines []string
	for _, s := range sets {
		recs, err := readJSONL(filepath.Join(dir, s, "dev.jsonl"))
		if err != nil {
			log.Fatal(err)
		}
		exs := fz.featurize(recs, false)
		n, ok, okHead, okTok, nTok := 0, 0, 0, 0, 0
		var zero [lr.NumDense]float64
		for i, r := range recs {
			exs[i].label3 = r.Label3
			if r.Label2 == "" {
				continue
			}
			n++
			if (m.Pol.Logit(exs[i].t.Hashes, &zero) >= 0) == (r.Label2 == "pos") {
				okHead++
			}
			if exs[i].t.Domain.Tok {
				nTok++
			}
			if (m.Tok.Logit(exs[i].t.Hashes, &zero) >= 0) == (r.Label2 == "pos") {
				okTok++
			}
			if (m.Predict(&exs[i].t).PPos >= 0.5) == (r.Label2 == "pos") {
				ok++
			}
		}
		line := fmt.Sprintf("%-14s binary %.3f (words alone %.3f, tokenised-text head %.3f, %.0f%% tokenised)", s,
			float64(ok)/float64(n), float64(okHead)/float64(n), float64(okTok)/float64(n), 100*float64(nTok)/float64(n))
		if s == "tweeteval" {
			line += fmt.Sprintf("  3-class macro-F1 %.3f", macroF1(m, exs, m.Tau, m.Band, m.Kappa))
		}
		lines = append(lines, line)
	}
	sort.Strings(lines)
	fmt.Println(strings.Join(lines, "\n"))
}

// sstFolds puts the SST records into k folds by parse tree and returns each
// record's fold and, as a bit set, the folds holding a record of which it is
// a token n-gram (its own included).
//
// The training data has no SST phrase that is an n-gram of an SST dev or
// test sentence, so a head scores a dev sentence without having seen any of
// its phrases; with folds by record, a held-out phrase's sub-phrases would
// mostly sit in the other fold, labelled, and the blend would learn to trust
// the heads more than they deserve on new sentences. The records do not say
// which tree they come from: a maximal record (one inside no longer record)
// stands for its tree, and every record goes with the first longest record
// that contains it.
func sstFolds(recs []record, k int) ([]int8, []uint8) {
	toks := make([][]string, len(recs))
	order := make([]int, len(recs))
	for i := range recs {
		toks[i] = strings.Fields(recs[i].Text)
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return len(toks[order[a]]) > len(toks[order[b]]) })
	// mask of the folds of the maximal records each n-gram lies in, and
	// the group of the first (longest) one
	type entry struct {
		mask  uint8
		group int32
	}
	grams := map[uint64]entry{}
	folds := make([]int8, len(recs))
	inFold := make([]uint8, len(recs))
	groups := int32(0)
	for _, i := range order {
		key := ngramKey(toks[i])
		if e, ok := grams[key]; ok {
			folds[i] = int8(e.group % int32(k))
			continue
		}
		g := groups
		groups++
		f := int8(g % int32(k))
		folds[i] = f
		t := toks[i]
		for a := range t {
			h := uint64(fnvOffset64)
			for b := a; b < len(t); b++ {
				h = ngramStep(h, t[b])
				e, ok := grams[h]
				if !ok {
					e.group = g
				}
				e.mask |= 1 << f
				grams[h] = e
			}
		}
	}
	for i := range recs {
		inFold[i] = grams[ngramKey(toks[i])].mask
	}
	log.Printf("sst: %d trees (maximal records) in %d folds", groups, k)
	return folds, inFold
}

const fnvOffset64, fnvPrime64 = 14695981039346656037, 1099511628211

// ngramStep extends the hash of a token sequence by one token.
func ngramStep(h uint64, tok string) uint64 {
	for i := 0; i < len(tok); i++ {
		h ^= uint64(tok[i])
		h *= fnvPrime64
	}
	h ^= ' '
	return h * fnvPrime64
}

func ngramKey(toks []string) uint64 {
	h := uint64(fnvOffset64)
	for _, t := range toks {
		h = ngramStep(h, t)
	}
	return h
}
