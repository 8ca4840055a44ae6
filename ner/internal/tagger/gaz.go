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
	for i := 0; i < n; i++ {
		h := start(60)
		for l := 1; l <= g.MaxLen && i+l <= n; l++ {
			t := d.Toks[i+l-1]
			h = h.str(d.Text[t.Start:t.End]).sep()
			if set, ok := g.Phrases[uint64(h)]; ok {
				emit(i, l, set&0xffffffff, cased)
			}
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
			if set, ok := g.Phrases[uint64(h)]; ok {
				emit(i, l, set>>32, lower)
			}
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
	return g
}
