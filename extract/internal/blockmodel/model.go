package blockmodel

import (
	"context"
	_ "embed"
	"fmt"
	"math"
	"slices"
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
	// AddThreshold, when above zero, is the threshold for the blocks the
	// hand rules left out; Threshold is then for those they kept.
	AddThreshold float64 `json:"add_threshold,omitempty"`
	// Conditions on the blocks the hand rules left out, chosen by
	// measurement: AddFilter drops those the rules' single-block filter
	// drops (furniture lines, calls to action, credits); AddNear needs at
	// least this share of kept blocks among the 21 around; AddShare lets
	// blocks outside the rules' container in only when the rules' text is
	// at most this share of the page's.
	AddFilter bool    `json:"add_filter,omitempty"`
	AddNear   float64 `json:"add_near,omitempty"`
	AddShare  float64 `json:"add_share,omitempty"`
	// AddVeto keeps out the blocks the rules left out that their text
	// filters name as furniture (boilerplate lines, calls to action,
	// picture credits) or that repeat the page's title.
	AddVeto bool `json:"add_veto,omitempty"`
	// ArticleVetoDropped keeps out, on article pages, the blocks the rules
	// dropped for a boilerplate class or furniture element.
	ArticleVetoDropped bool `json:"article_veto_dropped,omitempty"`
	// ArticleVetoComments leaves out, on pages whose most likely type is
	// article and whose rules kept text outside comment sections
	// (BodyOutsideComments), every block inside one (an ancestor's class
	// or id names comments), whatever its probability: readers' comments
	// are not the article, however much they read like it.
	ArticleVetoComments bool `json:"article_veto_comments,omitempty"`
	// Types are the page types and TypeModels their one-vs-rest models
	// over PageVector; the first type is "article".
	Types      []string `json:"types,omitempty"`
	TypeModels []Model  `json:"type_models,omitempty"`
	// On a page whose article probability (normalised over the types) is
	// at least ArticleTau, the blocks the rules left out need ArticleAdd.
	ArticleTau float64 `json:"article_tau,omitempty"`
	ArticleAdd float64 `json:"article_add,omitempty"`
	// With ArticleTauHi above ArticleTau the gate is soft: the threshold
	// for the blocks the rules left out goes from AddThreshold to
	// ArticleAdd as the article probability goes from ArticleTau to
	// ArticleTauHi; with NonArticleDrop above zero, the threshold for the
	// blocks the rules kept goes from NonArticleDrop to Threshold the same
	// way.
	ArticleTauHi   float64 `json:"article_tau_hi,omitempty"`
	NonArticleDrop float64 `json:"non_article_drop,omitempty"`
	// TypeDrop and TypeAdd, when set for a type (Types order; zero: not
	// set), replace the thresholds above on a page whose most likely type
	// it is: TypeDrop for the blocks the rules kept, TypeAdd for those
	// they left out. They are never set for article, so that article
	// pages keep the decoding above.
	TypeDrop []float64 `json:"type_drop,omitempty"`
	TypeAdd  []float64 `json:"type_add,omitempty"`
	// TypeRuleChars, when above zero, keeps TypeDrop and TypeAdd to pages
	// where the hand rules kept fewer characters: where the rules found
	// a body of their own size, the page keeps the decoding above.
	TypeRuleChars float64 `json:"type_rule_chars,omitempty"`
	// TypeGate and TypeGateAdd, when set for a type (Types order; zero:
	// not set), give a page that the per-type thresholds above do not
	// take, and whose probability of that type is at least TypeGate, the
	// add threshold TypeGateAdd in place of the article gate's: a page
	// the page-type models find partly documentation keeps its list
	// items and plain paragraphs even when they also find it an article
	// and the rules kept a body of their own (the first type in Types
	// order whose gate opens decides; the drop threshold stays
	// Threshold).
	TypeGate    []float64 `json:"type_gate,omitempty"`
	TypeGateAdd []float64 `json:"type_gate_add,omitempty"`
	// ShortRuleChars, when above zero, keeps the article gate to pages
	// where the hand rules kept at least that many characters or none; on
	// a page where they kept some but fewer (and that the per-type
	// thresholds and the type gates do not take), the blocks they left out
	// need ShortAdd: the rules found no body of their own size there, so
	// the article gate would keep out the body they missed. Where they
	// kept nothing the page may have no body at all.
	ShortRuleChars float64 `json:"short_rule_chars,omitempty"`
	ShortAdd       float64 `json:"short_add,omitempty"`
	// Stack, when set, is the second stage: a model over each block's
	// features and StackNames, whose probability replaces the first
	// stage's (see StackProbs).
	Stack *Model `json:"stack,omitempty"`
	// Note says how the model was trained (data, folds, parameters).
	Note string `json:"note,omitempty"`

	flat  []node    // the trees, laid out by flatten
	vals  []float32 // the leaves' values, by node
	roots []int32   // where each tree starts in flat
	depth []int32   // each tree's depth
}

// Prob returns the probability that the block with features x is main
// content.
func (m *Model) Prob(x []float32) float64 {
	if m.flat == nil || len(x) == 0 {
		s := m.Base
		for i := range m.Trees {
			s += m.Trees[i].eval(x)
		}
		return logistic(s)
	}
	k := make([]int32, len(x))
	floatKeys(k, x)
	return logistic(m.walk(k))
}

func logistic(s float32) float64 { return 1 / (1 + math.Exp(-float64(s))) }

// walk returns the sum of the trees for the row whose floatKeys are k.
func (m *Model) walk(k []int32) float32 {
	s, nodes := m.Base, m.flat
	for t, root := range m.roots {
		i := root
		for d := m.depth[t]; d > 0; d-- {
			n := &nodes[i]
			i = n.right + int32((int64(k[n.feat])-int64(n.thr))>>63)&(n.left-n.right)
		}
		s += m.vals[i]
	}
	return s
}

// probs sets p[i] to Prob(x[i]). It walks each tree for four rows at a
// time: the four walks do not wait on one another, so the processor
// overlaps them. Each row's sum takes the trees in the same order as Prob,
// so the results are the same to the bit.
func (m *Model) probs(x [][]float32, p []float64) {
	if m.flat == nil {
		for r, row := range x {
			p[r] = m.Prob(row)
		}
		return
	}
	nf := 0
	for _, row := range x {
		nf = max(nf, len(row))
	}
	buf := make([]int32, 4*nf)
	k0, k1, k2, k3 := buf[:nf], buf[nf:2*nf], buf[2*nf:3*nf], buf[3*nf:]
	nodes, vals := m.flat, m.vals
	r := 0
	for ; r+4 <= len(x); r += 4 {
		x0, x1, x2, x3 := x[r], x[r+1], x[r+2], x[r+3]
		if len(x0) == 0 || len(x1) == 0 || len(x2) == 0 || len(x3) == 0 {
			break
		}
		floatKeys(k0, x0)
		floatKeys(k1, x1)
		floatKeys(k2, x2)
		floatKeys(k3, x3)
		k0, k1, k2, k3 := k0[:len(x0)], k1[:len(x1)], k2[:len(x2)], k3[:len(x3)]
		s0, s1, s2, s3 := m.Base, m.Base, m.Base, m.Base
		for t, root := range m.roots {
			i0, i1, i2, i3 := root, root, root, root
			for d := m.depth[t]; d > 0; d-- {
				n0, n1, n2, n3 := &nodes[i0], &nodes[i1], &nodes[i2], &nodes[i3]
				i0 = n0.right + int32((int64(k0[n0.feat])-int64(n0.thr))>>63)&(n0.left-n0.right)
				i1 = n1.right + int32((int64(k1[n1.feat])-int64(n1.thr))>>63)&(n1.left-n1.right)
				i2 = n2.right + int32((int64(k2[n2.feat])-int64(n2.thr))>>63)&(n2.left-n2.right)
				i3 = n3.right + int32((int64(k3[n3.feat])-int64(n3.thr))>>63)&(n3.left-n3.right)
			}
			s0 += vals[i0]
			s1 += vals[i1]
			s2 += vals[i2]
			s3 += vals[i3]
		}
		p[r], p[r+1], p[r+2], p[r+3] = logistic(s0), logistic(s1), logistic(s2), logistic(s3)
	}
	for ; r < len(x); r++ {
		p[r] = m.Prob(x[r])
	}
}

// floatKey maps a feature value to an int32 with the same order against
// any threshold that is not NaN: x < thr exactly when floatKey(x) <
// floatKey(thr). The walks compare keys, because Go compiles a float
// comparison into a branch, and a tree walk's branches are the ones a
// processor cannot predict. Negative floats have their magnitude bits
// flipped so that they order below the positive ones; -0 is +0; NaN, never
// below a threshold, is above every key.
func floatKey(f float32) int32 {
	if f != f {
		return math.MaxInt32
	}
	if f == 0 {
		return 0
	}
	b := int32(math.Float32bits(f))
	return b ^ (b >> 31 & math.MaxInt32)
}

// thrKey is a threshold's key; nothing is below a NaN threshold.
func thrKey(thr float32) int32 {
	if thr != thr {
		return math.MinInt32
	}
	return floatKey(thr)
}

func floatKeys(k []int32, x []float32) {
	k = k[:len(x)]
	for i, f := range x {
		k[i] = floatKey(f)
	}
}

// node is a tree node in the flat layout that the walks take: all trees
// in one slice, child indexes absolute, the threshold as its thrKey. A
// leaf splits on feature 0 into itself both ways, so that a walk can take
// a tree's depth in steps without testing for leaves; its value is in
// Model.vals.
type node struct {
	feat, thr   int32
	left, right int32
}

// flatten lays the trees out for the walks; Check must have passed.
func (m *Model) flatten() {
	n := 0
	for _, t := range m.Trees {
		n += len(t.Feat)
	}
	m.flat, m.vals = make([]node, 0, n), make([]float32, 0, n)
	m.roots, m.depth = make([]int32, 0, len(m.Trees)), make([]int32, 0, len(m.Trees))
	for _, t := range m.Trees {
		base := int32(len(m.flat))
		m.roots = append(m.roots, base)
		m.depth = append(m.depth, treeDepth(&t, 0))
		for i := range t.Feat {
			n := node{feat: int32(t.Feat[i]), thr: thrKey(t.Thr[i]), left: base + t.Left[i], right: base + t.Right[i]}
			if n.feat < 0 {
				n = node{feat: 0, thr: 0, left: base + int32(i), right: base + int32(i)}
			}
			m.flat = append(m.flat, n)
			m.vals = append(m.vals, t.Val[i])
		}
	}
	for i := range m.TypeModels {
		m.TypeModels[i].flatten()
	}
	if m.Stack != nil {
		m.Stack.flatten()
	}
}

// treeDepth is the number of splits on the longest path from node i down.
func treeDepth(t *Tree, i int32) int32 {
	if t.Feat[i] < 0 {
		return 0
	}
	return 1 + max(treeDepth(t, t.Left[i]), treeDepth(t, t.Right[i]))
}

// Thresholds returns the decision thresholds on a page whose page-type
// probabilities (TypeProbs) are probs and where the hand rules kept
// ruleChars characters: drop for the blocks the hand rules kept, add
// (zero: drop) for those they left out, and whether the page counts as an
// article.
func (m *Model) Thresholds(probs []float64, ruleChars float64) (drop, add float64, article bool) {
	if len(probs) > 0 && (m.TypeRuleChars <= 0 || ruleChars < m.TypeRuleChars) {
		top := 0
		for k, p := range probs {
			if p > probs[top] {
				top = k
			}
		}
		if top > 0 && top < len(m.TypeDrop) && top < len(m.TypeAdd) && (m.TypeDrop[top] > 0 || m.TypeAdd[top] > 0) {
			return m.TypeDrop[top], m.TypeAdd[top], false
		}
	}
	for k := 1; k < len(probs) && k < len(m.TypeGate) && k < len(m.TypeGateAdd); k++ {
		if m.TypeGate[k] > 0 && probs[k] >= m.TypeGate[k] {
			return m.Threshold, m.TypeGateAdd[k], false
		}
	}
	if len(probs) > 0 && m.ShortRuleChars > 0 && m.ShortAdd > 0 && ruleChars > 0 && ruleChars < m.ShortRuleChars {
		return m.Threshold, m.ShortAdd, false
	}
	var pArticle float64
	if len(probs) > 0 {
		pArticle = probs[0]
	}
	drop, add = m.Threshold, m.AddThreshold
	if m.ArticleAdd <= 0 {
		return drop, add, false
	}
	article = pArticle >= m.ArticleTau
	w := ArticleWeight(pArticle, m.ArticleTau, m.ArticleTauHi)
	base := add
	if base <= 0 {
		base = drop
	}
	add = base + w*(m.ArticleAdd-base)
	if m.NonArticleDrop > 0 {
		drop = m.NonArticleDrop + w*(drop-m.NonArticleDrop)
	}
	return drop, add, article
}

// BodyOutsideComments reports whether the rules kept a block (feature
// ruleKept is 1) outside comment sections (feature comment is 0): only
// then does ArticleVetoComments leave an article's comment sections out,
// so that a page that is one comment keeps it.
func BodyOutsideComments(rows [][]float32, ruleKept, comment int) bool {
	for _, x := range rows {
		if x[ruleKept] == 1 && x[comment] == 0 {
			return true
		}
	}
	return false
}

// Keep reports whether a block with probability p is main text; rule
// says whether the hand rules kept it, drop is the threshold for the
// blocks they kept and addThreshold (when above zero) for the blocks they
// did not keep; vetoed says that the rules' text filters name the block
// as furniture, droppedOnArticle that the page is an article and the rules
// dropped the block for its class or element, commentOnArticle that the
// page is most likely an article with a body outside comments and the
// block sits in a comment section; filtered, near, inTop and ruleShare
// are the block's rule_filter, rule_window10, in_top and page_rule_share
// features.
func (m *Model) Keep(p, drop, addThreshold float64, rule, filtered, vetoed, droppedOnArticle, commentOnArticle bool, near, inTop, ruleShare float32) bool {
	if m.ArticleVetoComments && commentOnArticle {
		return false
	}
	if rule {
		return p >= drop
	}
	if m.AddVeto && vetoed || m.ArticleVetoDropped && droppedOnArticle {
		return false
	}
	if m.AddFilter && filtered || m.AddNear > 0 && float64(near) < m.AddNear ||
		m.AddShare > 0 && inTop == 0 && float64(ruleShare) > m.AddShare {
		return false
	}
	if addThreshold > 0 {
		return p >= addThreshold
	}
	return p >= drop
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
	if err := checkTrees(m.Trees, len(features)); err != nil {
		return err
	}
	if len(m.TypeModels) != len(m.Types) {
		return fmt.Errorf("blockmodel: %d page types, %d type models", len(m.Types), len(m.TypeModels))
	}
	if len(m.Types) > 0 && !slices.Equal(m.Types, PageTypes) {
		return fmt.Errorf("blockmodel: page types %v, want %v", m.Types, PageTypes)
	}
	if m.TypeDrop != nil && len(m.TypeDrop) != len(m.Types) || m.TypeAdd != nil && len(m.TypeAdd) != len(m.Types) {
		return fmt.Errorf("blockmodel: %d page types, %d per-type drop and %d add thresholds", len(m.Types), len(m.TypeDrop), len(m.TypeAdd))
	}
	if len(m.TypeGate) != len(m.TypeGateAdd) || m.TypeGate != nil && len(m.TypeGate) != len(m.Types) {
		return fmt.Errorf("blockmodel: %d page types, %d type gates and %d gate add thresholds", len(m.Types), len(m.TypeGate), len(m.TypeGateAdd))
	}
	for _, tm := range m.TypeModels {
		if err := checkTrees(tm.Trees, 2*len(features)); err != nil {
			return err
		}
	}
	if m.Stack != nil {
		if err := checkTrees(m.Stack.Trees, len(features)+len(StackNames)); err != nil {
			return fmt.Errorf("stack: %w", err)
		}
	}
	return nil
}

func checkTrees(trees []Tree, nf int) error {
	for k, t := range trees {
		n := len(t.Feat)
		if n == 0 || len(t.Thr) != n || len(t.Left) != n || len(t.Right) != n || len(t.Val) != n {
			return fmt.Errorf("blockmodel: tree %d is malformed", k)
		}
		for i := 0; i < n; i++ {
			if t.Feat[i] < 0 {
				continue
			}
			// Children come after their parent, so evaluation always ends.
			if int(t.Feat[i]) >= nf || t.Left[i] <= int32(i) || t.Right[i] <= int32(i) ||
				int(t.Left[i]) >= n || int(t.Right[i]) >= n {
				return fmt.Errorf("blockmodel: tree %d node %d is malformed", k, i)
			}
		}
	}
	return nil
}

//go:generate go run ./internal/genbin

// modelBin is model.json as model.bin (see binary.go).
//
//go:embed model.bin
var modelBin []byte

var (
	loadOnce sync.Once
	loaded   *Model
	loadErr  error
)

// Load returns the embedded model, decoded once and checked against
// features.
func Load(features []string) (*Model, error) {
	loadOnce.Do(func() {
		m, err := decodeBinary(modelBin)
		if err != nil {
			loadErr = err
			return
		}
		if err := m.Check(features); err != nil {
			loadErr = err
			return
		}
		m.flatten()
		loaded = m
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

// PageTypes are the page types of the wcxb gold, in the models' order.
var PageTypes = []string{"article", "collection", "documentation", "forum", "listing", "product", "service"}

// TypeProbs returns the probability of each page type (PageTypes order,
// normalised to sum 1) for the page vector v (PageVector), and the most
// likely type.
func (m *Model) TypeProbs(v []float32) ([]float64, string) {
	ps := make([]float64, len(m.TypeModels))
	if len(m.TypeModels) == 0 || len(v) == 0 {
		return ps, ""
	}
	best, sum := 0, 0.0
	for i := range m.TypeModels {
		ps[i] = m.TypeModels[i].Prob(v)
		sum += ps[i]
		if ps[i] > ps[best] {
			best = i
		}
	}
	for i := range ps {
		ps[i] /= max(sum, 1e-9)
	}
	return ps, m.Types[best]
}

// PageVector is a page's features for the page-type models: the mean of
// each of the first nf block features over the blocks, and its mean
// weighted by the blocks' characters (logChars is the index of the
// log1p(chars) feature).
func PageVector(x [][]float32, nf, logChars int) []float32 {
	if len(x) == 0 {
		return make([]float32, 2*nf)
	}
	v := make([]float32, 2*nf)
	var tw float64
	for _, r := range x {
		w := math.Expm1(float64(r[logChars]))
		tw += w
		for f, val := range r[:nf] {
			v[f] += val
			v[nf+f] += float32(w * float64(val))
		}
	}
	for f := 0; f < nf; f++ {
		v[f] /= float32(len(x))
		if tw > 0 {
			v[nf+f] /= float32(tw)
		}
	}
	return v
}

// ArticleWeight is how far a page with article probability p is into the
// article regime of decoding: 0 up to lo, 1 from hi, linear between (a
// step at lo when hi <= lo).
func ArticleWeight(p, lo, hi float64) float64 {
	if hi <= lo {
		if p >= lo {
			return 1
		}
		return 0
	}
	return min(max((p-lo)/(hi-lo), 0), 1)
}
