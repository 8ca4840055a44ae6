package extract

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkFromHTML extracts the golden pages one after another; bytes/s
// is page bytes.
func BenchmarkFromHTML(b *testing.B) {
	pages, _ := filepath.Glob(filepath.Join("testdata", "golden", "*.html"))
	var raws [][]byte
	var total int64
	for _, p := range pages {
		raw, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		raws = append(raws, raw)
		total += int64(len(raw))
	}
	b.ReportAllocs()
	b.SetBytes(total)
	for b.Loop() {
		for _, raw := range raws {
			if _, err := FromHTML(b.Context(), bytes.NewReader(raw), "", Options{}); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkDecodeBytes measures charset handling on a page that is not UTF-8.
func BenchmarkDecodeBytes(b *testing.B) {
	raw, err := os.ReadFile(filepath.Join("testdata", "golden", "late-charset.html"))
	if err != nil {
		b.Fatal(err)
	}
	raw = bytes.Repeat(raw, 50)
	b.ReportAllocs()
	b.SetBytes(int64(len(raw)))
	for b.Loop() {
		decodeBytes(raw, "")
	}
}

// largePage builds a page of about 150 KiB shaped like a news article on a
// modern site: a big navigation menu, scripts and styles, inline SVG icons,
// an article of 40 paragraphs, related links and a comment section.
func largePage() []byte {
	var b bytes.Buffer
	b.WriteString(`<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>A long story | Site</title>`)
	b.WriteString(`<meta property="og:title" content="A long story"><meta property="article:published_time" content="2024-05-01T10:00:00Z">`)
	for i := 0; i < 20; i++ {
		b.WriteString(`<script>window.dataLayer = window.dataLayer || []; function gtag(){dataLayer.push(arguments);} gtag('js', new Date());</script>`)
		b.WriteString(`<style>.nav a{color:#333;padding:4px 8px}.card>.title{font-weight:700}</style>`)
	}
	b.WriteString(`</head><body class="single-post has-sidebar"><header class="site-header"><nav><ul>`)
	for i := 0; i < 200; i++ {
		fmt.Fprintf(&b, `<li class="menu-item menu-item-%d"><a href="/section/%d" class="nav-link" data-track="nav">Section %d</a></li>`, i, i, i)
	}
	b.WriteString(`</ul></nav></header><main><article class="post"><h1>A long story</h1><div class="byline">By A. Writer</div><div class="entry-content">`)
	for i := 0; i < 40; i++ {
		fmt.Fprintf(&b, `<p>Paragraph %d of the story goes on, with <a href="/x/%d">a link</a>, some <em>emphasis</em> and enough words, commas, and clauses to look like prose that a reader would want to keep.</p>`, i, i)
		if i%10 == 5 {
			b.WriteString(`<figure><svg viewBox="0 0 24 24"><path d="M12 2C6.48 2 2 6.48 2 12s4.48 10 10 10 10-4.48 10-10S17.52 2 12 2z"/></svg><figcaption>A caption. Photo: Agency</figcaption></figure>`)
		}
	}
	b.WriteString(`</div><div class="share-bar"><a href="#">Share on Facebook</a><a href="#">Share on X</a></div></article>`)
	b.WriteString(`<aside class="related"><h3>Related</h3><ul>`)
	for i := 0; i < 30; i++ {
		fmt.Fprintf(&b, `<li><a href="/story/%d">Another headline number %d that links elsewhere</a></li>`, i, i)
	}
	b.WriteString(`</ul></aside><section id="comments" class="comments-area">`)
	for i := 0; i < 40; i++ {
		fmt.Fprintf(&b, `<div class="comment"><p class="comment-author">Reader %d</p><p>I think this is a fine article, thank you for writing it, and I have a few thoughts of my own.</p></div>`, i)
	}
	b.WriteString(`</section></main><footer><p>© Site</p></footer></body></html>`)
	return b.Bytes()
}

// BenchmarkFromHTMLLarge extracts a realistic 150 KiB page; bytes/s is page
// bytes.
func BenchmarkFromHTMLLarge(b *testing.B) {
	raw := largePage()
	b.ReportAllocs()
	b.SetBytes(int64(len(raw)))
	for b.Loop() {
		if _, err := FromHTML(b.Context(), bytes.NewReader(raw), "", Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

func TestLargePage(t *testing.T) {
	p, err := FromHTML(t.Context(), bytes.NewReader(largePage()), "", Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"Section 1", "Reader 3", "Another headline", "Share on", "Photo: Agency", "By A. Writer"} {
		if strings.Contains(p.Text, bad) {
			t.Errorf("text holds %q", bad)
		}
	}
	if !strings.Contains(p.Text, "Paragraph 0 of the story") || !strings.Contains(p.Text, "Paragraph 39 of the story") {
		t.Errorf("text lacks the article: %.200q", p.Text)
	}
}
