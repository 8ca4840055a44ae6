package core

import (
	"math"
	"sort"
	"strings"
	"unicode"
)

// A Passage is a piece of a long context, Start in code points.
type Passage struct {
	Text  string
	Start int
}

// Split cuts text into passages of at most about max code points, at blank
// lines, then line breaks, then sentence ends.
func Split(text string, max int) []Passage {
	rs := []rune(text)
	var out []Passage
	emit := func(s, e int) {
		for s < e && unicode.IsSpace(rs[s]) {
			s++
		}
		for e > s && unicode.IsSpace(rs[e-1]) {
			e--
		}
		if s < e {
			out = append(out, Passage{Text: string(rs[s:e]), Start: s})
		}
	}
	start := 0
	for start < len(rs) {
		end := start + max
		if end >= len(rs) {
			emit(start, len(rs))
			break
		}
		cut := -1
		// Prefer a paragraph break, then a line break, then a sentence end,
		// in the second half of the window.
		for _, pass := range []int{0, 1, 2, 3} {
			for i := end; i > start+max/3 && cut < 0; i-- {
				switch pass {
				case 0:
					if rs[i] == '\n' && rs[i-1] == '\n' {
						cut = i
					}
				case 1:
					if rs[i] == '\n' {
						cut = i
					}
				case 2:
					if rs[i] == ' ' && (rs[i-1] == '.' || rs[i-1] == '!' || rs[i-1] == '?') {
						cut = i
					}
				case 3:
					if unicode.IsSpace(rs[i]) {
						cut = i
					}
				}
			}
			if cut >= 0 {
				break
			}
		}
		if cut < 0 {
			cut = end
		}
		emit(start, cut)
		start = cut
	}
	return out
}

// words lower-cases, stems and drops function words, for retrieval.
func words(text string) []string {
	var out []string
	f := strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	for _, w := range f {
		w = strings.ToLower(w)
		if stopWords[w] {
			continue
		}
		out = append(out, Stem(w))
	}
	return out
}

// Retrieve ranks passages against the question with BM25 and returns the
// best k in text order.
func Retrieve(ps []Passage, question string, k int, idf func(string) float64) []Passage {
	if len(ps) <= k {
		return ps
	}
	qw := map[string]bool{}
	for _, w := range words(question) {
		qw[w] = true
	}
	type doc struct {
		tf  map[string]int
		len int
	}
	docs := make([]doc, len(ps))
	df := map[string]int{}
	total := 0
	for i, p := range ps {
		ws := words(p.Text)
		tf := map[string]int{}
		for _, w := range ws {
			if qw[w] {
				if tf[w] == 0 {
					df[w]++
				}
				tf[w]++
			}
		}
		docs[i] = doc{tf, len(ws)}
		total += len(ws)
	}
	avg := float64(total) / float64(len(ps))
	if avg == 0 {
		avg = 1
	}
	const k1, b = 1.2, 0.75
	n := float64(len(ps))
	scores := make([]float64, len(ps))
	for i, d := range docs {
		for w, tf := range d.tf {
			// Local idf from the passages, blended with the corpus idf
			// so that a word frequent in this page but rare in general
			// still counts.
			local := math.Log(1 + (n-float64(df[w])+0.5)/(float64(df[w])+0.5))
			wt := local + 0.25*idf(w)
			f := float64(tf)
			scores[i] += wt * f * (k1 + 1) / (f + k1*(1-b+b*float64(d.len)/avg))
		}
	}
	order := make([]int, len(ps))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return scores[order[a]] > scores[order[b]] })
	order = order[:k]
	sort.Ints(order)
	out := make([]Passage, k)
	for i, o := range order {
		out[i] = ps[o]
	}
	return out
}
