package tagger

// A Buffers holds the scratch space of one tagging call; reuse it (one per
// goroutine) to avoid allocation.
type Buffers struct {
	Toks   []Span
	Doc    Doc
	score  scoreBuf
	scores []float32
	back   []int32
	tags   []int
	prev   []float32
	cur    []float32
}

// Prepare sets the model-dependent per-token data of d (word clusters and
// gazetteer matches).
func (d *Doc) Prepare(clus map[string]int32, gaz, ext *Gazetteer) {
	d.clus = d.clus[:0]
	if clus != nil {
		for i := range d.Toks {
			c, ok := clus[string(d.s(d.norm[i]))]
			if !ok {
				c = -1
			}
			d.clus = append(d.clus, c)
		}
	} else {
		d.clus = nil
	}
	d.gaz = nil
	if gaz != nil || ext != nil {
		d.gaz = make([][]uint64, len(d.Toks))
	}
	if gaz != nil {
		gaz.features(d)
	}
	if ext != nil {
		ext.features(d)
	}
}

// Tag tags the tokens toks of text as one sentence and appends the entities
// found (token indices relative to toks) to dst.
func (m *Model) Tag(dst []Chunk, text string, toks []Span, b *Buffers) []Chunk {
	n := len(toks)
	if n == 0 {
		return dst
	}
	d := &b.Doc
	d.Extra, d.Extra2, d.Extra3, d.Extra4 = m.Extra, m.Extra2, m.Extra3, m.Extra4
	d.Reset(text, toks)
	d.Prepare(m.Clus, m.Gaz, m.Ext)
	if cap(b.scores) < n*m.T {
		b.scores = make([]float32, n*m.T)
		b.back = make([]int32, n*m.T)
	}
	scores := b.scores[:n*m.T]
	m.Score(d, scores, &b.score)
	if len(b.prev) < m.T {
		b.prev, b.cur = make([]float32, m.T), make([]float32, m.T)
	}
	b.tags = m.Scheme.viterbi(scores, m.qtrans, m.qmax, n, b.back[:n*m.T], b.tags, b.prev, b.cur)
	return m.Scheme.Chunks(dst, b.tags)
}
