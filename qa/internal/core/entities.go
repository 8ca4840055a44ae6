package core

import (
	"context"
	"math"
	"sync"

	"github.com/textanalysis/go-textanalysis/ner"
)

// recognizer is the named-entity recogniser of package ner with its
// default (OntoNotes) model, loaded once.
var recognizer = sync.OnceValues(func() (*ner.Recognizer, error) {
	return ner.New(ner.Options{MaxRunes: math.MaxInt32, SkipSecondStage: true})
})

// LoadEntities loads the named-entity model, so that a broken one shows
// when a reader is made rather than on the first question.
func LoadEntities() error {
	_, err := recognizer()
	return err
}

// markEntities sets the NE and NEB fields of d's tokens from the entities
// of text (whose offsets are those of d's tokens less base). A token is
// in an entity when their spans overlap; the two tokenisers differ in
// places.
func markEntities(d *Doc, text string, base int) error {
	r, err := recognizer()
	if err != nil {
		return err
	}
	ents, err := r.Recognize(context.Background(), text)
	if err != nil {
		return err
	}
	k := 0
	for _, e := range ents {
		s, en := e.Start+base, e.End+base
		for k < len(d.Toks) && d.Toks[k].End <= s {
			k++
		}
		first := true
		for i := k; i < len(d.Toks) && d.Toks[i].Start < en; i++ {
			if d.Toks[i].NE != "" {
				continue // already in the previous entity
			}
			d.Toks[i].NE, d.Toks[i].NEB = string(e.Label), first
			first = false
		}
	}
	return nil
}

// Entity relations of a candidate span to the named entities of its
// document.
const (
	NENone    = "none"    // no token of the span is in an entity
	NEExact   = "exact"   // the span is one entity
	NEInside  = "inside"  // the span is part of one entity
	NEContain = "contain" // the span holds a whole entity and more
	NEPartial = "partial" // the span crosses an entity's boundary
)

// entEnd is the end (exclusive) of the entity whose token i is in.
func entEnd(T []Tok, i int) int {
	j := i + 1
	for j < len(T) && T[j].NE == T[i].NE && !T[j].NEB {
		j++
	}
	return j
}

// EntityOf is how candidate c of d relates to the named entities of d,
// and the label of the entity concerned ("" with NENone). With NEContain
// it is the first whole entity of the span.
func EntityOf(d *Doc, c Cand) (rel, label string) {
	T := d.Toks
	f := &T[c.S]
	if f.NE != "" {
		// Does the span stay within the entity of its first token?
		end := entEnd(T, c.S)
		if c.E <= end {
			if f.NEB && c.E == end {
				return NEExact, f.NE
			}
			return NEInside, f.NE
		}
	}
	for i := c.S; i < c.E; i++ {
		if T[i].NE != "" && T[i].NEB && entEnd(T, i) <= c.E {
			return NEContain, T[i].NE
		}
	}
	for i := c.S; i < c.E; i++ {
		if T[i].NE != "" {
			return NEPartial, T[i].NE
		}
	}
	return NENone, ""
}
