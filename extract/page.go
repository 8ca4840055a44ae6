package extract

import "encoding/json"

// A Page is the main text of a web page and what is known about it. Empty
// strings mean "not found"; in JSON they are written as null.
type Page struct {
	URL       string // the URL as requested (or as given to FromHTML)
	FinalURL  string // the URL after redirects
	Title     string
	Author    string
	Published string // ISO 8601: YYYY-MM-DD, or RFC 3339 when the page gives a time
	Language  string // a BCP 47 code such as "en" or "de-AT"
	Text      string // the main text; blocks separated by a blank line
	WordCount int
	// Warning says why Text may be empty or incomplete although the page
	// was read: WarningJavaScript for a page that builds its content with
	// JavaScript. Empty when there is nothing to say.
	Warning string
	// PageType is the kind of page the classifier sees: "article",
	// "collection", "documentation", "forum", "listing", "product" or
	// "service"; empty when unknown.
	PageType string
}

type pageJSON struct {
	URL       *string `json:"url"`
	FinalURL  *string `json:"final_url"`
	Title     *string `json:"title"`
	Author    *string `json:"author"`
	Published *string `json:"published"`
	Language  *string `json:"language"`
	Text      string  `json:"text"`
	WordCount int     `json:"word_count"`
	Warning   *string `json:"warning"`
	PageType  *string `json:"page_type"`
}

func nullable(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// MarshalJSON writes {"url", "final_url", "title", "author", "published",
// "language", "text", "word_count", "warning", "page_type"}, with empty fields as null.
func (p Page) MarshalJSON() ([]byte, error) {
	return json.Marshal(pageJSON{
		URL:       nullable(p.URL),
		FinalURL:  nullable(p.FinalURL),
		Title:     nullable(p.Title),
		Author:    nullable(p.Author),
		Published: nullable(p.Published),
		Language:  nullable(p.Language),
		Text:      p.Text,
		WordCount: p.WordCount,
		Warning:   nullable(p.Warning),
		PageType:  nullable(p.PageType),
	})
}

// UnmarshalJSON reads what MarshalJSON writes; null becomes "".
func (p *Page) UnmarshalJSON(b []byte) error {
	var j pageJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	*p = Page{
		URL:       deref(j.URL),
		FinalURL:  deref(j.FinalURL),
		Title:     deref(j.Title),
		Author:    deref(j.Author),
		Published: deref(j.Published),
		Language:  deref(j.Language),
		Text:      j.Text,
		WordCount: j.WordCount,
		Warning:   deref(j.Warning),
		PageType:  deref(j.PageType),
	}
	return nil
}
