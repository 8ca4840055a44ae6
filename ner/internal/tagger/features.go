package tagger

import (
	"unicode"
	"unicode/utf8"
)

// A rng is a byte range of a Doc's scratch buffer.
type rng struct{ a, b int32 }

// A Doc is one segment (sentence) of tokens with the per-token strings the
// features read, all kept in one scratch buffer so feature extraction does
// not allocate per token.
type Doc struct {
	Text  string
	Toks  []Span
	buf   []byte
	lower []rng // lower case, digits kept
	norm  []rng // lower case, digits mapped to 0
	shape []rng // X, x, d, other kept; runs capped at 4
	short []rng // shape with runs collapsed
	clus  []int32
	caps  bool // most letters of the sentence are capitals (a headline)
	lows  bool // the sentence has no capital at all (chat, transcripts)
	// Extra turns on the second set of features (bigram windows, shape
	// trigrams, headline case, neighbour suffixes).
	Extra bool
	// Extra2 turns on the third set (wider window, runs of capitalised
	// words, clusters at ±2).
	Extra2 bool
	// Extra3 turns on the fourth set (the previous word with the shapes
	// of this and the next token, a word's case apart from sentence
	// starts, capitals inside a word).
	Extra3 bool
	// Extra4 turns on the fifth set (a capitalised run that starts the
	// sentence read from its second word, with the class of its first;
	// capitals on words usually written in lower case).
	Extra4 bool
	gaz    [][]uint64
	// gazQ and gazTouched are Gazetteer.features' scratch space.
	gazQ       []phraseQuery
	gazTouched uint64
}

// Reset prepares d for the tokens toks of text.
func (d *Doc) Reset(text string, toks []Span) {
	d.Text, d.Toks = text, toks
	d.buf = d.buf[:0]
	d.lower, d.norm, d.shape, d.short = d.lower[:0], d.norm[:0], d.shape[:0], d.short[:0]
	for _, t := range toks {
		w := text[t.Start:t.End]
		if nw, ok := normPunct[w]; ok {
			// Typographic punctuation reads as the ASCII forms of the
			// training data.
			w = nw
		}
		a := int32(len(d.buf))
		for _, r := range w {
			d.buf = utf8.AppendRune(d.buf, unicode.ToLower(r))
		}
		d.lower = append(d.lower, rng{a, int32(len(d.buf))})
		a = int32(len(d.buf))
		for _, r := range w {
			if r >= '0' && r <= '9' {
				r = '0'
			}
			d.buf = utf8.AppendRune(d.buf, unicode.ToLower(r))
		}
		d.norm = append(d.norm, rng{a, int32(len(d.buf))})
		a = int32(len(d.buf))
		var prev rune = -1
		run := 0
		for _, r := range w {
			c := shapeOf(r)
			if c == prev {
				run++
				if run >= 4 {
					continue
				}
			} else {
				prev, run = c, 0
			}
			d.buf = utf8.AppendRune(d.buf, c)
		}
		d.shape = append(d.shape, rng{a, int32(len(d.buf))})
		a = int32(len(d.buf))
		prev = -1
		for _, r := range w {
			c := shapeOf(r)
			if c != prev {
				d.buf = utf8.AppendRune(d.buf, c)
				prev = c
			}
		}
		d.short = append(d.short, rng{a, int32(len(d.buf))})
	}
	upper, lower := 0, 0
	for _, sh := range d.shape {
		for _, c := range d.s(sh) {
			switch c {
			case 'X':
				upper++
			case 'x':
				lower++
			}
		}
	}
	d.caps = upper >= 8 && upper > 4*lower
	d.lows = lower >= 8 && upper == 0
}

// normPunct maps typographic punctuation tokens to the forms the training
// data (Penn Treebank conventions) uses.
var normPunct = map[string]string{
	"“": "``", "”": "''", "„": "``", "«": "``", "»": "''", "‘": "`", "’": "'", "‚": "`",
	"—": "--", "–": "-", "…": "...", "’s": "'s", "’S": "'S", "n’t": "n't", "N’T": "N'T",
	"’re": "'re", "’ve": "'ve", "’ll": "'ll", "’d": "'d", "’m": "'m",
}

// capRun returns the run [a, b) of capitalised tokens around token i, or
// (i, i) when token i is not capitalised.
func (d *Doc) capRun(i int) (int, int) {
	capital := func(j int) bool {
		r, _ := utf8.DecodeRuneInString(d.Text[d.Toks[j].Start:d.Toks[j].End])
		return unicode.IsUpper(r)
	}
	if !capital(i) {
		return i, i
	}
	a, b := i, i+1
	for a > 0 && capital(a-1) {
		a--
	}
	for b < len(d.Toks) && capital(b) {
		b++
	}
	return a, b
}

// suffix returns the last n code points of token j in lower case.
func (d *Doc) suffix(j, n int) []byte {
	w := d.s(d.lower[j])
	p := len(w)
	for k := 0; k < n && p > 0; k++ {
		_, sz := utf8.DecodeLastRune(w[:p])
		p -= sz
	}
	return w[p:]
}

func shapeOf(r rune) rune {
	switch {
	case r >= 'a' && r <= 'z':
		return 'x'
	case r >= 'A' && r <= 'Z':
		return 'X'
	case r >= '0' && r <= '9':
		return 'd'
	case r < utf8.RuneSelf:
		return r
	case unicode.IsUpper(r):
		return 'X'
	case unicode.IsLetter(r):
		return 'x'
	case unicode.IsDigit(r):
		return 'd'
	}
	return r
}

func (d *Doc) s(r rng) []byte { return d.buf[r.a:r.b] }

const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

type hash uint64

func start(tmpl byte) hash { return (fnvOffset ^ hash(tmpl)) * fnvPrime }

func (h hash) bytes(b []byte) hash {
	for _, c := range b {
		h = (h ^ hash(c)) * fnvPrime
	}
	return h
}

func (h hash) str(s string) hash {
	for i := 0; i < len(s); i++ {
		h = (h ^ hash(s[i])) * fnvPrime
	}
	return h
}

func (h hash) sep() hash { return (h ^ 0xff) * fnvPrime }

func (h hash) num(n uint32) hash {
	for k := 0; k < 4; k++ {
		h = (h ^ hash(byte(n>>(8*k)))) * fnvPrime
	}
	return h
}

var (
	bos = []byte("<s>")
	eos = []byte("</s>")
)

func (d *Doc) norm1(i int) []byte {
	if i < 0 {
		return bos
	}
	if i >= len(d.Toks) {
		return eos
	}
	return d.s(d.norm[i])
}

func (d *Doc) short1(i int) []byte {
	if i < 0 {
		return bos
	}
	if i >= len(d.Toks) {
		return eos
	}
	return d.s(d.short[i])
}

// Features appends the feature hashes of token i to dst.
func (d *Doc) Features(dst []uint64, i int) []uint64 {
	lw := d.s(d.lower[i])
	nw := d.s(d.norm[i])
	raw := d.Text[d.Toks[i].Start:d.Toks[i].End]
	if nw, ok := normPunct[raw]; ok {
		raw = nw
	}
	add := func(h hash) { dst = append(dst, uint64(h)) }
	add(start(1))
	add(start(2).bytes(nw))
	add(start(3).str(raw))
	add(start(4).bytes(d.s(d.shape[i])))
	add(start(5).bytes(d.short1(i)))
	// Prefixes and suffixes in code points.
	n := utf8.RuneCount(lw)
	for k, p := 1, 0; k <= 4 && k < n; k++ {
		_, sz := utf8.DecodeRune(lw[p:])
		p += sz
		add(start(byte(5 + k)).bytes(lw[:p]))
	}
	for k, p := 1, len(lw); k <= 4 && k < n; k++ {
		_, sz := utf8.DecodeLastRune(lw[:p])
		p -= sz
		add(start(byte(10 + k)).bytes(lw[p:]))
	}
	add(start(15).bytes(d.norm1(i - 1)))
	add(start(16).bytes(d.norm1(i + 1)))
	add(start(17).bytes(d.norm1(i - 2)))
	add(start(18).bytes(d.norm1(i + 2)))
	add(start(19).bytes(d.norm1(i - 1)).sep().bytes(nw))
	add(start(20).bytes(nw).sep().bytes(d.norm1(i + 1)))
	add(start(21).bytes(d.short1(i - 1)).sep().bytes(d.short1(i)))
	add(start(22).bytes(d.short1(i)).sep().bytes(d.short1(i + 1)))
	add(start(23).bytes(d.short1(i - 1)))
	add(start(24).bytes(d.short1(i + 1)))
	if i == 0 {
		add(start(25).bytes(d.s(d.shape[i])))
	}
	add(start(26).bytes(d.short1(i - 1)).sep().bytes(nw))
	add(start(27).bytes(nw).sep().bytes(d.short1(i + 1)))
	if d.Extra {
		add(start(40).bytes(d.norm1(i - 2)).sep().bytes(d.norm1(i - 1)))
		add(start(41).bytes(d.norm1(i + 1)).sep().bytes(d.norm1(i + 2)))
		add(start(42).bytes(d.norm1(i - 1)).sep().bytes(d.norm1(i + 1)))
		add(start(43).bytes(d.short1(i - 1)).sep().bytes(d.short1(i)).sep().bytes(d.short1(i + 1)))
		if d.caps {
			add(start(44).bytes(d.short1(i)))
			add(start(45).bytes(nw))
		}
		if d.lows {
			add(start(48).bytes(d.short1(i)))
			add(start(49).bytes(nw))
		}
		if i > 0 {
			add(start(46).bytes(d.suffix(i-1, 3)))
		}
		if i+1 < len(d.Toks) {
			add(start(47).bytes(d.suffix(i+1, 3)))
		}
	}
	if d.Extra2 {
		add(start(50).bytes(d.norm1(i - 3)))
		add(start(51).bytes(d.norm1(i + 3)))
		if a, b := d.capRun(i); b > a {
			add(start(52).num(uint32(min(b-a, 5))).num(uint32(min(i-a, 4))))
			add(start(53).num(uint32(min(b-i-1, 4))).bytes(nw))
		}
		if d.clus != nil {
			for _, k := range []int{-2, 2} {
				if j := i + k; j >= 0 && j < len(d.Toks) && d.clus[j] >= 0 {
					if f := uint32(d.clus[j]) >> 16; f != ClusterNoFine {
						add(start(byte(56 + k)).num(f))
					}
				}
			}
		}
	}
	if d.Extra3 {
		// A title-like or otherwise telling previous word with the shape
		// of this token and the next: "Premier He Lifeng" reads as a
		// name by its context, whatever "he" usually is.
		add(start(60).bytes(d.norm1(i - 1)).sep().bytes(d.short1(i)))
		add(start(61).bytes(d.norm1(i - 1)).sep().bytes(d.short1(i)).sep().bytes(d.short1(i + 1)))
		add(start(62).bytes(d.short1(i)).sep().bytes(d.norm1(i + 1)))
		// The cased word apart from the sentence start: a capitalised
		// common word inside a sentence is weighed on its own.
		if i > 0 && !d.caps {
			add(start(63).str(raw))
		}
		// Capitals after lower-case letters inside a word (iPhone, eBay):
		// product and company names, never counts.
		if innerCap(raw) {
			add(start(64))
			add(start(65).bytes(d.norm1(i - 1)))
		}
	}
	if d.Extra4 {
		dst = d.features4(dst, i)
	}
	if d.clus != nil {
		for _, k := range []int{-1, 0, 1} {
			j := i + k
			if j < 0 || j >= len(d.Toks) || d.clus[j] < 0 {
				continue
			}
			c := uint32(d.clus[j])
			add(start(byte(31 + k)).num(c & clusterLow))
			if f := c >> 16; f != ClusterNoFine {
				add(start(byte(34 + k)).num(f))
				if k == 0 {
					add(start(37).num(f).sep().bytes(d.short1(i)))
				}
			} else if k == 0 {
				// A thin word's shape goes with its marked coarse
				// cluster instead.
				add(start(37).num(c & clusterLow).sep().bytes(d.short1(i)))
			}
		}
	}
	if d.gaz != nil {
		dst = append(dst, d.gaz[i]...)
	}
	return dst
}

// innerCap reports whether w has an upper-case letter after a lower-case
// one.
func innerCap(w string) bool {
	low := false
	for _, r := range w {
		switch {
		case unicode.IsLower(r):
			low = true
		case low && unicode.IsUpper(r):
			return true
		}
	}
	return false
}

// features4 appends the fifth feature set of token i. At a sentence start a
// capital tells nothing, so a capitalised run that starts the sentence
// ("Chinese Vice Premier He Lifeng met…") is also read from its second
// word, beside the class of its first (its coarse cluster, and whether it
// is a word usually in lower case): after a nationality adjective or a
// common word, the name starts later. A capital on a word usually written
// in lower case ("He" inside a sentence) is told apart from one on a word
// usually capitalised.
func (d *Doc) features4(dst []uint64, i int) []uint64 {
	add := func(h hash) { dst = append(dst, uint64(h)) }
	class := func(j int) uint32 {
		if d.clus == nil || d.clus[j] < 0 {
			return 0xffff
		}
		return uint32(d.clus[j]) & (ClusterCoarse | ClusterLower)
	}
	if a, b := d.capRun(i); a == 0 && b >= 2 && !d.caps {
		if i == 0 {
			add(start(66).num(class(0)).num(uint32(min(b, 5))))
			add(start(67).bytes(d.s(d.norm[0])).num(uint32(min(b, 5))))
		} else {
			add(start(68).num(uint32(min(b-1, 5))).num(uint32(min(i-1, 4))))
			add(start(69).num(class(0)).num(uint32(min(i-1, 4))).num(uint32(min(b-i-1, 4))))
			add(start(70).bytes(d.s(d.norm[0])).num(uint32(min(i-1, 4))))
		}
	}
	if d.clus != nil && !d.caps && !d.lows {
		low := func(j int) uint32 {
			if j < 0 || j >= len(d.Toks) || d.clus[j] < 0 {
				return 2
			}
			if d.clus[j]&ClusterLower != 0 {
				return 1
			}
			return 0
		}
		capital := func(j int) uint32 {
			if j < 0 || j >= len(d.Toks) {
				return 2
			}
			r, _ := utf8.DecodeRuneInString(d.Text[d.Toks[j].Start:d.Toks[j].End])
			if unicode.IsUpper(r) {
				return 1
			}
			return 0
		}
		first := uint32(0)
		if i == 0 {
			first = 1
		}
		add(start(71).num(low(i)).num(capital(i)).num(first))
		add(start(72).num(low(i - 1)).num(capital(i - 1)).num(low(i)).num(capital(i)))
		add(start(73).num(low(i)).num(capital(i)).num(low(i + 1)).num(capital(i + 1)))
	}
	return dst
}
