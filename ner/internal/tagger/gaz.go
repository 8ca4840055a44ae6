package tagger

import (
	"maps"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/textanalysis/go-textanalysis/internal/modelfile"
)

// A Gazetteer maps token sequences (as written, up to MaxLen tokens) to the
// set of labels they were seen with as whole entities in training data.
type Gazetteer struct {
	MaxLen  int
	Phrases map[uint64]uint64 // phrase hash → label bit set
	// Lower: the phrases are also kept in lower case (under their own
	// hashes, labels in the upper 32 bits), and matched so as well in
	// sentences whose case tells nothing (headlines in capitals, chat and
	// transcripts in lower case); with LowerAll, in every sentence.
	Lower, LowerAll bool
	// External marks a gazetteer of phrases from outside the training
	// data (the list ner/cmd/mkgaz writes): its features have their own
	// templates, and a label set may carry CommonBit (a phrase that is
	// also a common word) and a primary label (PrimaryShift).
	External bool
	// Sets (external gazetteers) also reads a phrase's whole label set
	// as one feature ("GPE+PERSON": London) and its primary label (the
	// label of its most frequent sense; PrimaryShift).
	Sets bool

	// table is a read-only copy of Phrases for look-ups, built when a
	// gazetteer is read and dropped by AddBits: once read, Phrases
	// changes through AddBits only.
	table *phraseTable
}

// A phraseTable is an open-addressing hash table from phrase hash to label
// set. A sentence looks up each of its tokens' phrases of up to MaxLen
// tokens (six or so per token, nearly all absent), and those of a
// Go map, a few megabytes of it, mostly miss the caches one after the
// other; features looks the sentence's phrases up in passes instead, as
// Model.Score does, so that the misses overlap.
type phraseTable struct {
	slots   [][2]uint64 // {hash, label set}; hash 0 marks an empty slot
	mask    uint64
	zero    uint64 // the label set of hash 0, when hasZero
	hasZero bool
}

func newPhraseTable(phrases map[uint64]uint64) *phraseTable {
	size := 1
	for size < 2*len(phrases)+1 {
		size <<= 1
	}
	p := &phraseTable{slots: make([][2]uint64, size), mask: uint64(size - 1)}
	for h, set := range phrases {
		if h == 0 {
			p.zero, p.hasZero = set, true
			continue
		}
		i := mix(h) & p.mask
		for p.slots[i][0] != 0 {
			i = (i + 1) & p.mask
		}
		p.slots[i] = [2]uint64{h, set}
	}
	return p
}

// get is a look-up of Phrases, in the table when there is one.
func (g *Gazetteer) get(h uint64) (uint64, bool) {
	if g.table == nil {
		set, ok := g.Phrases[h]
		return set, ok
	}
	return g.table.get(h)
}

func (p *phraseTable) get(h uint64) (uint64, bool) {
	if h == 0 {
		return p.zero, p.hasZero
	}
	for i := mix(h) & p.mask; ; i = (i + 1) & p.mask {
		switch p.slots[i][0] {
		case h:
			return p.slots[i][1], true
		case 0:
			return 0, false
		}
	}
}

// A phraseQuery is a phrase of features' sentence: its tokens [i, i+l)
// and hash, as written or (lower) in lower case.
type phraseQuery struct {
	h     uint64
	i, l  int32
	lower bool
}

// PrimaryShift: in an external gazetteer's label set, bits 24 to 28
// (PrimaryMask) hold the phrase's primary label index plus one (0: none);
// the labels themselves are the bits below.
const (
	PrimaryShift = 24
	PrimaryMask  = 0x1f << PrimaryShift
)

// CommonBit, in an external gazetteer's label set, marks a phrase that is
// also a common lower-case word ("Reading", "Nice").
const CommonBit = 1 << 31

// ParseExtList reads an external gazetteer list (LABEL TAB phrase TAB
// common [TAB primary] lines, as ner/cmd/mkgaz writes them, uncompressed)
// and calls add with each phrase, its tokens (reused between calls) and
// its label set: bit k for the label index labelOf gives, CommonBit, and
// the primary label at PrimaryShift. Lines whose label labelOf does not
// know, or whose index would not fit below PrimaryShift, are skipped.
func ParseExtList(data []byte, labelOf func(string) (int, bool), add func(phrase string, toks []Span, bits uint32)) {
	var toks []Span
	for line := range strings.SplitSeq(string(data), "\n") {
		f := strings.Split(line, "\t")
		if len(f) < 3 {
			continue
		}
		k, ok := labelOf(f[0])
		if !ok || k >= PrimaryShift {
			continue
		}
		bits := uint32(1) << uint(k)
		if f[2] == "1" {
			bits |= CommonBit
		}
		if len(f) > 3 && f[3] == "1" {
			bits |= uint32(k+1) << PrimaryShift
		}
		toks = Tokenize(toks[:0], f[1])
		add(f[1], toks, bits)
	}
}

// lowerHash is the hash of a phrase's tokens in lower case.
func lowerHash(text string, toks []Span) uint64 {
	h := start(59)
	for _, t := range toks {
		for _, r := range text[t.Start:t.End] {
			var b [utf8.UTFMax]byte
			h = h.bytes(b[:utf8.EncodeRune(b[:], unicode.ToLower(r))])
		}
		h = h.sep()
	}
	return uint64(h)
}

// NewGazetteer returns an empty gazetteer.
func NewGazetteer(maxLen int) *Gazetteer {
	return &Gazetteer{MaxLen: maxLen, Phrases: map[uint64]uint64{}}
}

func phraseHash(text string, toks []Span) uint64 {
	h := start(60)
	for _, t := range toks {
		h = h.str(text[t.Start:t.End]).sep()
	}
	return uint64(h)
}

// Add records toks of text as an entity with label index k.
func (g *Gazetteer) Add(text string, toks []Span, k int) {
	g.AddBits(text, toks, 1<<uint(k))
}

// AddBits records toks of text with the label bit set bits (label index k
// is bit k; CommonBit in an external gazetteer).
func (g *Gazetteer) AddBits(text string, toks []Span, bits uint32) {
	if len(toks) == 0 || len(toks) > g.MaxLen {
		return
	}
	g.table = nil
	or := func(h uint64, shift uint) {
		old := g.Phrases[h]
		b := uint64(bits) << shift
		if g.External && old&(PrimaryMask<<shift) != 0 {
			b &^= PrimaryMask << shift // the first phrase's primary label stays
		}
		g.Phrases[h] = old | b
	}
	or(phraseHash(text, toks), 0)
	if g.Lower {
		or(lowerHash(text, toks), 32)
	}
}

// features appends, for every token of d, the gazetteer features of the
// phrases covering it to d.gaz.
func (g *Gazetteer) features(d *Doc) {
	n := len(d.Toks)
	per := d.gaz
	cased, lower := byte(61), byte(66)
	if g.External {
		cased, lower = 80, 81
	}
	kindOf := func(i, j, l int) uint32 {
		switch {
		case l == 1:
			return 0
		case j == i:
			return 2
		case j == i+l-1:
			return 3
		}
		return 1 // inside
	}
	emit := func(i, l int, set uint64, tmpl byte) {
		if g.External {
			if set&CommonBit != 0 {
				set &^= CommonBit
				tmpl += 2
			}
			prim := uint32(set&PrimaryMask) >> PrimaryShift
			set &^= PrimaryMask
			if g.Sets {
				for j := i; j < i+l; j++ {
					kind := kindOf(i, j, l)
					per[j] = append(per[j], uint64(start(tmpl+4).num(uint32(set)).num(kind)))
					if prim != 0 {
						per[j] = append(per[j], uint64(start(tmpl+8).num(prim).num(kind)))
					}
				}
			}
		}
		for k := 0; set != 0; k++ {
			if set&1 != 0 {
				for j := i; j < i+l; j++ {
					per[j] = append(per[j], uint64(start(tmpl).num(uint32(k)).num(kindOf(i, j, l))))
				}
			}
			set >>= 1
		}
	}
	// The phrases in the order their features are emitted: by first
	// token, as written then in lower case, shortest first.
	qs := d.gazQ[:0]
	for i := 0; i < n; i++ {
		h := start(60)
		for l := 1; l <= g.MaxLen && i+l <= n; l++ {
			t := d.Toks[i+l-1]
			h = h.str(d.Text[t.Start:t.End]).sep()
			qs = append(qs, phraseQuery{h: uint64(h), i: int32(i), l: int32(l)})
		}
		if !g.Lower || !g.LowerAll && !d.caps && !d.lows {
			continue
		}
		h = start(59)
		for l := 1; l <= g.MaxLen && i+l <= n; l++ {
			t := d.Toks[i+l-1]
			for _, r := range d.Text[t.Start:t.End] {
				var b [utf8.UTFMax]byte
				h = h.bytes(b[:utf8.EncodeRune(b[:], unicode.ToLower(r))])
			}
			h = h.sep()
			qs = append(qs, phraseQuery{h: uint64(h), i: int32(i), l: int32(l), lower: true})
		}
	}
	d.gazQ = qs
	if p := g.table; p != nil {
		// Each phrase's first slot, loads only, so that their misses
		// overlap; the look-ups after it find them in the cache.
		var touch uint64
		for _, q := range qs {
			touch += p.slots[mix(q.h)&p.mask][0]
		}
		d.gazTouched = touch
	}
	for _, q := range qs {
		set, ok := g.get(q.h)
		switch {
		case !ok:
		case q.lower:
			emit(int(q.i), int(q.l), set>>32, lower)
		default:
			emit(int(q.i), int(q.l), set&0xffffffff, cased)
		}
	}
	d.gaz = per
}

func (g *Gazetteer) write(w *modelfile.Writer) {
	w.Uvarint(uint64(len(g.Phrases)))
	w.Uvarint(uint64(g.MaxLen))
	var last uint64
	for _, k := range slices.Sorted(maps.Keys(g.Phrases)) {
		w.Uvarint(k - last)
		last = k
		w.Uvarint(g.Phrases[k])
	}
}

// maxPhraseLen bounds a gazetteer's longest phrase, in tokens, as read.
const maxPhraseLen = 32

// readGazetteer reads a gazetteer written by write, or nil for none (an
// empty one is written as none); r's error says whether it was read whole.
func readGazetteer(r *modelfile.Reader) *Gazetteer {
	n := r.Count("gazetteer phrases", maxPhrases)
	if n == 0 {
		return nil
	}
	g := NewGazetteer(r.Count("gazetteer phrase length", maxPhraseLen))
	var last uint64
	for range n {
		last += r.Uvarint()
		g.Phrases[last] = r.Uvarint()
	}
	g.table = newPhraseTable(g.Phrases)
	return g
}
