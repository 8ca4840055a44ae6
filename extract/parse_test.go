package extract

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/net/html"
)

// outline renders the body of a tree compactly: elements as name(children),
// text as quoted strings.
func outline(n *html.Node) string {
	var sb strings.Builder
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			switch c.Type {
			case html.TextNode:
				if t := strings.TrimSpace(c.Data); t != "" {
					sb.WriteString("'" + t + "'")
				}
			case html.ElementNode:
				sb.WriteString(c.Data + "(")
				walk(c)
				sb.WriteString(")")
			}
		}
	}
	walk(n)
	return sb.String()
}

func TestParseHTML(t *testing.T) {
	tests := []struct {
		name, in, body string
	}{
		{"implied p end", "<p>a<p>b<div>c</div>", "p('a')p('b')div('c')"},
		{"list items", "<ul><li>a<li>b<ul><li>c</ul><li>d</ul>", "ul(li('a')li('b'ul(li('c')))li('d'))"},
		{"table cells", "<table><tr><td>a<td>b<tr><td>c</table>", "table(tr(td('a')td('b'))tr(td('c')))"},
		{"void and self-closing", "<p>a<br>b<img src=x>c<span/>d</p>", "p('a'br()'b'img()'c'span()'d')"},
		{"stray end tag", "<div>a</span>b</div>c", "div('ab')'c'"},
		{"end tag stops at cell", "<div><table><tr><td>a</div>b</td></tr></table>c</div>", "div(table(tr(td('ab')))'c')"},
		{"misnested inline", "<p><b>a<i>b</b>c</i></p>", "p(b('a'i('b'))'c')"},
		{"uppercase", "<DIV CLASS=x><P>a</P></DIV>", "div(p('a'))"},
		{"headings", "<h1>a<h2>b</h2>", "h1('a')h2('b')"},
		{"unknown element", "<my-widget><p>a</p></my-widget>", "my-widget(p('a'))"},
		{"text before body", "x<p>y", "'x'p('y')"},
		{"end br", "<p>a</br>b</p>", "p('a'br()'b')"},
		{"noscript parsed", "<body><noscript><div><p>post</p></div></noscript><p>x", "noscript(div(p('post')))p('x')"},
		{"noscript text", "<body><noscript>enable scripts</noscript>", "noscript('enable scripts')"},
		{"nested noscript", "<body><noscript><p>a<noscript><p>b</noscript>", "noscript(p('a'noscript('<p>b')))"},
		{"noscript in head", "<noscript><p>a</p></noscript><p>b", "p('b')"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := testParse(t, []byte(tt.in))
			body := findBody(doc)
			require.NotNil(t, body)
			assert.Equal(t, tt.body, outline(body))
		})
	}
}

func TestParseHTMLHeadAndAttrs(t *testing.T) {
	doc := testParse(t, []byte(`<html lang="de"><head><title>T &amp; U</title><meta name="author" content="A"><script type="application/ld+json">{"a":1}</script><script>var x = "<p>no</p>";</script></head><body class="b" data-x="y"><p id="p" onclick="z">t</p>`))
	assert.Equal(t, "de", attr(doc.FirstChild, "lang"))
	head := doc.FirstChild.FirstChild
	assert.Equal(t, `title('T & U')meta()script('{"a":1}')script()`, outline(head))
	body := findBody(doc)
	assert.Equal(t, []html.Attribute{{Key: "class", Val: "b"}}, body.Attr)
	assert.Equal(t, []html.Attribute{{Key: "id", Val: "p"}}, body.FirstChild.Attr)
}

func TestParseHTMLDepthCap(t *testing.T) {
	in := strings.Repeat("<div>", 5000) + "deep" + strings.Repeat("</div>", 5000)
	doc := testParse(t, []byte(in))
	depth, max := 0, 0
	var walk func(n *html.Node, d int)
	walk = func(n *html.Node, d int) {
		if d > max {
			max = d
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c, d+1)
		}
	}
	walk(doc, depth)
	assert.LessOrEqual(t, max, maxDepth+3)
	p, err := FromHTML(t.Context(), strings.NewReader(in), "", Options{})
	require.NoError(t, err)
	assert.Equal(t, "deep", p.Text)
}

func TestWithoutScripts(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"script", `a<script>var s = "<p>x</p>";</script>b`, `a<script></script>b`},
		{"uppercase", `a<SCRIPT type="text/javascript">x</SCRIPT>b`, `a<SCRIPT type="text/javascript"></SCRIPT>b`},
		{"json-ld kept", `<script type="application/ld+json">{"@type":"NewsArticle"}</script>`, `<script type="application/ld+json">{"@type":"NewsArticle"}</script>`},
		{"style", `<style>p > a {}</style>c`, `<style></style>c`},
		{"svg", `<svg viewBox="0 0 1 1"><path d="M0"/><text>x</text></svg>y`, `<svg viewBox="0 0 1 1"></svg>y`},
		{"self-closing svg", `<svg class="i"/><p>keep</p><svg><use/></svg>`, `<svg class="i"/><p>keep</p><svg></svg>`},
		{"quoted bracket", `<svg title=">"><use/></svg><p>keep</p>`, `<svg title=">"></svg><p>keep</p>`},
		{"comment", `a<!-- <p>x</p> -->b`, `ab`},
		{"script in comment", `a<!-- <script> -->b<p>c</p>`, `ab<p>c</p>`},
		{"unterminated script", `a<script>never closed <p>x</p>`, `a<script>never closed <p>x</p>`},
		{"not a script", `<scripts>x</scripts><styles>`, `<scripts>x</scripts><styles>`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, string(withoutScripts([]byte(tt.in))))
		})
	}
}

func TestRawTag(t *testing.T) {
	tests := []struct {
		raw   string
		name  string
		attrs []html.Attribute
	}{
		{`<DIV Class="a b" ID=main>`, "div", []html.Attribute{{Key: "class", Val: "a b"}, {Key: "id", Val: "main"}}},
		{`<p class='x' class="y" data-x="1" style = "display: none">`, "p", []html.Attribute{{Key: "class", Val: "x"}, {Key: "style", Val: "display: none"}}},
		{`<meta content="A &amp; B" name=author/>`, "meta", []html.Attribute{{Key: "content", Val: "A & B"}, {Key: "name", Val: "author/"}}},
		{`<input hidden disabled>`, "input", []html.Attribute{{Key: "hidden", Val: ""}}},
		{`</span >`, "span", nil},
		{`<a href="x>y" title='"' class=c>`, "a", []html.Attribute{{Key: "href"}, {Key: "class", Val: "c"}}},
		{`<a name=top>`, "a", []html.Attribute{{Key: "name", Val: "top"}}},
		{`<x-very-long-custom-element-name-beyond-buffer-size lang=de>`, "x-very-long-custom-element-name-beyond-buffer-size", []html.Attribute{{Key: "lang", Val: "de"}}},
		{`<br/>`, "br", nil},
		{`<p class="unterminated`, "p", []html.Attribute{{Key: "class", Val: "unterminated"}}},
	}
	for _, tt := range tests {
		t.Run(tt.raw, func(t *testing.T) {
			var buf [32]byte
			name, attrs := rawTag([]byte(tt.raw), &buf, true)
			assert.Equal(t, tt.name, string(name))
			assert.Equal(t, tt.attrs, attrs)
		})
	}
}
