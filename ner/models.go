package ner

import (
	_ "embed"
	"fmt"
	"slices"
	"sync"

	"github.com/textanalysis/go-textanalysis/ner/internal/relabel"
	"github.com/textanalysis/go-textanalysis/ner/internal/tagger"
)

// DefaultModel is the name of the model New uses when Options.Model is
// empty: the 18-label OntoNotes model.
const DefaultModel = "ontonotes"

// ModelInfo describes a model of the registry.
type ModelInfo struct {
	Name        string  `json:"name"`
	Description string  `json:"description"`
	Labels      []Label `json:"labels"`
	Default     bool    `json:"default"`
}

//go:embed models/ontonotes.bin
var ontonotesData []byte

//go:embed models/ontonotes-relabel.bin
var ontonotesRelabelData []byte

//go:embed models/conll.bin
var conllData []byte

//go:embed models/conll-relabel.bin
var conllRelabelData []byte

type entry struct {
	name, desc string
	labels     []Label
	data       []byte
	relabel    []byte           // the second stage's model; nil for none
	mapping    map[string]Label // model label → Label; identity when absent
	once       func() (*loaded, error)
}

// loaded is a model's decoded form.
type loaded struct {
	tagger  *tagger.Model
	relabel *relabel.Model
}

var registry = func() []*entry {
	es := []*entry{
		{
			name: DefaultModel,
			desc: "English, the 18 OntoNotes 5 entity types spaCy uses; averaged structured perceptron " +
				"trained on the OntoNotes 5.0 English training split (CoNLL-2012), LDC research licence",
			labels: []Label{Person, NORP, FAC, Org, GPE, Loc, Product, Event, WorkOfArt, Law, Language,
				Date, Time, Percent, Money, Quantity, Ordinal, Cardinal},
			data:    ontonotesData,
			relabel: ontonotesRelabelData,
		},
		{
			name: "conll",
			desc: "English, CoNLL-2003's four types as PERSON, ORG, LOC and MISC; averaged structured " +
				"perceptron trained on the CoNLL-2003 English training set (Reuters news), research licence",
			labels:  []Label{Person, Org, Loc, Misc},
			data:    conllData,
			relabel: conllRelabelData,
			mapping: map[string]Label{"PER": Person, "ORG": Org, "LOC": Loc, "MISC": Misc},
		},
	}
	for _, e := range es {
		e.once = sync.OnceValues(func() (lm *loaded, err error) {
			defer func() {
				if r := recover(); r != nil {
					lm, err = nil, fmt.Errorf("ner: load model %s: %v", e.name, r)
				}
			}()
			lm = &loaded{}
			lm.tagger, err = tagger.Read(e.data)
			if err != nil {
				return nil, fmt.Errorf("ner: load model %s: %w", e.name, err)
			}
			if e.relabel != nil {
				lm.relabel, err = relabel.Read(e.relabel)
				if err != nil {
					return nil, fmt.Errorf("ner: load model %s: %w", e.name, err)
				}
			}
			return lm, nil
		})
	}
	return es
}()

func (e *entry) load() (*loaded, error) { return e.once() }

func (e *entry) mapLabel(l string) Label {
	if v, ok := e.mapping[l]; ok {
		return v
	}
	return Label(l)
}

func (e *entry) info() ModelInfo {
	return ModelInfo{Name: e.name, Description: e.desc, Labels: slices.Clone(e.labels), Default: e.name == DefaultModel}
}

func lookup(name string) *entry {
	for _, e := range registry {
		if e.name == name {
			return e
		}
	}
	return nil
}

func modelNames() []string {
	var names []string
	for _, e := range registry {
		names = append(names, e.name)
	}
	return names
}

// Models returns the registry of models, the default first.
func Models() []ModelInfo {
	out := make([]ModelInfo, 0, len(registry))
	for _, e := range registry {
		out = append(out, e.info())
	}
	return out
}
