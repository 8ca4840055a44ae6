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
	qprep  string    // the preposition before the wh-word ("in" what year)
	best   float64
	qTotal float64
	wh, hd string
	idf    func(string) float64
	loose  int // tokens matched by prefix only
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
	for _, w := range q.Terms {
		c.qTotal += w
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

var kindNames = [nKinds]string{"np", "prop", "num", "date", "adj", "of", "quote", "paren", "suffix", "verb"}

// pathWord is how a token appears in a short path between a span and a
// matched question word: function words as themselves, others as tags.
func pathWord(t *Tok) string {
	if t.Stop || !t.Word {
		return t.Low
	}
	return coarse(t.Tag)
}

// Features appends the hashed features of cand to buf.
func (c *Ctx) Features(cand Cand, buf []uint32) []uint32 {
	d, T := c.D, c.D.Toks
	W, H := c.wh, c.hd
	add := func(parts ...string) {
		buf = append(buf, hash(parts...))
		if c.Names != nil {
			*c.Names = append(*c.Names, strings.Join(parts, "|"))
		}
	}
	si := T[cand.S].Sent
	from, to := d.Sents[si][0], d.Sents[si][1]
	n := cand.E - cand.S

	add("bias")
	add("w", W)
	srank := bucket(c.sRank[si], 0, 1, 2)
	ratio := "0"
	if c.best > 0 {
		ratio = fbucket(c.sScore[si]/c.best, 0, 0.5, 0.75, 0.99)
	}
	sfrac := fbucket(c.sFrac[si], 0, 0.2, 0.4, 0.6, 0.8)
	add("sr", srank)
	add("sr", srank, "ratio", ratio)
	add("sr", srank, "w", W)
	add("sfrac", sfrac)
	add("sfrac", sfrac, "sr", srank)
	if c.sVerb[si] {
		add("sverb", "w", W)
	}

	for k := 0; k < nKinds; k++ {
		if cand.K&(1<<k) != 0 {
			add("k", kindNames[k], "w", W)
			add("k", kindNames[k], "h", H)
			add("k", kindNames[k], "sr", srank)
		}
	}
	lb := bucket(n, 1, 2, 3, 4, 6, 9)
	add("len", lb)
	add("len", lb, "w", W)
	add("len", lb, "h", H)

	// POS pattern of the span.
	first, last := &T[cand.S], &T[cand.E-1]
	if n <= 5 {
		var b strings.Builder
		for i := cand.S; i < cand.E; i++ {
			b.WriteString(coarse(T[i].Tag))
			b.WriteByte('_')
		}
		pat := b.String()
		add("pat", pat, "w", W)
		add("pat", pat)
	}
	add("ft", coarse(first.Tag), "lt", coarse(last.Tag), "w", W)
	add("lt", last.Tag, "h", H)
	add("ft", first.Tag, "w", W)
	add("fw", first.Low, "w", W)
	add("fw", first.Low)
	if n > 1 {
		add("lw", last.Low)
	}
	if first.Cap && first.Word {
		add("cap", "w", W)
	}
	digits := false
	for i := cand.S; i < cand.E; i++ {
		if T[i].Digit {
			digits = true
		}
	}
	if digits {
		add("digit", "w", W)
		add("digit", "h", H)
	}

	// Context tokens on either side.
	prev, prevTag, next, nextTag := "<s>", "<s>", "</s>", "</s>"
	if cand.S > from {
		prev, prevTag = T[cand.S-1].Low, coarse(T[cand.S-1].Tag)
	}
	if cand.E < to {
		next, nextTag = T[cand.E].Low, coarse(T[cand.E].Tag)
	}
	add("prev", prev)
	add("prev", prev, "w", W)
	add("next", next)
	add("next", next, "w", W)
	add("pt", prevTag, "nt", nextTag, "w", W)
	if cand.S > from && cand.E < to && T[cand.S-1].Text == "(" && T[cand.E].Text == ")" {
		add("inparen", "w", W)
	}

	// Lexicalised answer type: the span's head word against the wh-word and
	// the question's head noun.
	head := last.Stem
	add("hw", head, "w", W)
	if H != "" {
		add("hw", head, "h", H)
	}
	if H != "" && !strings.HasPrefix(H, "v:") {
		for i := cand.S; i < cand.E; i++ {
			if T[i].Stem == H {
				add("hasH", "w", W)
				break
			}
		}
	}
	add("hidf", fbucket(idfOfTok(c, last), 2, 4, 6, 8), "w", W)

	// Question words inside the span: answers rarely repeat the question.
	inQ, content := 0, 0
	for i := cand.S; i < cand.E; i++ {
		if T[i].Word && !T[i].Stop {
			content++
			if c.match[i] > 0 {
				inQ++
			}
		}
	}
	switch {
	case content == 0:
		add("inq", "nocontent", "w", W)
	case inQ == 0:
		add("inq", "none")
	case inQ == content:
		add("inq", "all", "w", W)
	default:
		add("inq", "some", "w", W)
		add("inqfrac", fbucket(float64(inQ)/float64(content), 0.34, 0.67))
	}

	// Question words around the span.
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
		add("wl", ks, lf)
		add("wr", ks, rf)
		add("wlr", ks, lf, rf, "w", W)
		add("wboth", ks, fbucket((l+r)/c.qTotal, 0, 0.15, 0.3, 0.5, 0.75, 0.9), "sr", srank)
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
	add("bg", bucket(bl, 0, 1, 2), bucket(br, 0, 1, 2))

	// Nearest matched question words on each side: distance, tag, the
	// short path between, and where the word stands in the question
	// relative to the wh-word (a stand-in for the parse path).
	dl, dr := -1, -1
	for i := cand.S - 1; i >= from; i-- {
		if c.match[i] > 0 {
			dl = i
			break
		}
	}
	for i := cand.E; i < to; i++ {
		if c.match[i] > 0 {
			dr = i
			break
		}
	}
	side := func(name string, m, dist int) {
		if m < 0 {
			add(name, "none", "w", W)
			return
		}
		db := bucket(dist, 0, 1, 2, 4, 8, 16)
		add(name, "d", db)
		add(name, "d", db, "w", W)
		mt := &T[m]
		add(name, "t", coarse(mt.Tag), "w", W)
		if c.Q.Verbs[mt.Stem] {
			add(name, "qverb", "d", db, "w", W)
		}
		if dist <= 4 {
			var b strings.Builder
			lo, hi := m+1, cand.S
			if name == "R" {
				lo, hi = cand.E, m
			}
			for i := lo; i < hi; i++ {
				b.WriteString(pathWord(&T[i]))
				b.WriteByte(' ')
			}
			p := b.String()
			add(name, "path", p, coarse(mt.Tag), "w", W)
			add(name, "path", p)
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
			add(name, "qrel", rb, "w", W)
			add(name, "qrel", rb, "d", bucket(dist, 0, 2, 6))
		}
	}
	distL, distR := 0, 0
	if dl >= 0 {
		distL = cand.S - dl - 1
	}
	if dr >= 0 {
		distR = dr - cand.E
	}
	side("L", dl, distL)
	side("R", dr, distR)

	// Proximity: question words weighted by closeness to the span.
	prox := 0.0
	for i := from; i < to; i++ {
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
	add("prox", pb)
	add("prox", pb, "w", W)
	add("prox", pb, "sr", srank)
	if dl >= 0 {
		add("Lidf", fbucket(c.match[dl], 2, 4, 6), "d", bucket(distL, 0, 2, 6))
	}
	if dr >= 0 {
		add("Ridf", fbucket(c.match[dr], 2, 4, 6), "d", bucket(distR, 0, 2, 6))
	}

	// Word order: question words on the same side of the span as they
	// stand of the wh-word in the question (a parse-free alignment cue).
	if c.Q.WhPos >= 0 {
		agree, disagree := 0.0, 0.0
		for i := from; i < to; i++ {
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
			add("order", ab, "w", W)
			add("order", ab, "sfrac", sfrac)
		}
	}

	// The noun the question asks for, next to the span: "the department
	// store Bainbridges", "Duisburg, the largest port".
	if H != "" && !strings.HasPrefix(H, "v:") {
		for i := max(from, cand.S-3); i < min(to, cand.E+3); i++ {
			if i == cand.S {
				i = cand.E - 1
				continue
			}
			if T[i].Stem == H {
				side := "L"
				if i >= cand.E {
					side = "R"
				}
				add("Hnear", side, "w", W)
				break
			}
		}
		add("hprev", H, prev)
	}

	// The preposition before the wh-word often precedes the answer too.
	if c.qprep != "" {
		add("qprep", c.qprep, "prev", prev)
		if c.qprep == prev {
			add("qprepSame", "w", W)
		}
	}

	// Lexicalised question terms against the kind of span.
	sig := coarse(last.Tag)
	if digits {
		sig += "#"
	}
	if first.Cap {
		sig += "^"
	}
	for t := range c.Q.Terms {
		add("qt", t, sig)
	}
	caps := 0
	for i := cand.S; i < cand.E; i++ {
		if T[i].Cap {
			caps++
		}
	}
	add("caps", fbucket(float64(caps)/float64(n), 0, 0.5, 0.99), "w", W)

	// Position in the sentence.
	add("pos", bucket(cand.S-from, 0, 2, 5, 10, 20), "w", W)
	if cand.E == to || (cand.E+1 == to && !T[cand.E].Word) {
		add("atend", "w", W)
	}
	return buf
}

func idfOfTok(c *Ctx, t *Tok) float64 {
	if t.Stop || !t.Word {
		return 0
	}
	return c.idf(t.Stem)
}
