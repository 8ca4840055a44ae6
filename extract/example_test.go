package extract_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/textanalysis/go-textanalysis/extract"
)

func ExampleFromHTML() {
	page := `<html lang="en"><head><title>Rain returns | Daily</title>
<meta property="og:title" content="Rain returns">
<meta property="article:published_time" content="2024-05-02"></head>
<body><nav><a href="/">Home</a> <a href="/news">News</a></nav>
<article><h1>Rain returns</h1>
<p>After six dry weeks, rain fell across the region on Wednesday, to the relief of farmers.</p>
<p>More showers are expected over the weekend, with cooler air arriving from the west.</p>
</article><footer>© Daily</footer></body></html>`
	p, err := extract.FromHTML(context.Background(), strings.NewReader(page), "https://example.com/rain", extract.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(p.Title, "|", p.Published, "|", p.Language, "|", p.WordCount, "words")
	fmt.Println(p.Text)
	// Output:
	// Rain returns | 2024-05-02 | en | 30 words
	// After six dry weeks, rain fell across the region on Wednesday, to the relief of farmers.
	//
	// More showers are expected over the weekend, with cooler air arriving from the west.
}

func ExampleFromURL() {
	_, err := extract.FromURL(context.Background(), "http://169.254.169.254/latest/meta-data/", extract.Options{})
	var uerr *extract.URLError
	fmt.Println(errors.As(err, &uerr), errors.Is(err, extract.ErrBlockedAddress))
	fmt.Println(uerr.Reason)
	// Output:
	// true true
	// the address 169.254.169.254 is not allowed: cloud metadata address
}

func ExamplePage_MarshalJSON() {
	b, _ := json.Marshal(extract.Page{URL: "https://example.com/", FinalURL: "https://example.com/", Text: "Hello.", WordCount: 1})
	fmt.Println(string(b))
	// Output:
	// {"url":"https://example.com/","final_url":"https://example.com/","title":null,"author":null,"published":null,"language":null,"text":"Hello.","word_count":1,"warning":null,"page_type":null}
}
