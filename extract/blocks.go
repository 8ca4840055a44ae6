package extract

import (
	"cmp"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// A block is the text of one block-level element, without the text of the
// block-level elements nested in it.
type block struct {
	owner     *html.Node // the innermost block-level element holding the text
	text      string     // whitespace-normalized text
	chars     int        // runes in text
	linkChars int        // runes of text inside links
	commas    int
	heading   bool
	cand      int32 // innermost soft candidate above the block, or -1
	dropped   bool  // under a soft candidate the rules drop (kept only in all mode)
}

// stats are per-element sums over the blocks below an element.
type stats struct {
	chars, linkChars int
	score            float64
	scored           bool
	best             float64 // the best score in the subtree, the node's own included
}

// extraction is one pass over a page body.
type extraction struct {
	body       *html.Node
	strict     bool                // drop elements whose class or id names boilerplate
	trusted    map[*html.Node]bool // elements exempt from the class rule: the article's ancestors
	top        *html.Node          // the article container text chose
	blocks     []block
	stats      map[*html.Node]*stats
	cands      []softCand
	firstBlock map[*html.Node]int // owner → index of its first block, built on demand
	scored     []*html.Node       // candidates in the order they were first scored (document order)
	sh         *shared            // what the passes over one page share
	// order lists body and the elements walk enters, in document order: a
	// parent before its children, so that going through it backwards sums
	// subtrees in one pass instead of one walk up per block. Every pass
	// enters the same elements (only hard skips prune the walk), so the
	// first pass makes it and the others share it.
	order    []*html.Node
	addOrder bool
	quoted   *ancestorTest // in a <blockquote>, for leadLike; made on demand
	// all keeps every block, those under dropped soft candidates marked
	// dropped, for the learned classifier.
	all bool
	// chosen are the blocks text returned, in order.
	chosen []*block

	cur       strings.Builder
	curChars  int
	curLinks  int
	curCommas int
	curSpace  bool // the text so far ends in white space (written or pending)
	pending   bool // a space is due before the next visible character
}

// blockTags start a new block.
var blockTags = map[atom.Atom]bool{
	atom.Address: true, atom.Article: true, atom.Blockquote: true, atom.Body: true,
	atom.Center: true, atom.Dd: true, atom.Details: true, atom.Div: true, atom.Dl: true,
	atom.Dt: true, atom.Fieldset: true, atom.Form: true, atom.H1: true, atom.H2: true,
	atom.H3: true, atom.H4: true, atom.H5: true, atom.H6: true, atom.Hgroup: true, atom.Hr: true,
	atom.Li: true, atom.Main: true, atom.Ol: true, atom.P: true, atom.Pre: true,
	atom.Section: true, atom.Table: true, atom.Tbody: true, atom.Thead: true, atom.Tfoot: true,
	atom.Tr: true, atom.Ul: true, atom.Summary: true, atom.Caption: true, atom.Legend: true,
	atom.Html: true,
}

// newExtraction walks body. When sh.w fails (the context ended) it stops
// early, and sh.w.err says so.
func newExtraction(body *html.Node, strict bool, trusted map[*html.Node]bool, sh *shared) *extraction {
	return newExtractionMode(body, strict, trusted, sh, false)
}

// newExtractionMode is newExtraction; with all, no block is dropped (see
// extraction.all).
func newExtractionMode(body *html.Node, strict bool, trusted map[*html.Node]bool, sh *shared, all bool) *extraction {
	e := &extraction{body: body, strict: strict, trusted: trusted, stats: make(map[*html.Node]*stats, 256), sh: sh, all: all}
	e.addOrder = sh.order == nil
	if e.addOrder {
		e.order = append(make([]*html.Node, 0, sh.w.nodes+1), body)
	}
	e.walk(body, body, false, false, -1)
	if e.addOrder {
		sh.order = e.order
	}
	e.order = sh.order
	e.flush(body, -1)
	e.dropSoft()
	return e
}

// skip reports elements whose subtree holds no article text (hard) and
// elements whose class or id names boilerplate (soft: dropped later unless
// they turn out to hold most of the page's text, as a wrapper named
// "content-sidebar-wrap" or "off-canvas-wrap" does).
func (e *extraction) skip(n *html.Node) (hard, soft bool) {
	if skipTags[n.DataAtom] {
		return true, false
	}
	if n.DataAtom == 0 && strings.Contains(n.Data, ":") {
		return true, false // namespaced XML islands (o:p, fb:like ...)
	}
	if len(n.Attr) > 0 {
		if k := hiding(n); k == hiddenOutright || k == hiddenByVisibility && !e.sh.hiddenWrapper(n, e.body) {
			return true, false
		}
	}
	if furnitureTags[n.DataAtom] {
		// Page and article headers (logo, title, byline), but not a
		// header that holds the lead paragraph.
		return false, n.DataAtom != atom.Header || !e.sh.longParagraph(n)
	}
	if len(n.Attr) == 0 {
		return false, false
	}
	if furnitureRole(n) {
		return false, true
	}
	switch n.DataAtom {
	case atom.Main, atom.A, atom.Article, atom.Body, atom.Html:
		// Class names on these describe the page ("single-post
		// has-sidebar"), not boilerplate.
		return false, false
	}
	if e.strict && !e.trusted[n] {
		if drop, _ := e.sh.words.verdict(n); drop {
			// A paragraph of prose is not a title or an info box, whatever
			// its class says ("<p class=title>" holding the first
			// paragraph); only strong words (caption, share) drop it.
			if n.DataAtom == atom.P && !e.sh.words.strong(n) && e.sh.textLen(n) >= 150 {
				return false, false
			}
			return false, true
		}
	}
	return false, false
}

func (e *extraction) walk(n, owner *html.Node, inLink, inPre bool, cand int32) {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		switch c.Type {
		case html.TextNode:
			e.addText(c.Data, inLink, inPre)
		case html.ElementNode:
			if e.sh.w.step() != nil {
				return // the context ended; newExtraction's caller reports it
			}
			hard, soft := e.skip(c)
			if hard {
				continue
			}
			if e.addOrder {
				e.order = append(e.order, c)
			}
			cc := cand
			if soft {
				e.flush(owner, cand)
				e.cands = append(e.cands, softCand{parent: cand})
				cc = int32(len(e.cands) - 1)
			}
			switch {
			case blockTags[c.DataAtom]:
				e.flush(owner, cand)
				e.walk(c, c, inLink, inPre || c.DataAtom == atom.Pre, cc)
				e.flush(c, cc)
			case c.DataAtom == atom.Br:
				e.newline()
			case c.DataAtom == atom.Td || c.DataAtom == atom.Th:
				e.space()
				e.walk(c, owner, inLink, inPre, cc)
				e.space()
			default:
				e.walk(c, owner, inLink || c.DataAtom == atom.A && !namedAnchor(c), inPre, cc)
			}
			if soft {
				e.flush(owner, cc)
			}
		}
	}
}

// namedAnchor reports an <a name> without href: a jump target, whose
// text is not link text.
func namedAnchor(n *html.Node) bool {
	named := false
	for _, a := range n.Attr {
		switch a.Key {
		case "href":
			return false
		case "name":
			named = true
		}
	}
	return named
}

// softCand is an element that class names mark as boilerplate.
type softCand struct {
	parent  int32 // enclosing softCand, or -1
	chars   int
	dropped bool
}

// dropSoft removes the blocks under soft candidates that hold less than
// two thirds of the page's text, then sums the stats of the remaining blocks.
func (e *extraction) dropSoft() {
	total := 0
	for i := range e.blocks {
		b := &e.blocks[i]
		total += b.chars
		if b.cand >= 0 {
			e.cands[b.cand].chars += b.chars
		}
	}
	// Children come after their parents: sum them up backwards.
	for i := len(e.cands) - 1; i >= 0; i-- {
		if p := e.cands[i].parent; p >= 0 {
			e.cands[p].chars += e.cands[i].chars
		}
	}
	for i := range e.cands {
		c := &e.cands[i]
		// Parents precede children, so a parent's verdict is known.
		c.dropped = c.chars*3 < total*2 || (c.parent >= 0 && e.cands[c.parent].dropped)
	}
	kept := e.blocks[:0]
	for _, b := range e.blocks {
		if b.cand >= 0 && e.cands[b.cand].dropped {
			if !e.all {
				continue
			}
			b.dropped = true
		}
		kept = append(kept, b)
	}
	e.blocks = kept
	e.sumStats()
}

// sumStats sums the blocks' characters up the tree into e.stats.
func (e *extraction) sumStats() {
	for i := range e.blocks {
		b := &e.blocks[i]
		st := e.stat(b.owner)
		st.chars += b.chars
		st.linkChars += b.linkChars
	}
	// Every owner is body or in order, after its ancestors: add each
	// element's sums to its parent's, backwards, up to body.
	for i := len(e.order) - 1; i > 0; i-- {
		n := e.order[i]
		if st := e.stats[n]; st != nil {
			ps := e.stat(n.Parent)
			ps.chars += st.chars
			ps.linkChars += st.linkChars
		}
	}
}

// strictView returns the extraction that newExtraction would have made
// with the same strictness: e's blocks without the dropped ones, and their
// stats. e must be an all-mode extraction; the view shares its order and
// costs no second walk.
func (e *extraction) strictView() *extraction {
	v := &extraction{body: e.body, strict: e.strict, trusted: e.trusted, sh: e.sh, order: e.order,
		stats: make(map[*html.Node]*stats, len(e.stats))}
	v.blocks = make([]block, 0, len(e.blocks))
	for _, b := range e.blocks {
		if !b.dropped {
			v.blocks = append(v.blocks, b)
		}
	}
	v.sumStats()
	return v
}

// space notes a word break; it is written only if visible text follows,
// so that a line never ends in a space.
func (e *extraction) space() {
	if !e.curSpace && e.cur.Len() > 0 {
		e.pending = true
		e.curSpace = true
	}
}

func (e *extraction) newline() {
	if e.cur.Len() == 0 {
		return
	}
	e.pending = false
	e.cur.WriteByte('\n')
	e.curSpace = true
}

// visible writes a pending space before a visible character.
func (e *extraction) visible() {
	if e.pending {
		e.cur.WriteByte(' ')
		e.pending = false
	}
	e.curSpace = false
}

// addText appends a text node, collapsing white space (outside <pre>) and
// dropping invisible characters.
func (e *extraction) addText(s string, inLink, inPre bool) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x80 {
			e.addRunes(s[i:], inLink, inPre)
			return
		}
		switch {
		case c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\f':
			if inPre && c == '\n' {
				e.pending = false
				e.cur.WriteByte('\n')
				e.curSpace = true
				continue
			}
			e.space()
			continue
		case c == ',':
			e.curCommas++
		}
		e.visible()
		e.cur.WriteByte(c)
		e.curChars++
		if inLink {
			e.curLinks++
		}
	}
}

// addRunes is addText for text with non-ASCII characters.
func (e *extraction) addRunes(s string, inLink, inPre bool) {
	for _, r := range s {
		switch {
		case r == '\u00ad' || r == '\u200b' || r == '\u200c' || r == '\u200d' || r == '\u2060' || r == '\ufeff':
			continue
		case inPre && r == '\n':
			e.pending = false
			e.cur.WriteByte('\n')
			e.curSpace = true
			continue
		case unicode.IsSpace(r) || r == '\u00a0':
			e.space()
			continue
		case r == ',' || r == '，' || r == '、' || r == '،':
			e.curCommas++
		}
		e.visible()
		e.cur.WriteRune(r)
		e.curChars++
		if inLink {
			e.curLinks++
		}
	}
}

// flush ends the current block, owned by owner.
func (e *extraction) flush(owner *html.Node, cand int32) {
	if e.curChars == 0 {
		e.resetCur()
		return
	}
	text := strings.TrimSpace(e.cur.String())
	if strings.Contains(text, "\n\n\n") {
		text = normalizeText(text)
	}
	b := block{
		owner:     owner,
		text:      text,
		chars:     e.curChars,
		linkChars: e.curLinks,
		commas:    e.curCommas,
		heading:   isHeading(owner.DataAtom),
		cand:      cand,
	}
	e.resetCur()
	e.blocks = append(e.blocks, b)
}

func (e *extraction) resetCur() {
	e.cur.Reset()
	e.curChars, e.curLinks, e.curCommas = 0, 0, 0
	e.curSpace, e.pending = false, false
}

func (e *extraction) stat(n *html.Node) *stats {
	st := e.stats[n]
	if st == nil {
		st = &stats{}
		e.stats[n] = st
	}
	return st
}

func isHeading(a atom.Atom) bool {
	switch a {
	case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
		return true
	}
	return false
}

func linkDensity(st *stats) float64 {
	if st == nil || st.chars == 0 {
		return 0
	}
	return float64(st.linkChars) / float64(st.chars)
}

// initScore is Readability's starting score for a candidate container.
func initScore(n *html.Node, words *classWords) float64 {
	s := 0.0
	switch n.DataAtom {
	case atom.Div, atom.Article, atom.Main, atom.Section:
		s = 5
	case atom.Pre, atom.Td, atom.Blockquote:
		s = 3
	case atom.Address, atom.Ol, atom.Ul, atom.Dl, atom.Dd, atom.Dt, atom.Li, atom.Form:
		s = -3
	case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6, atom.Th:
		s = -5
	}
	if n.DataAtom == atom.Article || n.DataAtom == atom.Main {
		s += 10
	}
	_, w := words.verdict(n)
	for _, a := range n.Attr {
		if a.Key == "itemprop" && strings.Contains(a.Val, "articleBody") {
			w += 50
		}
	}
	return s + float64(w)
}

// score lets every paragraph-like block vote for the elements above it.
func (e *extraction) score() {
	for i := range e.blocks {
		b := &e.blocks[i]
		if b.chars < 60 || b.heading {
			continue
		}
		v := 1 + float64(b.commas) + min(float64(b.chars)/100, 3)
		level := 0
		for n := b.owner.Parent; n != nil && level < 5; n = n.Parent {
			st := e.stat(n)
			if !st.scored {
				st.scored = true
				st.score = initScore(n, e.sh.words)
				e.scored = append(e.scored, n)
			}
			switch level {
			case 0:
				st.score += v
			case 1:
				st.score += v / 2
			default:
				st.score += v / float64(level*3)
			}
			level++
			if n == e.body {
				break
			}
		}
	}
}

// text returns the article text: blocks under the best container and the
// siblings that belong with it.
func (e *extraction) text(title string) string {
	e.score()
	var top *html.Node
	topScore := 0.0
	cands := e.scored
	for _, n := range cands {
		st := e.stats[n]
		st.score *= 1 - linkDensity(st)
		// Ties go to the first candidate in document order.
		if top == nil || st.score > topScore {
			top, topScore = n, st.score
		}
	}
	if top == nil {
		return e.shortPage(title)
	}
	// best is the best score in each subtree (at least 0): children
	// come after their parents in order, so one pass backwards sums it up.
	for i := len(e.order) - 1; i >= 0; i-- {
		n := e.order[i]
		st := e.stats[n]
		if st == nil {
			continue
		}
		if st.scored && st.score > st.best {
			st.best = st.score
		}
		if n != e.body {
			if ps := e.stats[n.Parent]; ps != nil && st.best > ps.best {
				ps.best = st.best
			}
		}
	}
	top = e.refineTop(top, cands)
	e.top = top
	keep := e.withSiblings(top)
	return e.collect(keep, e.leadScope(top), title)
}

// leadScope returns the largest ancestor of top whose text is still mostly
// top's: the article wrapper, where a lead paragraph, teaser or deck often
// sits just before the body container.
func (e *extraction) leadScope(top *html.Node) *html.Node {
	topChars := e.stats[top].chars
	scope := top
	for p := top.Parent; p != nil && top != e.body; p = p.Parent {
		st := e.stats[p]
		if st == nil || st.chars > topChars*2 {
			break
		}
		scope = p
		if p == e.body {
			break
		}
	}
	return scope
}

// refineTop climbs from the top candidate to an ancestor when the article
// is spread over several containers (Readability's rules).
func (e *extraction) refineTop(top *html.Node, cands []*html.Node) *html.Node {
	topScore := e.stats[top].score
	// Several near-top candidates under one ancestor: take the ancestor.
	var alts []*html.Node
	for _, c := range cands {
		if c != top && e.stats[c].score >= topScore*0.75 {
			alts = append(alts, c)
		}
	}
	if len(alts) > maxAlts {
		// Only the best few matter; the cap bounds the work on hostile pages.
		slices.SortStableFunc(alts, func(a, b *html.Node) int { return cmp.Compare(e.stats[b].score, e.stats[a].score) })
		alts = alts[:maxAlts]
	}
	if len(alts) >= 3 {
		// How many alternatives each element holds (itself included).
		holds := map[*html.Node]int{}
		for _, a := range alts {
			for p := a; p != nil; p = p.Parent {
				holds[p]++
			}
		}
		for p := top.Parent; p != nil && p != e.body.Parent; p = p.Parent {
			if holds[p] >= 3 {
				top = p
				break
			}
			if p == e.body {
				break
			}
		}
	}
	// A parent scoring more than its child holds more of the article.
	last := e.stat(top).score
	threshold := last / 3
	for p := top.Parent; p != nil && p != e.body; p = p.Parent {
		st := e.stats[p]
		if st == nil || !st.scored {
			continue
		}
		if st.score < threshold {
			break
		}
		if st.score > last {
			top = p
			break
		}
		last = st.score
	}
	// An only child says nothing its parent doesn't.
	for top != e.body && top.Parent != nil && onlyElementChild(top.Parent) == top {
		top = top.Parent
	}
	return top
}

func onlyElementChild(p *html.Node) *html.Node {
	var only *html.Node
	for c := p.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode {
			if only != nil {
				return nil
			}
			only = c
		}
	}
	return only
}

// An ancestorTest tells whether a node or one of its ancestors is a hit
// (the search ends, false, after a stop node) in amortised constant time
// over many nodes: it remembers the answer for every node it passes.
type ancestorTest struct {
	hit, stop func(*html.Node) bool
	memo      map[*html.Node]bool
	path      []*html.Node
}

func newAncestorTest(hit, stop func(*html.Node) bool) *ancestorTest {
	return &ancestorTest{hit: hit, stop: stop, memo: map[*html.Node]bool{}}
}

func (a *ancestorTest) test(n *html.Node) bool {
	a.path = a.path[:0]
	found := false
	for ; n != nil; n = n.Parent {
		if v, ok := a.memo[n]; ok {
			found = v
			break
		}
		a.path = append(a.path, n)
		if a.hit(n) {
			found = true
			break
		}
		if a.stop(n) {
			break
		}
	}
	// Every node passed answers the same: below the hit, or not.
	for _, p := range a.path {
		a.memo[p] = found
	}
	return found
}

func never(*html.Node) bool { return false }

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key && a.Namespace == "" {
			return a.Val
		}
	}
	return ""
}

// withSiblings returns the top container and those of its siblings that
// look like more of the same article.
func (e *extraction) withSiblings(top *html.Node) map[*html.Node]bool {
	keep := map[*html.Node]bool{top: true}
	if top == e.body || top.Parent == nil {
		return keep
	}
	topScore := e.stats[top].score
	threshold := max(10, topScore*0.2)
	class := attr(top, "class")
	for s := top.Parent.FirstChild; s != nil; s = s.NextSibling {
		if s == top || s.Type != html.ElementNode {
			continue
		}
		st := e.stats[s]
		if st == nil || st.chars == 0 {
			continue
		}
		bonus := 0.0
		if class != "" && attr(s, "class") == class {
			bonus = topScore * 0.2
		}
		if st.scored && st.score+bonus >= threshold {
			keep[s] = true
			continue
		}
		if s.DataAtom == atom.P || s.DataAtom == atom.Div && onlyText(s) {
			ld := linkDensity(st)
			if st.chars > 80 && ld < 0.25 {
				keep[s] = true
			} else if st.chars <= 80 && ld == 0 && e.endsSentence(s) {
				keep[s] = true
			}
		}
	}
	// Page builders split an article into rows of deep wrappers: look a
	// few levels up for sibling rows that hold paragraphs as good as the
	// article's, as long as the ancestor is still mostly the article.
	topChars := e.stats[top].chars
	a := top.Parent
	for level := 0; level < siblingLevels && a != e.body && a.Parent != nil; level++ {
		p := a.Parent
		if ps := e.stats[p]; ps == nil || ps.chars > topChars*siblingSpread {
			break
		}
		for s := p.FirstChild; s != nil; s = s.NextSibling {
			if s == a || s.Type != html.ElementNode {
				continue
			}
			st := e.stats[s]
			if st != nil && st.best >= topScore*siblingBest && linkDensity(st) < 0.3 {
				keep[s] = true
			}
		}
		a = p
	}
	return keep
}

// Page-builder rows: look up to siblingLevels ancestors above the top
// container, while the ancestor holds at most siblingSpread times its text,
// for siblings whose best candidate scores at least siblingBest of the top.
const (
	siblingLevels = 4
	siblingSpread = 3
	siblingBest   = 0.6
)

// onlyText reports an element without block-level children.
func onlyText(n *html.Node) bool {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && blockTags[c.DataAtom] {
			return false
		}
	}
	return true
}

func (e *extraction) endsSentence(n *html.Node) bool {
	if e.firstBlock == nil {
		e.firstBlock = make(map[*html.Node]int, len(e.blocks))
		for i := len(e.blocks) - 1; i >= 0; i-- {
			e.firstBlock[e.blocks[i].owner] = i
		}
	}
	i, ok := e.firstBlock[n]
	if !ok {
		return false
	}
	r, _ := utf8.DecodeLastRuneInString(e.blocks[i].text)
	return r == '.' || r == '!' || r == '?' || r == '。'
}

// maxAlts caps the near-top candidates refineTop compares.
const maxAlts = 10

// collect joins the kept blocks under the kept containers, and up to three
// lead-like blocks just before them inside scope.
func (e *extraction) collect(keep map[*html.Node]bool, scope *html.Node, title string) string {
	var out []*block
	first := -1
	underKeep := newAncestorTest(func(n *html.Node) bool { return keep[n] }, func(n *html.Node) bool { return n == e.body })
	for i := range e.blocks {
		b := &e.blocks[i]
		if !underKeep.test(b.owner) {
			continue
		}
		if first < 0 {
			first = i
			out = e.leads(first, scope, title)
		}
		if !e.keepBlock(b, title) {
			continue
		}
		out = append(out, b)
	}
	// Labels left without their content ("Read more:") go at the end.
	for len(out) > 0 {
		last := out[len(out)-1]
		if last.chars < 50 && strings.HasSuffix(last.text, ":") {
			out = out[:len(out)-1]
			continue
		}
		break
	}
	// Headings that head nothing (their section was dropped) go too.
	var parts []string
	e.chosen = e.chosen[:0]
	for i, b := range out {
		if b.heading && (i == len(out)-1 || out[i+1].heading) {
			continue
		}
		parts = append(parts, b.text)
		e.chosen = append(e.chosen, b)
	}
	return strings.Join(parts, "\n\n")
}

// leads returns the lead, teaser or deck paragraphs that sit right before
// block first inside scope, in document order.
func (e *extraction) leads(first int, scope *html.Node, title string) []*block {
	var leads []*block
	inScope := newAncestorTest(func(n *html.Node) bool { return n == scope }, never)
	for i := first - 1; i >= 0 && len(leads) < 3; i-- {
		b := &e.blocks[i]
		if !inScope.test(b.owner) {
			break
		}
		if e.leadLike(b) && e.keepBlock(b, title) {
			leads = append(leads, b)
			continue
		}
		if b.chars >= 100 {
			break
		}
	}
	slices.Reverse(leads)
	return leads
}

// leadLike reports a block that can be an article's lead: prose, not
// links, not a pull quote, not a dateline.
func (e *extraction) leadLike(b *block) bool {
	if b.chars < 30 || b.linkChars*10 > b.chars*3 || b.owner.DataAtom == atom.H1 {
		return false
	}
	if e.quoted == nil {
		e.quoted = newAncestorTest(func(n *html.Node) bool { return n.Type == html.ElementNode && n.DataAtom == atom.Blockquote },
			func(n *html.Node) bool { return n.Type != html.ElementNode })
	}
	if e.quoted.test(b.owner) {
		return false // a pull quote
	}
	if e.sh.leadClass(b.owner) {
		return true
	}
	if b.heading && b.chars < 50 {
		return false
	}
	if b.chars < 120 && digitShare(b.text) >= 0.12 {
		return false // a dateline: "Published 20 November 2019 - 07:50 GMT"
	}
	r, _ := utf8.DecodeLastRuneInString(b.text)
	return strings.ContainsRune(".!?…\"”»“:。！？", r)
}

// leadWords name lead paragraphs in class and id values.
var leadWords = setOf("lead", "lede", "intro", "introduction", "teaser", "excerpt", "summary",
	"abstract", "chapo", "deck", "standfirst", "subtitle", "subheadline", "description", "epigraph",
	"kicker", "dek", "strapline", "synopsis", "vorspann", "entradilla", "bajada", "sapo")

// leadClass reports a class or id on n or its two parents naming a lead.
func (s *shared) leadClass(n *html.Node) bool {
	for i := 0; i < 3 && n != nil && n.Type == html.ElementNode; i++ {
		if s.namesLead(n) {
			return true
		}
		n = n.Parent
	}
	return false
}

// namesLead reports a class or id of n naming a lead. The answer is
// remembered: many short blocks under one element with a long class list
// must not scan it once each.
func (s *shared) namesLead(n *html.Node) bool {
	if len(n.Attr) == 0 {
		return false
	}
	if v, ok := s.lead[n]; ok {
		return v
	}
	var v wordVerdict
	for _, a := range n.Attr {
		if a.Key == "class" || a.Key == "id" {
			v.add(s.words.of(a.Val))
		}
	}
	if s.lead == nil {
		s.lead = map[*html.Node]bool{}
	}
	s.lead[n] = v.lead
	return v.lead
}

func digitShare(s string) float64 {
	d, n := 0, 0
	for _, r := range s {
		if r == ' ' {
			continue
		}
		n++
		if r >= '0' && r <= '9' {
			d++
		}
	}
	if n == 0 {
		return 0
	}
	return float64(d) / float64(n)
}

// keepBlock filters single blocks inside the article container.
func (e *extraction) keepBlock(b *block, title string) bool {
	if b.owner.DataAtom == atom.H1 {
		return false
	}
	if ld := float64(b.linkChars) / float64(b.chars); ld > 0.8 || ld > 0.5 && b.chars < linkLongBlock {
		// Link lists and "read more" lines go; a long paragraph whose
		// middle is one long link stays.
		return false
	}
	if title != "" && b.chars < 300 && sameText(b.text, title) {
		return false
	}
	if b.chars < 120 && boilerplateLine(b.text) {
		return false
	}
	if b.chars < 40 && lettersShare(b.text) < 0.5 {
		return false // a date, a time, a counter
	}
	if b.chars < 300 {
		lower := strings.ToLower(b.text)
		if creditLine(lower) || b.chars < 200 && pictureCredit(lower) || b.chars < 250 && callToAction(lower) {
			return false
		}
	}
	return true
}

func sameText(a, b string) bool {
	return strings.EqualFold(strings.TrimSpace(a), strings.TrimSpace(b))
}

// shortPage handles pages without a paragraph of 25 characters: all
// unlinked blocks of the main element (or body).
func (e *extraction) shortPage(title string) string {
	var parts []string
	for i := range e.blocks {
		b := &e.blocks[i]
		if !e.keepBlock(b, title) || b.heading {
			continue
		}
		parts = append(parts, b.text)
		e.chosen = append(e.chosen, b)
	}
	return strings.Join(parts, "\n\n")
}

// shared is what the extraction passes over one page share: the work
// meter and facts about subtrees, each found once.
type shared struct {
	w     *work
	facts map[*html.Node]subtreeFacts
	order []*html.Node        // extraction.order
	lead  map[*html.Node]bool // namesLead
	words *classWords         // the scans of class and id values
	// bodyText is the body's textLen (-1: not summed yet) and
	// wrapperChecks the elements hiddenWrapper has summed.
	bodyText, wrapperChecks int
}

// maxWrapperChecks caps the hidden elements hiddenWrapper sums per page,
// so that nested ones cost linear time.
const maxWrapperChecks = 4

// hiddenWrapper reports whether an element hidden by nothing but an
// inline visibility:hidden (see hiding) holds at least two thirds of the
// page's text: a framework's guard against a flash of unstyled content,
// which its script lifts once the page is styled, so the reader sees it.
func (s *shared) hiddenWrapper(n, body *html.Node) bool {
	if s.wrapperChecks >= maxWrapperChecks {
		return false
	}
	s.wrapperChecks++
	if s.bodyText < 0 {
		s.bodyText = s.textLen(body)
	}
	return s.bodyText > 0 && 3*s.textLen(n) >= 2*s.bodyText
}

// subtreeFacts sum up the subtree of a <p> or <header>.
type subtreeFacts struct {
	textLen int  // bytes of text, each text node trimmed
	longP   bool // a <p> below holds at least longParagraph bytes of text
}

// longParagraph is the text length from which a <p> makes a header hold
// the article's lead rather than page furniture.
const longParagraph = 100

// sharedPool holds released shareds, whose maps keep their room for the
// next page.
var sharedPool sync.Pool // of *shared

func newShared(w *work) *shared {
	s, _ := sharedPool.Get().(*shared)
	if s == nil {
		s = &shared{facts: map[*html.Node]subtreeFacts{}, words: &classWords{}}
	}
	s.w = w
	s.bodyText, s.wrapperChecks = -1, 0
	return s
}

// release empties s and gives it back for another page; nothing may use
// s afterwards.
func (s *shared) release() {
	if len(s.facts) > maxPooledEntries {
		// clear costs the map's peak size on every later page: after a
		// huge page, let the collector take the maps instead.
		s.w, s.order = nil, nil
		return
	}
	clear(s.facts)
	clear(s.lead)
	clear(s.words.plain)
	clear(s.words.class)
	s.w, s.order = nil, nil
	sharedPool.Put(s)
}

// textLen returns the bytes of text below n, each text node trimmed.
func (s *shared) textLen(n *html.Node) int { return s.factsOf(n).textLen }

// longParagraph reports a <p> with at least longParagraph bytes of text
// below el.
func (s *shared) longParagraph(el *html.Node) bool { return s.factsOf(el).longP }

// factsOf sums up n's subtree. It remembers the facts of every <p> and
// <header> with element children that it meets, so that nested ones
// (<p><table><tr><td><p>...) are each summed once, not once per
// ancestor: the total work over a page is linear.
func (s *shared) factsOf(n *html.Node) subtreeFacts {
	if f, ok := s.facts[n]; ok {
		return f
	}
	var f subtreeFacts
	nested := false
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		switch c.Type {
		case html.TextNode:
			f.textLen += len(strings.TrimSpace(c.Data))
		case html.ElementNode:
			nested = true
			cf := s.factsOf(c)
			f.textLen += cf.textLen
			f.longP = f.longP || cf.longP || c.DataAtom == atom.P && cf.textLen >= longParagraph
		}
	}
	if nested && (n.DataAtom == atom.P || n.DataAtom == atom.Header) {
		s.facts[n] = f
	}
	return f
}

// linkLongBlock is the length from which a block is a paragraph with links
// rather than a list of links.
const linkLongBlock = 200
