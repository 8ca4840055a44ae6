package relabel

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"unicode"
	"unicode/utf8"

	"github.com/textanalysis/go-textanalysis/internal/modelfile"
	"github.com/textanalysis/go-textanalysis/ner/internal/tagger"
)

// A Candidate is one entity the tagger found, with what the relabeler
// reads of it.
type Candidate struct {
	Words      []string  // the sentence's tokens from two before the entity to two after
	Clus       []int32   // the word cluster of each word, -1 for none
	Start, End int       // the entity's words in Words
	Pred       int       // the tagger's label
	Scores     []float32 // the tagging's score with the entity as each label, then as O
	Gaz, Lower uint32    // the gazetteer's labels for the entity's words, as written and in lower case
	Caps, Lows bool      // the sentence is mostly capitals / has no capital
	// Edit is how the span was made from the tagger's entity (EditNone
	// for the entity itself), and OStart, OEnd are the entity's words in
	// Words (they may lie outside it).
	Edit, OStart, OEnd int
	// Delta is, for an alternative span, how much the tagging's score
	// changes when the words of the span and the entity are re-tagged
	// with the span as each label and then as O (tagger.RegionScores);
	// nil for the entity itself.
	Delta []float32
	// Ref is, for an alternative span, the model's probabilities for the
	// entity itself (Model.Scores, softmax), or nil.
	Ref []float32
}

// Window is the number of context words kept on each side.
const Window = 2

// FromTagger fills c with the entity ch of the last m.Tag call with b on
// the tokens toks of text, reusing c's slices.
func FromTagger(c *Candidate, m *tagger.Model, b *tagger.Buffers, text string, toks []tagger.Span, ch tagger.Chunk) {
	a, z := max(0, ch.Start-Window), min(len(toks), ch.End+Window)
	c.Words, c.Clus = c.Words[:0], c.Clus[:0]
	for i := a; i < z; i++ {
		c.Words = append(c.Words, text[toks[i].Start:toks[i].End])
		c.Clus = append(c.Clus, b.Doc.Cluster(i))
	}
	c.Start, c.End, c.Pred = ch.Start-a, ch.End-a, ch.Label
	c.Scores = m.SpanScores(c.Scores[:0], b, ch)
	c.Gaz, c.Lower = m.Gaz.Lookup(text, toks[ch.Start:ch.End])
	c.Caps, c.Lows = b.Doc.Case()
	c.Edit, c.OStart, c.OEnd = EditNone, c.Start, c.End
	c.Delta = c.Delta[:0]
	c.Ref = nil
}

// A Model is a trained relabeler: a linear model over the candidate's
// features for each label and for "no entity" (class len(Labels)).
// It is read-only after loading and safe for concurrent use.
type Model struct {
	Labels []string
	// Margin is how much the best other label must beat the tagger's
	// label, and MarginNone how much "no entity" must, for a change.
	Margin, MarginNone float32
	// Ext is the external gazetteer the model reads, or nil; it is kept
	// in the model file.
	Ext *Ext
	// Bound, when not nil, has the model also choose between each entity
	// and its alternative spans (see [Bound]); it is kept in the model
	// file, after the external gazetteer.
	Bound *Bound
	w     []float32 // hashed weights, 1<<bits
}

const bits = 22

// A hash is an FNV-1a hash of a feature's parts.
type hash uint64

const (
	fnvOffset hash = 14695981039346656037
	fnvPrime  hash = 1099511628211
)

func start(tmpl byte) hash { return (fnvOffset ^ hash(tmpl)) * fnvPrime }

func (h hash) str(s string) hash {
	for i := 0; i < len(s); i++ {
		h = (h ^ hash(s[i])) * fnvPrime
	}
	return (h ^ 0xff) * fnvPrime
}

func (h hash) num(n int) hash {
	for k := 0; k < 4; k++ {
		h = (h ^ hash(byte(n>>(8*k)))) * fnvPrime
	}
	return h
}

func mix(h uint64) uint64 {
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	h *= 0xc4ceb9fe1a85ec53
	h ^= h >> 33
	return h
}

// slot is the weight index of feature h for class y.
func slot(h uint64, y int) uint32 {
	return uint32(mix(h+uint64(y+1)*0x9E3779B97F4A7C15) & (1<<bits - 1))
}

// lower hashes s in lower case, then a separator.
func (h hash) lower(s string) hash {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			h = (h ^ hash(c)) * fnvPrime
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		var b [utf8.UTFMax]byte
		for _, c := range b[:utf8.EncodeRune(b[:], unicode.ToLower(r))] {
			h = (h ^ hash(c)) * fnvPrime
		}
		i += n
	}
	return (h ^ 0xff) * fnvPrime
}

// shape hashes the collapsed shape of w (Xx, d, x.x ...), then a
// separator.
func (h hash) shape(w string) hash {
	prev := rune(-1)
	for _, r := range w {
		c := r
		switch {
		case unicode.IsUpper(r):
			c = 'X'
		case unicode.IsLetter(r):
			c = 'x'
		case unicode.IsDigit(r):
			c = 'd'
		}
		if c != prev {
			h = (h ^ hash(c)) * fnvPrime
			prev = c
		}
	}
	return (h ^ 0xff) * fnvPrime
}

// suffix returns the last n code points of w.
func suffix(w string, n int) string {
	i := len(w)
	for ; n > 0 && i > 0; n-- {
		_, k := utf8.DecodeLastRuneInString(w[:i])
		i -= k
	}
	return w[i:]
}

// marginBin buckets a score difference d ≤ 0 (or above) on a log scale.
func marginBin(d float32) int {
	if d >= 0 {
		if d == 0 {
			return 0
		}
		return 100 + min(12, int(2*math.Log2(1+float64(d))))
	}
	return 1 + min(16, int(3*math.Log2(1+float64(-d))))
}

// Features holds a candidate's features: class-independent ones (to be
// paired with each class) and, per class, its own.
type Features struct {
	X   []uint64
	Per [][2]uint64 // per class: its score bin shared over classes, and the same paired with the class
	Val []float32   // per class: its score less the tagger's label's, scaled, for one shared weight
	// For an alternative span (Candidate.Edit not EditNone), per class:
	// the bin of Candidate.Delta, shared and paired with the class and
	// edit, and Delta scaled for one shared weight; empty otherwise.
	PerD [][2]uint64
	ValD []float32
	vs   uint32 // the weight of Val: valSlot, or valAltSlot for an alternative span
	buf  []byte // scratch for the external gazetteer's lookups
}

// valSlot is the weight of Features.Val, valDSlot that of Features.ValD.
var (
	valSlot    = slot(uint64(start(33)), -1)
	valAltSlot = slot(uint64(start(35)), -1)
	valDSlot   = slot(uint64(start(34)), -1)
)

// altSalt sets an alternative span's features apart from an entity's, so
// that the two share no weight: the alternatives, many and mostly wrong,
// leave the relabeling of the entities as it was.
const altSalt = 0x5bd1e9955bd1e995

// Extract fills f with the features of c.
func Extract(f *Features, c *Candidate) { ExtractExt(f, c, nil) }

// ExtractExt fills f with the features of c, with those of the external
// gazetteer g when it is not nil.
func ExtractExt(f *Features, c *Candidate, g *Ext) {
	f.X = f.X[:0]
	add := func(h hash) { f.X = append(f.X, uint64(h)) }
	word := func(i int) string {
		if i < 0 || i >= len(c.Words) {
			return "<s>"
		}
		return c.Words[i]
	}
	coarse := func(i int) int {
		if i < 0 || i >= len(c.Clus) {
			return -2
		}
		if c.Clus[i] < 0 {
			return -1
		}
		return int(c.Clus[i] & 0x1fff)
	}
	fine := func(i int) int {
		if i < 0 || i >= len(c.Clus) || c.Clus[i] < 0 {
			return -1
		}
		return int(c.Clus[i] >> 16)
	}
	cs := 0
	switch {
	case c.Caps:
		cs = 1
	case c.Lows:
		cs = 2
	}
	n := c.End - c.Start
	add(start(1))
	add(start(2).num(c.Pred))
	add(start(3).num(cs))
	add(start(4).num(c.Pred).num(cs))
	add(start(5).num(min(n, 6)))
	span, shp := start(7), start(8)
	for i := c.Start; i < c.End; i++ {
		span = span.lower(word(i))
		if i-c.Start < 6 {
			shp = shp.shape(word(i))
		}
		if i > c.Start && i < c.End-1 {
			add(start(6).lower(word(i)))
		}
	}
	add(span)
	add(shp)
	add(start(9).lower(word(c.Start)))
	add(start(10).lower(word(c.End - 1)))
	add(start(11).num(coarse(c.Start)))
	add(start(12).num(coarse(c.End - 1)))
	add(start(13).num(fine(c.Start)))
	add(start(14).num(fine(c.End - 1)))
	add(start(15).lower(word(c.Start - 1)))
	add(start(16).lower(word(c.Start - 2)))
	add(start(17).lower(word(c.End)))
	add(start(18).lower(word(c.End + 1)))
	add(start(19).num(coarse(c.Start - 1)))
	add(start(20).num(coarse(c.End)))
	add(start(21).lower(word(c.Start - 1)).lower(word(c.End)))
	if last := word(c.End - 1); utf8.RuneCountInString(last) > 3 {
		add(start(22).lower(suffix(last, 3)))
	}
	if cs == 0 {
		add(start(23).str(word(c.Start)).str(word(c.End - 1)))
		if c.Start-1 >= 0 {
			add(start(24).shape(word(c.Start - 1)))
		}
	}
	if c.Gaz == 0 && c.Lower == 0 {
		add(start(25))
	}
	for k := 0; k < 32; k++ {
		if c.Gaz&(1<<k) != 0 {
			add(start(26).num(k))
			add(start(27).num(k).num(c.Pred))
		}
		if c.Lower&(1<<k) != 0 {
			add(start(28).num(k))
		}
	}
	L := len(c.Scores) - 1
	best := c.Scores[c.Pred]
	second := float32(math.Inf(-1))
	for k := 0; k < L; k++ {
		if k != c.Pred {
			second = max(second, c.Scores[k])
		}
	}
	if g != nil {
		g.extFeatures(f, c)
	}
	add(start(29).num(marginBin(best - second)))
	add(start(30).num(marginBin(best - c.Scores[L])))
	f.Per, f.Val = f.Per[:0], f.Val[:0]
	for y := 0; y <= L; y++ {
		b := marginBin(c.Scores[y] - best)
		f.Per = append(f.Per, [2]uint64{uint64(start(31).num(b)), uint64(start(32).num(b).num(y))})
		f.Val = append(f.Val, max(-4, (c.Scores[y]-best)/8))
	}
	f.PerD, f.ValD = f.PerD[:0], f.ValD[:0]
	f.vs = valSlot
	if c.Edit != EditNone {
		for i := range f.X {
			f.X[i] ^= altSalt
		}
		for i := range f.Per {
			f.Per[i][0] ^= altSalt
			f.Per[i][1] ^= altSalt
		}
		f.vs = valAltSlot
		editFeatures(f, c, word, coarse, cs)
	}
}

// score returns the score of class y for features f under weights w.
func score(w []float32, f *Features, y int) float32 {
	var s float32
	for _, h := range f.X {
		s += w[slot(h, y)]
	}
	p := f.Per[y]
	s = s + w[slot(p[0], -1)] + w[slot(p[1], -1)] + w[f.vs]*f.Val[y] // in this order: the same sums as before alternatives
	if len(f.PerD) > 0 {
		p := f.PerD[y]
		s += w[slot(p[0], -1)] + w[slot(p[1], -1)] + w[valDSlot]*f.ValD[y]
	}
	return s
}

// Scores appends the score of every class for c to dst; f is scratch.
func (m *Model) Scores(dst []float32, f *Features, c *Candidate) []float32 {
	ExtractExt(f, c, m.Ext)
	for y := range f.Per {
		dst = append(dst, score(m.w, f, y))
	}
	return dst
}

// Relabel returns the label the candidate should have, or -1 for no
// entity; f and buf are scratch space.
func (m *Model) Relabel(f *Features, buf []float32, c *Candidate) (int, []float32) {
	buf = m.Scores(buf[:0], f, c)
	return m.decide(buf, c.Pred), buf
}

func (m *Model) decide(s []float32, pred int) int {
	L := len(s) - 1
	best, arg := float32(math.Inf(-1)), pred
	for y := 0; y < L; y++ {
		if y != pred && s[y] > best {
			best, arg = s[y], y
		}
	}
	out := pred
	top := s[pred] + m.Margin
	if best > top {
		out = arg
		top = best
	}
	if s[L] > max(top, s[pred]+m.MarginNone) {
		return -1
	}
	return out
}

const magic = "NERRELABEL1\n"

// Bounds on what Read takes from a file, far above the shipped models
// (at most 18 labels, an external gazetteer of 330 KB): a corrupt file
// gets an error, not a huge allocation. The weights are bounded by the
// table's size, 1<<bits.
const (
	maxLabels   = 64
	maxLabelLen = 64
	maxExt      = 1 << 28
)

// Write writes the model (non-zero weights, int16-quantized, gzip).
func (m *Model) Write(w io.Writer) error {
	mw := modelfile.NewWriter(w)
	mw.Raw(magic)
	mw.Uvarint(uint64(len(m.Labels)))
	for _, l := range m.Labels {
		mw.String(l)
	}
	scale := modelfile.Scale16(m.w)
	mw.LE([3]float32{m.Margin, m.MarginNone, scale})
	mw.Sparse16(m.w, scale)
	// Optional sections follow the weights, each written when it or a
	// later one is there, so that a file without them ends after the
	// weights (as files from before them do); an empty external
	// gazetteer is none.
	if m.Ext != nil || m.Bound != nil {
		var raw []byte
		if m.Ext != nil {
			raw = m.Ext.raw
		}
		mw.Uvarint(uint64(len(raw)))
		mw.Bytes(raw)
	}
	if m.Bound != nil {
		mw.Uvarint(uint64(m.Bound.Allow))
		mw.LE([3]float32{m.Bound.Cost, m.Bound.Margin, m.Bound.Reach})
		mw.Uvarint(uint64(b2i(m.Bound.Stack)))
	}
	return mw.Close()
}

// Read reads a model written by Write, which must end after its last
// section. Its errors wrap [modelfile.ErrFormat] for data that is not a
// relabeler's model.
func Read(data []byte) (*Model, error) {
	r, err := modelfile.NewReader(bytes.NewReader(data), magic)
	if err != nil {
		return nil, fmt.Errorf("relabel: %w", err)
	}
	m := &Model{Labels: make([]string, r.Count("labels", maxLabels)), w: make([]float32, 1<<bits)}
	for i := range m.Labels {
		m.Labels[i] = r.String(maxLabelLen)
	}
	var hd [3]float32
	r.LE(&hd)
	m.Margin, m.MarginNone = hd[0], hd[1]
	r.Sparse16(m.w, hd[2])
	// An external gazetteer may follow, then the boundary step's settings
	// (files before them end here).
	if r.More() {
		raw := make([]byte, r.Count("external gazetteer size", maxExt))
		r.Full(raw)
		if r.Err() == nil && len(raw) > 0 {
			m.Ext = NewExt(raw, m.Labels)
		}
	}
	if r.More() {
		allow := r.Count("boundary edits", 1<<NumEdits-1)
		var bd [3]float32
		r.LE(&bd)
		stack := r.Count("boundary stack flag", 1)
		m.Bound = &Bound{Allow: uint32(allow), Cost: bd[0], Margin: bd[1], Reach: bd[2], Stack: stack == 1}
	}
	if err := r.End(); err != nil {
		return nil, fmt.Errorf("relabel: %w", err)
	}
	return m, nil
}

// Prune zeroes the weights smaller than p in magnitude.
func (m *Model) Prune(p float32) {
	for i, v := range m.w {
		if v < p && v > -p {
			m.w[i] = 0
		}
	}
}
