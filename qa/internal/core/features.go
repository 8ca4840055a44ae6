package core

import (
	"sort"
	"strconv"
	"strings"
)

// Bits is the size of the hashed feature space, 1<<Bits weights.
const Bits = 21

const mask = 1<<Bits - 1

// A Ctx holds what the features of one (document, question) pair share.
type Ctx struct {
	D *Doc
	Q *Question
	// per token
	match  []float64 // idf of the token's stem if it is a question term
	qpos   []int     // question position of the matched term, -1 if none
	bigram []bool    // token and the next form a question bigram
	// per sentence
	sScore []float64
	sRank  []int
	sFrac  []float64 // share of the question's weight matched
	sVerb  []bool    // a question verb occurs in the sentence
	sMiss  []float64 // weight of the rarest question term not matched
	sHasH  []bool    // the question's head noun occurs in the sentence
	qprep  string    // the preposition before the wh-word ("in" what year)
	best   float64
	qTotal float64
	wh, hd string
	idf    func(string) float64
	loose  int      // tokens matched by prefix only
	terms  []string // the question's terms, sorted
	// tokBroad holds the broad WordNet classes of each token, computed
	// on first use (bit 63: computed; bit 62: a noun WordNet lacks).
	tokBroad []uint64
	// hb is the broad classes of the question's head noun, once hbDone.
	hb     uint64
	hbDone bool
	// Names, when not nil, receives the name of every feature added.
	Names *[]string
}

// NewCtx prepares the features of q over d.
func NewCtx(d *Doc, q *Question, idf func(string) float64) *Ctx {
	c := &Ctx{D: d, Q: q, wh: q.Wh, hd: q.Head, idf: idf}
	n := len(d.Toks)
	c.match = make([]float64, n)
	c.qpos = make([]int, n)
	c.bigram = make([]bool, n)
	// Terms in sorted order: float sums and feature lists must not depend
	// on map order, or training is not reproducible to the byte.
	c.terms = make([]string, 0, len(q.Terms))
	for t := range q.Terms {
		c.terms = append(c.terms, t)
	}
	sort.Strings(c.terms)
	for _, t := range c.terms {
		c.qTotal += q.Terms[t]
	}
	if c.qTotal == 0 {
		c.qTotal = 1
	}
	for i := range d.Toks {
		t := &d.Toks[i]
		c.qpos[i] = -1
		if !t.Word || t.Stop {
			continue
		}
		if w, ok := q.Terms[t.Stem]; ok {
			c.match[i] = w
			c.qpos[i] = q.Pos[t.Stem]
		} else if len(t.Stem) >= prefixLen+1 {
			if term, ok := q.Prefix[t.Stem[:prefixLen]]; ok {
				c.match[i] = 0.5 * q.Terms[term]
				c.qpos[i] = q.Pos[term]
				c.loose++
			}
		}
	}
	c.tokBroad = make([]uint64, n)
	c.resolvePronouns()
	for i := 0; i+1 < n; i++ {
		if c.match[i] > 0 && c.match[i+1] > 0 && q.Bigrams[d.Toks[i].Stem+" "+d.Toks[i+1].Stem] {
			c.bigram[i] = true
		}
	}
	if q.WhPos > 0 {
		if t := q.Toks[q.WhPos-1]; t.Tag == "IN" || t.Tag == "TO" {
			c.qprep = t.Low
		}
	}
	ns := len(d.Sents)
	c.sVerb = make([]bool, ns)
	c.sScore = make([]float64, ns)
	c.sFrac = make([]float64, ns)
	c.sRank = make([]int, ns)
	seen := map[string]bool{}
	for si, r := range d.Sents {
		clear(seen)
		s := 0.0
		for i := r[0]; i < r[1]; i++ {
			if c.match[i] > 0 && !seen[d.Toks[i].Stem] {
				seen[d.Toks[i].Stem] = true
				s += c.match[i]
			}
			if c.bigram[i] {
				s += 0.5 * c.match[i+1]
			}
			if c.match[i] > 0 && q.Verbs[d.Toks[i].Stem] {
				c.sVerb[si] = true
			}
		}
		c.sScore[si] = s
		c.sFrac[si] = s / c.qTotal
		if s > c.best {
			c.best = s
		}
	}
	c.sMiss = make([]float64, ns)
	c.sHasH = make([]bool, ns)
	for si, r := range d.Sents {
		clear(seen)
		for i := r[0]; i < r[1]; i++ {
			if c.match[i] > 0 {
				seen[d.Toks[i].Stem] = true
			}
			if d.Toks[i].Stem == c.hd {
				c.sHasH[si] = true
			}
		}
		for _, t := range c.terms {
			if w := q.Terms[t]; w > c.sMiss[si] && !seen[t] {
				c.sMiss[si] = w
			}
		}
	}
	order := make([]int, ns)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return c.sScore[order[a]] > c.sScore[order[b]] })
	for r, si := range order {
		c.sRank[si] = r
	}
	return c
}

// hash is FNV-1a over the parts, separated so that ("ab","c") differs
// from ("a","bc").
func hash(parts ...string) uint32 {
	h := uint64(14695981039346656037)
	for _, p := range parts {
		for i := 0; i < len(p); i++ {
			h ^= uint64(p[i])
			h *= 1099511628211
		}
		h ^= 0xff
		h *= 1099511628211
	}
	return uint32(h^(h>>32)) & mask
}

func coarse(tag string) string {
	switch {
	case tag == "NNP" || tag == "NNPS":
		return "P"
	case strings.HasPrefix(tag, "NN"):
		return "N"
	case strings.HasPrefix(tag, "JJ"):
		return "J"
	case strings.HasPrefix(tag, "VB"):
		return "V"
	case tag == "CD":
		return "C"
	case tag == "DT" || tag == "PDT":
		return "D"
	case tag == "IN" || tag == "TO":
		return "I"
	case strings.HasPrefix(tag, "RB"):
		return "R"
	case tag == "":
		return "_"
	}
	return tag
}

func bucket(v int, edges ...int) string {
	for _, e := range edges {
		if v <= e {
			return strconv.Itoa(e)
		}
	}
	return ">"
}

func fbucket(v float64, edges ...float64) string {
	for i, e := range edges {
		if v <= e {
			return strconv.Itoa(i)
		}
	}
	return ">"
}

var kindNames = [nKinds]string{"np", "prop", "num", "date", "adj", "of", "quote", "paren", "suffix", "verb", "clause", "ent"}

// pathWord is how a token appears in a short path between a span and a
// matched question word: function words as themselves, others as tags.
func pathWord(t *Tok) string {
	if t.Stop || !t.Word {
		return t.Low
	}
	return coarse(t.Tag)
}

// featureGroups are the feature groups in the order Features adds them
// (see the feat methods).
var featureGroups = []func(*feat){
	(*feat).sentence,
	(*feat).kind,
	(*feat).shape,
	(*feat).around,
	(*feat).head,
	(*feat).overlap,
	(*feat).windows,
	(*feat).nearest,
	(*feat).proximity,
	(*feat).order,
	(*feat).headNear,
	(*feat).qprep,
	(*feat).lexical,
	(*feat).position,
	(*feat).answerType,
	(*feat).class,
	(*feat).broad,
	(*feat).entity,
	(*feat).window,
	(*feat).qlast,
	(*feat).number,
	(*feat).sentIndex,
	(*feat).missing,
	(*feat).count,
}

// FeatureGroupNames names featureGroups, in order.
var FeatureGroupNames = []string{"sentence", "kind", "shape", "around", "head", "overlap", "windows", "nearest", "proximity", "order", "headNear", "qprep", "lexical", "position", "answerType", "class", "broad", "entity", "window", "qlast", "number", "sentIndex", "missing", "count"}

// Features appends the hashed features of cand to buf: one group after
// another, in a fixed order (see featureGroups).
func (c *Ctx) Features(cand Cand, buf []uint32) []uint32 {
	f := c.newFeat(cand, buf)
	for _, g := range featureGroups {
		g(f)
	}
	return f.buf
}

// FeatureParts is Features, also appending to ends where each group's
// features end in the list.
func (c *Ctx) FeatureParts(cand Cand, buf []uint32, ends []int) ([]uint32, []int) {
	f := c.newFeat(cand, buf)
	for _, g := range featureGroups {
		g(f)
		ends = append(ends, len(f.buf))
	}
	return f.buf, ends
}

// window: the question's distinct terms within 5 and 12 tokens either
// side of the span, by weight as a share of the question's and by count
// (the sliding window of Richardson et al.'s MCTest baseline; the windows
// group sums each side apart and counts a repeated word twice).
func (f *feat) window() {
	c, T, cand := f.c, f.T, f.cand
	var seen [32]string
	for _, K := range [...]int{5, 12} {
		n, w := 0, 0.0
		for i := max(f.from, cand.S-K); i < min(f.to, cand.E+K); i++ {
			if c.match[i] == 0 || i >= cand.S && i < cand.E {
				continue
			}
			st := T[i].Stem
			dup := false
			for _, x := range seen[:min(n, len(seen))] {
				if x == st {
					dup = true
					break
				}
			}
			if dup {
				continue
			}
			if n < len(seen) {
				seen[n] = st
			}
			n++
			w += c.match[i]
		}
		ks := strconv.Itoa(K)
		share := fbucket(w/c.qTotal, 0, 0.2, 0.4, 0.6, 0.8, 0.99)
		f.add("qwin", ks, share, "w", f.W)
		f.add("qwin", ks, share, "sfrac", f.sfrac)
		f.add("qwinn", ks, bucket(n, 0, 1, 2, 3, 4, 6))
	}
}

// qlast: the question's last word against the word before the span and
// the span's length: "known as", "made of", "called" end the question and
// stand before the answer. Content words other than verbs and particles
// appear as their coarse tags.
func (f *feat) qlast() {
	q := f.c.Q.Toks
	k := len(q) - 1
	for k >= 0 && !q[k].Word {
		k--
	}
	if k < 0 {
		return
	}
	ql := q[k].Low
	if !q[k].Stop && !strings.HasPrefix(q[k].Tag, "VB") && q[k].Tag != "IN" && q[k].Tag != "RP" {
		ql = coarse(q[k].Tag)
	}
	f.add("qlast", ql, "prev", f.prev)
	f.add("qlast", ql, "len", bucket(f.n, 1, 2, 3, 5), "w", f.W)

}

// A feat builds the features of one candidate: what the groups share.
type feat struct {
	c        *Ctx
	T        []Tok
	cand     Cand
	from, to int // the candidate's sentence
	si, n    int
	W, H     string // wh-word and question head
	srank    string
	sfrac    string
	first    *Tok
	last     *Tok
	digits   bool
	prev     string // word before the span, "<s>" at the sentence start
	buf      []uint32
}

func (c *Ctx) newFeat(cand Cand, buf []uint32) *feat {
	T := c.D.Toks
	si := T[cand.S].Sent
	f := &feat{c: c, T: T, cand: cand, from: c.D.Sents[si][0], to: c.D.Sents[si][1], si: si,
		n: cand.E - cand.S, W: c.wh, H: c.hd, first: &T[cand.S], last: &T[cand.E-1], buf: buf}
	f.srank = bucket(c.sRank[si], 0, 1, 2)
	f.sfrac = fbucket(c.sFrac[si], 0, 0.2, 0.4, 0.6, 0.8)
	for i := cand.S; i < cand.E; i++ {
		if T[i].Digit {
			f.digits = true
		}
	}
	f.prev = "<s>"
	if cand.S > f.from {
		f.prev = T[cand.S-1].Low
	}
	return f
}

func (f *feat) add(parts ...string) {
	f.buf = append(f.buf, hash(parts...))
	if f.c.Names != nil {
		*f.c.Names = append(*f.c.Names, strings.Join(parts, "|"))
	}
}

// sentence: the bias, the wh-word, and how well the candidate's sentence
// matches the question (rank, share of the best score, share of the
// question's weight, a question verb in it).
func (f *feat) sentence() {
	c, W := f.c, f.W
	f.add("bias")
	f.add("w", W)
	ratio := "0"
	if c.best > 0 {
		ratio = fbucket(c.sScore[f.si]/c.best, 0, 0.5, 0.75, 0.99)
	}
	f.add("sr", f.srank)
	f.add("sr", f.srank, "ratio", ratio)
	f.add("sr", f.srank, "w", W)
	f.add("sfrac", f.sfrac)
	f.add("sfrac", f.sfrac, "sr", f.srank)
	if c.sVerb[f.si] {
		f.add("sverb", "w", W)
	}
}

// kind: the extractors that produced the span against the question type.
func (f *feat) kind() {
	for k := 0; k < nKinds; k++ {
		if f.cand.K&(1<<k) != 0 {
			f.add("k", kindNames[k], "w", f.W)
			f.add("k", kindNames[k], "h", f.H)
			f.add("k", kindNames[k], "sr", f.srank)
		}
	}
}

// shape: length, tag pattern, first and last tags and words, capitals and
// digits.
func (f *feat) shape() {
	T, cand, W, H := f.T, f.cand, f.W, f.H
	lb := bucket(f.n, 1, 2, 3, 4, 6, 9)
	f.add("len", lb)
	f.add("len", lb, "w", W)
	f.add("len", lb, "h", H)
	first, last := f.first, f.last
	if f.n <= 5 {
		var b strings.Builder
		for i := cand.S; i < cand.E; i++ {
			b.WriteString(coarse(T[i].Tag))
			b.WriteByte('_')
		}
		pat := b.String()
		f.add("pat", pat, "w", W)
		f.add("pat", pat)
	}
	f.add("ft", coarse(first.Tag), "lt", coarse(last.Tag), "w", W)
	f.add("lt", last.Tag, "h", H)
	f.add("ft", first.Tag, "w", W)
	f.add("fw", first.Low, "w", W)
	f.add("fw", first.Low)
	if f.n > 1 {
		f.add("lw", last.Low)
	}
	if first.Cap && first.Word {
		f.add("cap", "w", W)
	}
	if f.digits {
		f.add("digit", "w", W)
		f.add("digit", "h", H)
	}
}

// around: the words and tags just outside the span.
func (f *feat) around() {
	T, cand, W := f.T, f.cand, f.W
	prevTag, next, nextTag := "<s>", "</s>", "</s>"
	if cand.S > f.from {
		prevTag = coarse(T[cand.S-1].Tag)
	}
	if cand.E < f.to {
		next, nextTag = T[cand.E].Low, coarse(T[cand.E].Tag)
	}
	f.add("prev", f.prev)
	f.add("prev", f.prev, "w", W)
	f.add("next", next)
	f.add("next", next, "w", W)
	f.add("pt", prevTag, "nt", nextTag, "w", W)
	if cand.S > f.from && cand.E < f.to && T[cand.S-1].Text == "(" && T[cand.E].Text == ")" {
		f.add("inparen", "w", W)
	}
}

// head: the lexicalised answer type, the span's head word against the
// wh-word and the question's head noun.
func (f *feat) head() {
	T, W, H := f.T, f.W, f.H
	head := f.last.Stem
	f.add("hw", head, "w", W)
	if H != "" {
		f.add("hw", head, "h", H)
	}
	if H != "" && !strings.HasPrefix(H, "v:") {
		for i := f.cand.S; i < f.cand.E; i++ {
			if T[i].Stem == H {
				f.add("hasH", "w", W)
				break
			}
		}
	}
	f.add("hidf", fbucket(idfOfTok(f.c, f.last), 2, 4, 6, 8), "w", W)
}

// overlap: question words inside the span (answers rarely repeat the
// question).
func (f *feat) overlap() {
	T, W := f.T, f.W
	inQ, content := 0, 0
	for i := f.cand.S; i < f.cand.E; i++ {
		if T[i].Word && !T[i].Stop {
			content++
			if f.c.match[i] > 0 {
				inQ++
			}
		}
	}
	switch {
	case content == 0:
		f.add("inq", "nocontent", "w", W)
	case inQ == 0:
		f.add("inq", "none")
	case inQ == content:
		f.add("inq", "all", "w", W)
	default:
		f.add("inq", "some", "w", W)
		f.add("inqfrac", fbucket(float64(inQ)/float64(content), 0.34, 0.67))
	}
}

// windows: the question's weight matched in windows of 3, 8 and 20 tokens
// left and right of the span, and question bigrams near it.
func (f *feat) windows() {
	c, cand, from, to := f.c, f.cand, f.from, f.to
	for _, K := range [...]int{3, 8, 20} {
		l, r := 0.0, 0.0
		for i := max(from, cand.S-K); i < cand.S; i++ {
			l += c.match[i]
		}
		for i := cand.E; i < min(to, cand.E+K); i++ {
			r += c.match[i]
		}
		ks := strconv.Itoa(K)
		lf, rf := fbucket(l/c.qTotal, 0, 0.15, 0.3, 0.5, 0.75), fbucket(r/c.qTotal, 0, 0.15, 0.3, 0.5, 0.75)
		f.add("wl", ks, lf)
		f.add("wr", ks, rf)
		f.add("wlr", ks, lf, rf, "w", f.W)
		f.add("wboth", ks, fbucket((l+r)/c.qTotal, 0, 0.15, 0.3, 0.5, 0.75, 0.9), "sr", f.srank)
	}
	bl, br := 0, 0
	for i := max(from, cand.S-6); i < cand.S-1; i++ {
		if c.bigram[i] {
			bl++
		}
	}
	for i := cand.E; i < min(to, cand.E+6)-1; i++ {
		if c.bigram[i] {
			br++
		}
	}
	f.add("bg", bucket(bl, 0, 1, 2), bucket(br, 0, 1, 2))
}

// nearestMatch returns the nearest matched question word left and right
// of the span in its sentence (-1 if none) and the number of tokens
// between each and the span.
func (f *feat) nearestMatch() (dl, dr, distL, distR int) {
	c, cand := f.c, f.cand
	dl, dr = -1, -1
	for i := cand.S - 1; i >= f.from; i-- {
		if c.match[i] > 0 {
			dl = i
			break
		}
	}
	for i := cand.E; i < f.to; i++ {
		if c.match[i] > 0 {
			dr = i
			break
		}
	}
	if dl >= 0 {
		distL = cand.S - dl - 1
	}
	if dr >= 0 {
		distR = dr - cand.E
	}
	return dl, dr, distL, distR
}

// nearest: the nearest matched question word on each side: distance, tag,
// the short path between, and where the word stands in the question
// relative to the wh-word (a stand-in for the parse path).
func (f *feat) nearest() {
	dl, dr, distL, distR := f.nearestMatch()
	f.side("L", dl, distL)
	f.side("R", dr, distR)
}

func (f *feat) side(name string, m, dist int) {
	c, T, W := f.c, f.T, f.W
	if m < 0 {
		f.add(name, "none", "w", W)
		return
	}
	db := bucket(dist, 0, 1, 2, 4, 8, 16)
	f.add(name, "d", db)
	f.add(name, "d", db, "w", W)
	mt := &T[m]
	f.add(name, "t", coarse(mt.Tag), "w", W)
	if c.Q.Verbs[mt.Stem] {
		f.add(name, "qverb", "d", db, "w", W)
	}
	if dist <= 4 {
		var b strings.Builder
		lo, hi := m+1, f.cand.S
		if name == "R" {
			lo, hi = f.cand.E, m
		}
		for i := lo; i < hi; i++ {
			b.WriteString(pathWord(&T[i]))
			b.WriteByte(' ')
		}
		p := b.String()
		f.add(name, "path", p, coarse(mt.Tag), "w", W)
		f.add(name, "path", p)
	}
	if c.Q.WhPos >= 0 {
		rel := c.qpos[m] - c.Q.WhPos
		rb := "0"
		switch {
		case rel < 0:
			rb = "-" + bucket(-rel, 1, 2, 4)
		default:
			rb = bucket(rel, 1, 2, 3, 5)
		}
		f.add(name, "qrel", rb, "w", W)
		f.add(name, "qrel", rb, "d", bucket(dist, 0, 2, 6))
	}
}

// proximity: question words weighted by closeness to the span, and the
// weight of the nearest one on each side.
func (f *feat) proximity() {
	c, cand := f.c, f.cand
	prox := 0.0
	for i := f.from; i < f.to; i++ {
		if c.match[i] == 0 || (i >= cand.S && i < cand.E) {
			continue
		}
		dist := cand.S - i
		if i >= cand.E {
			dist = i - cand.E + 1
		}
		prox += c.match[i] / float64(dist)
	}
	pb := fbucket(prox/c.qTotal, 0, 0.1, 0.2, 0.35, 0.5, 0.75, 1)
	f.add("prox", pb)
	f.add("prox", pb, "w", f.W)
	f.add("prox", pb, "sr", f.srank)
	dl, dr, distL, distR := f.nearestMatch()
	if dl >= 0 {
		f.add("Lidf", fbucket(c.match[dl], 2, 4, 6), "d", bucket(distL, 0, 2, 6))
	}
	if dr >= 0 {
		f.add("Ridf", fbucket(c.match[dr], 2, 4, 6), "d", bucket(distR, 0, 2, 6))
	}
}

// order: question words on the same side of the span as they stand of the
// wh-word in the question (a parse-free alignment cue).
func (f *feat) order() {
	c, cand := f.c, f.cand
	if c.Q.WhPos < 0 {
		return
	}
	agree, disagree := 0.0, 0.0
	for i := f.from; i < f.to; i++ {
		if c.match[i] == 0 || (i >= cand.S && i < cand.E) {
			continue
		}
		if (i < cand.S) == (c.qpos[i] < c.Q.WhPos) {
			agree += c.match[i]
		} else {
			disagree += c.match[i]
		}
	}
	if agree+disagree > 0 {
		ab := fbucket(agree/(agree+disagree), 0, 0.25, 0.5, 0.75, 0.99)
		f.add("order", ab, "w", f.W)
		f.add("order", ab, "sfrac", f.sfrac)
	}
}

// headNear: the noun the question asks for, next to the span: "the
// department store Bainbridges", "Duisburg, the largest port".
func (f *feat) headNear() {
	T, cand, H := f.T, f.cand, f.H
	if H == "" || strings.HasPrefix(H, "v:") {
		return
	}
	for i := max(f.from, cand.S-3); i < min(f.to, cand.E+3); i++ {
		if i == cand.S {
			i = cand.E - 1
			continue
		}
		if T[i].Stem == H {
			side := "L"
			if i >= cand.E {
				side = "R"
			}
			f.add("Hnear", side, "w", f.W)
			break
		}
	}
	f.add("hprev", H, f.prev)
}

// qprep: the preposition before the wh-word ("in what year") often
// precedes the answer too.
func (f *feat) qprep() {
	if f.c.qprep == "" {
		return
	}
	f.add("qprep", f.c.qprep, "prev", f.prev)
	if f.c.qprep == f.prev {
		f.add("qprepSame", "w", f.W)
	}
}

// lexical: each question term against the kind of span, and the share of
// capitalised words.
func (f *feat) lexical() {
	T, cand := f.T, f.cand
	sig := coarse(f.last.Tag)
	if f.digits {
		sig += "#"
	}
	if f.first.Cap {
		sig += "^"
	}
	for _, t := range f.c.terms {
		f.add("qt", t, sig)
	}
	caps := 0
	for i := cand.S; i < cand.E; i++ {
		if T[i].Cap {
			caps++
		}
	}
	f.add("caps", fbucket(float64(caps)/float64(f.n), 0, 0.5, 0.99), "w", f.W)
}

// answerType: the type the question asks for against the candidate's
// type (see CandType), and whether they agree.
func (f *feat) answerType() {
	qt, ct := f.c.Q.Type, CandType(f.c.D, f.cand)
	f.add("at", qt, ct)
	f.add("at", qt, ct, "w", f.W)
	switch {
	case Agrees(qt, ct):
		f.add("atAgree", "w", f.W)
	case qt != TOther:
		f.add("atDisagree", qt, "sr", f.srank)
	}
}

// class: whether the span's last word belongs, by WordNet, to the class
// the question asks for ("what country": "Ireland" is one).
func (f *feat) class() {
	h := f.H
	if h == "" || strings.HasPrefix(h, "v:") {
		return
	}
	if _, after, ok := strings.Cut(h, "_of_"); ok {
		h = after
	}
	known, is := IsA(f.last.Low, h)
	switch {
	case is:
		f.add("isa", "w", f.W)
		f.add("isa", "sr", f.srank)
	case known:
		f.add("notisa", "w", f.W)
	}
}

// position: where the span stands in its sentence.
func (f *feat) position() {
	cand, to := f.cand, f.to
	f.add("pos", bucket(cand.S-f.from, 0, 2, 5, 10, 20), "w", f.W)
	if cand.E == to || (cand.E+1 == to && !f.T[cand.E].Word) {
		f.add("atend", "w", f.W)
	}
}

var pronouns = map[string]bool{"he": true, "she": true, "they": true, "it": true,
	"his": true, "her": true, "their": true, "its": true, "him": true, "them": true}

// resolvePronouns is a light coreference step: in a sentence that names
// none of the question's capitalised terms, the first personal pronoun
// stands for the last run of capitalised question terms before it ("Marie
// Curie ... She died in 1934"), and matches with their summed weight.
// Runs are looked for in the sentences before, the nearest first. A run
// that ends a longer name the question does not give ("Curie" of "Pierre
// Curie", when the question asks about Marie Curie) names someone else: it
// is no antecedent.
func (c *Ctx) resolvePronouns() {
	T := c.D.Toks
	entW, entPos := 0.0, -1
	for _, r := range c.D.Sents {
		named := false
		runW, runPos := 0.0, -1
		other := false // the current run ends another name
		for i := r[0]; i < r[1]; i++ {
			if c.match[i] > 0 && T[i].Cap && i > r[0] || c.match[i] > 0 && T[i].Cap && T[i].Tag == "NNP" {
				named = true
				if i == r[0] || !(c.match[i-1] > 0 && T[i-1].Cap) {
					other = i > r[0] && T[i-1].Cap && T[i-1].Word && c.match[i-1] == 0 && (i-1 > r[0] || T[i-1].Tag == "NNP")
					if other {
						continue
					}
					runW, runPos = 0, c.qpos[i]
				} else if other {
					continue
				}
				runW += c.match[i]
			}
		}
		if !named && entW > 0 {
			for i := r[0]; i < r[1]; i++ {
				if pronouns[T[i].Low] {
					c.match[i], c.qpos[i] = entW, entPos
					break
				}
			}
		}
		if runW > 0 {
			entW, entPos = runW, runPos
		}
	}
}

func idfOfTok(c *Ctx, t *Tok) float64 {
	if t.Stop || !t.Word {
		return 0
	}
	return c.idf(t.Stem)
}

const broadDone = 1 << 63

func (c *Ctx) broadOf(i int) uint64 {
	if c.tokBroad[i]&broadDone == 0 {
		t := &c.D.Toks[i]
		var b uint64
		if isNoun(t.Tag) {
			if bb, ok := Broad(t.Low); ok {
				b = bb
			} else {
				b = 1 << 62 // unknown noun
			}
		}
		c.tokBroad[i] = b | broadDone
	}
	return c.tokBroad[i] &^ broadDone
}

// broad: the WordNet classes of the span's last word against the
// question's head noun and the wh-word ("what religion":
// Catholicism is a belief).
func (f *feat) broad() {
	b := f.c.broadOf(f.cand.E - 1)
	if b == 0 {
		return
	}
	if b == 1<<62 {
		f.add("bc", "?", "w", f.W)
		return
	}
	H := f.H
	noun := H != "" && !strings.HasPrefix(H, "v:")
	for i, name := range broadClasses {
		if b&(1<<i) == 0 {
			continue
		}
		f.add("bc", name, "w", f.W)
		if noun {
			f.add("bc", name, "h", H)
		}
	}
}

// entity: the named entity the span is, is part of, holds or crosses
// (see EntityOf), alone and against the wh-word, the question's head and
// the answer type it asks for ("when" and DATE, "who" and PERSON).
func (f *feat) entity() {
	rel, l := EntityOf(f.c.D, f.cand)
	f.add("ne", rel, l)
	f.add("ne", rel, l, "w", f.W)
	f.add("ne", rel, l, "h", f.H)
	f.add("ne", rel, l, "qt", f.c.Q.Type)
	f.add("ne", rel, l, "sr", f.srank)
}

// number: a coordination inside the span ("England and France") and the
// number of its last word against what the question asks for.
func (f *feat) number() {
	T, cand := f.T, f.cand
	coord := "-"
	for i := cand.S + 1; i < cand.E-1; i++ {
		if T[i].Low == "and" || T[i].Low == "or" || T[i].Text == "," {
			coord = "c"
			break
		}
	}
	sn := "o"
	switch f.last.Tag {
	case "NNS", "NNPS":
		sn = "pl"
	case "NN", "NNP":
		sn = "sg"
	}
	qn := f.c.Q.Number
	f.add("num", qn, coord, "w", f.W)
	f.add("num", qn, coord, sn)
}

// sentIndex: where the candidate's sentence stands in the passage,
// against its rank by question words.
func (f *feat) sentIndex() {
	f.add("sidx", bucket(f.si, 0, 1, 2, 4), "sr", f.srank)
}

// missing: the weight of the rarest question term that the candidate's
// sentence does not match (the name the question is about, often), and
// whether the sentence holds the noun the question asks for.
func (f *feat) missing() {
	mb := fbucket(f.c.sMiss[f.si], 0, 2, 4, 6, 8)
	f.add("miss", mb, "sr", f.srank)
	f.add("miss", mb, "w", f.W)
	if f.H != "" && !strings.HasPrefix(f.H, "v:") {
		hs := "n"
		if f.c.sHasH[f.si] {
			hs = "y"
		}
		f.add("hsent", hs, "sr", f.srank)
	}
}

// count: how many things the question asks for ("what were three
// sites"), against the items of the span, counted by its commas and
// conjunctions.
func (f *feat) count() {
	want := f.c.Q.Count
	if want == 0 {
		return
	}
	items := 1
	T := f.T
	for i := f.cand.S + 1; i < f.cand.E-1; i++ {
		if T[i].Text == "," || (T[i].Low == "and" || T[i].Low == "or") && T[i-1].Text != "," {
			items++
		}
	}
	r := "lt"
	switch {
	case items == want:
		r = "eq"
	case items > want:
		r = "gt"
	}
	f.add("count", r)
}
