package main

import (
	"math"

	"github.com/textanalysis/go-textanalysis/extract/internal/blockmodel"
)

var pageTypes = blockmodel.PageTypes

// pageVec is a page's features for the page-type classifier:
// blockmodel.PageVector of its blocks.
func pageVec(pg *page) []float32 { return blockmodel.PageVector(pg.X, nBase, idxLogChars) }

// nBase is the number of block features before the page-type ones.
var idxLogChars, nBase = 0, 0

// setTypes writes the page-type probabilities into the page's rows.
func setTypes(pg *page, probs []float64) {
	for _, x := range pg.X {
		for k, p := range probs {
			x[nBase+k] = float32(p)
		}
	}
}

// fitTypes trains one-vs-rest models of the page types on typed pages.
func fitTypes(pages []*page, edges [][]float32, names []string, seed uint64) []blockmodel.Model {
	var rows [][]float32
	var keys []uint64
	for _, pg := range pages {
		rows = append(rows, pageVec(pg))
		keys = append(keys, rowKey(pg, -1))
	}
	var ms []blockmodel.Model
	for _, t := range pageTypes {
		y := make([]float64, len(pages))
		w := make([]float64, len(pages))
		for i, pg := range pages {
			if pg.Type == t || pg.Type == "" && t == "article" {
				y[i] = 1
			}
			w[i] = 1
		}
		m := fit(newData(rows, y, w, keys, edges), params{trees: 60, depth: 3, lr: 0.1, lambda: 1, minHess: 0.5, subsample: 0.8, seed: seed}, names)
		ms = append(ms, *m)
	}
	return ms
}

// typeProbs returns the page's score for each type, normalised to sum 1.
func typeProbs(ms []blockmodel.Model, pg *page) []float64 {
	v := pageVec(pg)
	p := make([]float64, len(ms))
	s := 0.0
	for i := range ms {
		p[i] = ms[i].Prob(v)
		s += p[i]
	}
	for i := range p {
		p[i] /= math.Max(s, 1e-9)
	}
	return p
}
