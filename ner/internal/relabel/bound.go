package relabel

import (
	"strings"

	"github.com/textanalysis/go-textanalysis/ner/internal/tagger"
)

// The edits that make an alternative span from a tagger's entity.
const (
	EditNone   = iota // the tagger's own span
	EditTrimL         // one word less at the start
	EditTrimR         // one word less at the end
	EditExtL          // one word more at the start
	EditExtR          // one word more at the end
	EditTrimL2        // two words less at the start
	EditTrimR2        // two words less at the end
	EditExtL2         // two words more at the start
	EditExtR2         // two words more at the end
	EditMerge         // through the next entity, at most one word away
	EditSplitL        // the part before a joining word ("and", "to", "-")
	EditSplitR        // the part after it
	NumEdits
)

// An Alt is an alternative span for the tagger's entity Chunks[K]: its
// words in the sentence and the edit that made it.
type Alt struct {
	Start, End int
	Edit       int
}

// joiners are the words at which an entity may be split in two.
var joiners = map[string]bool{"and": true, "to": true, "or": true, "-": true, "–": true, "—": true, "/": true, "through": true}

// Alternatives appends to dst the alternative spans of the entity
// chunks[k] that the tagger found in the tokens toks of text (a sentence):
// one or two words more or less at either edge, the span through the next
// entity when at most one word lies between, and the parts either side of
// a joining word inside it. No alternative reaches into another entity but
// the merge, and the edits whose bit is clear in allow are left out.
func Alternatives(dst []Alt, text string, toks []tagger.Span, chunks []tagger.Chunk, k int, allow uint32) []Alt {
	c := chunks[k]
	lo, hi := 0, len(toks) // the words free of other entities
	if k > 0 {
		lo = chunks[k-1].End
	}
	if k+1 < len(chunks) {
		hi = chunks[k+1].Start
	}
	add := func(s, e, edit int) {
		if allow&(1<<edit) != 0 && s < e && s >= lo && e <= hi {
			dst = append(dst, Alt{s, e, edit})
		}
	}
	add(c.Start+1, c.End, EditTrimL)
	add(c.Start, c.End-1, EditTrimR)
	add(c.Start-1, c.End, EditExtL)
	add(c.Start, c.End+1, EditExtR)
	add(c.Start+2, c.End, EditTrimL2)
	add(c.Start, c.End-2, EditTrimR2)
	add(c.Start-2, c.End, EditExtL2)
	add(c.Start, c.End+2, EditExtR2)
	if k+1 < len(chunks) && allow&(1<<EditMerge) != 0 && chunks[k+1].Start-c.End <= 1 {
		dst = append(dst, Alt{c.Start, chunks[k+1].End, EditMerge})
	}
	for j := c.Start + 1; j < c.End-1; j++ {
		if joiners[strings.ToLower(text[toks[j].Start:toks[j].End])] {
			add(c.Start, j, EditSplitL)
			add(j+1, c.End, EditSplitR)
		}
	}
	return dst
}

// FromTaggerAlt fills c with the alternative a of the entity ch of the
// last m.Tag call with b on the tokens toks of text, as FromTagger does
// for the entity itself.
func FromTaggerAlt(c *Candidate, m *tagger.Model, b *tagger.Buffers, text string, toks []tagger.Span, ch tagger.Chunk, a Alt) {
	FromTagger(c, m, b, text, toks, tagger.Chunk{Start: a.Start, End: a.End, Label: ch.Label})
	off := a.Start - c.Start // the sentence's index of Words[0]
	c.Edit, c.OStart, c.OEnd = a.Edit, ch.Start-off, ch.End-off
	c.Delta = m.RegionScores(c.Delta[:0], b, tagger.Chunk{Start: a.Start, End: a.End}, min(a.Start, ch.Start), max(a.End, ch.End))
}
