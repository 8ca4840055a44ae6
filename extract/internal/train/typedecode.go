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
func chooseTypeDecoding(wc []*page, pr [][]float64, rd []*page, rdPr [][]float64, mu float64, folds int, drop float64) (drops, adds []float64) {
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
	return drops, adds
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
