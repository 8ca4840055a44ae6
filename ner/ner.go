package ner

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/textanalysis/go-textanalysis/internal/align"
	"github.com/textanalysis/go-textanalysis/ner/internal/relabel"
	"github.com/textanalysis/go-textanalysis/ner/internal/tagger"
)

// A Label is an entity type. The names are those of OntoNotes 5 as spaCy
// uses them; [Misc] is produced only by the CoNLL-style model.
type Label string

// The entity labels.
const (
	Person    Label = "PERSON"      // people, including fictional
	NORP      Label = "NORP"        // nationalities, religious or political groups
	FAC       Label = "FAC"         // buildings, airports, highways, bridges
	Org       Label = "ORG"         // companies, agencies, institutions
	GPE       Label = "GPE"         // countries, cities, states
	Loc       Label = "LOC"         // non-GPE locations, mountain ranges, bodies of water
	Product   Label = "PRODUCT"     // objects, vehicles, foods (not services)
	Event     Label = "EVENT"       // named hurricanes, battles, wars, sports events
	WorkOfArt Label = "WORK_OF_ART" // titles of books, songs, ...
	Law       Label = "LAW"         // named documents made into laws
	Language  Label = "LANGUAGE"    // any named language
	Date      Label = "DATE"        // absolute or relative dates or periods
	Time      Label = "TIME"        // times smaller than a day
	Percent   Label = "PERCENT"     // percentage, including "%"
	Money     Label = "MONEY"       // monetary values, including unit
	Quantity  Label = "QUANTITY"    // measurements, as of weight or distance
	Ordinal   Label = "ORDINAL"     // "first", "second", ...
	Cardinal  Label = "CARDINAL"    // numerals that do not fall under another type
	// Misc is CoNLL-2003's catch-all for other names (nationalities, events,
	// works, products); only the CoNLL-style model produces it.
	Misc Label = "MISC"
)

// An Entity is a labelled span of the input, in code points, end exclusive:
// string([]rune(input)[e.Start:e.End]) == e.Text.
type Entity struct {
	Text  string `json:"text"`
	Label Label  `json:"label"`
	Start int    `json:"start"`
	End   int    `json:"end"`
}

// DefaultMaxRunes is the longest text Recognize accepts when
// Options.MaxRunes is zero.
const DefaultMaxRunes = 100_000

// Options configures New. The zero value selects the default model and
// limit.
type Options struct {
	// Model names a model from Models. Empty means DefaultModel.
	Model string
	// MaxRunes caps the length of accepted text in code points. Zero means
	// DefaultMaxRunes.
	MaxRunes int
	// SkipSecondStage returns every entity the tagger finds, with the
	// tagger's label, without the second stage that relabels or drops
	// them (each model has one): more recall, less precision. Package qa
	// reads entities this way, since its models learned from the tagger's
	// entities.
	SkipSecondStage bool
}

// ErrUnknownModel is returned (wrapped, with the known names) by New when
// Options.Model names no model.
var ErrUnknownModel = errors.New("ner: unknown model")

// ErrTooLong is returned by Recognize when the text exceeds the limit set by
// Options.MaxRunes.
var ErrTooLong = errors.New("ner: text too long")

// A Recognizer finds entities with one model. It is safe for concurrent use.
type Recognizer struct {
	info     ModelInfo
	m        *tagger.Model
	rl       *relabel.Model // second stage: relabels the tagger's entities; nil for none
	labels   []Label        // model label index → Label
	maxRunes int
	pool     sync.Pool // *buffers
}

// New returns a Recognizer for opts.Model. The model's weights are decoded
// on the first New for that model in the process (tens of milliseconds)
// and shared by every later Recognizer of the same model. An unknown model
// name gives an error wrapping ErrUnknownModel that lists the known names.
func New(opts Options) (*Recognizer, error) {
	name := opts.Model
	if name == "" {
		name = DefaultModel
	}
	e := lookup(name)
	if e == nil {
		return nil, fmt.Errorf("%w %q (known: %s)", ErrUnknownModel, name, strings.Join(modelNames(), ", "))
	}
	lm, err := e.load()
	if err != nil {
		return nil, err
	}
	m := lm.tagger
	r := &Recognizer{info: e.info(), m: m, rl: lm.relabel, maxRunes: opts.MaxRunes}
	if opts.SkipSecondStage {
		r.rl = nil
	}
	if r.maxRunes <= 0 {
		r.maxRunes = DefaultMaxRunes
	}
	for _, l := range m.Labels {
		r.labels = append(r.labels, e.mapLabel(l))
	}
	r.pool.New = func() any { return new(buffers) }
	return r, nil
}

// Model returns the description of the recognizer's model.
func (r *Recognizer) Model() ModelInfo { return r.info }

// Recognize returns the entities of text in order of position. Offsets
// count code points of text as given (a byte of invalid UTF-8 counts as
// one, as []rune counts it, and reads as U+FFFD in Entity.Text). It returns
// ErrTooLong when text exceeds the recognizer's MaxRunes.
func (r *Recognizer) Recognize(ctx context.Context, text string) ([]Entity, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if len(text) > r.maxRunes && utf8.RuneCountInString(text) > r.maxRunes {
		return nil, fmt.Errorf("%w: more than %d code points", ErrTooLong, r.maxRunes)
	}
	text = align.Valid(text)
	// The model reads NFC without the accents of Latin letters (it learned
	// mostly unaccented text: "Amélie" reads as "Amelie"); offsets and
	// texts come from the text as given.
	nfc := align.Fold(text)
	bb := r.pool.Get().(*buffers)
	defer r.pool.Put(bb)
	b := &bb.tagger
	toks := tagger.KeepCased(tagger.Tokenize(b.Toks[:0], nfc.Text), nfc.Text)
	b.Toks = toks
	ents := []Entity{}
	var chunks []tagger.Chunk
	// Running byte → code point conversion: spans come in text order.
	bytePos, runePos := 0, 0
	runeAt := func(off int) int {
		if off >= bytePos {
			runePos += utf8.RuneCountInString(text[bytePos:off])
		} else {
			runePos -= utf8.RuneCountInString(text[off:bytePos])
		}
		bytePos = off
		return runePos
	}
	prevEnd := 0 // token index after the last entity: entities never overlap
	for seg, i := 0, 0; i < len(toks); seg++ {
		if seg%64 == 63 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		j := tagger.SentenceEnd(nfc.Text, toks, i)
		chunks = r.m.Tag(chunks[:0], nfc.Text, toks[i:j], b)
		if r.rl != nil {
			chunks = bb.second.Apply(r.rl, r.m, b, nfc.Text, toks[i:j], chunks)
		}
		for _, c := range chunks {
			ts, te, ok := bounds(nfc.Text, toks, i+c.Start, untilCaseless(nfc.Text, toks, i+c.Start, i+c.End), r.labels[c.Label])
			if ok && r.labels[c.Label] == Person {
				ts = titledName(nfc.Text, toks, i, ts)
			}
			if ts < prevEnd {
				ts = prevEnd
			}
			if !ok || ts >= te {
				continue
			}
			prevEnd = te
			bs, be := nfc.Source(toks[ts].Start, false), nfc.Source(toks[te-1].End, true)
			// A separator glued to the last word ("0,!") is not the entity's.
			for be-bs > 1 && strings.IndexByte(",;:", text[be-1]) >= 0 {
				be--
			}
			s := runeAt(bs)
			e := runeAt(be)
			ents = append(ents, Entity{Text: text[bs:be], Label: r.labels[c.Label], Start: s, End: e})
		}
		i = j
	}
	return ents, nil
}

// untilCaseless returns where the entity of tokens [ts, te) ends: before
// the first word the models did not read (see [tagger.KeepCased]) that
// lies between its tokens, since a change of script ends an entity.
func untilCaseless(text string, toks []tagger.Span, ts, te int) int {
	for j := ts + 1; j < te; j++ {
		if tagger.HasCaseless(text[toks[j-1].End:toks[j].Start]) {
			return j
		}
	}
	return te
}

// buffers is the scratch space of one Recognize call.
type buffers struct {
	tagger tagger.Buffers
	second relabel.Chooser
}
