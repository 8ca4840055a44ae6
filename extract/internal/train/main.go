package main

import (
	"bytes"
	"context"
	"encoding/gob"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/textanalysis/go-textanalysis/internal/datafile"

	"github.com/textanalysis/go-textanalysis/extract"
	"github.com/textanalysis/go-textanalysis/extract/internal/blockmodel"
)

var _ = extract.FromHTML // extract's init sets blockmodel.View

// page is one gold page with its blocks.
type page struct {
	Set, ID, Type string
	Gold          string
	With, Without []string
	Title         string
	Texts         []string
	X             [][]float32
	RuleText      string
}

type goldItem struct {
	ArticleBody *string  `json:"articleBody"`
	PageType    string   `json:"page_type"`
	With        []string `json:"with"`
	Without     []string `json:"without"`
}

func loadSet(dir, name string) ([]*page, []string, error) {
	b, err := os.ReadFile(filepath.Join(dir, "ground-truth.json"))
	if err != nil {
		return nil, nil, err
	}
	var gold map[string]goldItem
	if err := json.Unmarshal(b, &gold); err != nil {
		return nil, nil, err
	}
	ids := make([]string, 0, len(gold))
	for id := range gold {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	pages := make([]*page, len(ids))
	var names []string
	var mu sync.Mutex
	var firstErr error
	sem := make(chan struct{}, 2)
	var wg sync.WaitGroup
	for i, id := range ids {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			g := gold[id]
			raw, err := readGz(filepath.Join(dir, "html", id+".html.gz"))
			if err != nil {
				mu.Lock()
				firstErr = err
				mu.Unlock()
				return
			}
			v, err := blockmodel.View(context.Background(), raw)
			if err != nil {
				log.Printf("%s/%s: %v", name, id, err)
				v = &blockmodel.PageView{}
			}
			p := &page{Set: name, ID: id, Type: g.PageType, With: g.With, Without: g.Without, Title: v.Title, RuleText: v.RuleText}
			if g.ArticleBody != nil {
				p.Gold = *g.ArticleBody
			}
			for _, bl := range v.Blocks {
				p.Texts = append(p.Texts, bl.Text)
				p.X = append(p.X, bl.Features)
			}
			mu.Lock()
			if v.Features != nil {
				names = v.Features
			}
			mu.Unlock()
			pages[i] = p
		}()
	}
	wg.Wait()
	return pages, names, firstErr
}

func readGz(path string) ([]byte, error) {
	r, err := datafile.Open(path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return io.ReadAll(r)
}

type corpus struct {
	Names []string
	Sets  map[string][]*page
}

func load(dataDir, cache string) (*corpus, error) {
	if cache != "" {
		if b, err := os.ReadFile(cache); err == nil {
			var c corpus
			if err := gob.NewDecoder(bytes.NewReader(b)).Decode(&c); err == nil {
				log.Printf("features from %s", cache)
				return &c, nil
			}
		}
	}
	c := &corpus{Sets: map[string][]*page{}}
	for _, s := range []string{"wcxb", "readability", "scrapinghub", "trafilatura"} {
		ps, names, err := loadSet(filepath.Join(dataDir, s), s)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", s, err)
		}
		c.Sets[s] = ps
		if names != nil {
			c.Names = names
		}
		log.Printf("%s: %d pages", s, len(ps))
	}
	if cache != "" {
		var buf bytes.Buffer
		if err := gob.NewEncoder(&buf).Encode(c); err != nil {
			return nil, err
		}
		if err := os.WriteFile(cache, buf.Bytes(), 0o644); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// labels returns, per block, the share of its word trigrams (bigrams,
// words for shorter blocks) found in the gold text, and its weight: its
// share of the page's tokens, so that each page weighs the same, as in
// the metric.
func labels(p *page) (y, w []float64) {
	gt := lower(tokenize(p.Gold))
	sets := [3]map[string]bool{{}, {}, {}}
	for n := 1; n <= 3; n++ {
		for i := 0; i+n <= len(gt); i++ {
			sets[n-1][strings.Join(gt[i:i+n], " ")] = true
		}
	}
	toks := make([][]string, len(p.Texts))
	total := 0
	for i, t := range p.Texts {
		toks[i] = lower(tokenize(t))
		total += len(toks[i])
	}
	y = make([]float64, len(p.Texts))
	w = make([]float64, len(p.Texts))
	if total == 0 {
		return
	}
	for i, bt := range toks {
		n := min(3, len(bt))
		if n == 0 {
			continue
		}
		hit, all := 0, 0
		for j := 0; j+n <= len(bt); j++ {
			all++
			if sets[n-1][strings.Join(bt[j:j+n], " ")] {
				hit++
			}
		}
		y[i] = float64(hit) / float64(all)
		w[i] = float64(len(bt)) / float64(total)
	}
	return
}

func lower(ts []string) []string {
	for i, t := range ts {
		ts[i] = strings.ToLower(t)
	}
	return ts
}

func main() {
	dataDir := flag.String("data", "../shared/data/extract", "folder of the gold sets (wcxb, readability, scrapinghub, trafilatura)")
	out := flag.String("out", "extract/internal/blockmodel/model.json", "where to write the model (empty: do not write); a NAME.json also gets NAME.bin, the form extraction embeds")
	cache := flag.String("cache", "", "cache the page features in this file (delete it when the features change)")
	folds := flag.Int("folds", 5, "cross-validation folds over the wcxb pages")
	trees := flag.Int("trees", 200, "trees")
	depth := flag.Int("depth", 4, "tree depth")
	lr := flag.Float64("lr", 0.1, "learning rate")
	rweight := flag.Float64("readability-weight", 0.3, "weight of a readability page (its gold is Readability.js's output) against a wcxb page")
	seed := flag.Uint64("seed", 1, "random seed (row subsampling)")
	bag := flag.Int("bag", 1, "average this many block models, fitted with seeds -seed, -seed+1, … (see fitBag)")
	skipCV := flag.Bool("skip-cv", false, "train the final model only")
	addT := flag.Float64("add", 0.35, "threshold for the blocks the rules left out")
	dropT := flag.Float64("drop", 0.35, "threshold for the blocks the rules kept (default: chosen by cross-validation)")
	artTauF := flag.Float64("article-tau", 0.1, "article probability from which a page counts as an article")
	artAddF := flag.Float64("article-add", 0.8, "on an article page, threshold for the blocks the rules left out")
	vetoDroppedF := flag.Bool("veto-dropped", false, "on article pages, never add a block the rules dropped for its class or element")
	vetoCommentsF := flag.Bool("article-veto-comments", false, "on article pages, never add a block inside a comment section (cls_comment)")
	vetoF := flag.Bool("veto", true, "never add a block the rules' text filters name as furniture, or the page's title")
	gridTypes := flag.Bool("grid-types", false, "with -grid, print the per-type CV table of every grid point")
	artTauHiF := flag.Float64("article-tau-hi", 0, "above -article-tau: the add threshold ramps from -add to -article-add between the two article probabilities")
	nonArtDropF := flag.Float64("non-article-drop", 0, "with -article-tau-hi: the drop threshold at article probability -article-tau and below (ramping to -drop)")
	dump := flag.String("dump", "", "write per page (JSON lines) its page-type probabilities and its scores under fixed add/drop thresholds, to study decoding")
	dumpBlocks := flag.String("dump-blocks", "", "write per page (JSON lines) its gold, and per block its text, probability and decoding features, to study decoding")
	zero := flag.String("zero", "", "comma-separated features to set to zero on every block (ablation)")
	typesRd := flag.Bool("types-readability", false, "train the page-type models on the readability pages too, as articles")
	grid := flag.Bool("grid", false, "print scores over a grid of the two thresholds (adding a block the rules left out, dropping one they kept)")
	stackF := flag.Bool("stack", false, "measure the stacked second stage (nested cross-validation; see stack.go)")
	stackTrees := flag.Int("stack-trees", 100, "with -stack: the second stage's trees")
	stackInner := flag.Int("stack-inner", 4, "with -stack: inner cross-validation folds (over each outer fold's training pages)")
	diag := flag.String("diag", "", "print, for the pages of this set, the blocks where the model and the rules disagree")
	typeDecodeF := flag.Bool("type-decode", false, "choose thresholds per predicted page type (typedecode.go) and ship them")
	flag.BoolVar(&typeVetoDropped, "type-veto-dropped", false, "with -type-decode: never add a block the rules dropped for its class or element")
	flag.BoolVar(&typeFilter, "type-filter", false, "with -type-decode: never add a block the rules' single-block filter drops")
	typeDecodeTypes := flag.String("type-decode-types", "collection,documentation,forum,listing,product,service", "with -type-decode: the predicted types that get their own thresholds")
	typeDropGrid := flag.String("type-drop-grid", "", "with -type-decode: comma-separated drop thresholds to choose from (empty: -drop only; the add threshold is always chosen)")
	rdFolds := flag.Bool("readability-folds", false, "fold the readability pages too (their out-of-fold probabilities count in -type-decode's choice, weighted by -type-readability-weight)")
	rdMu := flag.Float64("type-readability-weight", 1, "with -type-decode and -readability-folds: weight of the readability pages' F1 beside wcxb's in choosing the thresholds")
	flag.Float64Var(&typeRuleChars, "type-rule-chars", 0, "with -type-decode: per-type thresholds only on pages where the rules kept fewer characters (0: all pages)")
	typeGateTypes := flag.String("type-gate-types", "", "with -type-decode: comma-separated page types that get a gate on their probability (chosen by cross-validation; see typedecode.go)")
	flag.Float64Var(&shortRuleChars, "short-rule-chars", 0, "with -type-decode: on pages where the rules kept fewer characters (and no per-type threshold or type gate applies), an add threshold of its own in place of the article gate's, chosen by cross-validation")
	oofCache := flag.String("oof-cache", "", "keep the out-of-fold block probabilities in this file (delete it when features or training flags change)")
	flag.Parse()
	log.SetFlags(0)

	c, err := load(*dataDir, *cache)
	if err != nil {
		log.Fatal(err)
	}
	vetoComments = *vetoCommentsF
	for _, name := range strings.Split(*zero, ",") {
		if name == "" {
			continue
		}
		f := slices.Index(c.Names, name)
		if f < 0 {
			log.Fatalf("-zero: no feature %q", name)
		}
		for _, ps := range c.Sets {
			for _, pg := range ps {
				for _, x := range pg.X {
					x[f] = 0
				}
			}
		}
	}
	p := params{trees: *trees, depth: *depth, lr: *lr, lambda: 1e-3, minHess: 1e-4, subsample: 0.7, seed: *seed}
	wc, rd := c.Sets["wcxb"], c.Sets["readability"]
	for i, n := range c.Names {
		switch n {
		case "page_log_chars":
			idxPageLog = i
		case "page_rule_share":
			idxPageRule = i
		case "rule_filter":
			idxFilter = i
		case "dropped":
			idxDropped = i
		case "cls_comment":
			idxComment = i
		case "boilerplate_line":
			idxBP = i
		case "call_to_action":
			idxCTA = i
		case "picture_credit":
			idxPC = i
		case "same_title":
			idxTitle = i
		case "rule_window10":
			idxWin10 = i
		case "in_top":
			idxTop = i
		case "log_chars":
			idxChars = i
		case "heading_level":
			idxHeading = i
		}
	}

	var edges [][]float32

	build := func(train []*page) *data {
		var rows [][]float32
		var ys, ws []float64
		var keys []uint64
		for _, pg := range train {
			y, w := labels(pg)
			for i := range pg.X {
				keys = append(keys, rowKey(pg, i))
			}
			f := 1.0
			if pg.Set == "readability" {
				f = *rweight
			}
			for i := range w {
				w[i] *= f
			}
			rows = append(rows, pg.X...)
			ys = append(ys, y...)
			ws = append(ws, w...)
		}
		return newData(rows, ys, ws, keys, edges)
	}

	// Cross-validation: out-of-fold probabilities for every wcxb page.
	oof := make([][]float64, len(wc))
	nBase = slices.Index(c.Names, "type_article")
	var pv [][]float32
	for _, pg := range wc {
		pv = append(pv, pageVec(pg))
	}
	pageEdges := makeEdges(pv, len(pv[0]))
	pageNames := make([]string, len(pv[0]))
	for i := range pageNames {
		pageNames[i] = fmt.Sprintf("p%d", i)
	}
	// Page types first: out-of-fold probabilities for the wcxb pages, the
	// final type models' for the others; they become block features.
	typeOOF := make([][]float64, len(wc))
	// With -types-readability the readability pages train the page-type
	// models as articles (by the same folds, so that their type features
	// are out-of-fold too).
	var typeRd []*page
	if *typesRd {
		typeRd = rd
	}
	rdOOF := make([][]float64, len(typeRd))
	for k := 0; k < *folds; k++ {
		var train []*page
		for i, pg := range wc {
			if i%*folds != k {
				train = append(train, pg)
			}
		}
		for i, pg := range typeRd {
			if i%*folds != k {
				train = append(train, pg)
			}
		}
		tm := fitTypes(train, pageEdges, pageNames, p.seed)
		for i, pg := range wc {
			if i%*folds == k {
				typeOOF[i] = typeProbs(tm, pg)
			}
		}
		for i, pg := range typeRd {
			if i%*folds == k {
				rdOOF[i] = typeProbs(tm, pg)
			}
		}
	}
	tmFinal := fitTypes(append(slices.Clone(wc), typeRd...), pageEdges, pageNames, p.seed)
	right := 0
	for i, pg := range wc {
		setTypes(pg, typeOOF[i])
		artProb[pg] = typeOOF[i][0]
		typeP[pg] = typeOOF[i]
		if pageTypes[slices.Index(typeOOF[i], slices.Max(typeOOF[i]))] == pg.Type {
			right++
		}
	}
	for i, pg := range typeRd {
		setTypes(pg, rdOOF[i])
		artProb[pg] = rdOOF[i][0]
		typeP[pg] = rdOOF[i]
	}
	fmt.Printf("page type, cross-validated: %d of %d right\n", right, len(wc))
	for _, s := range []string{"readability", "scrapinghub", "trafilatura"} {
		if s == "readability" && *typesRd {
			continue
		}
		for _, pg := range c.Sets[s] {
			tp := typeProbs(tmFinal, pg)
			setTypes(pg, tp)
			artProb[pg] = tp[0]
			typeP[pg] = tp
		}
	}
	// All rows, for the bin edges (no labels involved), once the page
	// types are in.
	var all [][]float32
	for _, ps := range [][]*page{wc, rd} {
		for _, pg := range ps {
			all = append(all, pg.X...)
		}
	}
	edges = makeEdges(all, len(c.Names))
	// With -readability-folds the readability pages are folded too (by
	// index, as the wcxb pages), so that they get out-of-fold
	// probabilities for choosing the per-type decoding.
	var rdOOFProbs [][]float64
	var cached [][]float64
	oofLoaded := *oofCache != "" && readOOF(*oofCache, &cached) == nil &&
		(len(cached) == len(wc) && !*rdFolds || len(cached) == len(wc)+len(rd) && *rdFolds)
	if oofLoaded {
		oof = cached[:len(wc)]
		if *rdFolds {
			rdOOFProbs = cached[len(wc):]
		}
		log.Printf("out-of-fold probabilities from %s", *oofCache)
	}
	if !*skipCV {
		if *rdFolds && !oofLoaded {
			rdOOFProbs = make([][]float64, len(rd))
		}
		for k := 0; k < *folds && !oofLoaded; k++ {
			var train []*page
			for i, pg := range wc {
				if i%*folds != k {
					train = append(train, pg)
				}
			}
			for i, pg := range rd {
				if !*rdFolds || i%*folds != k {
					train = append(train, pg)
				}
			}
			m := fitBag(build(train), p, c.Names, *bag)
			for i, pg := range wc {
				if i%*folds == k {
					oof[i] = probs(m, pg)
				}
			}
			for i, pg := range rd {
				if *rdFolds && i%*folds == k {
					rdOOFProbs[i] = probs(m, pg)
				}
			}
			log.Printf("fold %d done", k+1)
		}
		if *oofCache != "" && !oofLoaded {
			if err := writeOOF(*oofCache, append(slices.Clone(oof), rdOOFProbs...)); err != nil {
				log.Fatal(err)
			}
		}
		best, bestF := 0.5, -1.0
		for t := 0.2; t <= 0.71; t += 0.05 {
			f, pr, r := scoreSet(wc, oof, t)
			log.Printf("cv threshold %.2f: F1 %.4f (P %.4f R %.4f)", t, f, pr, r)
			if f > bestF {
				best, bestF = t, f
			}
		}
		fmt.Printf("cross-validated (%d folds by page) on wcxb, one threshold %.2f:\n", *folds, best)
		report(wc, oof, best)
		tAdd, artTau, artAdd, veto, vetoDropped = *addT, *artTauF, *artAddF, *vetoF, *vetoDroppedF
		rampLo, rampHi, rampDrop = *artTauF, *artTauHiF, *nonArtDropF
		fmt.Printf("cross-validated (%d folds by page) on wcxb, as configured (drop %.2f add %.2f article-tau %.2f article-add %.2f veto %v):\n",
			*folds, *dropT, *addT, *artTauF, *artAddF, *vetoF)
		report(wc, oof, *dropT)
		if *typeDecodeF {
			if err := setTypeDecodeGrid(*typeDecodeTypes, *typeDropGrid, *dropT); err != nil {
				log.Fatal(err)
			}
			var rdPages []*page
			if *rdFolds {
				rdPages = rd
			}
			var fd, fa [][]float64
			typeDrop, typeAdd, fd, fa = chooseTypeDecoding(wc, oof, rdPages, rdOOFProbs, *rdMu, *folds, *dropT)
			if *typeGateTypes != "" || shortRuleChars > 0 {
				typeGate, typeGateAdd, shortAdd, err = chooseTypeGates(wc, oof, *typeGateTypes, *folds, *dropT, typeDrop, typeAdd, fd, fa)
				if err != nil {
					log.Fatal(err)
				}
			}
		}
		tAdd, artAdd, veto = 0, 0, false
		rampLo, rampHi, rampDrop = 0, 0, 0
		p.threshold = best
	}
	m := fitBag(build(append(slices.Clone(wc), rd...)), p, c.Names, *bag)
	m.Threshold = p.threshold
	m.Types = pageTypes
	m.TypeModels = tmFinal
	m.Threshold, m.AddThreshold, m.ArticleTau, m.ArticleAdd, m.AddVeto = *dropT, *addT, *artTauF, *artAddF, *vetoF
	m.ArticleVetoDropped = *vetoDroppedF
	m.ArticleVetoComments = *vetoCommentsF
	m.ArticleTauHi, m.NonArticleDrop = *artTauHiF, *nonArtDropF
	if *typeDecodeF && typeDrop != nil {
		m.TypeDrop, m.TypeAdd, m.TypeRuleChars = typeDrop, typeAdd, typeRuleChars
		if slices.ContainsFunc(typeGate, func(g float64) bool { return g > 0 }) {
			m.TypeGate, m.TypeGateAdd = typeGate, typeGateAdd
		}
		if shortAdd > 0 {
			m.ShortRuleChars, m.ShortAdd = shortRuleChars, shortAdd
		}
	}
	if m.Threshold == 0 {
		m.Threshold = 0.5
	}
	m.Note = fmt.Sprintf("extract/internal/train: wcxb dev (%d pages) + readability (%d pages, weight %.2f); %d trees depth %d lr %.2f subsample %.1f seed %d%s; threshold by %d-fold CV on wcxb",
		len(wc), len(rd), *rweight, p.trees, p.depth, p.lr, p.subsample, p.seed, bagNote(*bag), *folds)
	m.Note += fmt.Sprintf("; decoding -drop %.2f -add %.2f -article-tau %.2f -article-tau-hi %.2f -article-add %.2f -non-article-drop %.2f -veto=%v -veto-dropped=%v -article-veto-comments=%v; -types-readability=%v",
		*dropT, *addT, *artTauF, *artTauHiF, *artAddF, *nonArtDropF, *vetoF, *vetoDroppedF, *vetoCommentsF, *typesRd)
	if *typeDecodeF && typeDrop != nil {
		m.Note += fmt.Sprintf("; -type-decode (types %s, drop grid %q, -type-rule-chars %g): per predicted type drop %v add %v", *typeDecodeTypes, *typeDropGrid, typeRuleChars, typeDrop, typeAdd)
		if m.TypeGate != nil {
			m.Note += fmt.Sprintf("; -type-gate-types %s: gates from %v add %v", *typeGateTypes, m.TypeGate, m.TypeGateAdd)
		}
		if m.ShortAdd > 0 {
			m.Note += fmt.Sprintf("; -short-rule-chars %g: add %g", m.ShortRuleChars, m.ShortAdd)
		}
	}
	if *grid {
		sh, tr := c.Sets["scrapinghub"], c.Sets["trafilatura"]
		shp := make([][]float64, len(sh))
		for i, pg := range sh {
			shp[i] = probs(m, pg)
		}
		trp := make([][]float64, len(tr))
		for i, pg := range tr {
			trp[i] = probs(m, pg)
		}
		printArtQuantiles(wc, sh, tr)
		type gp struct{ lo, hi, drop, add, artAdd, dropLo float64 }
		var gps []gp
		gps = append(gps, gp{*artTauF, *artTauF, *dropT, *addT, *artAddF, 0})
		for _, lo := range []float64{0.1, 0.2, 0.3, 0.4, 0.5} {
			for _, w := range []float64{0, 0.2, 0.4} {
				for _, add := range []float64{0.3, 0.35} {
					for _, dropLo := range []float64{0, 0.3} {
						gps = append(gps, gp{lo, lo + w, *dropT, add, *artAddF, dropLo})
					}
				}
			}
		}
		for _, g := range gps {
			tAdd, artTau, artAdd, veto, vetoDropped = g.add, g.lo, g.artAdd, *vetoF, *vetoDroppedF
			rampLo, rampHi, rampDrop = g.lo, g.hi, g.dropLo
			f, pp, r := scoreSet(wc, oof, g.drop)
			f2, _, _ := scoreSet(sh, shp, g.drop)
			var cnt [4]int
			for i, pg := range tr {
				a, b, cc, d := snippetCounts(pg.With, pg.Without, chosenText(pg, trp[i], g.drop))
				cnt[0], cnt[1], cnt[2], cnt[3] = cnt[0]+a, cnt[1]+b, cnt[2]+cc, cnt[3]+d
			}
			f3 := 2 * float64(cnt[0]) / float64(2*cnt[0]+cnt[1]+cnt[2])
			fmt.Printf("grid article ramp %.2f..%.2f add %.2f (article %.2f) drop %.2f (non-article %.2f): wcxb cv %.4f (P %.4f R %.4f)  sh %.4f  snippets %.4f\n",
				g.lo, g.hi, g.add, g.artAdd, g.drop, g.dropLo, f, pp, r, f2, f3)
			if *gridTypes {
				report(wc, oof, g.drop)
			}
		}
		tAdd, artAdd, veto, vetoDropped = 0, 0, false, false
		rampLo, rampHi, rampDrop = 0, 0, 0
	}
	if *dumpBlocks != "" && !*skipCV {
		if err := dumpBlockProbs(*dumpBlocks, c, oof, rdOOFProbs, m); err != nil {
			log.Fatal(err)
		}
	}
	if *dump != "" && !*skipCV {
		if err := dumpPages(*dump, c, oof, m, *vetoF); err != nil {
			log.Fatal(err)
		}
	}
	tAdd, artTau, artAdd, veto, vetoDropped = *addT, *artTauF, *artAddF, *vetoF, *vetoDroppedF
	rampLo, rampHi, rampDrop = *artTauF, *artTauHiF, *nonArtDropF
	typeDecode = *typeDecodeF && typeDrop != nil
	if *stackF && !*skipCV {
		sp := p
		sp.trees = *stackTrees
		st := newStacker(c.Names, edges, sp)
		oof2 := nestedStack(wc, rd, *folds, *stackInner, oof, st, build, p, c.Names)
		m2 := st.fit(wc, oof)
		b2, _ := json.Marshal(m2)
		fmt.Printf("stack: second stage %d trees, %d bytes of JSON\n", len(m2.Trees), len(b2))
		sh, tr := c.Sets["scrapinghub"], c.Sets["trafilatura"]
		shp, shp2 := make([][]float64, len(sh)), make([][]float64, len(sh))
		for i, pg := range sh {
			shp[i] = probs(m, pg)
			shp2[i] = st.apply(m2, pg, shp[i])
		}
		trp, trp2 := make([][]float64, len(tr)), make([][]float64, len(tr))
		for i, pg := range tr {
			trp[i] = probs(m, pg)
			trp2[i] = st.apply(m2, pg, trp[i])
		}
		stackReport(wc, sh, tr, oof, oof2, shp, shp2, trp, trp2, m.Threshold)
		m.Stack = m2
		m.Note += fmt.Sprintf("; stacked second stage (-stack, %d trees) on out-of-fold first-stage probabilities", len(m2.Trees))
	}
	for _, s := range []string{"scrapinghub", "trafilatura"} {
		ps := c.Sets[s]
		pr := make([][]float64, len(ps))
		for i, pg := range ps {
			pr[i] = probs(m, pg)
		}
		nonArt := map[string]int{}
		for _, pg := range ps {
			if k := topType(pg); k > 0 {
				nonArt[pageTypes[k]]++
			}
		}
		fmt.Printf("check set %s (final model, as configured; predicted not article: %v):\n", s, nonArt)
		report(ps, pr, m.Threshold)
	}
	if *diag != "" {
		diagnose(c.Sets[*diag], m)
	}
	if *out != "" {
		b, err := json.Marshal(m)
		if err != nil {
			log.Fatal(err)
		}
		if err := os.WriteFile(*out, append(b, '\n'), 0o644); err != nil {
			log.Fatal(err)
		}
		log.Printf("wrote %s (%d bytes)", *out, len(b)+1)
		// Extraction embeds model.bin, the same model in a form that
		// loads without parsing (blockmodel's binary.go).
		if bin, ok := strings.CutSuffix(*out, ".json"); ok {
			bb, err := blockmodel.EncodeBinary(m)
			if err != nil {
				log.Fatal(err)
			}
			if err := os.WriteFile(bin+".bin", bb, 0o644); err != nil {
				log.Fatal(err)
			}
			log.Printf("wrote %s.bin (%d bytes)", bin, len(bb))
		}
	}
}

func probs(m *blockmodel.Model, pg *page) []float64 {
	if m.Stack != nil {
		return m.StackProbs(pg.X, idxChars, idxHeading)
	}
	pr := make([]float64, len(pg.X))
	for i, x := range pg.X {
		pr[i] = m.Prob(x)
	}
	return pr
}

// idxChars and idxHeading are the indexes of log_chars and heading_level.
var idxChars, idxHeading = -1, -1

// ruleKept is the index of the rule_kept feature.
var ruleKept = 7

// tAdd is the threshold for blocks the rules left out (when set; else t).
var tAdd float64

// The gate: on a page where the rules found at least gateChars characters
// making at least gateShare of the page's text, blocks the rules left out
// need gateAdd.
var (
	gateChars, gateShare, gateAdd float64
	idxPageLog, idxPageRule       = -1, -1
)

// Conditions on the blocks the rules left out: addFilter drops those the
// rules' single-block filter drops; addNear needs rule_window10 >= it;
// addShare lets out-of-container blocks in only when the rules' text is at
// most this share of the page.
var (
	addFilter                   bool
	addNear, addShare           float64
	idxFilter, idxWin10, idxTop = -1, -1, -1
)

// veto keeps out the blocks the rules left out that their text filters
// name as furniture: boilerplate lines, calls to action, picture credits.
var (
	vetoDropped          bool
	veto                 bool
	idxBP, idxCTA, idxPC = -1, -1, -1
	idxTitle             = -1
	idxDropped           = -1
	idxComment           = -1
	// vetoComments keeps blocks in comment sections out of article pages
	// (-article-veto-comments).
	vetoComments bool
)

func addOK(pg *page, i int) bool {
	x := pg.X[i]
	if veto && (x[idxBP] == 1 || x[idxCTA] == 1 || x[idxPC] == 1 || x[idxTitle] == 1) {
		return false
	}
	if addFilter && x[idxFilter] == 1 {
		return false
	}
	if addNear > 0 && float64(x[idxWin10]) < addNear {
		return false
	}
	if addShare > 0 && x[idxTop] == 0 && float64(x[idxPageRule]) > addShare {
		return false
	}
	return true
}

// The page-type gate: a page whose article probability is at least
// artTau takes artAdd as the threshold for blocks the rules left out.
var (
	artProb        = map[*page]float64{}
	artTau, artAdd float64
)

// Page-type-dependent decoding: typeP holds the page-type probabilities;
// with argArt the article gate applies only when article is the most
// likely type; on a page whose most likely type is not article,
// nonArtDrop and nonArtAdd (when above zero) replace the thresholds for
// the blocks the rules kept and left out.
var (
	typeP                 = map[*page][]float64{}
	argArt                bool
	nonArtDrop, nonArtAdd float64
)

// The soft article gate: with rampHi above zero, the threshold for the
// blocks the rules left out goes from the add threshold to artAdd as the
// article probability goes from rampLo to rampHi (a step when they are
// equal); with rampDrop above zero, the threshold for the blocks they kept
// goes from rampDrop to the drop threshold the same way.
var rampLo, rampHi, rampDrop float64

// articleWeight is blockmodel's ArticleWeight.
func articleWeight(p, lo, hi float64) float64 { return blockmodel.ArticleWeight(p, lo, hi) }

// printArtQuantiles prints the quantiles of the article probability by
// page type and set.
func printArtQuantiles(wc, sh, tr []*page) {
	groups := map[string][]float64{}
	for _, pg := range wc {
		groups["wcxb/"+pg.Type] = append(groups["wcxb/"+pg.Type], artProb[pg])
	}
	for _, pg := range sh {
		groups["scrapinghub"] = append(groups["scrapinghub"], artProb[pg])
	}
	for _, pg := range tr {
		groups["trafilatura"] = append(groups["trafilatura"], artProb[pg])
	}
	for _, k := range slices.Sorted(maps.Keys(groups)) {
		v := groups[k]
		sort.Float64s(v)
		q := func(f float64) float64 { return v[int(f*float64(len(v)-1))] }
		fmt.Printf("article probability %-20s n %3d  q10 %.2f q25 %.2f q50 %.2f q75 %.2f q90 %.2f\n", k, len(v), q(.1), q(.25), q(.5), q(.75), q(.9))
	}
}

func articleTop(pg *page) bool {
	tp := typeP[pg]
	if len(tp) == 0 {
		return true
	}
	return slices.Index(tp, slices.Max(tp)) == 0
}

func gated(pg *page) bool {
	if gateAdd == 0 || len(pg.X) == 0 {
		return false
	}
	x := pg.X[0]
	total := math.Expm1(float64(x[idxPageLog]))
	share := float64(x[idxPageRule])
	return total*share >= gateChars && share >= gateShare
}

func chosenText(pg *page, pr []float64, t float64) string {
	if vetoComments && articleTop(pg) && blockmodel.BodyOutsideComments(pg.X, ruleKept, idxComment) {
		// -article-veto-comments: no threshold takes them in.
		pr = slices.Clone(pr)
		for i := range pr {
			if pg.X[i][idxComment] > 0 {
				pr[i] = -1
			}
		}
	}
	if d, a, ok := typeThresholds(pg); ok {
		return typeTextOf(pg, pr, d, a)
	}
	if a, ok := typeGateOpen(pg); ok && typeDecode {
		return typeTextOf(pg, pr, t, a)
	}
	if typeDecode && shortAdd > 0 && isShortRule(pg) {
		return typeTextOf(pg, pr, t, shortAdd)
	}
	var parts []string
	if artAdd >= 2 && artProb[pg] >= artTau {
		for i := range pr {
			if pg.X[i][ruleKept] == 1 {
				parts = append(parts, pg.Texts[i])
			}
		}
		return strings.Join(parts, "\n\n")
	}
	g := gated(pg)
	top := articleTop(pg)
	art := artAdd > 0 && artProb[pg] >= artTau && (!argArt || top)
	for i, q := range pr {
		th := t
		if tAdd > 0 && pg.X[i][ruleKept] == 0 {
			th = tAdd
		}
		if !top && nonArtDrop > 0 && pg.X[i][ruleKept] == 1 {
			th = nonArtDrop
		}
		if !top && nonArtAdd > 0 && pg.X[i][ruleKept] == 0 {
			th = nonArtAdd
		}
		if g && pg.X[i][ruleKept] == 0 {
			th = gateAdd
		}
		if art && pg.X[i][ruleKept] == 0 {
			th = artAdd
		}
		if artAdd > 0 && (rampHi > 0 || rampDrop > 0) {
			w := articleWeight(artProb[pg], rampLo, rampHi)
			if pg.X[i][ruleKept] == 0 {
				base := t
				if tAdd > 0 {
					base = tAdd
				}
				th = base + w*(artAdd-base)
			} else if rampDrop > 0 {
				th = rampDrop + w*(t-rampDrop)
			}
		}
		if vetoDropped && art && pg.X[i][ruleKept] == 0 && pg.X[i][idxDropped] == 1 {
			continue
		}
		if pg.X[i][ruleKept] == 0 && !addOK(pg, i) {
			continue
		}
		if q >= th {
			parts = append(parts, pg.Texts[i])
		}
	}
	return strings.Join(parts, "\n\n")
}

func scoreSet(ps []*page, pr [][]float64, t float64) (f, p, r float64) {
	sc := make([]pageScore, len(ps))
	for i, pg := range ps {
		sc[i] = shingleScore(shingles(tokenize(pg.Gold), 4), chosenText(pg, pr[i], t))
	}
	return f1OfMeans(sc)
}

// report prints the scores of the model's text and the rules' text, by
// page type for typed sets.
func report(ps []*page, pr [][]float64, t float64) {
	if len(ps) > 0 && ps[0].Set == "trafilatura" {
		var m, r [4]int
		for i, pg := range ps {
			a, b, c, d := snippetCounts(pg.With, pg.Without, chosenText(pg, pr[i], t))
			m[0], m[1], m[2], m[3] = m[0]+a, m[1]+b, m[2]+c, m[3]+d
			a, b, c, d = snippetCounts(pg.With, pg.Without, pg.RuleText)
			r[0], r[1], r[2], r[3] = r[0]+a, r[1]+b, r[2]+c, r[3]+d
		}
		f := func(c [4]int) float64 { return 2 * float64(c[0]) / float64(2*c[0]+c[1]+c[2]) }
		fmt.Printf("  snippets F1: model %.4f, rules %.4f\n", f(m), f(r))
		return
	}
	types := map[string][]int{"all": nil}
	for i, pg := range ps {
		types["all"] = append(types["all"], i)
		if pg.Type != "" {
			types[pg.Type] = append(types[pg.Type], i)
		}
	}
	keys := make([]string, 0, len(types))
	for k := range types {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	fmt.Printf("  %-14s %5s  %-22s  %-22s\n", "type", "pages", "model F1 (P/R)", "rules F1 (P/R)")
	for _, k := range keys {
		var ms, rs []pageScore
		for _, i := range types[k] {
			g := shingles(tokenize(ps[i].Gold), 4)
			ms = append(ms, shingleScore(g, chosenText(ps[i], pr[i], t)))
			rs = append(rs, shingleScore(g, ps[i].RuleText))
		}
		f, p, r := f1OfMeans(ms)
		f2, p2, r2 := f1OfMeans(rs)
		fmt.Printf("  %-14s %5d  %.3f (%.3f/%.3f)   %.3f (%.3f/%.3f)\n", k, len(types[k]), f, p, r, f2, p2, r2)
	}
}

// diagnose prints the blocks the model keeps and the rules don't, and the
// reverse, with the share of each block found in the gold.
func diagnose(ps []*page, m *blockmodel.Model) {
	ri := 0
	for _, pg := range ps {
		y, _ := labels(pg)
		pr := probs(m, pg)
		fmt.Printf("== %s %s %s\n", pg.Set, pg.ID, pg.Type)
		for i, x := range pg.X {
			rule := x[7] == 1
			model := pr[i] >= m.Threshold
			if rule == model {
				continue
			}
			t := pg.Texts[i]
			if len(t) > 120 {
				t = t[:120]
			}
			fmt.Printf("  %s p=%.2f gold=%.2f %q\n", map[bool]string{true: "+model", false: "-model"}[model], pr[i], y[i], t)
		}
		ri++
	}
}

// dumpAdds and dumpDrops are the thresholds -dump scores every page
// under (an add threshold of 2: no block the rules left out).
var (
	dumpAdds  = []float64{0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6, 0.7, 0.8, 0.9, 2}
	dumpDrops = []float64{0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5}
)

// dumpProbs are the block probabilities the dumps report: out-of-fold on
// wcxb, whose pages train the model, and the final model's elsewhere.
func dumpProbs(set string, i int, pg *page, oof [][]float64, m *blockmodel.Model) []float64 {
	if set == "wcxb" {
		return oof[i]
	}
	return probs(m, pg)
}

// dumpPages writes one JSON line per page of wcxb (out-of-fold), and of
// scrapinghub and trafilatura (final model m): its type probabilities, its
// size and the rules' share, and its scores (precision and recall, or
// snippet counts) under every pair of dumpDrops and dumpAdds.
func dumpPages(path string, c *corpus, oof [][]float64, m *blockmodel.Model, vetoOn bool) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	enc := json.NewEncoder(f)
	saved := [5]float64{tAdd, artTau, artAdd, rampHi, rampDrop}
	savedVeto := veto
	defer func() {
		tAdd, artTau, artAdd, rampHi, rampDrop = saved[0], saved[1], saved[2], saved[3], saved[4]
		veto = savedVeto
	}()
	artAdd, rampHi, rampDrop, veto = 0, 0, 0, vetoOn
	for _, set := range []string{"wcxb", "scrapinghub", "trafilatura"} {
		for i, pg := range c.Sets[set] {
			pr := dumpProbs(set, i, pg, oof, m)
			rec := map[string]any{"set": set, "id": pg.ID, "type": pg.Type, "types": typeP[pg]}
			if len(pg.X) > 0 {
				rec["log_chars"], rec["rule_share"] = pg.X[0][idxPageLog], pg.X[0][idxPageRule]
			}
			var scores [][]float64
			var gold map[string]float64
			if set != "trafilatura" {
				gold = shingles(tokenize(pg.Gold), 4)
			}
			for _, d := range dumpDrops {
				for _, a := range dumpAdds {
					tAdd = a
					text := chosenText(pg, pr, d)
					if set == "trafilatura" {
						tp, fp, fn, tn := snippetCounts(pg.With, pg.Without, text)
						scores = append(scores, []float64{float64(tp), float64(fp), float64(fn), float64(tn)})
						continue
					}
					sc := shingleScore(gold, text)
					p, r := sc.p, sc.r
					if !sc.hasP {
						p = -1
					}
					if !sc.hasR {
						r = -1
					}
					scores = append(scores, []float64{p, r})
				}
			}
			rec["scores"] = scores
			if err := enc.Encode(rec); err != nil {
				return err
			}
		}
	}
	return nil
}

// dumpBlockProbs writes one JSON line per page of wcxb (out-of-fold
// probabilities), readability (out of fold, with -readability-folds
// only: rdOOF), scrapinghub and trafilatura (final model m): its gold,
// type probabilities and blocks with their probability and the features
// decoding looks at.
func dumpBlockProbs(path string, c *corpus, oof, rdOOF [][]float64, m *blockmodel.Model) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	enc := json.NewEncoder(f)
	idx := func(name string) int { return slices.Index(c.Names, name) }
	cols := []string{"rule_kept", "rule_filter", "boilerplate_line", "call_to_action", "picture_credit", "dropped",
		"rule_window10", "in_top", "in_pre", "in_table", "in_li", "heading_level", "log_chars", "link_density",
		"same_title", "page_log_chars", "page_rule_share", "in_dl", "near_pre", "cls_docs", "cls_nav", "in_nav", "in_aside"}
	type blk struct {
		T string    `json:"t"`
		P float64   `json:"p"`
		F []float32 `json:"f"`
	}
	sets := []string{"wcxb", "scrapinghub", "trafilatura"}
	if rdOOF != nil {
		sets = append(sets, "readability")
	}
	for _, set := range sets {
		for i, pg := range c.Sets[set] {
			pr := dumpProbs(set, i, pg, oof, m)
			if set == "readability" {
				pr = rdOOF[i]
			}
			rec := map[string]any{"set": set, "id": pg.ID, "type": pg.Type, "types": typeP[pg], "gold": pg.Gold,
				"with": pg.With, "without": pg.Without, "cols": cols}
			var bs []blk
			for j, x := range pg.X {
				b := blk{T: pg.Texts[j], P: pr[j]}
				for _, col := range cols {
					b.F = append(b.F, x[idx(col)])
				}
				bs = append(bs, b)
			}
			rec["blocks"] = bs
			if err := enc.Encode(rec); err != nil {
				return err
			}
		}
	}
	return nil
}

// bagNote is what the model's Note says of -bag: nothing for one model,
// so that the shipped model's bytes do not depend on the flag's existence.
func bagNote(bag int) string {
	if bag <= 1 {
		return ""
	}
	return fmt.Sprintf(" bag %d", bag)
}
