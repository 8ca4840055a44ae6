package core

import (
	"errors"
	"fmt"
	"io"
	"math"
	"math/bits"
	"slices"
	"sort"
	"strings"

	"github.com/textanalysis/go-textanalysis/internal/modelfile"
)

// A Group is one answer text among the ranked candidates: every span
// with the same normalised words (see Best), represented by its most
// probable span, with the summed probability of all.
type Group struct {
	Scored
	Mass float64
	N    int // spans with this text
}

// answerKey is the normalised text Best groups spans by.
func answerKey(d *Doc, c Cand) string {
	var b strings.Builder
	for i := c.S; i < c.E; i++ {
		if d.Toks[i].Low == "the" || d.Toks[i].Low == "a" || d.Toks[i].Low == "an" || !d.Toks[i].Word {
			continue
		}
		b.WriteString(d.Toks[i].Low)
		b.WriteByte(' ')
	}
	return b.String()
}

// Groups returns the k answer texts of most mass, the most probable
// first, in the order Best would choose them: the first group's span is
// what Best returns.
func Groups(d *Doc, ss []Scored, k int) []Group {
	idx := map[string]int{}
	var gs []Group
	for _, s := range ss {
		key := answerKey(d, s.Cand)
		i, ok := idx[key]
		if !ok {
			idx[key] = len(gs)
			gs = append(gs, Group{Scored: s})
			i = len(gs) - 1
		} else if s.P > gs[i].P {
			gs[i].Scored = s
		}
		gs[i].Mass += s.P
		gs[i].N++
	}
	sort.SliceStable(gs, func(a, b int) bool {
		return gs[a].Mass+1e-9*gs[a].P > gs[b].Mass+1e-9*gs[b].P
	})
	if len(gs) > k {
		gs = gs[:k]
	}
	return gs
}

// Dense feature names, in the order Dense writes them.
var DenseNames = []string{
	"logmass", "gap", "rank", "logp", "spans", "len", "agree", "qtyped",
	"qtype", "wh", "srank", "sfrac", "smiss", "sidx", "ent", "clause",
	"np", "num", "date", "proper", "rel", "topmass", "entropy", "echo",
	"dist", "qterms", "lenratio", "caps", "digits", "hsent", "sbest",
	"smass", "omass", "cmass", "tokmean", "tokmin", "before", "after", "topsmass",
	"topagree", "toplen", "topdist", "topsrank", "topecho",
	"lwin", "rwin", "ldist", "rdist", "vdist", "bigrams", "hdist", "cov", "covgap", "order",
}

// NumDense is the length of a dense row: DenseNames, then the first
// stage's score of each feature group (FeatureGroupNames).
var NumDense = len(DenseNames) + len(FeatureGroupNames)

// ShapeNames name the dense features of shape, which rows carry only
// after EnableShapeDense.
var ShapeNames = []string{"isa", "bshare", "firstw", "prevw", "nextw", "inner", "howk", "nerel", "nelab"}

// shapeDense is set by EnableShapeDense.
var shapeDense bool

// EnableShapeDense adds the features of shape to every dense row, after
// the others of DenseNames. It is an experiment of trainqa (-rshape),
// off by default: the shipped forest was trained without them, and
// they did not raise the held-out folds (see trainqa's doc). Call it
// before any row is made; it is not safe for concurrent use.
func EnableShapeDense() {
	if shapeDense {
		return
	}
	shapeDense = true
	DenseNames = append(DenseNames[:len(DenseNames):len(DenseNames)], ShapeNames...)
	NumDense = len(DenseNames) + len(FeatureGroupNames)
}

// A Dense computes the dense features of one question's groups.
type Dense struct {
	c  *Ctx
	m  *Model
	gs []Group
	// tok is each token's marginal: the summed probability of the
	// candidates that hold it; sent is each sentence's.
	tok, sent []float64
	ss        []Scored
	top       []float32
	// topCov is the best group's window coverage (see align).
	topCov float32
}

// NewDense prepares the dense features of gs, the groups of ss.
func (c *Ctx) NewDense(m *Model, ss []Scored, gs []Group) *Dense {
	d := &Dense{c: c, m: m, gs: gs, ss: ss, tok: make([]float64, len(c.D.Toks)), sent: make([]float64, len(c.D.Sents))}
	for _, s := range ss {
		for j := s.S; j < s.E; j++ {
			d.tok[j] += s.P
		}
		d.sent[c.D.Toks[s.S].Sent] += s.P
	}
	if len(gs) > 0 {
		x := d.Row(0, nil)
		// The best group's own agreement, length, distance, sentence rank
		// and echo, for every row.
		d.top = []float32{x[6], x[5], x[24], x[10], x[23]}
		d.topCov = x[slices.Index(DenseNames, "cov")]
	}
	return d
}

// Row writes the dense features of group i (see DenseNames).
func (d *Dense) Row(i int, out []float32) []float32 {
	c, g := d.c, d.gs[i]
	out = c.dense(d.gs, i, out)
	T := c.D.Toks
	si := T[g.S].Sent
	om, cm := 0.0, 0.0
	for _, s := range d.ss {
		if s.S < g.E && g.S < s.E {
			om += s.P
			if s.S >= g.S && s.E <= g.E {
				cm += s.P
			}
		}
	}
	tm, tmin := 0.0, math.Inf(1)
	for j := g.S; j < g.E; j++ {
		tm += d.tok[j]
		tmin = math.Min(tmin, d.tok[j])
	}
	before, after := 0.0, 0.0
	if g.S > 0 && T[g.S-1].Sent == si {
		before = d.tok[g.S-1]
	}
	if g.E < len(T) && T[g.E].Sent == si {
		after = d.tok[g.E]
	}
	out = append(out, float32(d.sent[si]), float32(om), float32(cm), float32(tm/float64(g.E-g.S)),
		float32(tmin), float32(before), float32(after), float32(d.sent[T[d.gs[0].S].Sent]))
	if d.top == nil {
		out = append(out, out[6], out[5], out[24], out[10], out[23])
	} else {
		out = append(out, d.top...)
	}
	al := c.align(g.Cand)
	cov := al[7]
	tc := d.topCov
	if d.top == nil {
		tc = cov
	}
	out = append(out, al[:8]...)
	out = append(out, tc-cov, al[8])
	if shapeDense {
		sh := c.shape(g.Cand)
		out = append(out, sh[:]...)
	}
	fs, ends := c.FeatureParts(g.Cand, nil, nil)
	from := 0
	for _, e := range ends {
		out = append(out, float32(d.m.Score(fs[from:e])))
		from = e
	}
	return out
}

// alignWin is the window, in tokens either side of a span, of align.
const alignWin = 10

// align returns how the question's words stand around the span g in its
// sentence: the share of the question's weight within alignWin tokens
// before it and after it, the distance to the nearest matched word on
// each side and to the nearest word that matches a verb of the
// question, the question
// bigrams in the window (counted at their first word), the distance to the question's head noun, the
// share of the question's weight in the window on both sides, and the
// share of the window's matched words whose side of the span is their
// side of the wh-word in the question (1 when there are none).
func (c *Ctx) align(g Cand) [9]float32 {
	T := c.D.Toks
	si := T[g.S].Sent
	from, to := c.D.Sents[si][0], c.D.Sents[si][1]
	ldist, rdist, vdist, hdist := 40, 40, 40, 40
	var lw, rw, all float64
	seenL, seenR, seen := map[string]bool{}, map[string]bool{}, map[string]bool{}
	bigrams, agree, n := 0, 0, 0
	for j := from; j < to; j++ {
		if j >= g.S && j < g.E {
			continue
		}
		d := g.S - j
		left := j < g.S
		if !left {
			d = j - g.E + 1
		}
		if c.hd != "" && T[j].Stem == c.hd {
			hdist = min(hdist, d)
		}
		if c.match[j] == 0 {
			continue
		}
		if left {
			ldist = min(ldist, d)
		} else {
			rdist = min(rdist, d)
		}
		if qp := c.qpos[j]; qp >= 0 && qp < len(c.Q.Toks) && strings.HasPrefix(c.Q.Toks[qp].Tag, "VB") {
			vdist = min(vdist, d)
		}
		if d > alignWin {
			continue
		}
		if c.bigram[j] && j+1 < to && (j+1 < g.S || j+1 >= g.E) {
			bigrams++
		}
		st := T[j].Stem
		if left && !seenL[st] {
			seenL[st] = true
			lw += c.match[j]
		}
		if !left && !seenR[st] {
			seenR[st] = true
			rw += c.match[j]
		}
		if !seen[st] {
			seen[st] = true
			all += c.match[j]
			if c.Q.WhPos >= 0 && c.qpos[j] >= 0 && c.qpos[j] != c.Q.WhPos {
				n++
				if (c.qpos[j] < c.Q.WhPos) == left {
					agree++
				}
			}
		}
	}
	order := float32(1)
	if n > 0 {
		order = float32(agree) / float32(n)
	}
	return [9]float32{float32(lw / c.qTotal), float32(rw / c.qTotal), float32(ldist), float32(rdist),
		float32(vdist), float32(bigrams), float32(hdist), float32(all / c.qTotal), order}
}

// wordClass sorts the word at an answer's edge: 1 a means ("by",
// "via", "through", "with", "using"), 2 a reason ("because", "since",
// "due", "owing", "thanks", "as"), 3 "to", 4 another preposition, 5 a
// verb's -ing form, 6 a determiner, 7 punctuation, 8 a conjunction, 9
// a verb, 0 anything else; -1 is the edge of the sentence.
func wordClass(t *Tok) float32 {
	switch t.Low {
	case "by", "via", "through", "with", "using", "without":
		return 1
	case "because", "since", "due", "owing", "thanks", "as":
		return 2
	case "to":
		return 3
	}
	switch {
	case t.Tag == "IN":
		return 4
	case t.Tag == "VBG":
		return 5
	case t.Tag == "DT" || t.Tag == "PRP$":
		return 6
	case !t.Word:
		return 7
	case t.Tag == "CC":
		return 8
	case strings.HasPrefix(t.Tag, "VB") || t.Tag == "MD":
		return 9
	}
	return 0
}

// howAux are the words after "how" that make it ask for a manner.
var howAux = wordSet("did does do was were is are can could has have had would should might will may must")

// shape returns what the span's words say about the kind of answer: 2
// when WordNet puts its last word in the class the question's head noun
// names ("what country": "Ireland"), 1 when WordNet knows the word but
// not as one, 0 otherwise; the share of the head noun's broad WordNet
// classes that the last word has; the classes (see wordClass) of its
// first word, the word before it and the word after it; the words
// inside it after the first that start a phrase of their own (a
// preposition, "to", a comma, a conjunction: "train to study physics");
// how the question asks "how" (1 the manner: "how did", 2 otherwise:
// "how important", 0 not at all or as "how many", "how long"); and the relation and
// label of its named entity (see EntityOf; indices of neRels and
// neLabels, -1 for none).
func (c *Ctx) shape(g Cand) [9]float32 {
	T := c.D.Toks
	last := &T[g.E-1]
	h := c.hd
	if _, after, ok := strings.Cut(h, "_of_"); ok {
		h = after
	}
	var isa, bshare float32
	if h != "" && !strings.HasPrefix(h, "v:") {
		if known, is := IsA(last.Low, h); is {
			isa = 2
		} else if known {
			isa = 1
		}
		if hb := c.headBroad(h); hb != 0 {
			lb := c.broadOf(g.E - 1)
			if lb != 1<<62 {
				bshare = float32(bits.OnesCount64(lb&hb)) / float32(bits.OnesCount64(hb))
			}
		}
	}
	si := T[g.S].Sent
	from, to := c.D.Sents[si][0], c.D.Sents[si][1]
	prev, next := float32(-1), float32(-1)
	if g.S > from {
		prev = wordClass(&T[g.S-1])
	}
	if g.E < to {
		next = wordClass(&T[g.E])
	}
	inner := 0
	for j := g.S + 1; j < g.E; j++ {
		t := &T[j]
		if t.Tag == "IN" || t.Low == "to" || t.Text == "," || t.Tag == "CC" || t.Tag == "WDT" {
			inner++
		}
	}
	howk := float32(0)
	if c.Q.Wh == "how" {
		howk = 2
		if j := c.Q.WhPos + 1; j < len(c.Q.Toks) && howAux()[c.Q.Toks[j].Stem] {
			howk = 1
		}
	}
	rel, lab := EntityOf(c.D, g)
	return [9]float32{isa, bshare, wordClass(&T[g.S]), prev, next, float32(inner), howk,
		float32(slices.Index(neRels, rel)), float32(slices.Index(neLabels, lab))}
}

// neRels and neLabels number the entity relations and labels for shape.
var (
	neRels   = []string{NENone, NEExact, NEInside, NEContain, NEPartial}
	neLabels = strings.Fields("PERSON NORP FAC ORG GPE LOC PRODUCT EVENT WORK_OF_ART LAW LANGUAGE DATE TIME PERCENT MONEY QUANTITY ORDINAL CARDINAL MISC")
)

// headBroad returns the broad WordNet classes of the question's head
// noun h (a stem), found by its word in the question, or 0.
func (c *Ctx) headBroad(h string) uint64 {
	if c.hbDone {
		return c.hb
	}
	c.hbDone = true
	for _, t := range c.Q.Toks {
		if t.Stem == h && isNoun(t.Tag) {
			if b, ok := Broad(t.Low); ok {
				c.hb = b
			}
			break
		}
	}
	return c.hb
}

var qtypeIDs = map[string]int{TOther: 0, TDate: 1, TMoney: 2, TPercent: 3, TNumber: 4, TName: 5, TAmount: 6, TQuantity: 7, TPlace: 8}

var whIDs = map[string]int{"none": 0, "what": 1, "which": 2, "who": 3, "whom": 3, "whose": 4, "when": 5,
	"where": 6, "why": 7, "how": 8, "how_many": 9, "how_much": 10}

// dense writes the first dense features of group i of gs (see DenseNames):
// what the linear scorer saw, summed to one number, against what it does
// not combine: its rank and margin, the span's length and type, its
// sentence's match with the question, and where it stands to the best
// group's span.
func (c *Ctx) dense(gs []Group, i int, out []float32) []float32 {
	g, top := gs[i], gs[0]
	T := c.D.Toks
	b2f := func(b bool) float32 {
		if b {
			return 1
		}
		return 0
	}
	si := T[g.S].Sent
	n := g.E - g.S
	ct := CandType(c.D, g.Cand)
	// How the span stands to the best group's: 0 the same, 1 inside it, 2
	// around it, 3 overlapping, 4 in the same sentence, 5 elsewhere.
	rel := 5
	switch {
	case i == 0:
		rel = 0
	case g.S >= top.S && g.E <= top.E:
		rel = 1
	case g.S <= top.S && g.E >= top.E:
		rel = 2
	case g.S < top.E && top.S < g.E:
		rel = 3
	case T[top.S].Sent == si:
		rel = 4
	}
	ent := 0.0
	for _, h := range gs {
		if h.Mass > 0 {
			ent -= h.Mass * math.Log(h.Mass)
		}
	}
	content, echo, caps, digits := 0, 0, 0, 0
	for j := g.S; j < g.E; j++ {
		t := &T[j]
		if t.Cap {
			caps++
		}
		if t.Digit {
			digits++
		}
		if !t.Word || t.Stop {
			continue
		}
		content++
		if _, ok := c.Q.Terms[t.Stem]; ok {
			echo++
		}
	}
	echoFrac := float32(0)
	if content > 0 {
		echoFrac = float32(echo) / float32(content)
	}
	// Distance in tokens to the nearest question term in the sentence.
	dist := 40
	from, to := c.D.Sents[si][0], c.D.Sents[si][1]
	for j := from; j < to; j++ {
		if c.match[j] == 0 || (j >= g.S && j < g.E) {
			continue
		}
		d := g.S - j
		if j >= g.E {
			d = j - g.E + 1
		}
		dist = min(dist, d)
	}
	sbest := float32(0)
	if c.best > 0 {
		sbest = float32(c.sScore[si] / c.best)
	}
	qt := c.Q.Type
	return append(out,
		float32(math.Log(g.Mass+1e-12)),
		float32(math.Log(top.Mass+1e-12)-math.Log(g.Mass+1e-12)),
		float32(i),
		float32(math.Log(g.P+1e-12)),
		float32(g.N),
		float32(n),
		b2f(Agrees(qt, ct)),
		b2f(qt != TOther),
		float32(qtypeIDs[qt]),
		float32(whIDs[c.Q.Wh]),
		float32(c.sRank[si]),
		float32(c.sFrac[si]),
		float32(c.sMiss[si]),
		float32(si),
		b2f(g.K&KEnt != 0),
		b2f(g.K&(KClause|KVerb) != 0),
		b2f(g.K&KNP != 0),
		b2f(g.K&KNum != 0),
		b2f(g.K&KDate != 0),
		b2f(g.K&KProper != 0),
		float32(rel),
		float32(top.Mass),
		float32(ent),
		echoFrac,
		float32(dist),
		float32(len(c.Q.Terms)),
		float32(n)/float32(top.E-top.S),
		float32(caps)/float32(n),
		float32(digits)/float32(n),
		b2f(c.sHasH[si]),
		sbest,
	)
}

// A Forest is a sum of regression trees over dense features: the
// second stage that picks among the linear scorer's best groups.
type Forest struct {
	Base  float32
	Trees []Tree
}

// A Tree is stored as parallel node arrays; a node with Feat -1 is a
// leaf holding Value.
type Tree struct {
	Feat  []int16
	Thr   []float32
	Left  []int32
	Right []int32
	Value []float32
}

// Leaf returns the value of the leaf that row x falls into.
func (t *Tree) Leaf(x []float32) float32 {
	n := int32(0)
	for t.Feat[n] >= 0 {
		if x[t.Feat[n]] < t.Thr[n] {
			n = t.Left[n]
		} else {
			n = t.Right[n]
		}
	}
	return t.Value[n]
}

// Predict returns the forest's score of one feature row.
func (f *Forest) Predict(x []float32) float64 {
	s := f.Base
	for ti := range f.Trees {
		s += f.Trees[ti].Leaf(x)
	}
	return float64(s)
}

const forestMagic = "qa-rerank-1"

// Encode writes the forest, gzipped.
func (f *Forest) Encode(w io.Writer) error {
	mw := modelfile.NewWriter(w)
	mw.Raw(forestMagic)
	mw.LE(uint32(NumDense))
	mw.LE(f.Base)
	mw.LE(uint32(len(f.Trees)))
	for _, t := range f.Trees {
		mw.LE(uint32(len(t.Feat)))
		for _, p := range []any{t.Feat, t.Thr, t.Left, t.Right, t.Value} {
			mw.LE(p)
		}
	}
	return mw.Close()
}

// DecodeForest reads a forest written by Encode and checks that its
// trees stay inside their node arrays and the dense features.
func DecodeForest(r io.Reader) (*Forest, error) {
	mr, err := modelfile.NewReader(r, forestMagic)
	if err != nil {
		return nil, fmt.Errorf("qa: read reranker: %w", err)
	}
	var nf, nt uint32
	f := &Forest{}
	if mr.LE(&nf); mr.Err() == nil && int(nf) != NumDense {
		return nil, errors.New("qa: read reranker: feature count mismatch")
	}
	mr.LE(&f.Base)
	if mr.LE(&nt); nt > 100_000 {
		mr.Fail("tree count %d", nt)
	}
	for range nt {
		var nn uint32
		if mr.LE(&nn); nn == 0 || nn > 1<<16 {
			mr.Fail("node count %d", nn)
		}
		if mr.Err() != nil {
			break
		}
		t := Tree{Feat: make([]int16, nn), Thr: make([]float32, nn), Left: make([]int32, nn),
			Right: make([]int32, nn), Value: make([]float32, nn)}
		for _, p := range []any{t.Feat, t.Thr, t.Left, t.Right, t.Value} {
			mr.LE(p)
		}
		for n := range t.Feat {
			if t.Feat[n] < 0 {
				continue
			}
			// Children come after their parent, so every walk ends.
			if int(t.Feat[n]) >= NumDense || t.Left[n] <= int32(n) || t.Right[n] <= int32(n) ||
				t.Left[n] >= int32(nn) || t.Right[n] >= int32(nn) {
				mr.Fail("node %d", n)
				break
			}
		}
		f.Trees = append(f.Trees, t)
	}
	if err := mr.End(); err != nil {
		return nil, fmt.Errorf("qa: read reranker: %w", err)
	}
	return f, nil
}

// Rerank returns the group of gs the forest scores highest (the first on
// ties) and its index.
func (f *Forest) Rerank(m *Model, c *Ctx, ss []Scored, gs []Group) (Group, int) {
	best, bs := 0, math.Inf(-1)
	var x []float32
	dn := c.NewDense(m, ss, gs)
	for i := range gs {
		x = dn.Row(i, x[:0])
		if s := f.Predict(x); s > bs {
			best, bs = i, s
		}
	}
	return gs[best], best
}
