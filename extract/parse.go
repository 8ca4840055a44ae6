package extract

import (
	"bytes"
	"sync"

	"github.com/textanalysis/go-textanalysis/extract/internal/htmltok"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// maxDepth caps the open-element stack, as browsers do: deeper elements
// are still kept, as siblings, so hostile nesting cannot blow up the
// recursion that walks the tree.
const maxDepth = 400

// headTags may appear before <body> without starting it.
var headTags = map[atom.Atom]bool{
	atom.Meta: true, atom.Title: true, atom.Link: true, atom.Script: true, atom.Style: true,
	atom.Base: true, atom.Noscript: true, atom.Template: true, atom.Head: true,
}

// closesP are start tags that end an open <p> (HTML's "close a p element").
var closesP = map[atom.Atom]bool{
	atom.Address: true, atom.Article: true, atom.Aside: true, atom.Blockquote: true, atom.Center: true,
	atom.Details: true, atom.Dialog: true, atom.Dir: true, atom.Div: true, atom.Dl: true, atom.Fieldset: true,
	atom.Figcaption: true, atom.Figure: true, atom.Footer: true, atom.Form: true, atom.H1: true,
	atom.H2: true, atom.H3: true, atom.H4: true, atom.H5: true, atom.H6: true, atom.Header: true,
	atom.Hgroup: true, atom.Hr: true, atom.Main: true, atom.Menu: true, atom.Nav: true, atom.Ol: true,
	atom.P: true, atom.Pre: true, atom.Section: true, atom.Summary: true, atom.Table: true, atom.Ul: true,
	atom.Li: true, atom.Dd: true, atom.Dt: true, atom.Listing: true, atom.Xmp: true,
}

// scopeEnd are elements an end tag or implied close does not reach past.
var scopeEnd = map[atom.Atom]bool{
	atom.Html: true, atom.Table: true, atom.Td: true, atom.Th: true, atom.Caption: true,
	atom.Template: true, atom.Object: true, atom.Marquee: true, atom.Applet: true,
	atom.Svg: true, atom.Math: true, atom.Body: true,
}

var voidTags = map[atom.Atom]bool{
	atom.Area: true, atom.Base: true, atom.Br: true, atom.Col: true, atom.Embed: true, atom.Hr: true,
	atom.Img: true, atom.Input: true, atom.Link: true, atom.Meta: true, atom.Param: true,
	atom.Source: true, atom.Track: true, atom.Wbr: true, atom.Keygen: true, atom.Image: true,
}

// tagFlags says which of the sets above (and skipTags) an element is in.
type tagFlags uint8

const (
	isHeadTag tagFlags = 1 << iota
	isClosesP
	isScopeEnd
	isVoid
	isSkip
)

// atomSlots is the size of the open-addressing tables keyed by atom:
// more than twice the number of atoms (369), so that a probe is short and
// a table never fills.
const atomSlots = 1024

func atomSlot(a atom.Atom) uint32 { return (uint32(a) * 0x9E3779B1) >> 22 }

// flagTable holds tagFlags by atom: one probe of a small array instead
// of a map lookup for each set.
var flagTable = func() *atomIndex[tagFlags] {
	x := new(atomIndex[tagFlags])
	for f, set := range map[tagFlags]map[atom.Atom]bool{
		isHeadTag: headTags, isClosesP: closesP, isScopeEnd: scopeEnd, isVoid: voidTags, isSkip: skipTags,
	} {
		for a := range set {
			v, _ := x.get(a)
			x.set(a, v|f)
		}
	}
	return x
}()

func flagsOf(a atom.Atom) tagFlags {
	f, _ := flagTable.get(a)
	return f
}

// atomIndex maps atoms (not 0) to values, in an open-addressing table.
type atomIndex[V any] struct {
	keys [atomSlots]atom.Atom
	vals [atomSlots]V
}

// get returns a's value, and whether a was set.
func (x *atomIndex[V]) get(a atom.Atom) (V, bool) {
	for i := atomSlot(a); ; i = (i + 1) % atomSlots {
		switch x.keys[i] {
		case a:
			return x.vals[i], a != 0
		case 0:
			var zero V
			return zero, false
		}
	}
}

// set sets a's value; a is not 0.
func (x *atomIndex[V]) set(a atom.Atom, v V) {
	i := atomSlot(a)
	for x.keys[i] != a && x.keys[i] != 0 {
		i = (i + 1) % atomSlots
	}
	x.keys[i], x.vals[i] = a, v
}

// treeBuilder turns tokens into an html.Node tree. It is a small subset of
// the HTML5 tree construction algorithm, enough for text extraction: void
// elements, implied ends of p, li, dd/dt, tr, td/th and option, end tags
// matched within scope, and head/body placement. Misnested formatting
// elements are not re-opened. It is several times cheaper than html.Parse
// because it stores only the attributes extraction reads.
//
// Every token costs constant amortised time, whatever the page's shape:
// open[i], innermost and innermostNamed index the open-element stack, so
// that finding an element in scope never scans the stack, and text runs
// that extend one text node are gathered in pend rather than concatenated.
type treeBuilder struct {
	doc, html, head, body *html.Node
	stack                 []*html.Node
	open                  []openElem       // open[i] describes stack[i]
	innermost             atomIndex[int32] // element → index of its innermost open element, or -1
	innermostNamed        map[string]int32 // the same for elements without an atom, by name
	depth                 int              // nesting of noscript parses
	w                     *work

	pendNode *html.Node // the text node that pend holds the text of, if any
	pend     []byte

	arena *arena // where nodes come from, shared with nested parses

	attrBuf []html.Attribute // the attributes of the current tag
}

// newNode returns a zero node from a slab: one allocation for many nodes
// instead of one each, for less allocation and garbage collection work.
// Slabs grow with the page, so a small page stays small.
func (t *treeBuilder) newNode() *html.Node {
	a := t.arena
	if len(a.slab) == 0 {
		a.slab = a.nodeSlab()
	}
	n := &a.slab[0]
	a.slab = a.slab[1:]
	return n
}

// openElem indexes one entry of the open-element stack.
type openElem struct {
	prevSame int32 // index of the next open element of the same name below, or -1
	scope    int32 // index of the innermost scope boundary at or below, or 0
}

// noscript parses the raw text of a <noscript> element into its children.
func (t *treeBuilder) noscript(n *html.Node, text []byte) error {
	if bytes.IndexByte(text, '<') < 0 {
		t.text(text)
		return nil
	}
	// The tokenizer never writes to its input, and text stays as it is
	// until the next token: no copy needed.
	sub, err := parseHTMLDepth(text, t.depth+1, t.w, t.arena)
	if err != nil {
		return err
	}
	if body := sub.FirstChild.LastChild; body != nil && body.DataAtom == atom.Body {
		for c := body.FirstChild; c != nil; {
			next := c.NextSibling
			body.RemoveChild(c)
			n.AppendChild(c)
			c = next
		}
	}
	return nil
}

// parseHTML builds a tree from UTF-8 HTML. Its errors are w's:
// ErrTooComplex or the context's.
func parseHTML(b []byte, w *work) (*html.Node, error) { return parseHTMLDepth(b, 0, w, &arena{}) }

// parseHTMLDepth parses b, nested depth noscripts deep, into a tree whose
// nodes come from a.
func parseHTMLDepth(b []byte, depth int, w *work, a *arena) (*html.Node, error) {
	stripped := withoutScripts(b)
	if len(stripped) > 0 && len(b) > 0 && &stripped[0] != &b[0] {
		// The tree holds copies of what it keeps: the stripped page can
		// serve the next one.
		defer putBuf(stripped)
	}
	z := htmltok.New(stripped)
	t := newTreeBuilder(depth, w, a)
	defer t.release()
	for {
		tt := z.Next()
		if err := w.step(); err != nil {
			return nil, err
		}
		switch tt {
		case htmltok.ErrorToken:
			return t.finish(), nil
		case htmltok.TextToken:
			if err := t.textToken(z.Text()); err != nil {
				return nil, err
			}
		case htmltok.StartTagToken, htmltok.SelfClosingTagToken:
			var buf [32]byte
			name := lowerInto(z.TagName(), &buf)
			a := atom.Lookup(name)
			var attrs []html.Attribute
			if wantAttrs(a) {
				attrs = t.keptAttrs(z)
			}
			t.start(a, name, attrs, tt == htmltok.SelfClosingTagToken)
		case htmltok.EndTagToken:
			var buf [32]byte
			name := lowerInto(z.TagName(), &buf)
			t.end(atom.Lookup(name), name)
		}
	}
}

// builders holds released tree builders: a builder's element table is
// kilobytes, and pages with many <noscript> elements need one for each.
var builders sync.Pool // of *treeBuilder

func newTreeBuilder(depth int, w *work, a *arena) *treeBuilder {
	t, _ := builders.Get().(*treeBuilder)
	if t == nil {
		t = &treeBuilder{stack: make([]*html.Node, 0, 64), open: make([]openElem, 0, 64)}
	}
	// Start from a zero builder that keeps the buffers of the last one.
	stack, open, pend, attrBuf := t.stack[:0], t.open[:0], t.pend[:0], t.attrBuf[:0]
	*t = treeBuilder{
		depth:   depth,
		w:       w,
		arena:   a,
		doc:     &html.Node{Type: html.DocumentNode},
		html:    &html.Node{Type: html.ElementNode, Data: "html", DataAtom: atom.Html},
		head:    &html.Node{Type: html.ElementNode, Data: "head", DataAtom: atom.Head},
		pend:    pend,
		attrBuf: attrBuf,
	}
	t.doc.AppendChild(t.html)
	t.html.AppendChild(t.head)
	t.stack = append(stack, t.head)
	t.open = append(open, openElem{prevSame: -1})
	return t
}

// release gives t back for another parse, holding no part of the tree it
// built; nothing may use t afterwards.
func (t *treeBuilder) release() {
	clear(t.stack[:cap(t.stack)])
	clear(t.attrBuf[:cap(t.attrBuf)])
	t.doc, t.html, t.head, t.body, t.pendNode = nil, nil, nil, nil, nil
	t.innermostNamed, t.w, t.arena = nil, nil, nil
	builders.Put(t)
}

// finish ends the tree at the end of the input and returns it.
func (t *treeBuilder) finish() *html.Node {
	if t.body == nil {
		t.startBody(nil)
	}
	t.flushText()
	return t.doc
}

// textToken adds a text token's text.
func (t *treeBuilder) textToken(text []byte) error {
	if t.body == nil && t.cur() == t.head {
		if len(bytes.TrimSpace(text)) == 0 {
			return nil
		}
		t.startBody(nil)
	}
	if cur := t.cur(); cur.DataAtom == atom.Noscript && t.body != nil && t.depth == 0 {
		// The tokenizer reads <noscript> as raw text (as a browser
		// with scripts on does); some sites put the whole article
		// there for readers without them. Parse it as HTML.
		return t.noscript(cur, text)
	}
	t.text(text)
	return nil
}

// wantAttrs says whether the attributes of element a are needed: elements
// that are skipped whatever their attributes don't need them.
func wantAttrs(a atom.Atom) bool {
	return flagsOf(a)&isSkip == 0 || a == atom.Meta || a == atom.Script
}

// keptAttrs returns the attributes worth keeping of the start tag z is
// at: keys lowered, values with character references decoded, the first
// of duplicate keys; of href only its presence.
func (t *treeBuilder) keptAttrs(z *htmltok.Tokenizer) []html.Attribute {
	t.attrBuf = t.attrBuf[:0]
	var kbuf [32]byte
	for _, at := range z.Attrs() {
		key := z.Bytes(at.Key)
		if len(key) > len(kbuf) {
			continue // no kept key is that long
		}
		k := lowerInto(key, &kbuf)
		if string(k) == "href" {
			// Only its presence matters: <a name> without it is an
			// anchor, not a link.
			if !hasAttrKey(t.attrBuf, k) {
				t.attrBuf = append(t.attrBuf, html.Attribute{Key: "href"})
			}
			continue
		}
		canon := keptKey(k)
		if canon == "" || hasAttrKey(t.attrBuf, k) {
			continue // not needed, or a duplicate (the first one wins)
		}
		val := z.Bytes(at.Val)
		v := string(val)
		if bytes.IndexByte(val, '&') >= 0 {
			v = htmltok.UnescapeAttr(v)
		}
		t.attrBuf = append(t.attrBuf, html.Attribute{Key: canon, Val: v})
	}
	return t.newAttrs(t.attrBuf)
}

// keptKey returns the key of keepAttrs equal to k, or "". It is a switch
// rather than a map lookup: it hashes nothing (TestKeptKey holds the two
// to the same answers).
func keptKey(k []byte) string {
	switch string(k) {
	case "class":
		return "class"
	case "id":
		return "id"
	case "style":
		return "style"
	case "hidden":
		return "hidden"
	case "aria-hidden":
		return "aria-hidden"
	case "role":
		return "role"
	case "itemprop":
		return "itemprop"
	case "rel":
		return "rel"
	case "lang":
		return "lang"
	case "xml:lang":
		return "xml:lang"
	case "content":
		return "content"
	case "property":
		return "property"
	case "name":
		return "name"
	case "http-equiv":
		return "http-equiv"
	case "datetime":
		return "datetime"
	case "type":
		return "type"
	case "charset":
		return "charset"
	}
	return ""
}

// newAttrs returns a copy of attrs from a slab, as newNode does for nodes.
func (t *treeBuilder) newAttrs(attrs []html.Attribute) []html.Attribute {
	n := len(attrs)
	if n == 0 {
		return nil
	}
	a := t.arena
	if len(a.attrSlab) < n {
		a.attrSlab = a.newAttrSlab(n)
	}
	out := a.attrSlab[:n:n]
	a.attrSlab = a.attrSlab[n:]
	copy(out, attrs)
	return out
}

func (t *treeBuilder) cur() *html.Node { return t.stack[len(t.stack)-1] }

func (t *treeBuilder) startBody(attrs []html.Attribute) {
	t.body = &html.Node{Type: html.ElementNode, Data: "body", DataAtom: atom.Body, Attr: attrs}
	t.html.AppendChild(t.body)
	t.stack = append(t.stack[:0], t.body)
	t.open = append(t.open[:0], openElem{prevSame: -1})
	t.innermost = atomIndex[int32]{}
	clear(t.innermostNamed)
}

// push opens n.
func (t *treeBuilder) push(n *html.Node) {
	i := int32(len(t.stack))
	prev, ok := t.lookup(n.DataAtom, n.Data)
	if !ok {
		prev = -1
	}
	scope := t.open[i-1].scope
	if flagsOf(n.DataAtom)&isScopeEnd != 0 {
		scope = i
	}
	t.stack = append(t.stack, n)
	t.open = append(t.open, openElem{prevSame: prev, scope: scope})
	t.setInnermost(n, i)
}

// lookup returns the index of the innermost open element a, or named
// name when a is 0.
func (t *treeBuilder) lookup(a atom.Atom, name string) (int32, bool) {
	if a != 0 {
		return t.innermostOf(a)
	}
	i, ok := t.innermostNamed[name]
	return i, ok
}

// setInnermost records i as the index of the innermost open element
// like n; a negative i means there is none.
func (t *treeBuilder) setInnermost(n *html.Node, i int32) {
	switch {
	case n.DataAtom != 0:
		t.innermost.set(n.DataAtom, i)
	case i >= 0:
		if t.innermostNamed == nil {
			t.innermostNamed = map[string]int32{}
		}
		t.innermostNamed[n.Data] = i
	default:
		delete(t.innermostNamed, n.Data)
	}
}

// innermostOf returns the index of the innermost open element a (not 0),
// and whether there is one.
func (t *treeBuilder) innermostOf(a atom.Atom) (int32, bool) {
	i, ok := t.innermost.get(a)
	return i, ok && i >= 0
}

// popTo closes stack[i] and the elements above it; i > 0.
func (t *treeBuilder) popTo(i int) {
	for k := len(t.stack) - 1; k >= i; k-- {
		t.setInnermost(t.stack[k], t.open[k].prevSame)
	}
	t.stack = t.stack[:i]
	t.open = t.open[:i]
}

// inScope returns i, the index of the innermost open element of some
// name (ok says there is one), if no scope boundary (nor an element named
// in extra) is open above it, else 0.
func (t *treeBuilder) inScope(i int32, ok bool, extra ...atom.Atom) int {
	if !ok {
		return 0
	}
	bound := t.open[len(t.open)-1].scope
	for _, x := range extra {
		if j, ok := t.innermostOf(x); ok && j > bound {
			bound = j
		}
	}
	if i < bound {
		return 0 // a boundary is open above it
	}
	return int(i)
}

// flushText stores the text gathered in pend in its node.
func (t *treeBuilder) flushText() {
	if t.pendNode != nil {
		t.pendNode.Data = string(t.pend)
		t.pendNode = nil
	}
}

// allSpace reports whether b is all HTML white space.
func allSpace(b []byte) bool {
	for _, c := range b {
		if !isTagSpace(c) {
			return false
		}
	}
	return true
}

func (t *treeBuilder) text(b []byte) {
	cur := t.cur()
	var s string
	space := allSpace(b)
	if space {
		// Runs of white space between tags only separate words (except in
		// <pre>, where line breaks are kept): share one string.
		s = " "
		if bytes.IndexByte(b, '\n') >= 0 {
			s = "\n"
		}
		b = nil
	}
	if last := cur.LastChild; last != nil && last.Type == html.TextNode {
		// Runs split by ignored tags ("a</x>b</x>c...") extend one node:
		// gather them, since appending to a string copies it.
		if last != t.pendNode {
			t.flushText()
			t.pendNode = last
			t.pend = append(t.pend[:0], last.Data...)
		}
		if space {
			t.pend = append(t.pend, s...)
		} else {
			t.pend = append(t.pend, b...)
		}
		return
	}
	if !space {
		s = string(b)
	}
	t.w.node()
	n := t.newNode()
	n.Type, n.Data = html.TextNode, s
	cur.AppendChild(n)
}

func hasAttrKey(attrs []html.Attribute, k []byte) bool {
	for _, a := range attrs {
		if a.Key == string(k) {
			return true
		}
	}
	return false
}

func isTagSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'
}

// lowerInto lower-cases ASCII b into buf when it fits, else into a new
// slice.
func lowerInto(b []byte, buf *[32]byte) []byte {
	out := buf[:0]
	if len(b) > len(buf) {
		out = make([]byte, 0, len(b))
	}
	for _, c := range b {
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		out = append(out, c)
	}
	return out
}

// start opens element a, or named name when a is 0.
func (t *treeBuilder) start(a atom.Atom, name []byte, attrs []html.Attribute, selfClosing bool) {
	switch a {
	case atom.Html:
		for _, at := range attrs {
			if !hasAttrKey(t.html.Attr, []byte(at.Key)) {
				t.html.Attr = append(t.html.Attr, at)
			}
		}
		return
	case atom.Head:
		return
	case atom.Body:
		if t.body == nil {
			t.startBody(attrs)
		}
		return
	}
	flags := flagsOf(a)
	if t.body == nil && flags&isHeadTag == 0 {
		t.startBody(nil)
	}
	t.w.node()
	n := t.newNode()
	n.Type, n.DataAtom, n.Attr = html.ElementNode, a, attrs
	if a != 0 {
		n.Data = a.String()
	} else {
		n.Data = string(name)
	}
	switch {
	case flags&isClosesP != 0:
		t.closeInScope(atom.P)
		switch a {
		case atom.Li:
			t.closeInScope(atom.Li, atom.Ol, atom.Ul)
		case atom.Dd, atom.Dt:
			t.closeInScope(atom.Dd, atom.Ol, atom.Ul)
			t.closeInScope(atom.Dt, atom.Ol, atom.Ul)
		case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
			if isHeading(t.cur().DataAtom) {
				t.pop()
			}
		}
	case a == atom.Tr:
		t.closeInScope(atom.Td)
		t.closeInScope(atom.Th)
		t.closeInScope(atom.Tr, atom.Table, atom.Tbody, atom.Thead, atom.Tfoot)
	case a == atom.Td || a == atom.Th:
		t.closeInScope(atom.Td, atom.Table, atom.Tbody, atom.Thead, atom.Tfoot)
		t.closeInScope(atom.Th, atom.Table, atom.Tbody, atom.Thead, atom.Tfoot)
	case a == atom.Option:
		if t.cur().DataAtom == atom.Option {
			t.pop()
		}
	case a == atom.A:
		t.closeInScope(atom.A)
	}
	t.cur().AppendChild(n)
	if flags&isVoid != 0 || selfClosing || len(t.stack) >= maxDepth {
		return
	}
	t.push(n)
}

func (t *treeBuilder) pop() {
	if len(t.stack) > 1 {
		t.popTo(len(t.stack) - 1)
	}
}

// closeInScope closes the innermost open a and the elements above it,
// unless a scope boundary (or an element of extra) is open above it.
func (t *treeBuilder) closeInScope(a atom.Atom, extra ...atom.Atom) {
	i, ok := t.innermostOf(a)
	if i := t.inScope(i, ok, extra...); i > 0 {
		t.popTo(i)
	}
}

func (t *treeBuilder) end(a atom.Atom, name []byte) {
	switch a {
	case atom.Html, atom.Body, atom.Head:
		return
	case atom.Br:
		if t.body != nil {
			t.w.node()
			t.cur().AppendChild(&html.Node{Type: html.ElementNode, Data: "br", DataAtom: atom.Br})
		}
		return
	}
	var i int32
	var ok bool
	if a != 0 {
		i, ok = t.innermostOf(a)
	} else {
		i, ok = t.innermostNamed[string(name)]
	}
	if i := t.inScope(i, ok); i > 0 {
		t.popTo(i)
	}
}

// withoutScripts returns b without the bodies of <script>, <style> and
// <svg> elements (JSON-LD scripts excepted) and without comments. The
// tokenizer reads raw text byte by byte, and these are close to half of a
// typical page's bytes; the elements themselves stay, empty. Like the HTML
// tokenizer, the first "</script" ends a script. It returns b itself when
// there is nothing to remove, else a slice from getBuf.
func withoutScripts(b []byte) []byte {
	var parts [][]byte
	rest := b
	for {
		i, tag := nextRawOpen(rest)
		if i < 0 {
			break
		}
		if tag == "!--" {
			end := bytes.Index(rest[i+4:], []byte("-->"))
			if end < 0 {
				break
			}
			parts = append(parts, rest[:i])
			rest = rest[i+4+end+3:]
			continue
		}
		gt := tagEnd(rest[i:])
		if gt < 0 {
			break
		}
		bodyStart := i + gt + 1
		if tag == "svg" && rest[bodyStart-2] == '/' {
			// <svg .../> has no body (script and style have one whatever
			// the slash says, as in the tokenizer).
			parts = append(parts, rest[:bodyStart])
			rest = rest[bodyStart:]
			continue
		}
		closing := []byte("</" + tag)
		end := indexFold(rest[bodyStart:], closing)
		if end < 0 {
			break
		}
		if tag == "script" && indexFoldASCII(rest[i:bodyStart], "ld+json") >= 0 {
			parts = append(parts, rest[:bodyStart+end])
		} else {
			parts = append(parts, rest[:bodyStart])
		}
		rest = rest[bodyStart+end:]
	}
	if len(parts) == 0 {
		return b
	}
	n := len(rest)
	for _, p := range parts {
		n += len(p)
	}
	out := getBuf(n)
	for _, p := range parts {
		out = append(out, p...)
	}
	return append(out, rest...)
}

// nextRawOpen finds the next "<script", "<style" or "<svg" start tag (any
// case) or "<!--" in b and returns its offset and lower-case name.
func nextRawOpen(b []byte) (int, string) {
	for off := 0; ; {
		i := bytes.IndexByte(b[off:], '<')
		if i < 0 {
			return -1, ""
		}
		i += off
		rest := b[i+1:]
		if len(rest) > 0 {
			switch rest[0] {
			case '!':
				if bytes.HasPrefix(rest, []byte("!--")) {
					return i, "!--"
				}
			case 's', 'S':
				for _, tag := range [...]string{"script", "style", "svg"} {
					if len(rest) > len(tag) && hasPrefixFold(rest, tag) {
						switch rest[len(tag)] {
						case '>', ' ', '\t', '\n', '\r', '\f', '/':
							return i, tag
						}
					}
				}
			}
		}
		off = i + 1
	}
}

// hasPrefixFold reports whether b starts with prefix (lower case),
// ignoring ASCII case.
func hasPrefixFold(b []byte, prefix string) bool {
	if len(b) < len(prefix) {
		return false
	}
	for i := 0; i < len(prefix); i++ {
		c := b[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != prefix[i] {
			return false
		}
	}
	return true
}

// indexFoldASCII is the index of sep (lower case) in b ignoring ASCII
// case, or -1.
func indexFoldASCII(b []byte, sep string) int {
	for i := 0; i+len(sep) <= len(b); i++ {
		if hasPrefixFold(b[i:], sep) {
			return i
		}
	}
	return -1
}

// tagEnd returns the offset of the '>' that ends the tag at the start of
// b, skipping quoted attribute values, or -1.
func tagEnd(b []byte) int {
	var quote byte
	for i, c := range b {
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			// Quotes open a value only after '=' (possibly with spaces).
			j := i - 1
			for j > 0 && (b[j] == ' ' || b[j] == '\t' || b[j] == '\n' || b[j] == '\r') {
				j--
			}
			if j > 0 && b[j] == '=' {
				quote = c
			}
		case c == '>':
			return i
		}
	}
	return -1
}

// indexFold is bytes.Index ignoring ASCII case; sep must be lower case.
func indexFold(b, sep []byte) int {
	for off := 0; ; {
		i := bytes.IndexByte(b[off:], '<')
		if i < 0 {
			return -1
		}
		i += off
		if hasPrefixFold(b[i:], string(sep)) {
			return i
		}
		off = i + 1
	}
}

// bufPool holds byte buffers of page size for reuse (a *[]byte of length
// 0): the copy of a page that FromHTML reads and the page without its
// scripts that the parser reads are garbage as soon as the page is
// extracted, since the tree and the Page hold copies of what they keep.
// Reusing them saves the allocation, the zeroing of fresh memory and the
// garbage collection work of two page-sized buffers per page.
var bufPool sync.Pool

// maxPooledBuf is the largest buffer kept for reuse.
const maxPooledBuf = 4 << 20

// maxPooledEntries is the most entries a per-page map may have held and
// still be kept for reuse: Go's clear walks a map's peak capacity, so a
// map grown by one huge page would cost every later page.
const maxPooledEntries = 1 << 15

// getBuf returns an empty buffer with room for n bytes, from the pool
// when it has one large enough. A pooled buffer too small is replaced by
// one at least twice its size, so that a few buffers serve pages of any
// size.
func getBuf(n int) []byte {
	if p, ok := bufPool.Get().(*[]byte); ok {
		if cap(*p) >= n {
			return (*p)[:0]
		}
		n = max(n, 2*cap(*p))
	}
	return make([]byte, 0, n)
}

// putBuf gives b back to the pool; nothing may use b afterwards.
func putBuf(b []byte) {
	if cap(b) == 0 || cap(b) > maxPooledBuf {
		return
	}
	b = b[:0]
	bufPool.Put(&b)
}

// arena hands out the slabs that trees are built from. A pooled arena
// takes slabs of slabSize from pools and gives them back, cleared, on
// release, once nothing uses the tree any more: the nodes of a page then
// serve the next page instead of being allocated, zeroed by the runtime
// and collected. The zero arena allocates slabs that grow with the page,
// so that a small page stays small.
type arena struct {
	slab     []html.Node      // nodes to hand out (newNode)
	attrSlab []html.Attribute // attributes to hand out (newAttrs)
	pooled   bool
	nodes    [][]html.Node      // the pooled slabs handed out
	attrs    [][]html.Attribute // the same for attributes
	nodeSize int                // the last slab size, when not pooled
	attrSize int
}

// slabSize is the size of pooled slabs, and the largest of the others.
const slabSize = 1024

var nodeSlabs, attrSlabs sync.Pool // of *[]html.Node, *[]html.Attribute

// nodeSlab returns a slab of zero nodes.
func (a *arena) nodeSlab() []html.Node {
	if !a.pooled {
		a.nodeSize = min(max(2*a.nodeSize, 32), slabSize)
		return make([]html.Node, a.nodeSize)
	}
	var s []html.Node
	if p, ok := nodeSlabs.Get().(*[]html.Node); ok {
		s = *p
	} else {
		s = make([]html.Node, slabSize)
	}
	a.nodes = append(a.nodes, s)
	return s
}

// newAttrSlab returns a slab of at least n zero attributes.
func (a *arena) newAttrSlab(n int) []html.Attribute {
	if !a.pooled || n > slabSize {
		a.attrSize = min(max(2*a.attrSize, 32, n), slabSize)
		return make([]html.Attribute, max(a.attrSize, n))
	}
	var s []html.Attribute
	if p, ok := attrSlabs.Get().(*[]html.Attribute); ok {
		s = *p
	} else {
		s = make([]html.Attribute, slabSize)
	}
	a.attrs = append(a.attrs, s)
	return s
}

// release gives a pooled arena's slabs back: nothing may use the trees
// built from it afterwards.
func (a *arena) release() {
	for _, s := range a.nodes {
		clear(s)
		nodeSlabs.Put(&s)
	}
	for _, s := range a.attrs {
		clear(s)
		attrSlabs.Put(&s)
	}
	a.nodes, a.attrs = nil, nil
	a.slab, a.attrSlab = nil, nil
}
