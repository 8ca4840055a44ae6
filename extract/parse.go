package extract

import (
	"bytes"
	"io"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// maxDepth caps the open-element stack: deeper elements are still kept,
// as siblings, so hostile nesting cannot blow up the recursion that walks
// the tree.
const maxDepth = 400

// keepAttrs are the attributes extraction and metadata look at; the rest
// are not stored.
var keepAttrs = map[string]bool{
	"class": true, "id": true, "style": true, "hidden": true, "aria-hidden": true, "role": true,
	"itemprop": true, "rel": true, "lang": true, "xml:lang": true, "content": true, "property": true,
	"name": true, "http-equiv": true, "datetime": true, "type": true, "charset": true,
}

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

// treeBuilder turns tokens into an html.Node tree. It is a small subset of
// the HTML5 tree construction algorithm, enough for text extraction: void
// elements, implied ends of p, li, dd/dt, tr, td/th and option, end tags
// matched within scope, and head/body placement. Misnested formatting
// elements are not re-opened. It is several times cheaper than html.Parse
// because it stores only the attributes extraction reads.
type treeBuilder struct {
	doc, html, head, body *html.Node
	stack                 []*html.Node
	depth                 int // nesting of noscript parses
}

// noscript parses the raw text of a <noscript> element into its children.
func (t *treeBuilder) noscript(n *html.Node, text []byte) {
	if bytes.IndexByte(text, '<') < 0 {
		t.text(text)
		return
	}
	sub := parseHTMLDepth(bytes.Clone(text), t.depth+1)
	if body := sub.FirstChild.LastChild; body != nil && body.DataAtom == atom.Body {
		for c := body.FirstChild; c != nil; {
			next := c.NextSibling
			body.RemoveChild(c)
			n.AppendChild(c)
			c = next
		}
	}
}

// parseHTML builds a tree from UTF-8 HTML.
func parseHTML(b []byte) *html.Node { return parseHTMLDepth(b, 0) }

func parseHTMLDepth(b []byte, depth int) *html.Node {
	z := html.NewTokenizer(withoutScripts(b))
	t := &treeBuilder{
		depth: depth,
		doc:   &html.Node{Type: html.DocumentNode},
		html:  &html.Node{Type: html.ElementNode, Data: "html", DataAtom: atom.Html},
		head:  &html.Node{Type: html.ElementNode, Data: "head", DataAtom: atom.Head},
	}
	t.doc.AppendChild(t.html)
	t.html.AppendChild(t.head)
	t.stack = append(make([]*html.Node, 0, 64), t.head)
	for {
		switch z.Next() {
		case html.ErrorToken:
			if t.body == nil {
				t.startBody(nil)
			}
			return t.doc
		case html.TextToken:
			text := z.Text()
			if t.body == nil && t.cur() == t.head {
				if len(bytes.TrimSpace(text)) == 0 {
					continue
				}
				t.startBody(nil)
			}
			if cur := t.cur(); cur.DataAtom == atom.Noscript && t.body != nil && t.depth == 0 {
				// The tokenizer reads <noscript> as raw text (as a browser
				// with scripts on does); some sites put the whole article
				// there for readers without them. Parse it as HTML.
				t.noscript(cur, text)
				continue
			}
			t.text(text)
		case html.StartTagToken:
			t.start(z, false)
		case html.SelfClosingTagToken:
			t.start(z, true)
		case html.EndTagToken:
			var buf [32]byte
			name, _ := rawTag(z.Raw(), &buf, false)
			t.end(atom.Lookup(name), name)
		}
	}
}

func (t *treeBuilder) cur() *html.Node { return t.stack[len(t.stack)-1] }

func (t *treeBuilder) startBody(attrs []html.Attribute) {
	t.body = &html.Node{Type: html.ElementNode, Data: "body", DataAtom: atom.Body, Attr: attrs}
	t.html.AppendChild(t.body)
	t.stack = append(t.stack[:0], t.body)
}

func (t *treeBuilder) text(b []byte) {
	cur := t.cur()
	var s string
	if len(bytes.TrimLeft(b, " \t\n\r\f")) == 0 {
		// Runs of white space between tags only separate words (except in
		// <pre>, where line breaks are kept): share one string.
		s = " "
		if bytes.IndexByte(b, '\n') >= 0 {
			s = "\n"
		}
	} else {
		s = string(b)
	}
	if last := cur.LastChild; last != nil && last.Type == html.TextNode {
		last.Data += s
		return
	}
	cur.AppendChild(&html.Node{Type: html.TextNode, Data: s})
}

// rawTag reads the tag name (lower-cased into buf) and the attributes
// worth keeping from the raw bytes of a start or end tag. Reading the raw
// bytes instead of Tokenizer.TagName and TagAttr saves two copies per
// attribute, most of which extraction never looks at.
func rawTag(raw []byte, buf *[32]byte, wantAttrs bool) (name []byte, attrs []html.Attribute) {
	i := 1
	if i < len(raw) && raw[i] == '/' {
		i++
	}
	start := i
	for i < len(raw) && !isTagSpace(raw[i]) && raw[i] != '/' && raw[i] != '>' {
		i++
	}
	name = lowerInto(raw[start:i], buf)
	if !wantAttrs {
		return name, nil
	}
	var kbuf [32]byte
	for i < len(raw) {
		for i < len(raw) && (isTagSpace(raw[i]) || raw[i] == '/') {
			i++
		}
		if i >= len(raw) || raw[i] == '>' {
			break
		}
		ks := i
		i++ // a name may start with '='
		for i < len(raw) && !isTagSpace(raw[i]) && raw[i] != '/' && raw[i] != '>' && raw[i] != '=' {
			i++
		}
		key := raw[ks:i]
		for i < len(raw) && isTagSpace(raw[i]) {
			i++
		}
		var val []byte
		if i < len(raw) && raw[i] == '=' {
			i++
			for i < len(raw) && isTagSpace(raw[i]) {
				i++
			}
			if i < len(raw) && (raw[i] == '"' || raw[i] == '\'') {
				q := raw[i]
				i++
				vs := i
				for i < len(raw) && raw[i] != q {
					i++
				}
				val = raw[vs:i]
				i++
			} else {
				vs := i
				for i < len(raw) && !isTagSpace(raw[i]) && raw[i] != '>' {
					i++
				}
				val = raw[vs:i]
			}
		}
		if len(key) > len(kbuf) {
			continue
		}
		k := lowerInto(key, &kbuf)
		if string(k) == "href" {
			// Only its presence matters: <a name> without it is an
			// anchor, not a link.
			if !hasAttrKey(attrs, k) {
				attrs = append(attrs, html.Attribute{Key: "href"})
			}
			continue
		}
		if !keepAttrs[string(k)] || hasAttrKey(attrs, k) {
			continue // not needed, or a duplicate (the first one wins)
		}
		v := string(val)
		if strings.IndexByte(v, '&') >= 0 {
			v = html.UnescapeString(v)
		}
		attrs = append(attrs, html.Attribute{Key: string(k), Val: v})
	}
	return name, attrs
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

func (t *treeBuilder) start(z *html.Tokenizer, selfClosing bool) {
	var buf [32]byte
	raw := z.Raw()
	name, _ := rawTag(raw, &buf, false)
	a := atom.Lookup(name)
	// Elements that are skipped whatever their attributes don't need them.
	wantAttrs := !skipTags[a] || a == atom.Meta || a == atom.Script
	_, attrs := rawTag(raw, &buf, wantAttrs)
	switch a {
	case atom.Html:
		for _, at := range attrs {
			if attr(t.html, at.Key) == "" {
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
	if t.body == nil && !headTags[a] {
		t.startBody(nil)
	}
	n := &html.Node{Type: html.ElementNode, DataAtom: a, Attr: attrs}
	if a != 0 {
		n.Data = a.String()
	} else {
		n.Data = string(name)
	}
	switch {
	case closesP[a]:
		t.closeInScope(atom.P, nil)
		switch a {
		case atom.Li:
			t.closeInScope(atom.Li, listScope)
		case atom.Dd, atom.Dt:
			t.closeInScope(atom.Dd, listScope)
			t.closeInScope(atom.Dt, listScope)
		case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
			if isHeading(t.cur().DataAtom) {
				t.pop()
			}
		}
	case a == atom.Tr:
		t.closeInScope(atom.Td, nil)
		t.closeInScope(atom.Th, nil)
		t.closeInScope(atom.Tr, tableScope)
	case a == atom.Td || a == atom.Th:
		t.closeInScope(atom.Td, tableScope)
		t.closeInScope(atom.Th, tableScope)
	case a == atom.Option:
		if t.cur().DataAtom == atom.Option {
			t.pop()
		}
	case a == atom.A:
		t.closeInScope(atom.A, nil)
	}
	t.cur().AppendChild(n)
	if voidTags[a] || selfClosing || len(t.stack) >= maxDepth {
		return
	}
	t.stack = append(t.stack, n)
}

var listScope = map[atom.Atom]bool{atom.Ol: true, atom.Ul: true}
var tableScope = map[atom.Atom]bool{atom.Table: true, atom.Tbody: true, atom.Thead: true, atom.Tfoot: true}

func (t *treeBuilder) pop() {
	if len(t.stack) > 1 {
		t.stack = t.stack[:len(t.stack)-1]
	}
}

// closeInScope pops up to and including the innermost open a, unless a
// scope boundary (or one of extra) comes first.
func (t *treeBuilder) closeInScope(a atom.Atom, extra map[atom.Atom]bool) {
	for i := len(t.stack) - 1; i > 0; i-- {
		n := t.stack[i]
		if n.DataAtom == a {
			t.stack = t.stack[:i]
			return
		}
		if scopeEnd[n.DataAtom] || extra[n.DataAtom] {
			return
		}
	}
}

func (t *treeBuilder) end(a atom.Atom, name []byte) {
	switch a {
	case atom.Html, atom.Body, atom.Head:
		return
	case atom.Br:
		if t.body != nil {
			t.cur().AppendChild(&html.Node{Type: html.ElementNode, Data: "br", DataAtom: atom.Br})
		}
		return
	}
	for i := len(t.stack) - 1; i > 0; i-- {
		n := t.stack[i]
		if n.DataAtom == a && (a != 0 || n.Data == string(name)) {
			t.stack = t.stack[:i]
			return
		}
		if scopeEnd[n.DataAtom] {
			return
		}
	}
}

// withoutScripts returns b without the bodies of <script>, <style> and
// <svg> elements (JSON-LD scripts excepted) and without comments. The
// tokenizer reads raw text byte by byte, and these are close to half of a
// typical page's bytes; the elements themselves stay, empty. Like the HTML
// tokenizer, the first "</script" ends a script.
func withoutScripts(b []byte) io.Reader {
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
		if tag == "script" && bytes.Contains(bytes.ToLower(rest[i:bodyStart]), []byte("ld+json")) {
			parts = append(parts, rest[:bodyStart+end])
		} else {
			parts = append(parts, rest[:bodyStart])
		}
		rest = rest[bodyStart+end:]
	}
	if len(parts) == 0 {
		return bytes.NewReader(b)
	}
	readers := make([]io.Reader, 0, len(parts)+1)
	for _, p := range parts {
		readers = append(readers, bytes.NewReader(p))
	}
	readers = append(readers, bytes.NewReader(rest))
	return io.MultiReader(readers...)
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
		if bytes.HasPrefix(rest, []byte("!--")) {
			return i, "!--"
		}
		for _, tag := range [...]string{"script", "style", "svg"} {
			if len(rest) > len(tag) && bytes.EqualFold(rest[:len(tag)], []byte(tag)) {
				switch rest[len(tag)] {
				case '>', ' ', '\t', '\n', '\r', '\f', '/':
					return i, tag
				}
			}
		}
		off = i + 1
	}
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
		if len(b)-i >= len(sep) && bytes.EqualFold(b[i:i+len(sep)], sep) {
			return i
		}
		off = i + 1
	}
}
