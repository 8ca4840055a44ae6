package tagger

import (
	"bytes"
	"cmp"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"

	"github.com/textanalysis/go-textanalysis/internal/modelfile"
)

// A Model is a trained tagger: sparse per-feature tag weights and tag
// transition weights. It is read-only after loading and safe for concurrent
// use.
type Model struct {
	Labels []string
	Extra  bool      // the second feature set is on
	Extra2 bool      // the third feature set is on
	Extra3 bool      // the fourth feature set is on
	Extra4 bool      // the fifth feature set is on
	Scheme *Scheme   // tag encoding
	T      int       // number of tags
	Trans  []float32 // (T+1)*T: Trans[p*T+t] is the weight of tag p then t; row T is the start
	Clus   map[string]int32
	Gaz    *Gazetteer
	Ext    *Gazetteer // external phrases (Gazetteer.External), or nil

	// CSR weights as trained (or as read, dequantized): feature f has tags
	// tag[off[f]:off[f+1]] with weights w.
	off []uint32
	tag []uint8
	w   []float32

	// The inference form, built by buildTable: an open-addressing table
	// from feature hash to its weights, and the transitions in the same
	// quantized units. A slot is fingerprint<<32 | start<<8 | length (the
	// number of tags), zero when empty; the fingerprint is the high half
	// of the mixed hash (the low bits pick the slot). A feature with fewer
	// than denseMin tags has a run of packed (tag<<16 | int16 weight)
	// entries from packed[start]; one with at least denseMin, a dense row
	// of all T weights from dense[start*denseWords] (see addRuns).
	slots      []uint64
	mask       uint64
	packed     []uint32
	dense      []uint64
	denseWords int // (T+1)/2
	denseMin   int // (T+1)/2 (buildTable)
	qtrans     []float32
	qmax       []float32 // Scheme.maxFromClosed of qtrans
	qscale     float32   // the real value of one quantized unit
}

func fingerprint(mixed uint64) uint64 { return (mixed >> 32) | 1 }

// NumFeatures returns the number of features kept in the model.
func (m *Model) NumFeatures() int { return len(m.off) - 1 }

func mix(h uint64) uint64 {
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	return h
}

// buildTable builds the inference form of the weights; hashes[f] is the
// hash of feature f.
func (m *Model) buildTable(hashes []uint64) error {
	// A dense row takes 8 bytes per two tags, a run 4 bytes per tag: rows
	// for the features with at least half the tags at most double their
	// size (about 1 MB for the ontonotes model) and take most of the
	// additions (90% on OntoNotes dev).
	return m.buildTableDense(hashes, (m.T+1)/2)
}

// buildTableDense is buildTable with dense rows for the features with at
// least denseMin tags.
func (m *Model) buildTableDense(hashes []uint64, denseMin int) error {
	if len(m.w) >= 1<<24 || m.T > 255 {
		return fmt.Errorf("%w: %d weights, %d tags: too many", errFormat, len(m.w), m.T)
	}
	size := 1
	for size < 2*len(hashes)+1 {
		size <<= 1
	}
	m.slots = make([]uint64, size)
	m.mask = uint64(size - 1)
	scale := modelfile.Scale16(m.w)
	m.qscale = scale
	m.qtrans = Transpose(m.Trans, m.T, scale)
	m.qmax = m.Scheme.maxFromClosed(m.qtrans)
	m.denseWords = (m.T + 1) / 2
	m.denseMin = max(denseMin, 1)
	// A feature with a tag listed twice (never in a trained model) keeps
	// its run: a dense row would add its weights up before the others.
	dense := make([]bool, len(hashes))
	nPacked, nDense := 0, 0
	for f := range hashes {
		a, z := m.off[f], m.off[f+1]
		if int(z-a) >= m.denseMin {
			var seen [256]bool
			dense[f] = true
			for _, t := range m.tag[a:z] {
				dense[f] = dense[f] && !seen[t]
				seen[t] = true
			}
		}
		if dense[f] {
			nDense++
		} else {
			nPacked += int(z - a)
		}
	}
	m.packed = make([]uint32, 0, nPacked)
	m.dense = make([]uint64, 0, nDense*m.denseWords)
	for f, h := range hashes {
		a, z := m.off[f], m.off[f+1]
		var start int
		if dense[f] {
			start = len(m.dense) / m.denseWords
			row := slices.Repeat([]uint64{denseBias<<32 | denseBias}, m.denseWords)
			for k := a; k < z; k++ {
				t := m.tag[k]
				// Two's complement: a negative weight borrows nothing
				// from the lane above, since the bias covers it.
				row[t/2] += uint64(int64(modelfile.Quantize16(m.w[k], scale))) << (32 * (t % 2))
			}
			m.dense = append(m.dense, row...)
		} else {
			start = len(m.packed)
			for k := a; k < z; k++ {
				m.packed = append(m.packed, uint32(m.tag[k])<<16|uint32(uint16(modelfile.Quantize16(m.w[k], scale))))
			}
		}
		x := mix(h)
		i := x & m.mask
		for m.slots[i] != 0 {
			i = (i + 1) & m.mask
		}
		m.slots[i] = fingerprint(x)<<32 | uint64(start)<<8 | uint64(z-a)
	}
	return nil
}

// denseBias is added to each weight in a dense row, so that every lane of
// 32 bits holds a weight in [0, 65535] and a sum of up to 2^16 of them
// never carries into the next lane.
const denseBias = 1 << 15

// scoreBuf is Score's scratch space.
type scoreBuf struct {
	feats []uint64    // the mixed feature hashes of every token, one after another
	ends  []int       // token i's features end at feats[ends[i]]
	slots []uint64    // the slot each feature's probe starts at, as read
	runs  []uint32    // each feature's start<<8 | length (its slot's low half), 0 for none
	sum   [256]int32  // one token's sums, by tag
	dense [128]uint64 // one token's sums from dense rows, two tags a word (addRuns)
	// touched keeps pass 2's loads, which are read only to bring the
	// weights into the cache, from being compiled away.
	touched uint32
}

// Score fills scores (len(toks)*T) with the feature weights of each token
// of d.
//
// The weights are read for the whole sentence in passes rather than token
// by token, for speed: the slot and weight tables are tens of megabytes,
// so nearly every feature's slot, and its weights, are a cache (and TLB)
// miss. Read one feature at a time, each miss waits on the last (the probe
// branches on the loaded slot); a pass that only loads lets the processor
// have many misses in flight, and the passes after it find the lines in
// the cache. The scores are the same as adding each weight in float32 (see
// pass 3).
func (m *Model) Score(d *Doc, scores []float32, b *scoreBuf) {
	T := m.T
	feats, ends := b.feats[:0], b.ends[:0]
	for i := range d.Toks {
		feats = d.Features(feats, i)
		ends = append(ends, len(feats))
	}
	b.feats, b.ends = feats, ends
	slots := slices.Grow(b.slots[:0], len(feats))[:len(feats)]
	runs := slices.Grow(b.runs[:0], len(feats))[:len(feats)]
	b.slots, b.runs = slots, runs
	// Pass 1: each feature's first probe, loads only.
	for k, h := range feats {
		x := mix(h)
		feats[k] = x
		slots[k] = m.slots[x&m.mask]
	}
	// Pass 2: finish the probes (the next slots are mostly on the same
	// line) and touch the start and end of each feature's weights.
	var touch uint32
	for k, x := range feats {
		fp := fingerprint(x)
		sl, j := slots[k], x&m.mask
		for sl != 0 && sl>>32 != fp {
			j = (j + 1) & m.mask
			sl = m.slots[j]
		}
		run := uint32(sl) // start<<8 | length; 0 when sl is 0
		runs[k] = run
		switch a, n := int(run>>8), int(run&0xff); {
		case n >= m.denseMin:
			touch += uint32(m.dense[a*m.denseWords] ^ m.dense[(a+1)*m.denseWords-1])
		case n > 0:
			touch += m.packed[a] ^ m.packed[a+n-1]
		}
	}
	b.touched = touch
	// Pass 3: the sums, in integers: an int16 weight converted and added
	// as float32 costs a dependent conversion and float add per weight.
	// The result is the same: every partial sum of at most
	// maxExactFeatures int16 weights is below 2^24, so float32 held it
	// exactly too.
	k := 0
	for i := range d.Toks {
		row := scores[i*T : (i+1)*T]
		if ends[i]-k > maxExactFeatures {
			clear(row)
			for ; k < ends[i]; k++ {
				m.addFloat(row, runs[k])
			}
			continue
		}
		clear(b.sum[:T])
		clear(b.dense[:m.denseWords])
		nd := m.addRuns(&b.sum, &b.dense, runs[k:ends[i]])
		for t, v := range b.sum[:T] {
			lane := int64(b.dense[t/2]>>(32*(t%2))) & 0xffffffff
			row[t] = float32(int64(v) + lane - int64(nd)*denseBias)
		}
		k = ends[i]
	}
}

// addRuns adds the weights of runs to sum, those of runs with dense rows
// to the lanes of dense (tags 2j and 2j+1 in the low and high half of
// dense[j], each weight plus denseBias), and returns how many such rows
// it added. It is apart from Score, and sum is indexed by a byte, so that
// the loop that reads a token's two thousand or so weights keeps its
// values in registers and has no bounds checks (written out in Score's
// loop, it spilled them to the stack). A dense row adds two weights with
// one instruction and reads no tags.
func (m *Model) addRuns(sum *[256]int32, dense *[128]uint64, runs []uint32) int {
	packed, rows, w := m.packed, m.dense, m.denseWords
	acc := dense[:w]
	nd := 0
	for _, r := range runs {
		a, n := int(r>>8), int(r&0xff)
		if n >= m.denseMin {
			row := rows[a*w : a*w+w]
			for j, v := range row {
				acc[j] += v
			}
			nd++
			continue
		}
		for _, p := range packed[a : a+n] {
			sum[uint8(p>>16)] += int32(int16(p))
		}
	}
	return nd
}

// addFloat adds the weights of run to row one by one in float32, as the
// trainer does; for tokens with too many features to sum in integers.
func (m *Model) addFloat(row []float32, run uint32) {
	a, n := int(run>>8), int(run&0xff)
	if n < m.denseMin {
		for _, p := range m.packed[a : a+n] {
			row[p>>16] += float32(int16(uint16(p)))
		}
		return
	}
	for t := range row {
		lane := int64(m.dense[a*m.denseWords+t/2]>>(32*(t%2))) & 0xffffffff
		row[t] += float32(lane - denseBias)
	}
}

// maxExactFeatures is the most features a token may have for Score to sum
// its weights as integers: 512 * 32768 = 2^24, the largest range in which
// float32 holds every integer.
const maxExactFeatures = 512

// A Scheme is a tag encoding: BIO (Per 2: B, I) or BILOU (Per 4: B, I, L,
// U). Tag 0 is O; label k's tags are 1+Per*k+pos.
type Scheme struct {
	Per int
	T   int
	// Allowed previous tags: contPreds[t] for a tag that continues an
	// entity (cont[t]), closed (the tags that may be followed by a new
	// entity or O) for any other.
	cont      []bool
	contPreds [][2]int32
	closed    []int32
	start     []bool // tags that may begin a sentence
	final     []bool // tags that may end one
	labelk    []int  // label index of each tag (-1 for O)
	pos       []int  // position of each tag (-1 for O)
}

// Positions within an entity.
const (
	posB = 0
	posI = 1
	posL = 2
	posU = 3
)

// NewScheme returns the scheme with per tags per label for n labels.
func NewScheme(per, n int) *Scheme {
	T := 1 + per*n
	s := &Scheme{Per: per, T: T, start: make([]bool, T), final: make([]bool, T),
		labelk: make([]int, T), pos: make([]int, T)}
	for t := 0; t < T; t++ {
		s.labelk[t], s.pos[t] = -1, -1
		if t > 0 {
			s.labelk[t], s.pos[t] = (t-1)/per, (t-1)%per
		}
	}
	inside := func(t int) bool { return s.pos[t] == posB || s.pos[t] == posI }
	s.cont = make([]bool, T)
	s.contPreds = make([][2]int32, T)
	for t := 0; t < T; t++ {
		cont := s.pos[t] == posI || s.pos[t] == posL
		s.cont[t] = cont
		s.start[t] = !cont
		s.final[t] = per == 2 || !inside(t)
		if cont {
			base := int32(1 + per*s.labelk[t])
			s.contPreds[t] = [2]int32{base + posB, base + posI}
		}
		if per == 2 || !inside(t) {
			s.closed = append(s.closed, int32(t))
		}
	}
	return s
}

// Encode returns the tags of chunks over n tokens.
func (s *Scheme) Encode(chunks []Chunk, n int) []int {
	tags := make([]int, n)
	for _, c := range chunks {
		base := 1 + s.Per*c.Label
		for i := c.Start; i < c.End; i++ {
			switch {
			case s.Per == 4 && c.End-c.Start == 1:
				tags[i] = base + posU
			case i == c.Start:
				tags[i] = base + posB
			case s.Per == 4 && i == c.End-1:
				tags[i] = base + posL
			default:
				tags[i] = base + posI
			}
		}
	}
	return tags
}

// Transpose returns trans ((T+1)*T, trans[p*T+t] the weight of tag p then
// t, row T the start) laid out by target, as Viterbi takes it:
// out[t*(T+1)+p], divided by scale.
func Transpose(trans []float32, T int, scale float32) []float32 {
	out := make([]float32, T*(T+1))
	for p := 0; p <= T; p++ {
		for t := 0; t < T; t++ {
			out[t*(T+1)+p] = trans[p*T+t] / scale
		}
	}
	return out
}

// Viterbi returns the best tag sequence for emission scores (n*T) under
// the transition weights trT (laid out by Transpose) and the scheme's
// constraints. back and tags are scratch space of at least n*T and n; cur
// and prev of T each.
func (s *Scheme) Viterbi(scores, trT []float32, n int, back []int32, tags []int, prev, cur []float32) []int {
	return s.viterbi(scores, trT, nil, n, back, tags, prev, cur)
}

// maxFromClosed returns, for each tag t that may follow a closed tag, the
// largest transition weight into t from a closed tag (zero for the other
// tags), for trT laid out by Transpose: the bound viterbi prunes with.
func (s *Scheme) maxFromClosed(trT []float32) []float32 {
	T := s.T
	out := make([]float32, T)
	for t := range T {
		if s.cont[t] {
			continue
		}
		out[t] = float32(math.Inf(-1))
		for _, p := range s.closed {
			out[t] = max(out[t], trT[t*(T+1)+int(p)])
		}
	}
	return out
}

// viterbi is Viterbi, pruned when closedMax (from maxFromClosed of trT) is
// not nil. Most tags may follow any of the closed tags (O, and the
// tags that end an entity: 37 of the ontonotes model's 73), and trying them all
// for every tag was most of the decoding. Usually one previous closed tag
// scores so far above the others that no transition weight can make up
// the gap: when the second best previous score plus the largest
// transition into t is still below the best one's path into t, that path
// wins, and the full loop (which keeps the first of equal scores) would
// have found the same score and tag, since float32 addition is monotonic.
func (s *Scheme) viterbi(scores, trT, closedMax []float32, n int, back []int32, tags []int, prev, cur []float32) []int {
	T := s.T
	tags = tags[:0]
	if n == 0 {
		return tags
	}
	neg := float32(math.Inf(-1))
	for t := 0; t < T; t++ {
		if s.start[t] {
			prev[t] = scores[t] + trT[t*(T+1)+T]
		} else {
			prev[t] = neg
		}
	}
	prev, cur = prev[:T], cur[:T]
	for i := 1; i < n; i++ {
		row := scores[i*T : (i+1)*T]
		bk := back[i*T : (i+1)*T]
		// The best previous closed tag, and the second best score (equal
		// to the best when two tie).
		top, second, p1 := neg, neg, int32(-1)
		if closedMax != nil {
			for _, p := range s.closed {
				switch v := prev[p]; {
				case v > top:
					top, second, p1 = v, top, p
				case v > second:
					second = v
				}
			}
		}
		for t := 0; t < T; t++ {
			tr := trT[t*(T+1) : t*(T+1)+T]
			best, arg := neg, int32(0)
			if s.cont[t] {
				for _, p := range s.contPreds[t] {
					if v := prev[p] + tr[p]; v > best {
						best, arg = v, p
					}
				}
			} else if v := top + tr[max(p1, 0)]; p1 >= 0 && second+closedMax[t] < v {
				best, arg = v, p1
			} else {
				for _, p := range s.closed {
					if v := prev[p] + tr[p]; v > best {
						best, arg = v, p
					}
				}
			}
			cur[t] = best + row[t]
			bk[t] = arg
		}
		prev, cur = cur, prev
	}
	best, arg := neg, 0
	for t := 0; t < T; t++ {
		if s.final[t] && prev[t] > best {
			best, arg = prev[t], t
		}
	}
	tags = slices.Grow(tags, n)[:n]
	tags[n-1] = arg
	for i := n - 1; i > 0; i-- {
		tags[i-1] = int(back[i*T+tags[i]])
	}
	return tags
}

// A Chunk is an entity over tokens [Start, End) with a label index.
type Chunk struct {
	Start, End, Label int
}

// Chunks decodes tags into entities and appends them to dst.
func (s *Scheme) Chunks(dst []Chunk, tags []int) []Chunk {
	for i := 0; i < len(tags); {
		t := tags[i]
		if t == 0 {
			i++
			continue
		}
		k := s.labelk[t]
		j := i + 1
		if s.pos[t] != posU {
			for j < len(tags) && s.labelk[tags[j]] == k && (s.pos[tags[j]] == posI || s.pos[tags[j]] == posL) {
				j++
				if s.pos[tags[j-1]] == posL {
					break
				}
			}
		}
		dst = append(dst, Chunk{i, j, k})
		i = j
	}
	return dst
}

const magic = "NERTAG3\n"

// Bounds on what Read takes from a file, far above the shipped models
// (about 1.2 million features, 210,000 cluster words and 60,000
// gazetteer phrases): a corrupt file gets an error, not a huge allocation.
const (
	maxLabels   = 200
	maxLabelLen = 64
	maxFeatures = 1 << 24
	maxWords    = 1 << 22
	maxWordLen  = 1 << 10
	maxPhrases  = 1 << 22
)

// flags are the model's options as the file stores them.
func (m *Model) flags() uint64 {
	var flags uint64
	if m.Extra {
		flags |= 1
	}
	if m.Scheme.Per == 4 {
		flags |= 2
	}
	if m.Extra2 {
		flags |= 4
	}
	if m.Extra3 {
		flags |= 8
	}
	if m.Extra4 {
		flags |= 64
	}
	if m.Gaz != nil && m.Gaz.Lower {
		flags |= 16
		if !m.Gaz.LowerAll {
			flags |= 32 // only where case tells nothing
		}
	}
	if m.Ext != nil {
		flags |= 128
		if m.Ext.Sets {
			flags |= 1024
		}
		if m.Ext.Lower {
			flags |= 256
			if m.Ext.LowerAll {
				flags |= 512
			}
		}
	}
	return flags
}

// Write writes the model in its compact binary form (gzip-compressed; weights
// quantized to int16 with one scale).
func (m *Model) Write(w io.Writer, hashes []uint64) error {
	mw := modelfile.NewWriter(w)
	mw.Raw(magic)
	mw.Uvarint(uint64(len(m.Labels)))
	for _, l := range m.Labels {
		mw.String(l)
	}
	mw.Uvarint(m.flags())
	mw.LE(m.Trans)
	scale := modelfile.Scale16(m.w)
	mw.LE(scale)
	// Features sorted by hash, delta coded.
	order := make([]int, len(hashes))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return cmp.Compare(hashes[a], hashes[b]) })
	mw.Uvarint(uint64(len(hashes)))
	var last uint64
	for _, f := range order {
		mw.Uvarint(hashes[f] - last)
		last = hashes[f]
		a, b := m.off[f], m.off[f+1]
		mw.Uvarint(uint64(b - a))
		for k := a; k < b; k++ {
			mw.Byte(m.tag[k])
			mw.LE(modelfile.Quantize16(m.w[k], scale))
		}
	}
	// Word clusters.
	words := slices.Sorted(maps.Keys(m.Clus))
	mw.Uvarint(uint64(len(words)))
	for _, w := range words {
		mw.String(w)
		mw.Uvarint(uint64(m.Clus[w]))
	}
	// Gazetteer.
	if m.Gaz == nil {
		mw.Uvarint(0)
	} else {
		m.Gaz.write(mw)
	}
	if m.Ext != nil {
		m.Ext.write(mw)
	}
	return mw.Close()
}

// errFormat is wrapped by Read's errors for data that is not a model.
var errFormat = modelfile.ErrFormat

// Read reads a model written by Write.
func Read(data []byte) (*Model, error) {
	r, err := modelfile.NewReader(bytes.NewReader(data), magic)
	if err != nil {
		return nil, fmt.Errorf("tagger: %w", err)
	}
	m := &Model{}
	m.Labels = make([]string, r.Count("labels", maxLabels))
	for i := range m.Labels {
		m.Labels[i] = r.String(maxLabelLen)
	}
	flags := r.Uvarint()
	m.Extra = flags&1 != 0
	m.Extra2 = flags&4 != 0
	m.Extra3 = flags&8 != 0
	m.Extra4 = flags&64 != 0
	per := 2
	if flags&2 != 0 {
		per = 4
	}
	m.Scheme = NewScheme(per, len(m.Labels))
	m.T = m.Scheme.T
	m.Trans = make([]float32, (m.T+1)*m.T)
	r.LE(m.Trans)
	var scale float32
	r.LE(&scale)
	nf := r.Count("features", maxFeatures)
	hashes := make([]uint64, nf)
	m.off = make([]uint32, nf+1)
	var last uint64
	for f := range hashes {
		last += r.Uvarint()
		hashes[f] = last
		n := r.Count("tags of a feature", m.T)
		for range n {
			t := r.Byte()
			if int(t) >= m.T {
				r.Fail("tag %d of %d", t, m.T)
			}
			m.tag = append(m.tag, t)
			m.w = append(m.w, float32(r.Int16())*scale)
		}
		if r.Err() != nil {
			return nil, fmt.Errorf("tagger: %w", r.Err())
		}
		m.off[f+1] = uint32(len(m.tag))
	}
	if nw := r.Count("cluster words", maxWords); nw > 0 {
		m.Clus = make(map[string]int32, nw)
		for range nw {
			w := r.String(maxWordLen)
			m.Clus[w] = int32(r.Uvarint())
		}
	}
	m.Gaz = readGazetteer(r)
	if m.Gaz != nil {
		m.Gaz.Lower = flags&16 != 0
		m.Gaz.LowerAll = m.Gaz.Lower && flags&32 == 0
	}
	if flags&128 != 0 {
		e := readGazetteer(r)
		if e == nil {
			r.Fail("no external gazetteer, though the flags say there is one")
		} else {
			e.External, e.Sets = true, flags&1024 != 0
			e.Lower = flags&256 != 0
			e.LowerAll = flags&512 != 0
			m.Ext = e
		}
	}
	if err := r.End(); err != nil {
		return nil, fmt.Errorf("tagger: %w", err)
	}
	if err := m.buildTable(hashes); err != nil {
		return nil, err
	}
	return m, nil
}
