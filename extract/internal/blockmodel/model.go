package blockmodel

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"math"
	"sync"
)

// A Tree is one regression tree in flat arrays: node i splits on feature
// Feat[i] (x < Thr[i] goes to Left[i], else Right[i]); a node with Feat[i]
// < 0 is a leaf whose value is Val[i].
type Tree struct {
	Feat  []int16   `json:"f"`
	Thr   []float32 `json:"t"`
	Left  []int32   `json:"l"`
	Right []int32   `json:"r"`
	Val   []float32 `json:"v"`
}

// eval returns the tree's value for x.
func (t *Tree) eval(x []float32) float32 {
	i := int32(0)
	for {
		f := t.Feat[i]
		if f < 0 {
			return t.Val[i]
		}
		if x[f] < t.Thr[i] {
			i = t.Left[i]
		} else {
			i = t.Right[i]
		}
	}
}

// A Model is a sum of trees over a logistic link, with the decision
// threshold chosen by cross-validation.
type Model struct {
	Features  []string `json:"features"`
	Base      float32  `json:"base"`
	Trees     []Tree   `json:"trees"`
	Threshold float64  `json:"threshold"`
	// Note says how the model was trained (data, folds, parameters).
	Note string `json:"note,omitempty"`
}

// Prob returns the probability that the block with features x is main
// content.
func (m *Model) Prob(x []float32) float64 {
	s := m.Base
	for i := range m.Trees {
		s += m.Trees[i].eval(x)
	}
	return 1 / (1 + math.Exp(-float64(s)))
}

// Check reports a model that does not fit the feature list: a wrong
// count, or a tree that points outside its arrays or the features.
func (m *Model) Check(features []string) error {
	if len(m.Features) != len(features) {
		return fmt.Errorf("blockmodel: model has %d features, extraction computes %d", len(m.Features), len(features))
	}
	for i, f := range features {
		if m.Features[i] != f {
			return fmt.Errorf("blockmodel: feature %d is %q in the model, %q in extraction", i, m.Features[i], f)
		}
	}
	for k, t := range m.Trees {
		n := len(t.Feat)
		if n == 0 || len(t.Thr) != n || len(t.Left) != n || len(t.Right) != n || len(t.Val) != n {
			return fmt.Errorf("blockmodel: tree %d is malformed", k)
		}
		for i := 0; i < n; i++ {
			if t.Feat[i] < 0 {
				continue
			}
			// Children come after their parent, so evaluation always ends.
			if int(t.Feat[i]) >= len(features) || t.Left[i] <= int32(i) || t.Right[i] <= int32(i) ||
				int(t.Left[i]) >= n || int(t.Right[i]) >= n {
				return fmt.Errorf("blockmodel: tree %d node %d is malformed", k, i)
			}
		}
	}
	return nil
}

//go:embed model.json
var modelJSON []byte

var (
	loadOnce sync.Once
	loaded   *Model
	loadErr  error
)

// Load returns the embedded model, parsed once and checked against
// features.
func Load(features []string) (*Model, error) {
	loadOnce.Do(func() {
		var m Model
		if err := json.Unmarshal(modelJSON, &m); err != nil {
			loadErr = fmt.Errorf("blockmodel: %w", err)
			return
		}
		if err := m.Check(features); err != nil {
			loadErr = err
			return
		}
		loaded = &m
	})
	return loaded, loadErr
}

// A Block is one block of a page as extraction sees it, for training.
type Block struct {
	Text     string
	Features []float32
}

// A PageView is what extraction computed for one page, for training.
type PageView struct {
	Title    string
	Blocks   []Block
	Features []string // the feature names, in order
	RuleText string   // the text the hand rules chose
}

// View is set by package extract: it parses html (UTF-8) and returns its
// blocks and their features. The training program calls it.
var View func(ctx context.Context, html []byte) (*PageView, error)
