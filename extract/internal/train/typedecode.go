package main

import (
	"bytes"
	"encoding/gob"
	"fmt"
	"math"
	"os"
	"slices"
	"strings"
	"sync"
)

// Decoding by predicted page type (-type-decode): on a page whose most
// likely type (argmax of the page-type probabilities, out-of-fold on
// wcxb) is not article, the blocks the rules kept need typeDrop[t] and
// those they left out typeAdd[t], in place of the global thresholds and
// the article gate; a page predicted article keeps the global decoding,
// which ScrapingHub and the snippets were measured under. The thresholds
// are chosen on wcxb by coordinate ascent over a grid, and their figure
// is by cross-validation of the choice itself: the thresholds for fold k
// are chosen on the other folds' pages only.

// typeDrop and typeAdd are the per-type thresholds (zero: as configured);
// typeDecode turns the per-type decoding on.
var (
	typeDecode        bool
	typeDrop, typeAdd []float64
)

// typeVetoDropped keeps out, under the per-type thresholds, the blocks
// the rules dropped for a boilerplate class or furniture element;
// typeFilter those the rules' single-block filter drops.
var typeVetoDropped, typeFilter bool

// typeRuleChars, when above zero, keeps the per-type thresholds to pages
// where the rules kept fewer characters: where they found an article body
// of their own size, the page keeps the global decoding.
var typeRuleChars float64

// ruleChars is the number of characters in the blocks the rules kept.
func ruleChars(pg *page) float64 {
	if len(pg.X) == 0 {
		return 0
	}
	x := pg.X[0]
	return math.Expm1(float64(x[idxPageLog])) * float64(x[idxPageRule])
}

// typeDecodeDrops and typeDecodeAdds are the grid the choice runs over
// (setTypeDecodeGrid); an add threshold of 2 takes in no block the rules
// left out. typeDecodeOn says which types get thresholds of their own.
var (
	typeDecodeDrops = []float64{0.4}
	typeDecodeAdds  = []float64{0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6, 0.7, 0.8, 2}
	typeDecodeOn    = make([]bool, len(pageTypes))
)

// setTypeDecodeGrid reads -type-decode-types and -type-drop-grid; with
// no drop grid the drop threshold stays drop (measured: choosing it per
// type too gave a lower cross-validated figure, 0.8396 against 0.8410).
func setTypeDecodeGrid(types, drops string, drop float64) error {
	for _, t := range strings.Split(types, ",") {
		k := slices.Index(pageTypes, strings.TrimSpace(t))
		if k <= 0 {
			return fmt.Errorf("-type-decode-types: %q is not a page type other than article", t)
		}
		typeDecodeOn[k] = true
	}
	typeDecodeDrops = []float64{drop}
	if drops != "" {
		typeDecodeDrops = nil
		for _, f := range strings.Split(drops, ",") {
			var d float64
			if _, err := fmt.Sscan(f, &d); err != nil {
				return fmt.Errorf("-type-drop-grid: %w", err)
			}
			typeDecodeDrops = append(typeDecodeDrops, d)
		}
	}
	return nil
}

// topType returns the index (pageTypes order) of the page's most likely
// type, or -1 without type probabilities.
func topType(pg *page) int {
	tp := typeP[pg]
	if len(tp) == 0 {
		return -1
	}
	return slices.Index(tp, slices.Max(tp))
}

// typeThresholds returns the per-type thresholds of the page, and whether
// they apply.
func typeThresholds(pg *page) (drop, add float64, ok bool) {
	if !typeDecode {
		return 0, 0, false
	}
	k := topType(pg)
	if typeRuleChars > 0 && ruleChars(pg) >= typeRuleChars {
		return 0, 0, false
	}
	if k <= 0 || k >= len(typeDrop) || typeDrop[k] == 0 && typeAdd[k] == 0 {
		return 0, 0, false
	}
	return typeDrop[k], typeAdd[k], true
}

// typeTextOf is chosenText under fixed per-type thresholds drop and add.
func typeTextOf(pg *page, pr []float64, drop, add float64) string {
	var parts []string
	for i, q := range pr {
		kept := pg.X[i][ruleKept] == 1
		if !kept && (add >= 1 || !addOK(pg, i) ||
			typeVetoDropped && pg.X[i][idxDropped] == 1 || typeFilter && pg.X[i][idxFilter] == 1) {
			continue
		}
		th := drop
		if !kept {
			th = add
		}
		if q >= th {
			parts = append(parts, pg.Texts[i])
		}
	}
	return strings.Join(parts, "\n\n")
}

// typeGrid holds every wcxb page's score under the global decoding (base)
// and under each grid point (drop, add) of the per-type decoding.
type typeGrid struct {
	base  []pageScore
	grid  [][]pageScore // page, grid point (drop-major)
	top   []int
	group []int   // 0: wcxb, 1: readability
	mu    float64 // the readability pages' weight in the choice
}

func newTypeGrid(ps []*page, pr [][]float64, drop float64) *typeGrid {
	g := &typeGrid{base: make([]pageScore, len(ps)), grid: make([][]pageScore, len(ps)), top: make([]int, len(ps)), group: make([]int, len(ps))}
	saved := typeDecode
	typeDecode = false
	defer func() { typeDecode = saved }()
	parallelFor(len(ps), func(i int) {
		pg := ps[i]
		gold := shingles(tokenize(pg.Gold), 4)
		g.base[i] = shingleScore(gold, chosenText(pg, pr[i], drop))
		g.top[i] = topType(pg)
		if typeRuleChars > 0 && ruleChars(pg) >= typeRuleChars {
			g.top[i] = 0
		}
		if g.top[i] <= 0 {
			return
		}
		row := make([]pageScore, 0, len(typeDecodeDrops)*len(typeDecodeAdds))
		for _, d := range typeDecodeDrops {
			for _, a := range typeDecodeAdds {
				row = append(row, shingleScore(gold, typeTextOf(pg, pr[i], d, a)))
			}
		}
		g.grid[i] = row
	})
	return g
}

// choose returns the grid point per type (-1: the global decoding)
// maximising the F1 of means over the pages in (plus mu times that of the
// second group's pages, when there is one), by two rounds of coordinate
// ascent over the types.
func (g *typeGrid) choose(in []bool) []int {
	sel := make([]int, len(pageTypes))
	for k := range sel {
		sel[k] = -1
	}
	score := func() float64 {
		var sc [2][]pageScore
		for i, ok := range in {
			if !ok {
				continue
			}
			s := g.base[i]
			if k := g.top[i]; k > 0 && sel[k] >= 0 {
				s = g.grid[i][sel[k]]
			}
			sc[g.group[i]] = append(sc[g.group[i]], s)
		}
		f, _, _ := f1OfMeans(sc[0])
		if len(sc[1]) > 0 {
			f2, _, _ := f1OfMeans(sc[1])
			f += g.mu * f2
		}
		return f
	}
	best := score()
	for round := 0; round < 2; round++ {
		for k := 1; k < len(pageTypes); k++ {
			if !typeDecodeOn[k] {
				continue
			}
			cur := sel[k]
			for j := -1; j < len(typeDecodeDrops)*len(typeDecodeAdds); j++ {
				sel[k] = j
				// A clear gain only: ties keep the global decoding.
				if f := score(); f > best+1e-6 {
					best, cur = f, j
				}
			}
			sel[k] = cur
		}
	}
	return sel
}

func gridPoint(j int) (drop, add float64) {
	na := len(typeDecodeAdds)
	return typeDecodeDrops[j/na], typeDecodeAdds[j%na]
}

// chooseTypeDecoding prints the cross-validated figure of the per-type
// decoding (the thresholds for each fold chosen on the other folds) and
// returns the thresholds chosen on all pages. The readability pages rd
// (with out-of-fold probabilities rdPr; none: wcxb only) count in the
// choice with weight mu, folded by index as the wcxb pages.
func chooseTypeDecoding(wc []*page, pr [][]float64, rd []*page, rdPr [][]float64, mu float64, folds int, drop float64) (drops, adds []float64, foldDrops, foldAdds [][]float64) {
	ps := append(slices.Clone(wc), rd...)
	g := newTypeGrid(ps, append(slices.Clone(pr), rdPr...), drop)
	g.mu = mu
	fold := make([]int, len(ps))
	for i := range ps {
		fold[i] = i % folds
		if i >= len(wc) {
			g.group[i], fold[i] = 1, (i-len(wc))%folds
		}
	}
	cv := make([]pageScore, len(ps))
	for k := 0; k < folds; k++ {
		in := make([]bool, len(ps))
		for i := range ps {
			in[i] = fold[i] != k
		}
		sel := g.choose(in)
		fd, fa := make([]float64, len(pageTypes)), make([]float64, len(pageTypes))
		for t := 1; t < len(pageTypes); t++ {
			if sel[t] >= 0 {
				fd[t], fa[t] = gridPoint(sel[t])
			}
		}
		foldDrops, foldAdds = append(foldDrops, fd), append(foldAdds, fa)
		var desc []string
		for t := 1; t < len(pageTypes); t++ {
			if sel[t] >= 0 {
				d, a := gridPoint(sel[t])
				desc = append(desc, fmt.Sprintf("%s %.2f/%.2f", pageTypes[t], d, a))
			}
		}
		fmt.Printf("type decoding, fold %d: %s\n", k+1, strings.Join(desc, ", "))
		for i := range ps {
			if in[i] {
				continue
			}
			cv[i] = g.base[i]
			if t := g.top[i]; t > 0 && sel[t] >= 0 {
				cv[i] = g.grid[i][sel[t]]
			}
		}
	}
	fmt.Printf("type decoding, cross-validated (choice and model out of fold):\n")
	printTypeTable(ps, g.base, cv)
	all := make([]bool, len(ps))
	for i := range all {
		all[i] = true
	}
	sel := g.choose(all)
	drops, adds = make([]float64, len(pageTypes)), make([]float64, len(pageTypes))
	for t := 1; t < len(pageTypes); t++ {
		if sel[t] >= 0 {
			drops[t], adds[t] = gridPoint(sel[t])
		}
	}
	fmt.Printf("type decoding, chosen on all pages: drop %v add %v\n", drops, adds)
	return drops, adds, foldDrops, foldAdds
}

// printTypeTable prints the F1 (P/R) of two score lists by gold page type.
func printTypeTable(ps []*page, a, b []pageScore) {
	types := map[string][]int{}
	for i, pg := range ps {
		if pg.Set != "wcxb" {
			types["("+pg.Set+")"] = append(types["("+pg.Set+")"], i)
			continue
		}
		types["all"] = append(types["all"], i)
		types[pg.Type] = append(types[pg.Type], i)
	}
	fmt.Printf("  %-14s %5s  %-22s  %-22s\n", "type", "pages", "global F1 (P/R)", "per type F1 (P/R)")
	for _, k := range slices.Sorted(func(yield func(string) bool) {
		for k := range types {
			if !yield(k) {
				return
			}
		}
	}) {
		var sa, sb []pageScore
		for _, i := range types[k] {
			sa = append(sa, a[i])
			sb = append(sb, b[i])
		}
		f, p, r := f1OfMeans(sa)
		f2, p2, r2 := f1OfMeans(sb)
		fmt.Printf("  %-14s %5d  %.4f (%.3f/%.3f)  %.4f (%.3f/%.3f)\n", k, len(types[k]), f, p, r, f2, p2, r2)
	}
}

// parallelFor runs f(0..n-1) on two goroutines (the trainer runs beside
// other jobs); f must only write to its own index.
func parallelFor(n int, f func(i int)) {
	var wg sync.WaitGroup
	for w := 0; w < 2; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < n; i += 2 {
				f(i)
			}
		}()
	}
	wg.Wait()
}

func writeOOF(path string, oof [][]float64) error {
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(oof); err != nil {
		return err
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}

func readOOF(path string, oof *[][]float64) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	return gob.NewDecoder(bytes.NewReader(b)).Decode(oof)
}

// Type gates (-type-gate-types): on a page the per-type thresholds do not
// take, a type's probability of at least typeGate[t] gives the blocks the
// rules left out typeGateAdd[t] in place of the article gate's (the drop
// threshold stays -drop; blockmodel.Model.TypeGate). Documentation pages
// that the page-type models find partly articles, and where the rules kept
// a long text, lose their list items and plain paragraphs under the
// article gate's 0.8.
var typeGate, typeGateAdd []float64

// typeGateTaus and typeGateAdds are the grid the gates are chosen over;
// shortAdds that of the add threshold on pages where the rules kept fewer
// than shortRuleChars characters (-short-rule-chars; blockmodel's
// ShortRuleChars and ShortAdd), chosen after the gates. shortAdds starts
// at 0.5: wcxb's choice goes lower (0.35), where ScrapingHub's short
// articles take in their furniture (0.9752 at 0.5, 0.9744 at 0.4, 0.9726
// at 0.3, by the -dump simulation, seed 1).
var (
	typeGateTaus   = []float64{0.03, 0.05, 0.08, 0.1, 0.15, 0.2, 0.3, 0.5}
	typeGateAdds   = []float64{0.3, 0.35, 0.4, 0.45, 0.5, 0.6}
	shortAdds      = []float64{0.5, 0.6, 0.7, 0.8}
	shortRuleChars float64
	shortAdd       float64
)

// isShortRule reports a page where the rules kept some text but fewer
// than shortRuleChars characters (where they kept none, the page may have
// no body: the article gate stays).
func isShortRule(pg *page) bool {
	rc := ruleChars(pg)
	return shortRuleChars > 0 && rc > 0 && rc < shortRuleChars
}

// typeGateOpen returns the add threshold of the first type gate open on the
// page, if any.
func typeGateOpen(pg *page) (float64, bool) {
	tp := typeP[pg]
	for k := 1; k < len(tp) && k < len(typeGate); k++ {
		if typeGate[k] > 0 && tp[k] >= typeGate[k] {
			return typeGateAdd[k], true
		}
	}
	return 0, false
}

// chooseTypeGates chooses the gates of the types named in types on the
// wcxb pages ps (out-of-fold probabilities pr), after the per-type
// thresholds: for each fold, on the other folds' pages under that fold's
// per-type thresholds (foldDrops, foldAdds), for the cross-validated
// figure it prints; then on all pages under drops and adds, which it
// returns with the gates.
func chooseTypeGates(ps []*page, pr [][]float64, types string, folds int, drop float64, drops, adds []float64, foldDrops, foldAdds [][]float64) (gate, gateAddT []float64, short float64, err error) {
	var on []int
	for _, t := range strings.Split(types, ",") {
		if t == "" {
			continue
		}
		k := slices.Index(pageTypes, strings.TrimSpace(t))
		if k <= 0 {
			return nil, nil, 0, fmt.Errorf("-type-gate-types: %q is not a page type other than article", t)
		}
		on = append(on, k)
	}
	savedD, savedA, savedOn, savedG, savedGA, savedS := typeDrop, typeAdd, typeDecode, typeGate, typeGateAdd, shortAdd
	defer func() {
		typeDrop, typeAdd, typeDecode, typeGate, typeGateAdd, shortAdd = savedD, savedA, savedOn, savedG, savedGA, savedS
	}()
	typeDecode, typeGate, typeGateAdd, shortAdd = true, nil, nil, 0
	golds := make([]map[string]float64, len(ps))
	gated := make([][]pageScore, len(ps))  // per page, per typeGateAdds
	shorts := make([][]pageScore, len(ps)) // per page, per shortAdds
	isShort := make([]bool, len(ps))
	parallelFor(len(ps), func(i int) {
		golds[i] = shingles(tokenize(ps[i].Gold), 4)
		for _, a := range typeGateAdds {
			gated[i] = append(gated[i], shingleScore(golds[i], typeTextOf(ps[i], pr[i], drop, a)))
		}
		isShort[i] = isShortRule(ps[i])
		if isShort[i] {
			for _, a := range shortAdds {
				shorts[i] = append(shorts[i], shingleScore(golds[i], typeTextOf(ps[i], pr[i], drop, a)))
			}
		}
	})
	// base[k][i] and takes[k][i]: page i's score under fold k's per-type
	// thresholds (k == folds: those chosen on all pages), and whether they
	// take it.
	base := make([][]pageScore, folds+1)
	takes := make([][]bool, folds+1)
	for k := 0; k <= folds; k++ {
		typeDrop, typeAdd = drops, adds
		if k < folds {
			typeDrop, typeAdd = foldDrops[k], foldAdds[k]
		}
		base[k], takes[k] = make([]pageScore, len(ps)), make([]bool, len(ps))
		parallelFor(len(ps), func(i int) {
			base[k][i] = shingleScore(golds[i], chosenText(ps[i], pr[i], drop))
			_, _, takes[k][i] = typeThresholds(ps[i])
		})
	}
	// sel[t] is type t's gate; sel[0].add the short add threshold.
	type gp struct{ tau, add int }
	score := func(k int, in func(int) bool, sel map[int]gp) []pageScore {
		var sc []pageScore
		for i, pg := range ps {
			if !in(i) {
				continue
			}
			s := base[k][i]
			if !takes[k][i] {
				open := false
				for _, t := range on {
					if g, ok := sel[t]; ok && typeP[pg][t] >= typeGateTaus[g.tau] {
						s, open = gated[i][g.add], true
						break
					}
				}
				if g, ok := sel[0]; ok && !open && isShort[i] {
					s = shorts[i][g.add]
				}
			}
			sc = append(sc, s)
		}
		return sc
	}
	choose := func(k int, in func(int) bool) map[int]gp {
		sel := map[int]gp{}
		best, _, _ := f1OfMeans(score(k, in, sel))
		for _, t := range on {
			cur, has := sel[t]
			for ti := range typeGateTaus {
				for ai := range typeGateAdds {
					sel[t] = gp{ti, ai}
					if f, _, _ := f1OfMeans(score(k, in, sel)); f > best+1e-6 {
						best, cur, has = f, gp{ti, ai}, true
					}
				}
			}
			delete(sel, t)
			if has {
				sel[t] = cur
			}
		}
		if shortRuleChars > 0 {
			cur := -1
			for ai := range shortAdds {
				sel[0] = gp{0, ai}
				if f, _, _ := f1OfMeans(score(k, in, sel)); f > best+1e-6 {
					best, cur = f, ai
				}
			}
			delete(sel, 0)
			if cur >= 0 {
				sel[0] = gp{0, cur}
			}
		}
		return sel
	}
	cv := make([]pageScore, len(ps))
	plain := make([]pageScore, len(ps))
	for k := 0; k < folds; k++ {
		sel := choose(k, func(i int) bool { return i%folds != k })
		var desc []string
		for _, t := range on {
			if g, ok := sel[t]; ok {
				desc = append(desc, fmt.Sprintf("%s from %.2f add %.2f", pageTypes[t], typeGateTaus[g.tau], typeGateAdds[g.add]))
			}
		}
		if g, ok := sel[0]; ok {
			desc = append(desc, fmt.Sprintf("short rule text add %.2f", shortAdds[g.add]))
		}
		fmt.Printf("type gates, fold %d: %s\n", k+1, strings.Join(desc, ", "))
		held := func(i int) bool { return i%folds == k }
		sc := score(k, held, sel)
		j := 0
		for i := range ps {
			if held(i) {
				cv[i], plain[i] = sc[j], base[k][i]
				j++
			}
		}
	}
	fmt.Printf("type gates, cross-validated (choice, per-type thresholds and model out of fold):\n")
	printTypeTable(ps, plain, cv)
	sel := choose(folds, func(int) bool { return true })
	gate, gateAddT = make([]float64, len(pageTypes)), make([]float64, len(pageTypes))
	for t, g := range sel {
		if t == 0 {
			short = shortAdds[g.add]
			continue
		}
		gate[t], gateAddT[t] = typeGateTaus[g.tau], typeGateAdds[g.add]
	}
	fmt.Printf("type gates, chosen on all pages: from %v add %v; short rule text add %.2f\n", gate, gateAddT, short)
	return gate, gateAddT, short, nil
}
