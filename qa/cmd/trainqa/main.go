package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"unicode"

	"github.com/textanalysis/go-textanalysis/internal/datafile"

	"github.com/textanalysis/go-textanalysis/qa/internal/core"
)

type squad struct {
	Data []struct {
		Title      string `json:"title"`
		Paragraphs []struct {
			Context string `json:"context"`
			QAs     []struct {
				ID       string `json:"id"`
				Question string `json:"question"`
				Answers  []struct {
					Text string `json:"text"`
				} `json:"answers"`
			} `json:"qas"`
		} `json:"paragraphs"`
	} `json:"data"`
}

type para struct {
	doc   *core.Doc
	cands []core.Cand
	ctx   []rune
}

type example struct {
	p     *para
	q     *core.Question
	gold  []string // normalised gold answers
	goodC []int    // indices of candidates that match a gold answer exactly
	// partial is set when goodC holds the candidates closest to the gold
	// answer (by F1) because none matches it exactly.
	partial bool
	f1      []float32 // each candidate's token F1 against the gold answers
	// feats holds the features of every candidate, those of candidate i
	// at feats[off[i]:off[i+1]], once cacheFeatures has run: they do not
	// change while the weights do, and computing them was most of the
	// training time.
	feats []uint32
	off   []int32
	// art is the index of the example's article in its file.
	art int
}

// cacheFeatures computes the features of every candidate of the examples
// that have none cached, on GOMAXPROCS goroutines. Each example's
// features are in the order Features gives them, so training reads the
// same lists as without the cache.
func cacheFeatures(m *core.Model, exs []*example) {
	jobs := make(chan *example)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ex := range jobs {
				c := core.NewCtx(ex.p.doc, ex.q, m.Weight)
				off := make([]int32, 1, len(ex.p.cands)+1)
				var f []uint32
				for _, cd := range ex.p.cands {
					f = c.Features(cd, f)
					off = append(off, int32(len(f)))
				}
				ex.feats, ex.off = slices.Clip(f), off
			}
		}()
	}
	for _, ex := range exs {
		if ex.off == nil {
			jobs <- ex
		}
	}
	close(jobs)
	wg.Wait()
}

// candFeatures returns the features of candidate i of ex, from the cache
// when there is one.
func (ex *example) candFeatures(c *core.Ctx, i int, buf []uint32) []uint32 {
	if ex.off != nil {
		return ex.feats[ex.off[i]:ex.off[i+1]]
	}
	return c.Features(ex.p.cands[i], buf)
}

// partialF1 is the least F1 of a candidate that stands in for a gold
// answer no candidate matches exactly; above 1 turns this off.
var partialF1 = 2.0

func load(path string) (*squad, error) {
	r, err := datafile.Open(path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	var s squad
	return &s, json.NewDecoder(r).Decode(&s)
}

func main() {
	trainPath := flag.String("train", "", "training file (SQuAD JSON, .gz allowed); several separated by commas")
	devPath := flag.String("dev", "", "file scored after each epoch (never trained on)")
	out := flag.String("out", "qa/model.bin.gz", "model file to write")
	epochs := flag.Int("epochs", 5, "passes over the training data")
	lr := flag.Float64("lr", 0.05, "AdaGrad learning rate")
	l2 := flag.Float64("l2", 0, "L2 penalty on the weights of each update (hurts: frequent features shrink most)")
	minDF := flag.Int("mindf", 2, "keep idf only for stems in at least this many paragraphs")
	prune := flag.String("prune", "0.05", "zero weights smaller than this in magnitude before saving (several, comma-separated, are tried in turn on -dev)")
	average := flag.Bool("average", true, "save the average of the weights over all updates")
	dump := flag.String("dump", "", "write the dev predictions with their gold answers to this file")
	flag.Float64Var(&partialF1, "partial", 2, "without an exact candidate, train towards the candidates with the best F1 if at least this (above 1: never)")
	minCount := flag.Int("mincount", 1, "train only features seen in at least this many training questions")
	grid := flag.String("grid", "", "try settings lr,l2;lr,l2;... on -dev and write no model")
	explainQ := flag.String("explain", "", "print why the model at -out ranks the candidates of this question over the text file -context as it does, and exit")
	explainC := flag.String("context", "", "text file for -explain")
	analyzeN := flag.Int("analyze", -1, "with -dev: print the misses of the model at -out by question type and class (no candidate, wrong sentence, wrong span) with this many examples of each, and exit")
	flag.Float64Var(&f1Loss, "f1loss", 0, "weight of a second loss: minus the expected token F1 of the answer under the softmax")
	flag.Float64Var(&spanLoss, "spanloss", 0, "weight of a second loss: the softmax over the candidates of the gold answer's sentence only (a span ranker inside the right sentence)")
	holdout := flag.Int("holdout", 0, "hold every Nth article of the first -train file out of training and score it like -dev, to choose settings without the dev file (0: none)")
	fold := flag.Int("fold", -1, "with -holdout N: hold out the articles whose index is this modulo N (-1: N-1), so that several folds give more held-out questions")
	analyzeShow := flag.String("analyze-types", "why,how", "question types whose misses -analyze shows")
	evalOnly := flag.Bool("evalonly", false, "score the model at -out on -dev (and write -dump) and the -holdout articles, and exit")
	rerankOut := flag.String("rerank", "", "cross-fit the first stage over -rerankfolds article folds of the first -train file, train the second stage on its out-of-fold best groups, score it on held-out folds and -dev (with the model at -out), and write it here")
	flag.IntVar(&rr.folds, "rerankfolds", 10, "article folds for -rerank")
	flag.IntVar(&rr.k, "rerankk", 10, "answer groups the second stage chooses among")
	flag.IntVar(&rr.use, "rerankuse", 10, "of the -rerankk groups, how many the second stage chooses among (so that cached rows serve smaller k)")
	flag.StringVar(&rr.rows, "rerankrows", "", "cache of the out-of-fold rows of -rerank: read when it exists, else written")
	flag.StringVar(&rr.foldCache, "rerankfoldcache", "", "cache of -rerank's first-stage fold models, files PREFIX-K.gob: read when they exist (they must come from the same first-stage flags and data), else written")
	flag.BoolVar(&rr.allFolds, "rallfolds", false, "score the second stage on every held-out fold, not six")
	flag.StringVar(&rr.extra, "rerankextra", "", "more SQuAD files, comma-separated, whose questions are second-stage training rows only (ranked by the fold models, which never saw them)")
	flag.IntVar(&rr.gb.Trees, "rtrees", 200, "trees of the second stage")
	flag.IntVar(&rr.gb.Depth, "rdepth", 3, "depth of the second stage's trees")
	flag.Float64Var(&rr.gb.Rate, "rrate", 0.05, "learning rate of the second stage")
	flag.Float64Var(&rr.gb.Lambda, "rlambda", 1, "L2 penalty on the second stage's leaves")
	flag.Float64Var(&rr.gb.MinHess, "rminhess", 5, "least hessian in a leaf of the second stage")
	flag.StringVar(&rr.label, "rlabel", "f1", "label of the second stage: f1 or em")
	flag.BoolVar(&rr.list, "rlist", false, "train the second stage with a listwise softmax loss over each question's groups")
	flag.StringVar(&rr.drop, "rdrop", "", "dense features the second stage may not split on, comma-separated")
	flag.IntVar(&seedBase, "seedbase", 0, "add this to the seeds of -seeds (to check a result on other data orders)")
	seeds := flag.Int("seeds", 1, "train this many runs over different orders of the training data (seeds 1..N, at most GOMAXPROCS at once) and save the average of their final weights")
	flag.BoolVar(&core.MannerPP, "mannerpp", false, "experiment: manner phrases (\"by train\") as candidates")
	shapeDense := flag.Bool("rshape", false, "experiment: give the second stage the dense features of core's shape (WordNet class of the head noun, edge words, entity label)")
	flag.Parse()
	if *shapeDense {
		core.EnableShapeDense()
	}
	if *explainQ != "" {
		if err := explain(os.Stdout, *out, *explainQ, *explainC); err != nil {
			log.Fatalf("trainqa: %v", err)
		}
		return
	}
	if *analyzeN >= 0 {
		m, err := readModel(*out)
		if err != nil {
			log.Fatalf("trainqa: %v", err)
		}
		s, err := load(*devPath)
		if err != nil {
			log.Fatalf("trainqa: %v", err)
		}
		analyze(os.Stdout, m, prepare(s, m), *analyzeN, *analyzeShow)
		return
	}
	if *trainPath == "" && !*evalOnly {
		log.Fatal("trainqa: -train is required")
	}
	m := core.NewModel()
	trainSets := loadList(*trainPath)
	var held *squad
	if *holdout > 0 && len(trainSets) > 0 {
		held = &squad{}
		// Only the first file is split, so that held-out figures stay
		// comparable when more files are added.
		for _, s := range trainSets[:1] {
			k := 0
			for i, a := range s.Data {
				if i%*holdout == (*fold+*holdout)%*holdout {
					held.Data = append(held.Data, a)
				} else {
					s.Data[k] = a
					k++
				}
			}
			s.Data = s.Data[:k]
		}
	}
	var train []*example
	if *evalOnly {
		var err error
		if m, err = readModel(*out); err != nil {
			log.Fatalf("trainqa: %v", err)
		}
	} else {
		buildIDF(m, trainSets, *minDF)
		for _, s := range trainSets {
			train = append(train, prepare(s, m)...)
		}
		log.Printf("train: %d questions; candidate ceiling %s", len(train), ceiling(train))
	}
	var dev []*example
	if held != nil {
		heldOut = prepare(held, m)
		log.Printf("held out: %d questions; candidate ceiling %s", len(heldOut), ceiling(heldOut))
	}
	if *devPath != "" {
		s, err := load(*devPath)
		if err != nil {
			log.Fatalf("trainqa: %v", err)
		}
		dev = prepare(s, m)
		log.Printf("dev: %d questions; candidate ceiling %s", len(dev), ceiling(dev))
	}

	if *evalOnly {
		if heldOut != nil {
			em, f1 := evaluate(m, heldOut)
			log.Printf("held out EM %.2f F1 %.2f", em, f1)
		}
		if dev != nil {
			dropEchoes = true
			em, f1 := evaluate(m, dev)
			log.Printf("dev (without echoes) EM %.2f F1 %.2f", em, f1)
			if *dump != "" {
				writeDump(*dump, m, dev)
			}
		}
		return
	}
	cacheFeatures(m, train)
	if *minCount > 1 {
		countFeatures(m, train, *minCount)
	}
	if *grid != "" {
		for _, cfg := range strings.Split(*grid, ";") {
			var glr, gl2 float64
			fmt.Sscanf(cfg, "%g,%g", &glr, &gl2)
			clear(m.W)
			log.Printf("grid lr=%g l2=%g", glr, gl2)
			fit(m, train, dev, 1, true, *epochs, glr, gl2, *average)
		}
		return
	}
	if *rerankOut != "" {
		rr.seeds, rr.epochs, rr.lr, rr.l2, rr.average, rr.prune = *seeds, *epochs, *lr, *l2, *average, *prune
		if err := runRerank(m, train, *devPath, *out, *rerankOut); err != nil {
			log.Fatalf("trainqa: %v", err)
		}
		return
	}
	fitSeeds(m, train, dev, *seeds, *epochs, *lr, *l2, *average)
	for _, ps := range strings.Split(*prune, ",") {
		var p float64
		if _, err := fmt.Sscanf(ps, "%g", &p); err != nil || p <= 0 {
			continue
		}
		nz := 0
		for k, w := range m.W {
			if math.Abs(float64(w)) < p {
				m.W[k] = 0
			} else if w != 0 {
				nz++
			}
		}
		msg := fmt.Sprintf("pruned below %g: %d weights left", p, nz)
		if heldOut != nil {
			em, f1 := evaluate(m, heldOut)
			msg += fmt.Sprintf("; held out EM %.2f F1 %.2f", em, f1)
		}
		if dev != nil {
			em, f1 := evaluate(m, dev)
			msg += fmt.Sprintf("; dev EM %.2f F1 %.2f", em, f1)
			dropEchoes = true
			em, f1 = evaluate(m, dev)
			dropEchoes = false
			msg += fmt.Sprintf("; without echoes EM %.2f F1 %.2f", em, f1)
		}
		log.Print(msg)
	}
	save(m, out)
	if *dump != "" && dev != nil {
		writeDump(*dump, m, dev)
	}
}

// writeDump writes, for each dev question, whether the reader's answer
// (echoes dropped, as package qa does) is exact, its score, the question
// and the answers, one line each.
func writeDump(path string, m *core.Model, dev []*example) {
	f, err := os.Create(path)
	if err != nil {
		log.Fatalf("trainqa: %v", err)
	}
	for _, ex := range dev {
		c := core.NewCtx(ex.p.doc, ex.q, m.Weight)
		ss, _ := m.Rank(context.Background(), c, ex.p.cands)
		best, sc, ok := core.Best(ex.p.doc, core.DropEchoes(ex.p.doc, ex.q, ss))
		pred := ""
		if ok {
			pred = spanText(ex.p, best.Cand)
		}
		em := 0
		for _, g := range ex.gold {
			if normalize(pred) == g {
				em = 1
			}
		}
		var qs []string
		for _, t := range ex.q.Toks {
			qs = append(qs, t.Text)
		}
		fmt.Fprintf(f, "%d\t%.3f\t%s\t%s\t%s\t%s\t%s\n", em, sc, ex.q.Wh, ex.q.Head, strings.Join(qs, " "), pred, strings.Join(ex.gold, " | "))
	}
	if err := f.Close(); err != nil {
		log.Fatalf("trainqa: %v", err)
	}
}

// fitSeeds trains seeds runs that differ only in the order the training
// questions are visited (the shuffles of seeds 1..seeds) and sets m's
// weights to the mean of their final weights. The runs share the idf
// table, which does not depend on the order, and run concurrently, at
// most GOMAXPROCS at a time; the mean is summed in seed order, so the
// result does not depend on scheduling. Only the first run reports its
// epochs. With one seed this is fit itself, as before the flag.
func fitSeeds(m *core.Model, train, dev []*example, seeds, epochs int, lr, l2 float64, average bool) {
	cacheFeatures(m, train)
	if seeds <= 1 {
		fit(m, train, dev, uint64(seedBase+1), true, epochs, lr, l2, average)
		return
	}
	runs := make([]*core.Model, seeds)
	slots := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for i := range runs {
		r := &core.Model{W: slices.Clone(m.W), IDF: m.IDF, MaxIDF: m.MaxIDF}
		runs[i] = r
		// Taking the slot before starting the run starts the runs in
		// seed order, the first (which reports, and so is slowest) first.
		slots <- struct{}{}
		wg.Add(1)
		go func(seed uint64) {
			defer wg.Done()
			defer func() { <-slots }()
			// Each run shuffles its own copy of the order.
			fit(r, slices.Clone(train), dev, seed, seed == 1, epochs, lr, l2, average)
			log.Printf("seed %d done", seed)
		}(uint64(seedBase + i + 1))
	}
	wg.Wait()
	for k := range m.W {
		sum := 0.0
		for _, r := range runs {
			sum += float64(r.W[k])
		}
		m.W[k] = float32(sum / float64(seeds))
	}
	log.Printf("averaged the final weights of %d runs", seeds)
}

// fit trains m by AdaGrad over train, shuffled before each epoch by a
// generator seeded with seed; report scores the held-out articles and dev
// after each epoch.
func fit(m *core.Model, train, dev []*example, seed uint64, report bool, epochs int, lr, l2 float64, average bool) {
	g2 := make([]float32, len(m.W))
	// Averaged weights: u accumulates t*delta so that the average of the
	// iterates is W - u/t at the end.
	u := make([]float32, len(m.W))
	t := float32(1)
	rng := rand.New(rand.NewPCG(seed, 2))
	buf := make([][]uint32, 0, 512)
	for ep := 0; ep < epochs; ep++ {
		rng.Shuffle(len(train), func(i, j int) { train[i], train[j] = train[j], train[i] })
		loss, n := 0.0, 0
		for _, ex := range train {
			if len(ex.goodC) == 0 {
				continue
			}
			var c *core.Ctx
			if ex.off == nil {
				c = core.NewCtx(ex.p.doc, ex.q, m.Weight)
			}
			buf = buf[:0]
			scores := make([]float64, len(ex.p.cands))
			mx := math.Inf(-1)
			for i := range ex.p.cands {
				f := ex.candFeatures(c, i, nil)
				buf = append(buf, f)
				scores[i] = m.Score(f)
				mx = math.Max(mx, scores[i])
			}
			z, zg := 0.0, 0.0
			for i := range scores {
				scores[i] = math.Exp(scores[i] - mx)
				z += scores[i]
			}
			isGood := make(map[int]bool, len(ex.goodC))
			for _, i := range ex.goodC {
				isGood[i] = true
				zg += scores[i]
			}
			loss -= math.Log(zg / z)
			n++
			t++
			// The gold sentence (of the first good candidate) and the
			// softmax inside it.
			gs := ex.p.doc.Toks[ex.p.cands[ex.goodC[0]].S].Sent
			zs := 0.0
			if spanLoss > 0 {
				for i, cd := range ex.p.cands {
					if ex.p.doc.Toks[cd.S].Sent == gs {
						zs += scores[i]
					}
				}
			}
			zgs := 0.0
			for _, i := range ex.goodC {
				if ex.p.doc.Toks[ex.p.cands[i].S].Sent == gs {
					zgs += scores[i]
				}
			}
			ef := 0.0
			if f1Loss > 0 {
				for i := range buf {
					ef += scores[i] / z * float64(ex.f1[i])
				}
			}
			for i, f := range buf {
				p := scores[i] / z
				g := p
				if isGood[i] {
					g -= scores[i] / zg
				}
				if f1Loss > 0 {
					// The gradient of -E[F1] under the softmax.
					g += f1Loss * p * (ef - float64(ex.f1[i]))
				}
				if spanLoss > 0 && ex.p.doc.Toks[ex.p.cands[i].S].Sent == gs {
					g += spanLoss * scores[i] / zs
					if isGood[i] {
						g -= spanLoss * scores[i] / zgs
					}
				}
				if math.Abs(g) < 1e-5 {
					continue
				}
				for _, k := range f {
					if allowed != nil && !allowed[k] {
						continue
					}
					g2[k] += float32(g * g)
					w := m.W[k]
					delta := -float32(lr*g)/float32(math.Sqrt(float64(g2[k]))+1e-6) - float32(l2)*w
					m.W[k] = w + delta
					u[k] += t * delta
				}
			}
		}
		msg := fmt.Sprintf("seed %d epoch %d: loss %.3f", seed, ep+1, loss/float64(max(n, 1)))
		if !report {
			log.Print(msg)
			continue
		}
		if heldOut != nil {
			avg := core.NewModel()
			avg.IDF, avg.MaxIDF = m.IDF, m.MaxIDF
			for k := range avg.W {
				avg.W[k] = m.W[k] - u[k]/t
			}
			em, f1 := evaluate(avg, heldOut)
			msg += fmt.Sprintf("; held out averaged EM %.2f F1 %.2f", em, f1)
		}
		if dev != nil {
			em, f1 := evaluate(m, dev)
			msg += fmt.Sprintf("; dev EM %.2f F1 %.2f", em, f1)
			avg := core.NewModel()
			avg.IDF, avg.MaxIDF = m.IDF, m.MaxIDF
			for k := range avg.W {
				avg.W[k] = m.W[k] - u[k]/t
			}
			em, f1 = evaluate(avg, dev)
			msg += fmt.Sprintf("; averaged EM %.2f F1 %.2f", em, f1)
		}
		log.Print(msg)
	}
	if average {
		for k := range m.W {
			m.W[k] -= u[k] / t
		}
	}
}

func save(m *core.Model, out *string) {
	f, err := os.Create(*out)
	if err != nil {
		log.Fatalf("trainqa: %v", err)
	}
	if err := m.Encode(f); err != nil {
		log.Fatalf("trainqa: %v", err)
	}
	if err := f.Close(); err != nil {
		log.Fatalf("trainqa: %v", err)
	}
	nz := 0
	for _, w := range m.W {
		if w != 0 {
			nz++
		}
	}
	st, _ := os.Stat(*out)
	log.Printf("wrote %s: %d bytes, %d non-zero weights, %d idf entries", *out, st.Size(), nz, len(m.IDF))
}

// buildIDF sets idf = log(N/df) over the training paragraphs.
func buildIDF(m *core.Model, sets []*squad, minDF int) {
	df := map[string]int{}
	n := 0
	for _, s := range sets {
		for _, a := range s.Data {
			for _, p := range a.Paragraphs {
				n++
				seen := map[string]bool{}
				for _, w := range strings.FieldsFunc(p.Context, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
					st := core.Stem(strings.ToLower(w))
					if !seen[st] {
						seen[st] = true
						df[st]++
					}
				}
			}
		}
	}
	for w, d := range df {
		if d >= minDF {
			m.IDF[w] = float32(math.Log(float64(n) / float64(d)))
		}
	}
	m.MaxIDF = float32(math.Log(float64(n) / float64(minDF-1+1)))
}

func prepare(s *squad, m *core.Model) []*example {
	jobs := make(chan int)
	var flat []struct {
		ctx  string
		qs   []string
		gold [][]string
		art  int
	}
	for ai, a := range s.Data {
		for _, p := range a.Paragraphs {
			e := struct {
				ctx  string
				qs   []string
				gold [][]string
				art  int
			}{ctx: p.Context, art: ai}
			for _, qa := range p.QAs {
				e.qs = append(e.qs, qa.Question)
				var g []string
				for _, an := range qa.Answers {
					g = append(g, normalize(an.Text))
				}
				e.gold = append(e.gold, g)
			}
			flat = append(flat, e)
		}
	}
	// Results are kept per paragraph so that the order, and so the
	// training run, does not depend on scheduling.
	byPara := make([][]*example, len(flat))
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				e := flat[i]
				d, err := core.NewDoc(e.ctx, 0)
				if err != nil {
					continue
				}
				p := &para{doc: d, cands: core.AllCandidates(d), ctx: []rune(e.ctx)}
				var local []*example
				for qi, qt := range e.qs {
					q, err := core.NewQuestion(qt, m.Weight)
					if err != nil {
						continue
					}
					ex := &example{p: p, q: q, gold: e.gold[qi], art: e.art}
					bestF, bestC := 0.0, []int(nil)
					ex.f1 = make([]float32, len(p.cands))
					for ci, c := range p.cands {
						t := normalize(spanText(p, c))
						f := 0.0
						for _, g := range ex.gold {
							if t == g {
								ex.goodC = append(ex.goodC, ci)
								ex.f1[ci] = 1
								break
							}
							f = math.Max(f, tokenF1(t, g))
						}
						if ex.f1[ci] == 0 {
							ex.f1[ci] = float32(f)
						}
						if f > bestF {
							bestF, bestC = f, bestC[:0]
						}
						if f == bestF && f > 0 {
							bestC = append(bestC, ci)
						}
					}
					// Without an exact candidate, the closest ones teach
					// at least the place of the answer.
					if len(ex.goodC) == 0 && bestF >= partialF1 {
						ex.goodC = bestC
						ex.partial = true
					}
					local = append(local, ex)
				}
				byPara[i] = local
			}
		}()
	}
	for i := range flat {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	var out []*example
	for _, l := range byPara {
		out = append(out, l...)
	}
	return out
}

func spanText(p *para, c core.Cand) string {
	s, e := p.doc.Toks[c.S].Start, p.doc.Toks[c.E-1].End
	return string(p.ctx[s:e])
}

func ceiling(exs []*example) string {
	em := 0
	for _, ex := range exs {
		if len(ex.goodC) > 0 && !ex.partial {
			em++
		}
	}
	nc := 0
	seen := map[*para]bool{}
	np := 0
	for _, ex := range exs {
		if !seen[ex.p] {
			seen[ex.p] = true
			nc += len(ex.p.cands)
			np++
		}
	}
	return fmt.Sprintf("EM %.1f, %.0f candidates per paragraph", 100*float64(em)/float64(max(len(exs), 1)), float64(nc)/float64(max(np, 1)))
}

var dropEchoes bool

// seedBase shifts the seeds of fitSeeds.
var seedBase int

// f1Loss weighs a second loss, the expected token F1 of the softmax's
// answer, negated.
var f1Loss float64

// spanLoss weighs the loss over the gold sentence's candidates alone.
var spanLoss float64

// heldOut holds the training articles kept out by -holdout.
var heldOut []*example

// allowed, when not nil, lists the features that may get a weight.
var allowed []bool

// countFeatures marks the features that occur in at least min training
// questions.
func countFeatures(m *core.Model, train []*example, min int) {
	cnt := make([]uint16, len(m.W))
	seen := make([]bool, len(m.W))
	var touched []uint32
	for _, ex := range train {
		var c *core.Ctx
		if ex.off == nil {
			c = core.NewCtx(ex.p.doc, ex.q, m.Weight)
		}
		var f []uint32
		for i := range ex.p.cands {
			f = ex.candFeatures(c, i, f[:0])
			for _, k := range f {
				if !seen[k] {
					seen[k] = true
					touched = append(touched, k)
				}
			}
		}
		for _, k := range touched {
			seen[k] = false
			if cnt[k] < 65535 {
				cnt[k]++
			}
		}
		touched = touched[:0]
	}
	allowed = make([]bool, len(m.W))
	n := 0
	for k, c := range cnt {
		if int(c) >= min {
			allowed[k] = true
			n++
		}
	}
	log.Printf("features in at least %d questions: %d", min, n)
}

func evaluate(m *core.Model, exs []*example) (em, f1 float64) {
	for _, ex := range exs {
		c := core.NewCtx(ex.p.doc, ex.q, m.Weight)
		ss, err := m.Rank(context.Background(), c, ex.p.cands)
		if err != nil {
			continue
		}
		if dropEchoes {
			ss = core.DropEchoes(ex.p.doc, ex.q, ss)
		}
		best, _, ok := core.Best(ex.p.doc, ss)
		if !ok {
			continue
		}
		bem, bf := scoreAnswer(normalize(spanText(ex.p, best.Cand)), ex.gold)
		em += bem
		f1 += bf
	}
	n := float64(max(len(exs), 1))
	return 100 * em / n, 100 * f1 / n
}

// normalize follows the SQuAD v1.1 answer normalisation: lower case, ASCII
// punctuation removed, articles removed, white space collapsed.
func normalize(s string) string {
	s = strings.ToLower(s)
	s = strings.Map(func(r rune) rune {
		if r < 128 && unicode.IsPunct(r) || r < 128 && unicode.IsSymbol(r) {
			return -1
		}
		return r
	}, s)
	var ws []string
	for _, w := range strings.Fields(s) {
		if w == "a" || w == "an" || w == "the" {
			continue
		}
		ws = append(ws, w)
	}
	return strings.Join(ws, " ")
}

func tokenF1(pred, gold string) float64 {
	p, g := strings.Fields(pred), strings.Fields(gold)
	if len(p) == 0 || len(g) == 0 {
		if len(p) == len(g) {
			return 1
		}
		return 0
	}
	cnt := map[string]int{}
	for _, w := range g {
		cnt[w]++
	}
	same := 0
	for _, w := range p {
		if cnt[w] > 0 {
			cnt[w]--
			same++
		}
	}
	if same == 0 {
		return 0
	}
	pr, rc := float64(same)/float64(len(p)), float64(same)/float64(len(g))
	return 2 * pr * rc / (pr + rc)
}

// scoreAnswer returns the exact match (0 or 1) and the best token F1 of a
// normalised answer against the normalised gold answers.
func scoreAnswer(pred string, gold []string) (em, f1 float64) {
	for _, g := range gold {
		if pred == g {
			em = 1
		}
		f1 = math.Max(f1, tokenF1(pred, g))
	}
	return em, f1
}

// loadList loads each file of a comma-separated list; the program ends on
// the first that cannot be read.
func loadList(list string) []*squad {
	var sets []*squad
	for _, p := range strings.Split(list, ",") {
		if p == "" {
			continue
		}
		s, err := load(p)
		if err != nil {
			log.Fatalf("trainqa: %v", err)
		}
		sets = append(sets, s)
	}
	return sets
}
