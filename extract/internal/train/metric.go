package main

import (
	"math"
	"strings"
	"unicode"
)

// The two metrics of the evaluation harness (shared/eval/extract), in
// short: 4-token shingles with precision and recall averaged over pages
// and the F1 of the two means; and trafilatura's must/must-not snippets.

func isWordRune(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsNumber(r) }

// tokenize returns the \w+ tokens of s.
func tokenize(s string) []string {
	var toks []string
	start := -1
	for i, r := range s {
		if isWordRune(r) {
			if start < 0 {
				start = i
			}
		} else if start >= 0 {
			toks = append(toks, s[start:i])
			start = -1
		}
	}
	if start >= 0 {
		toks = append(toks, s[start:])
	}
	return toks
}

func shingles(tokens []string, n int) map[string]float64 {
	m := make(map[string]float64)
	last := max(len(tokens)-n+1, 1)
	for i := 0; i < last; i++ {
		j := min(i+n, len(tokens))
		if j <= i {
			continue
		}
		m[strings.Join(tokens[i:j], "\x00")]++
	}
	return m
}

// pageScore is one page's shingle precision and recall; hasP and hasR say
// whether the page counts in each mean.
type pageScore struct {
	p, r       float64
	hasP, hasR bool
}

func shingleScore(gold map[string]float64, pred string) pageScore {
	ps := shingles(tokenize(pred), 4)
	var tp, fp, fn float64
	for k, g := range gold {
		p := ps[k]
		tp += math.Min(g, p)
		if g > p {
			fn += g - p
		}
	}
	for k, p := range ps {
		if g := gold[k]; p > g {
			fp += p - g
		}
	}
	var s pageScore
	if fp == 0 && fn == 0 {
		return pageScore{1, 1, tp > 0, tp > 0}
	}
	if tp+fp > 0 {
		s.p, s.hasP = tp/(tp+fp), true
	}
	if tp+fn > 0 {
		s.r, s.hasR = tp/(tp+fn), true
	}
	return s
}

// f1OfMeans is the benchmark's F1: of the mean precision and mean recall.
func f1OfMeans(scores []pageScore) (f, p, r float64) {
	np, nr := 0, 0
	for _, s := range scores {
		if s.hasP {
			p += s.p
			np++
		}
		if s.hasR {
			r += s.r
			nr++
		}
	}
	if np > 0 {
		p /= float64(np)
	}
	if nr > 0 {
		r /= float64(nr)
	}
	if p+r > 0 {
		f = 2 * p * r / (p + r)
	}
	return f, p, r
}

func normWS(s string) string { return strings.Join(strings.Fields(s), " ") }

// snippetCounts scores one page of the snippet set.
func snippetCounts(with, without []string, text string) (tp, fp, fn, tn int) {
	t := normWS(text)
	for _, w := range with {
		if strings.Contains(t, normWS(w)) {
			tp++
		} else {
			fn++
		}
	}
	for _, w := range without {
		if strings.Contains(t, normWS(w)) {
			fp++
		} else {
			tn++
		}
	}
	return
}
