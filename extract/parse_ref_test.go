package extract

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/textanalysis/go-textanalysis/extract/internal/htmltok"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// refParseHTML is parseHTML as it was before htmltok: the same tree
// builder fed by x/net/html's Tokenizer, with names and attributes read
// from the tags' raw bytes by rawTag. The tests hold parseHTML to it.
func refParseHTML(b []byte, depth int, w *work) (*html.Node, error) {
	z := html.NewTokenizer(bytes.NewReader(withoutScripts(b)))
	t := newTreeBuilder(depth, w, &arena{})
	for {
		tt := z.Next()
		if err := w.step(); err != nil {
			return nil, err
		}
		switch tt {
		case html.ErrorToken:
			return t.finish(), nil
		case html.TextToken:
			text := z.Text()
			if t.body == nil && t.cur() == t.head {
				if len(bytes.TrimSpace(text)) == 0 {
					continue
				}
				t.startBody(nil)
			}
			if cur := t.cur(); cur.DataAtom == atom.Noscript && t.body != nil && t.depth == 0 {
				if bytes.IndexByte(text, '<') < 0 {
					t.text(text)
					continue
				}
				sub, err := refParseHTML(bytes.Clone(text), t.depth+1, t.w)
				if err != nil {
					return nil, err
				}
				if body := sub.FirstChild.LastChild; body != nil && body.DataAtom == atom.Body {
					for c := body.FirstChild; c != nil; {
						next := c.NextSibling
						body.RemoveChild(c)
						cur.AppendChild(c)
						c = next
					}
				}
				continue
			}
			t.text(text)
		case html.StartTagToken, html.SelfClosingTagToken:
			var buf [32]byte
			raw := z.Raw()
			name, _ := rawTag(raw, &buf, false)
			a := atom.Lookup(name)
			_, attrs := rawTag(raw, &buf, wantAttrs(a))
			t.start(a, name, attrs, tt == html.SelfClosingTagToken)
		case html.EndTagToken:
			var buf [32]byte
			name, _ := rawTag(z.Raw(), &buf, false)
			t.end(atom.Lookup(name), name)
		}
	}
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
		if keepAttrs[string(k)] == "" || hasAttrKey(attrs, k) {
			continue // not needed, or a duplicate (the first one wins)
		}
		v := string(val)
		if strings.IndexByte(v, '&') >= 0 {
			v = htmltok.UnescapeAttr(v)
		}
		attrs = append(attrs, html.Attribute{Key: string(k), Val: v})
	}
	return name, attrs
}

// keepAttrs are the attributes extraction and metadata look at (keptKey
// says which), each mapped to itself, as the reference reads them.
var keepAttrs = func() map[string]string {
	m := map[string]string{}
	for _, k := range []string{"class", "id", "style", "hidden", "aria-hidden", "role", "itemprop", "rel",
		"lang", "xml:lang", "content", "property", "name", "http-equiv", "datetime", "type", "charset"} {
		m[k] = k
	}
	return m
}()

func TestKeptKey(t *testing.T) {
	for k, v := range keepAttrs {
		assert.Equal(t, v, keptKey([]byte(k)), k)
	}
	for _, k := range []string{"", "href", "Class", "data-id", "classes", "i", "lang2"} {
		assert.Empty(t, keptKey([]byte(k)), k)
	}
}

// dumpTree renders every node of a tree with its attributes, for
// comparing two trees exactly.
func dumpTree(n *html.Node) string {
	var sb strings.Builder
	var walk func(n *html.Node, depth int)
	walk = func(n *html.Node, depth int) {
		fmt.Fprintf(&sb, "%d %d %d %q %q\n", depth, n.Type, n.DataAtom, n.Data, n.Attr)
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c, depth+1)
		}
	}
	walk(n, 0)
	return sb.String()
}

// sameParse fails t when parseHTML and refParseHTML build different
// trees from b.
func sameParse(t *testing.T, b []byte) {
	t.Helper()
	got, err1 := parseHTML(b, newWork(t.Context(), Options{}))
	want, err2 := refParseHTML(b, 0, newWork(t.Context(), Options{}))
	if (err1 == nil) != (err2 == nil) {
		t.Fatalf("errors differ: %v, reference %v", err1, err2)
	}
	if err1 != nil {
		return
	}
	if g, w := dumpTree(got), dumpTree(want); g != w {
		t.Fatalf("trees differ:\n%s\nreference:\n%s", g, w)
	}
}

// FuzzParseHTML holds the tree built from htmltok's tokens to the one built
// from x/net/html's, on any input.
func FuzzParseHTML(f *testing.F) {
	pages, _ := filepath.Glob(filepath.Join("testdata", "golden", "*.html"))
	for _, p := range pages {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(testArticle))
	f.Add([]byte(`<html lang=de id=x><body class=b><noscript><p class="a &amp; b">x<noscript>y</noscript></p></noscript>` +
		`<a href=x href=y name=n>l</a><p a=1 A=/><DIV CLASS=c Class=d>t&nbsp;u</DIV><!-- c -->v<?x>w</ x>` +
		`<script type="application/ld+json">{"a":"<b>"}</script><title>t</title><textarea>&lt;</textarea></body>`))
	f.Fuzz(func(t *testing.T, b []byte) {
		sameParse(t, b)
	})
}

// TestParseHTMLDevPages checks parseHTML against refParseHTML on the pages
// of the sets in EXTRACT_BENCH_SETS (see devPages), when given.
func TestParseHTMLDevPages(t *testing.T) {
	if os.Getenv("EXTRACT_BENCH_SETS") == "" {
		t.Skip("EXTRACT_BENCH_SETS names no set folder")
	}
	pages, _ := readDevPages(os.Getenv("EXTRACT_BENCH_SETS"))
	for _, raw := range pages {
		sameParse(t, decodeBytes(raw, ""))
	}
}
