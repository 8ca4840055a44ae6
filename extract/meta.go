package extract

import (
	"encoding/json"
	"regexp"
	"strings"
	"time"

	"github.com/PuerkitoBio/goquery"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
	"golang.org/x/text/language"
)

// meta is what the page says about itself.
type meta struct {
	title, author, published, language, description string
}

// pageFacts are the elements readMeta needs, gathered in one walk.
type pageFacts struct {
	props    map[string]string // meta property/name/itemprop/http-equiv → content (first wins)
	title    *html.Node
	h1s      []*html.Node
	ldJSON   []string
	timeAttr string
	lang     string
	author   *html.Node // first [itemprop=author] or [rel=author]
}

func gatherFacts(n *html.Node, f *pageFacts) {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.ElementNode {
			continue
		}
		switch c.DataAtom {
		case atom.Html:
			if f.lang == "" {
				f.lang = firstNonEmpty(attr(c, "lang"), attr(c, "xml:lang"))
			}
		case atom.Meta:
			content := strings.TrimSpace(attr(c, "content"))
			if content == "" {
				continue
			}
			for _, a := range c.Attr {
				switch a.Key {
				case "property", "name", "itemprop", "http-equiv":
					key := strings.ToLower(strings.TrimSpace(a.Val))
					if _, seen := f.props[key]; !seen {
						f.props[key] = content
					}
				}
			}
			continue
		case atom.Title:
			if f.title == nil {
				f.title = c
			}
			continue
		case atom.H1:
			f.h1s = append(f.h1s, c)
		case atom.Script:
			if strings.EqualFold(strings.TrimSpace(attr(c, "type")), "application/ld+json") && c.FirstChild != nil {
				f.ldJSON = append(f.ldJSON, c.FirstChild.Data)
			}
			continue
		case atom.Style, atom.Svg, atom.Noscript, atom.Template:
			continue
		case atom.Time:
			if f.timeAttr == "" {
				f.timeAttr = attr(c, "datetime")
			}
		}
		if f.author == nil && len(c.Attr) > 0 {
			if attr(c, "itemprop") == "author" || attr(c, "rel") == "author" {
				f.author = c
			}
		}
		gatherFacts(c, f)
	}
}

func readMeta(doc *html.Node) meta {
	f := pageFacts{props: make(map[string]string, 32)}
	gatherFacts(doc, &f)
	props := f.props
	ld := readJSONLD(f.ldJSON)
	var m meta

	m.title = firstNonEmpty(props["og:title"], ld.headline, props["twitter:title"], props["dc.title"])
	if m.title == "" && len(f.h1s) == 1 {
		m.title = goquery.NewDocumentFromNode(f.h1s[0]).Text()
	}
	if m.title == "" && f.title != nil {
		m.title = goquery.NewDocumentFromNode(f.title).Text()
	}
	m.title = oneLine(m.title)

	m.author = firstNonEmpty(ld.author, props["author"], props["article:author"], props["parsely-author"],
		props["sailthru.author"], props["dc.creator"], props["byl"])
	if m.author == "" && f.author != nil {
		s := goquery.NewDocumentFromNode(f.author).Selection
		if name := s.Find(`[itemprop="name"]`).First(); name.Length() > 0 {
			s = name
		}
		if t := oneLine(s.Text()); len(t) < 80 {
			m.author = t
		}
	}
	m.author = strings.TrimPrefix(oneLine(m.author), "By ")
	if strings.HasPrefix(m.author, "http://") || strings.HasPrefix(m.author, "https://") || len(m.author) > 200 {
		m.author = ""
	}

	pub := firstNonEmpty(ld.published, props["article:published_time"], props["datepublished"],
		props["og:published_time"], props["publishdate"], props["pubdate"], props["date"],
		props["dc.date"], props["dc.date.issued"], props["dcterms.date"], props["dcterms.created"],
		props["sailthru.date"], props["parsely-pub-date"], props["article.published"], f.timeAttr)
	m.published = normalizeDate(pub)

	m.language = normalizeLang(firstNonEmpty(f.lang, props["content-language"], props["language"],
		props["dc.language"], props["og:locale"], ld.language))
	m.description = firstNonEmpty(props["og:description"], props["description"], props["twitter:description"])
	return m
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s = strings.TrimSpace(s); s != "" {
			return s
		}
	}
	return ""
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// ldInfo is what JSON-LD article objects say.
type ldInfo struct{ headline, author, published, language string }

var articleTypes = setOf("article", "newsarticle", "blogposting", "reportagenewsarticle", "analysisnewsarticle",
	"opinionnewsarticle", "techarticle", "scholarlyarticle", "report", "webpage", "posting", "socialmediaposting",
	"liveblogposting", "review", "backgroundnewsarticle", "creativework", "recipe")

func readJSONLD(scripts []string) ldInfo {
	var info ldInfo
	for _, s := range scripts {
		if info.headline != "" && info.published != "" && info.author != "" {
			break
		}
		var v any
		if json.Unmarshal([]byte(strings.TrimSpace(s)), &v) != nil {
			continue
		}
		walkLD(v, &info, 0)
	}
	return info
}

func walkLD(v any, info *ldInfo, depth int) {
	if depth > 6 {
		return
	}
	switch t := v.(type) {
	case []any:
		for _, x := range t {
			walkLD(x, info, depth+1)
		}
	case map[string]any:
		if g, ok := t["@graph"]; ok {
			walkLD(g, info, depth+1)
		}
		if !isArticleType(t["@type"]) {
			return
		}
		if info.headline == "" {
			info.headline, _ = t["headline"].(string)
		}
		if info.published == "" {
			info.published, _ = t["datePublished"].(string)
		}
		if info.author == "" {
			info.author = ldName(t["author"], 0)
		}
		if info.language == "" {
			info.language, _ = t["inLanguage"].(string)
		}
	}
}

func isArticleType(v any) bool {
	switch t := v.(type) {
	case string:
		return articleTypes[strings.ToLower(t)]
	case []any:
		for _, x := range t {
			if isArticleType(x) {
				return true
			}
		}
	}
	return false
}

func ldName(v any, depth int) string {
	if depth > 3 {
		return ""
	}
	switch t := v.(type) {
	case string:
		return t
	case map[string]any:
		n, _ := t["name"].(string)
		return n
	case []any:
		var names []string
		for _, x := range t {
			if n := strings.TrimSpace(ldName(x, depth+1)); n != "" {
				names = append(names, n)
			}
		}
		return strings.Join(names, ", ")
	}
	return ""
}

var dateLayouts = []string{
	time.RFC3339Nano, time.RFC3339, "2006-01-02T15:04:05Z0700", "2006-01-02T15:04:05", "2006-01-02T15:04Z07:00",
	"2006-01-02T15:04", "2006-01-02 15:04:05Z07:00", "2006-01-02 15:04:05 Z0700", "2006-01-02 15:04:05 -0700 MST",
	"2006-01-02 15:04:05", "2006-01-02 15:04", time.RFC1123Z, time.RFC1123, time.RFC850, time.ANSIC,
	"Mon, 2 Jan 2006 15:04:05 -0700", "2 Jan 2006 15:04:05 -0700",
}

var dateOnlyRe = regexp.MustCompile(`^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})$`)
var compactDateRe = regexp.MustCompile(`^(\d{4})(\d{2})(\d{2})$`)

// normalizeDate turns a date the page gives into YYYY-MM-DD, or RFC 3339
// when it has a time; "" when it cannot be read.
func normalizeDate(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return ""
	}
	if m := dateOnlyRe.FindStringSubmatch(s); m != nil {
		if t, err := time.Parse("2006-1-2", m[1]+"-"+m[2]+"-"+m[3]); err == nil {
			return t.Format("2006-01-02")
		}
		return ""
	}
	if m := compactDateRe.FindStringSubmatch(s); m != nil {
		if t, err := time.Parse("20060102", s); err == nil {
			return t.Format("2006-01-02")
		}
		return ""
	}
	for _, l := range dateLayouts {
		if t, err := time.Parse(l, s); err == nil {
			if t.Year() < 1900 || t.Year() > 2200 {
				return ""
			}
			if !strings.ContainsAny(l, "Z-") || l == "2006-01-02T15:04:05" || l == "2006-01-02T15:04" ||
				l == "2006-01-02 15:04:05" || l == "2006-01-02 15:04" {
				// No zone given: keep the wall-clock time as UTC.
				return t.UTC().Format(time.RFC3339)
			}
			return t.Format(time.RFC3339)
		}
	}
	if len(s) >= 10 {
		if m := dateOnlyRe.FindStringSubmatch(s[:10]); m != nil {
			return normalizeDate(s[:10])
		}
	}
	return ""
}

// normalizeLang turns "en_US", "EN-us" or "de" into a canonical BCP 47
// tag; "" when it is not one.
func normalizeLang(s string) string {
	s = strings.TrimSpace(strings.ReplaceAll(s, "_", "-"))
	if i := strings.IndexAny(s, ",; "); i >= 0 {
		s = s[:i]
	}
	if s == "" {
		return ""
	}
	tag, err := language.Parse(s)
	if err != nil || tag == language.Und {
		return ""
	}
	return tag.String()
}
