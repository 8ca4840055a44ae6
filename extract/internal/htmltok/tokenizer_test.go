package htmltok

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/net/html"
)

// token is one token as both tokenizers can describe it.
type token struct {
	Type  TokenType
	Raw   string
	Data  string // text, or the lowered tag name
	Attrs []html.Attribute
}

func (t token) String() string {
	return fmt.Sprintf("%d %q %q %v", t.Type, t.Raw, t.Data, t.Attrs)
}

// ours tokenizes b with this package, decoding names and attributes as
// x/net/html's Token does.
func ours(b []byte) []token {
	var out []token
	z := New(b)
	for {
		tt := z.Next()
		t := token{Type: tt, Raw: string(z.Raw())}
		switch tt {
		case ErrorToken:
			return append(out, t)
		case TextToken:
			t.Data = string(z.Text())
		case StartTagToken, EndTagToken, SelfClosingTagToken:
			t.Data = lowerNUL(z.TagName())
			seen := map[string]bool{}
			for _, a := range z.Attrs() {
				k := lowerNUL(z.Bytes(a.Key))
				if seen[k] {
					continue
				}
				seen[k] = true
				v := bytes.ReplaceAll(z.Bytes(a.Val), nul, replacement)
				v = convertNewlines(bytes.Clone(v))
				t.Attrs = append(t.Attrs, html.Attribute{Key: k, Val: UnescapeAttr(string(v))})
			}
		}
		out = append(out, t)
	}
}

// lowerNUL lowers ASCII letters only and replaces NUL, as x/net/html
// does for names.
func lowerNUL(b []byte) string {
	b = bytes.ReplaceAll(b, nul, replacement)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// theirs tokenizes b with x/net/html.
func theirs(b []byte) []token {
	var out []token
	z := html.NewTokenizer(bytes.NewReader(bytes.Clone(b)))
	for {
		tt := z.Next()
		t := token{Raw: string(z.Raw())}
		switch tt {
		case html.ErrorToken:
			return append(out, t)
		case html.TextToken:
			t.Type, t.Data = TextToken, string(z.Text())
		case html.StartTagToken, html.EndTagToken, html.SelfClosingTagToken:
			t.Type = map[html.TokenType]TokenType{html.StartTagToken: StartTagToken, html.EndTagToken: EndTagToken, html.SelfClosingTagToken: SelfClosingTagToken}[tt]
			tok := z.Token()
			t.Data = tok.Data
			for _, a := range tok.Attr {
				if tt == html.EndTagToken {
					break
				}
				t.Attrs = append(t.Attrs, html.Attribute{Key: a.Key, Val: a.Val})
			}
		case html.CommentToken:
			t.Type = CommentToken
		case html.DoctypeToken:
			t.Type = DoctypeToken
		}
		out = append(out, t)
	}
}

func TestTokens(t *testing.T) {
	tests := []struct {
		name, in string
		want     []string
	}{
		{"text and tags", `a<p class="x">b</p>`, []string{`1 "a" "a" []`, `2 "<p class=\"x\">" "p" [{ class x}]`, `1 "b" "b" []`, `3 "</p>" "p" []`, `0 "" "" []`}},
		{"self-closing", `<br/><p a=/>`, []string{`4 "<br/>" "br" []`, `2 "<p a=/>" "p" [{ a /}]`, `0 "" "" []`}},
		{"duplicate attribute", `<p a=1 A=/>`, []string{`4 "<p a=1 A=/>" "p" [{ a 1}]`, `0 "" "" []`}},
		{"comments split text", `a<!-- x -->b<?p?>c</ x>d</>e`, []string{`1 "a" "a" []`, `5 "<!-- x -->" "" []`, `1 "b" "b" []`, `5 "<?p?>" "" []`, `1 "c" "c" []`, `5 "</ x>" "" []`, `1 "d" "d" []`, `5 "</>" "" []`, `1 "e" "e" []`, `0 "" "" []`}},
		{"raw text", `<title>a &amp; <b></title><script>x</script>`, []string{`2 "<title>" "title" []`, `1 "a &amp; <b>" "a & <b>" []`, `3 "</title>" "title" []`, `2 "<script>" "script" []`, `1 "x" "x" []`, `3 "</script>" "script" []`, `0 "" "" []`}},
		{"entities and newlines", "a&lt;\r\nb", []string{`1 "a&lt;\r\nb" "a<\nb" []`, `0 "" "" []`}},
		{"end of input in a tag", `a<div class="x`, []string{`1 "a" "a" []`, `0 "<div class=\"x" "" []`}},
		{"end of input after <", `a<`, []string{`1 "a<" "a<" []`, `0 "" "" []`}},
		{"doctype", `<!DOCTYPE html><p>`, []string{`6 "<!DOCTYPE html>" "" []`, `2 "<p>" "p" []`, `0 "" "" []`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, tok := range ours([]byte(tt.in)) {
				got = append(got, tok.String())
			}
			assert.Equal(t, tt.want, got)
			assert.Equal(t, theirs([]byte(tt.in)), ours([]byte(tt.in)), "x/net/html splits it otherwise")
		})
	}
}

func TestTextDoesNotWriteInput(t *testing.T) {
	in := []byte("a\r\nb&amp;<p>")
	orig := bytes.Clone(in)
	z := New(in)
	require.Equal(t, TextToken, z.Next())
	assert.Equal(t, "a\nb&", string(z.Text()))
	assert.Equal(t, orig, in)
}

// FuzzTokenizer holds the tokenizer to x/net/html's on any input: the same
// tokens, raw bytes, text, tag names and attributes.
func FuzzTokenizer(f *testing.F) {
	for _, s := range []string{
		`<!DOCTYPE html><html lang=en><head><title>T &amp; U</title><meta charset="utf-8"></head>`,
		`<body class="a b" data-x='y'><p id=p>Text &nbsp; more<br/>line</p><img src=x alt="a>b"/></body>`,
		`<script>if (a<b) { x = "</scr" + "ipt>"; }</script><style>p>a{}</style>`,
		`<script><!--<script>x</script>--></script>after`,
		`<noscript><p>no</p></noscript><textarea>a<b>&lt;</textarea><plaintext><p>all text`,
		`a<!-->b<!--->c<!-- x --!>d<!-- y --!-->e<!x>f<?y>g</ z>h</>i<`,
		"\x00a\r\r\n<P A=1 a=2 B\x00=\"\r\n\">x</P\t>",
		`<p a=b"c d"e /><p =x=y><p a='/'/><div/ /><x-y:z/>`,
		`<title>x</TITLE >y</titlex></title`,
		`<iframe>a</iframe><xmp><b></xmp><noembed>n</noembed><noframes>f</noframes>`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		want, got := theirs(b), ours(b)
		n := min(len(want), len(got))
		for i := 0; i < n; i++ {
			if fmt.Sprint(want[i]) != fmt.Sprint(got[i]) {
				t.Fatalf("token %d: x/net/html %v, ours %v", i, want[i], got[i])
			}
		}
		if len(want) != len(got) {
			t.Fatalf("x/net/html has %d tokens, ours %d", len(want), len(got))
		}
	})
}
