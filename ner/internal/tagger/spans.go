package tagger

// SpanScores appends to dst, for the entity c of the last Tag call with
// b, the score of the sentence's tagging with c's tokens given each label
// in turn (label k at dst[k]) and then with them all O (at dst[len(Labels)]),
// the rest of the tagging kept: emissions and transitions, in the units of
// the trained weights. The label Tag chose scores highest.
func (m *Model) SpanScores(dst []float32, b *Buffers, c Chunk) []float32 {
	for k := range m.Labels {
		dst = append(dst, m.pathScore(b, c.Start, c.End, func(i int) int { return m.Scheme.spanTag(c, k, i) })*m.qscale)
	}
	return append(dst, m.pathScore(b, c.Start, c.End, func(int) int { return 0 })*m.qscale)
}

// pathScore is the score, in quantised units, of the tokens [lo, hi) of
// the last Tag call with b tagged by tagAt: their emissions, the
// transitions between them, and those from the tag before lo and into the
// tag at hi, which stay as Tag chose them.
func (m *Model) pathScore(b *Buffers, lo, hi int, tagAt func(i int) int) float32 {
	T := m.T
	tr := func(p, t int) float32 { return m.qtrans[t*(T+1)+p] }
	p := T
	if lo > 0 {
		p = b.tags[lo-1]
	}
	var s float32
	for i := lo; i < hi; i++ {
		t := tagAt(i)
		s += b.scores[i*T+t] + tr(p, t)
		p = t
	}
	if hi < len(b.tags) {
		s += tr(p, b.tags[hi])
	}
	return s
}

// spanTag is the tag of token i, inside c, when c is an entity of label k:
// B, I, L or U under BILOU, B or I under BIO.
func (s *Scheme) spanTag(c Chunk, k, i int) int {
	base := 1 + s.Per*k
	switch {
	case s.Per == 4 && c.End-c.Start == 1:
		return base + posU
	case i == c.Start:
		return base + posB
	case s.Per == 4 && i == c.End-1:
		return base + posL
	}
	return base + posI
}

// Cluster returns the word cluster of token i as Prepare set it (fine<<16
// | coarse with the marks of Cluster), or -1.
func (d *Doc) Cluster(i int) int32 {
	if i < 0 || i >= len(d.clus) {
		return -1
	}
	return d.clus[i]
}

// Case tells whether most letters of the sentence are capitals (a
// headline) and whether it has no capital at all.
func (d *Doc) Case() (caps, lows bool) { return d.caps, d.lows }

// Lookup returns the label sets (bit k for label k) of toks of text as a
// whole phrase of the gazetteer, as written and (when g.Lower) in lower
// case.
func (g *Gazetteer) Lookup(text string, toks []Span) (cased, lower uint32) {
	if g == nil || len(toks) == 0 || len(toks) > g.MaxLen {
		return 0, 0
	}
	set, _ := g.get(phraseHash(text, toks))
	cased = uint32(set)
	if g.Lower {
		set, _ := g.get(lowerHash(text, toks))
		lower = uint32(set >> 32)
	}
	return cased, lower
}

// RegionScores appends to dst, for a span c and a region [lo, hi) of the
// tokens of the last Tag call with b that holds it, how much the score of
// the sentence's tagging changes when the region is re-tagged with c's
// tokens given each label in turn (label k at dst[k]) and then all O (at
// dst[len(Labels)]), the region's other tokens O and the rest of the
// tagging kept. For c one of Tag's entities and the region c itself, the
// label Tag chose gives 0 and the others less.
func (m *Model) RegionScores(dst []float32, b *Buffers, c Chunk, lo, hi int) []float32 {
	base0 := m.pathScore(b, lo, hi, func(i int) int { return b.tags[i] })
	for k := range m.Labels {
		dst = append(dst, (m.pathScore(b, lo, hi, func(i int) int {
			if i < c.Start || i >= c.End {
				return 0
			}
			return m.Scheme.spanTag(c, k, i)
		})-base0)*m.qscale)
	}
	return append(dst, (m.pathScore(b, lo, hi, func(int) int { return 0 })-base0)*m.qscale)
}
