package main

import (
	"compress/gzip"
	"encoding/gob"
	"flag"
	"fmt"
	"io"
	"log"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/textanalysis/go-textanalysis/ner/internal/relabel"
)

// The dump trainner -oof writes.
type oofRecord struct {
	C    relabel.Candidate
	Gold int
	Fold int
	Sent int
	Alts []oofAlt
}

type oofDump struct {
	Labels []string
	Gold   []int
	Recs   []oofRecord
}

func main() {
	in := flag.String("oof", "", "out-of-fold candidates written by trainner -oof")
	out := flag.String("out", "", "relabeler model file to write")
	epochsList := flag.String("epochs", "5,10,20", "perceptron epochs to try (comma-separated); the best by cross-validation over the dump's folds is used")
	seed := flag.Uint64("seed", 1, "seed of the data order")
	loss := flag.String("loss", "log", "log (softmax regression, AdaGrad) or perceptron")
	lr := flag.Float64("lr", 0.1, "AdaGrad rate (-loss log)")
	l2 := flag.Float64("l2", 1e-4, "L2 penalty (-loss log)")
	prune := flag.Float64("prune", 0, "drop weights smaller than this in magnitude")
	stack := flag.Bool("stack", false, "with -bound, give each alternative's features the probabilities the relabeler gives its entity (out-of-fold, from a first cross-validation over the entities alone, with the first -epochs)")
	bound := flag.Bool("bound", false, "also choose between each entity and its alternative spans (the dump's, from a trainner -oof that writes them): train on the alternatives too, and choose the edits tried, the cost of an entity and the margin an alternative needs by cross-validation")
	extGaz := flag.String("ext-gaz", "", "external gazetteer to read features from and keep in the model (ner/data/external-gazetteer.tsv.gz, written by ner/cmd/mkgaz)")
	flag.Parse()
	log.SetFlags(log.Ltime)
	d, err := readDump(*in)
	if err != nil {
		log.Fatal(err)
	}
	L := len(d.Labels)
	var ext *relabel.Ext
	if *extGaz != "" {
		raw, err := readGz(*extGaz)
		if err != nil {
			log.Fatal(err)
		}
		ext = relabel.NewExt(raw, d.Labels)
		log.Printf("external gazetteer: %d of the candidates' phrases found", ext.Hits(d.cands()))
	}
	exs := make([]relabel.Example, len(d.Recs))
	folds := 0
	for i := range d.Recs {
		r := &d.Recs[i]
		relabel.ExtractExt(&exs[i].F, &r.C, ext)
		exs[i].Pred, exs[i].Gold = r.C.Pred, r.Gold
		folds = max(folds, r.Fold+1)
	}
	// The alternatives' examples: those of record i at altAt[i]:altAt[i+1].
	var altExs []relabel.Example
	altAt := []int{0}
	for i := range d.Recs {
		if *bound {
			for j := range d.Recs[i].Alts {
				a := &d.Recs[i].Alts[j]
				var ex relabel.Example
				relabel.ExtractExt(&ex.F, &a.C, ext)
				ex.Pred, ex.Gold = a.C.Pred, a.Gold
				altExs = append(altExs, ex)
			}
		}
		altAt = append(altAt, len(altExs))
	}
	if *bound {
		log.Printf("%d alternative spans", len(altExs))
	}
	gold := 0
	for _, g := range d.Gold {
		gold += g
	}
	log.Printf("%d candidates, %d gold entities, %d folds", len(exs), gold, folds)
	base := evalF1(d, exs, nil, nil, gold)
	log.Printf("tagger alone: %s", base)
	// trainOutside trains a relabeler for E epochs on the entities outside
	// fold k, and their alternatives with alts, pruned as the model to ship.
	trainOutside := func(k, E int, alts bool) *relabel.Model {
		var tr []relabel.Example
		for i := range exs {
			if d.Recs[i].Fold != k {
				tr = append(tr, exs[i])
				if alts {
					tr = append(tr, altExs[altAt[i]:altAt[i+1]]...)
				}
			}
		}
		m := train(d.Labels, tr, E, *seed, *loss, float32(*lr), float32(*l2))
		m.Prune(float32(*prune))
		return m
	}
	if *bound && *stack {
		E, err := strconv.Atoi(strings.Split(*epochsList, ",")[0])
		if err != nil {
			log.Fatal(err)
		}
		scores := make([][]float32, len(exs))
		for k := 0; k < folds; k++ {
			m := trainOutside(k, E, false)
			for i := range exs {
				if d.Recs[i].Fold == k {
					scores[i] = m.ScoresOf(&exs[i].F)
				}
			}
		}
		for i := range d.Recs {
			ref := relabel.Probs(nil, scores[i])
			for j := range d.Recs[i].Alts {
				a := &d.Recs[i].Alts[j]
				a.C.Ref = ref
				relabel.ExtractExt(&altExs[altAt[i]+j].F, &a.C, ext)
			}
		}
		log.Printf("stacked: the entities' out-of-fold probabilities (epochs %d) in their alternatives' features", E)
	}
	bestE, bestF := 0, -1.0
	var bestM [2]float32
	var bestB relabel.Bound
	for _, es := range strings.Split(*epochsList, ",") {
		E, err := strconv.Atoi(es)
		if err != nil {
			log.Fatal(err)
		}
		scores := make([][]float32, len(exs))
		altScores := make([][][]float32, len(exs))
		for k := 0; k < folds; k++ {
			m := trainOutside(k, E, true)
			for i := range exs {
				if d.Recs[i].Fold == k {
					scores[i] = m.ScoresOf(&exs[i].F)
					for j := altAt[i]; j < altAt[i+1]; j++ {
						altScores[i] = append(altScores[i], m.ScoresOf(&altExs[j].F))
					}
				}
			}
		}
		diagnose(exs, scores, L)
		m, f := chooseMargins(d, exs, scores, gold, L)
		log.Printf("epochs %d: margins %.3g %.3g: %s", E, m[0], m[1], evalF1(d, exs, scores, &m, gold))
		var b relabel.Bound
		if *bound {
			b, f = newBoundEval(d, scores, altScores, m, gold).choose(log.Printf)
			log.Printf("epochs %d: with alternatives: edits %b, cost %.3g, margin %.3g: F1 %.2f", E, b.Allow, b.Cost, b.Margin, f)
		}
		if f > bestF {
			bestE, bestF, bestM, bestB = E, f, m, b
		}
	}
	log.Printf("chosen: epochs %d, margins %.3g %.3g", bestE, bestM[0], bestM[1])
	if *out == "" {
		return
	}
	all := exs
	if *bound {
		all = nil
		for i := range exs {
			all = append(all, exs[i])
			all = append(all, altExs[altAt[i]:altAt[i+1]]...)
		}
	}
	m := train(d.Labels, all, bestE, *seed, *loss, float32(*lr), float32(*l2))
	m.Prune(float32(*prune))
	m.Margin, m.MarginNone = bestM[0], bestM[1]
	m.Ext = ext
	if *bound {
		bestB.Stack = *stack
		m.Bound = &bestB
	}
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
	log.Printf("wrote %s", *out)
}

func (d *oofDump) cands() []*relabel.Candidate {
	cs := make([]*relabel.Candidate, len(d.Recs))
	for i := range d.Recs {
		cs[i] = &d.Recs[i].C
	}
	return cs
}

func readGz(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, err
	}
	return io.ReadAll(zr)
}

func readDump(path string) (*oofDump, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, err
	}
	var d oofDump
	if err := gob.NewDecoder(zr).Decode(&d); err != nil {
		return nil, err
	}
	return &d, nil
}

// counts are true positives and predictions, overall and by sentence case
// (normal, capitals, lower case).
type counts struct{ tp, np [3]int }

func (c counts) f1(gold int) float64 {
	tp, np := 0, 0
	for k := range 3 {
		tp += c.tp[k]
		np += c.np[k]
	}
	return 200 * float64(tp) / float64(np+gold)
}

func tally(d *oofDump, exs []relabel.Example, scores [][]float32, m *[2]float32) counts {
	var c counts
	L := len(d.Labels)
	mm := &relabel.Model{}
	if m != nil {
		mm.Margin, mm.MarginNone = m[0], m[1]
	}
	for i, ex := range exs {
		y := ex.Pred
		if scores != nil {
			y = mm.Decide(scores[i], ex.Pred)
		}
		cs := 0
		if d.Recs[i].C.Caps {
			cs = 1
		} else if d.Recs[i].C.Lows {
			cs = 2
		}
		if y != L {
			c.np[cs]++
			if y == ex.Gold {
				c.tp[cs]++
			}
		}
	}
	return c
}

func evalF1(d *oofDump, exs []relabel.Example, scores [][]float32, m *[2]float32, gold int) string {
	c := tally(d, exs, scores, m)
	return fmt.Sprintf("F1 %.2f (tp %v pred %v)", c.f1(gold), c.tp, c.np)
}

// chooseMargins returns the margins that give the best F1 over the
// out-of-fold scores.
func chooseMargins(d *oofDump, exs []relabel.Example, scores [][]float32, gold, L int) ([2]float32, float64) {
	grid := []float32{0}
	for i := 0; i <= 40; i++ {
		grid = append(grid, float32(0.05*math.Pow(2, float64(i)/3)))
	}
	none := append(append([]float32{}, grid...), float32(math.Inf(1)))
	best, bf := [2]float32{}, -1.0
	for _, a := range grid {
		for _, b := range none {
			m := [2]float32{a, b}
			if f := tally(d, exs, scores, &m).f1(gold); f > bf {
				best, bf = m, f
			}
		}
	}
	return best, bf
}

// diagnose logs what the plain argmax does to the tagger's labels.
func diagnose(exs []relabel.Example, scores [][]float32, L int) {
	var fix, brk, swap, dropOK, dropBad, wrongLab, spur int
	mm := &relabel.Model{}
	for i, ex := range exs {
		y := mm.Decide(scores[i], ex.Pred)
		if ex.Gold != L && ex.Gold != ex.Pred {
			wrongLab++
		}
		if ex.Gold == L {
			spur++
		}
		if y == ex.Pred {
			continue
		}
		switch {
		case y == L && ex.Gold == L:
			dropBad++
		case y == L:
			dropOK++
		case y == ex.Gold:
			fix++
		case ex.Pred == ex.Gold:
			brk++
		default:
			swap++
		}
	}
	log.Printf("argmax: %d right boundaries wrong label, %d spurious; fixed %d, broke %d, wrong to wrong %d; dropped %d spurious, %d right", wrongLab, spur, fix, brk, swap, dropBad, dropOK)
}

func train(labels []string, exs []relabel.Example, epochs int, seed uint64, loss string, lr, l2 float32) *relabel.Model {
	if loss == "perceptron" {
		return relabel.Train(labels, exs, epochs, seed)
	}
	return relabel.TrainLog(labels, exs, epochs, seed, lr, l2)
}
