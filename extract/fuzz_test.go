package extract

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzFromHTML checks invariants of extraction on any input: no error, no
// panic, valid UTF-8 out, no invisible characters, tidy block separators and
// a word count that matches the text.
func FuzzFromHTML(f *testing.F) {
	pages, _ := filepath.Glob(filepath.Join("testdata", "golden", "*.html"))
	for _, p := range pages {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(testArticle))
	f.Add([]byte("<p>a<br>b</p><pre>x\n\n\n y</pre><table><tr><td>1<td>2</table>"))
	// Nesting past the depth cap, of block, inline, table and unknown
	// elements, with end tags that must find elements deep in the stack.
	f.Add([]byte(strings.Repeat("<div>", maxDepth+50) + "<p>deep, text.</p>" + strings.Repeat("</div>", maxDepth+50) + "after"))
	f.Add([]byte(strings.Repeat("<b><i><span>x", 300) + strings.Repeat("</b>", 10)))
	f.Add([]byte(strings.Repeat("<table><tr><td><p class=title>x", 200) + "</p></td>"))
	f.Add([]byte(strings.Repeat("<x-a><header>y</x-b>", 250) + strings.Repeat("z</q>", 100)))
	f.Fuzz(func(t *testing.T, raw []byte) {
		p, err := FromHTML(t.Context(), bytes.NewReader(raw), "", Options{})
		if err != nil {
			t.Fatalf("error on in-memory input: %v", err)
		}
		for name, s := range map[string]string{"text": p.Text, "title": p.Title, "author": p.Author, "language": p.Language, "published": p.Published} {
			if !utf8.ValidString(s) {
				t.Fatalf("%s is not valid UTF-8: %q", name, s)
			}
		}
		if strings.ContainsAny(p.Text, "\u00ad\u200b\ufeff") {
			t.Fatalf("invisible characters kept: %q", p.Text)
		}
		if strings.Contains(p.Text, "\n\n\n") || strings.TrimSpace(p.Text) != p.Text {
			t.Fatalf("untidy text: %q", p.Text)
		}
		if p.WordCount != countWords(p.Text) {
			t.Fatalf("word count %d, text has %d", p.WordCount, countWords(p.Text))
		}
	})
}
