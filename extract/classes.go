package extract

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Tokens of class and id values. A class such as "post-comments" or
// "shareBar" is split into lower-case words ("post", "comments", "share",
// "bar") and each word is looked up here: matching whole words, not
// substrings, keeps "header" from matching "ad" and "shadow" from "ad".
var (
	// strongNegative words mark boilerplate whatever else the class says.
	strongNegative = setOf(
		"comment", "comments", "commentlist", "disqus", "respond", "replies",
		"share", "shares", "sharing", "sharebar", "social", "sociallinks", "socials",
		"related", "recommended", "recommendations", "recommendation", "outbrain", "taboola",
		"newsletter", "newsletters", "sidebar", "breadcrumb", "breadcrumbs",
		"cookie", "cookies", "consent", "gdpr", "ad", "ads", "advert", "adverts", "advertisement",
		"advertising", "adsense", "dfp", "sponsor", "sponsored", "promo", "promotion",
		"popup", "modal", "pagination", "pager", "tooltip", "popover", "hovercard", "rollover", "flyout",
		"invisible", "sronly", "visuallyhidden", "offscreen",
		"skiplink", "noprint", "rss", "subscribe", "subscription", "signup",
		"login", "signin", "author-bio", "bio", "disclaimer", "copyright",
		"nav", "navbar", "navigation", "menu", "footer", "masthead", "toolbar",
		"banner", "caption", "credit", "credits", "byline", "dateline", "timestamp",
		"legend", "legends", "bildunterschrift", "imagecaption", "photocredit",
		"tags", "tagcloud", "tagline", "keywords", "categories", "topics",
		"readmore", "disclosure", "advertiser",
		"gallery", "slideshow", "carousel", "video", "player", "podcast",
		"rating", "ratings", "reactions", "vote", "votes", "likes", "follow",
		"meta", "metadata", "info", "extra", "aside", "supplemental", "trending", "popular", "mostread",
		"title", "kicker", "header", "heading", "search",
	)
	// positive words mark the likely article wrapper.
	positive = setOf(
		"article", "articles", "body", "content", "contents", "entry", "main", "page",
		"post", "text", "blog", "story", "prose", "richtext", "articlebody", "postbody",
		"maincontent", "storybody", "single",
	)
	// weakNegative is the subset of strongNegative that a positive word
	// overrides: "article-meta" is boilerplate, "page-header" is too, but
	// "main-content-widget" is probably the article.
	weakNegative = setOf(
		"info", "extra", "aside", "supplemental", "gallery", "video", "teaser", "teasers",
		"player", "title", "heading", "banner", "rating", "follow",
		"sidebar", "footer", "header", "nav", "navigation", "menu", "masthead", "breadcrumb", "breadcrumbs",
	)
)

func setOf(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

// classVerdict says whether an element's class and id mark it as
// boilerplate (drop) and how much they speak for it as the article
// wrapper (weight, as in Readability: +25 or -25). Class and id values are
// split into lower-case words at non-letters and at lower-to-upper case
// changes ("shareBar" → "share", "bar"), and each word and each joined pair
// of neighbours ("read", "more" → "readmore") is looked up.
func classVerdict(n *html.Node) (drop bool, weight int) { return (*classWords)(nil).verdict(n) }

// verdict is classVerdict with the scans of c.
func (c *classWords) verdict(n *html.Node) (drop bool, weight int) {
	var v wordVerdict
	for _, a := range n.Attr {
		if a.Namespace != "" || (a.Key != "class" && a.Key != "id") {
			continue
		}
		if a.Key == "class" {
			v.add(c.ofClass(a.Val))
		} else {
			v.add(c.of(a.Val))
		}
	}
	if v.pos {
		weight += 25
	}
	if v.strong || v.weak {
		weight -= 25
	}
	return v.strong || (v.weak && !v.pos), weight
}

// strongClass reports a class or id with a strong boilerplate word, one
// that no positive word overrides.
func strongClass(n *html.Node) bool { return (*classWords)(nil).strong(n) }

// strong is strongClass with the scans of c.
func (c *classWords) strong(n *html.Node) bool {
	var v wordVerdict
	for _, a := range n.Attr {
		switch {
		case a.Namespace != "":
		case a.Key == "class":
			v.add(c.ofClass(a.Val))
		case a.Key == "id":
			v.add(c.of(a.Val))
		}
	}
	return v.strong
}

// A wordScan is what scanWords finds in one value: the classes of its
// words (classOf bits) and the class groups of its single words.
type wordScan struct {
	cls    uint8
	groups uint32
}

// scanValue scans s.
func scanValue(s string) wordScan {
	var v wordVerdict
	var w wordScan
	v.scanWords(s, &w.groups)
	w.cls = v.bits()
	return w
}

// classWords remembers the scans of a page's class and id values: pages
// repeat a few values on many elements ("menu-item menu-item-type-post"),
// and a map lookup is cheaper than splitting and looking up their words
// again. A nil *classWords remembers nothing.
type classWords struct {
	plain map[string]wordScan // value → scanValue(value)
	class map[string]wordScan // class value → scanValue(dropTaxonomy(value))
}

// of returns scanValue(s).
func (c *classWords) of(s string) wordScan {
	if c == nil {
		return scanValue(s)
	}
	w, ok := c.plain[s]
	if !ok {
		w = scanValue(s)
		if c.plain == nil {
			c.plain = map[string]wordScan{}
		}
		c.plain[s] = w
	}
	return w
}

// ofClass returns scanValue(dropTaxonomy(s)), for a class value s.
func (c *classWords) ofClass(s string) wordScan {
	if c == nil {
		return scanValue(dropTaxonomy(s))
	}
	w, ok := c.class[s]
	if !ok {
		w = scanValue(dropTaxonomy(s))
		if c.class == nil {
			c.class = map[string]wordScan{}
		}
		c.class[s] = w
	}
	return w
}

// scanGroups is v.scanGroups(s) with the scans of c.
func (c *classWords) scanGroups(v *wordVerdict, s string) uint32 {
	w := c.of(s)
	v.add(w)
	return w.groups
}

type wordVerdict struct{ strong, weak, pos, lead bool }

// Word classes, as bits in classOf.
const (
	wordWeak = 1 << iota
	wordStrong
	wordPositive
	wordLead
)

// classOf maps each known word to its classes, so that a word costs one
// map lookup.
var classOf = func() map[string]uint8 {
	m := map[string]uint8{}
	for w := range strongNegative {
		m[w] |= wordStrong
	}
	for w := range weakNegative {
		m[w] = m[w]&^wordStrong | wordWeak // weak wins: a positive word overrides it
	}
	for w := range positive {
		if m[w]&(wordWeak|wordStrong) == 0 {
			m[w] |= wordPositive
		}
	}
	for w := range leadWords {
		m[w] |= wordLead
	}
	return m
}()

func (v *wordVerdict) look(w []byte) {
	if !maybeWord(w) {
		return
	}
	if c, ok := classOf[string(w)]; ok {
		v.set(c)
	}
}

// wordShapes holds, for each length up to maxShape, first letter and last
// letter of the known words (wordInfoOf, which holds classOf's), whether a
// known word has that shape: most words and joined pairs of class names
// have none, and the test is much cheaper than a map lookup.
var wordShapes = func() *[maxShape + 1][26]uint32 {
	var s [maxShape + 1][26]uint32
	for w := range wordInfoOf {
		n := len(w)
		if n == 0 || n > maxShape || w[0] < 'a' || w[0] > 'z' || w[n-1] < 'a' || w[n-1] > 'z' {
			continue // scanWords looks up lower-case letters only
		}
		s[n][w[0]-'a'] |= 1 << (w[n-1] - 'a')
	}
	return &s
}()

// maxShape is the longest word scanWords looks up: a joined pair of two
// words of at most 32 letters.
const maxShape = 64

// maybeWord reports whether w (lower-case letters) may be a known word;
// false means it is not.
func maybeWord(w []byte) bool {
	n := len(w)
	if n == 0 || n > maxShape {
		return false
	}
	f, l := w[0]-'a', w[n-1]-'a'
	return f < 26 && l < 26 && wordShapes[n][f]>>l&1 != 0
}

// scan looks up the words of s and their joined pairs without allocating;
// words longer than 32 bytes are skipped.
func (v *wordVerdict) scan(s string) { v.scanWords(s, nil) }

// scanGroups is scan that also returns the class groups (classGroups)
// that the words of s name, with one lookup per word.
func (v *wordVerdict) scanGroups(s string) uint32 {
	var g uint32
	v.scanWords(s, &g)
	return g
}

// wordInfo is a word's classes (classOf) and class groups (classGroupOf).
type wordInfo struct {
	cls    uint8
	groups uint32
}

var wordInfoOf = func() map[string]wordInfo {
	m := map[string]wordInfo{}
	for w, c := range classOf {
		i := m[w]
		i.cls = c
		m[w] = i
	}
	for w, g := range classGroupOf {
		i := m[w]
		i.groups = g
		m[w] = i
	}
	return m
}()

// add adds the classes that a scan found.
func (v *wordVerdict) add(w wordScan) { v.set(w.cls) }

// bits returns the classes found, as classOf bits.
func (v *wordVerdict) bits() uint8 {
	var c uint8
	if v.weak {
		c |= wordWeak
	}
	if v.strong {
		c |= wordStrong
	}
	if v.pos {
		c |= wordPositive
	}
	if v.lead {
		c |= wordLead
	}
	return c
}

func (v *wordVerdict) set(c uint8) {
	v.weak = v.weak || c&wordWeak != 0
	v.strong = v.strong || c&wordStrong != 0
	v.pos = v.pos || c&wordPositive != 0
	v.lead = v.lead || c&wordLead != 0
}

// scanWords is scan; when groups is not nil, the class groups of the
// single words are added to it.
func (v *wordVerdict) scanWords(s string, groups *uint32) {
	var buf [64]byte
	prev := 0 // length of the previous word, kept at buf[:prev]
	n := prev // buf[prev:n] is the current word
	long := false
	emit := func() {
		if n > prev && !long {
			if groups != nil {
				if w := buf[prev:n]; maybeWord(w) {
					if wi, ok := wordInfoOf[string(w)]; ok {
						v.set(wi.cls)
						*groups |= wi.groups
					}
				}
			} else {
				v.look(buf[prev:n])
			}
			if prev > 0 {
				v.look(buf[:n])
			}
			prev = copy(buf[:], buf[prev:n])
		} else {
			prev = 0
		}
		n, long = prev, false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'A' && c <= 'Z':
			if n > prev && s[i-1] >= 'a' && s[i-1] <= 'z' {
				emit()
			}
			c += 'a' - 'A'
			fallthrough
		case c >= 'a' && c <= 'z':
			if n-prev < 32 {
				buf[n] = c
				n++
			} else {
				long = true
			}
		default:
			if n > prev || long {
				emit()
			}
		}
	}
	if n > prev || long {
		emit()
	}
}

// furnitureTags are elements that normally hold page furniture; like
// boilerplate class names they are dropped unless they turn out to hold
// most of the page's text (an unclosed <header> can swallow a page).
var furnitureTags = map[atom.Atom]bool{
	atom.Nav: true, atom.Aside: true, atom.Footer: true, atom.Header: true,
}

// skipTags are elements whose content is never article text.
var skipTags = map[atom.Atom]bool{
	atom.Script: true, atom.Style: true, atom.Template: true,
	atom.Svg: true, atom.Math: true, atom.Canvas: true, atom.Iframe: true, atom.Object: true,
	atom.Embed: true, atom.Video: true, atom.Audio: true, atom.Img: true, atom.Picture: true,
	atom.Button: true, atom.Select: true, atom.Textarea: true, atom.Input: true, atom.Option: true,
	atom.Label:  true,
	atom.Figure: true, atom.Figcaption: true, atom.Dialog: true, atom.Menu: true, atom.Head: true,
	atom.Title: true, atom.Link: true, atom.Meta: true, atom.Map: true, atom.Area: true, atom.Datalist: true,
}

// furnitureRole reports an ARIA role of page furniture (navigation,
// banner ...).
func furnitureRole(n *html.Node) bool {
	r := attr(n, "role")
	return r != "" && skipRoles[strings.ToLower(strings.TrimSpace(r))]
}

// skipRoles are ARIA roles of page furniture.
var skipRoles = setOf("navigation", "banner", "contentinfo", "complementary", "dialog",
	"alertdialog", "search", "menu", "menubar", "tooltip", "toolbar")

// hideKind says whether and how an element's attributes hide it.
type hideKind uint8

const (
	shown hideKind = iota
	// hiddenByVisibility: hidden by an inline visibility:hidden and
	// nothing else (see shared.hiddenWrapper).
	hiddenByVisibility
	hiddenOutright
)

// hiding reports whether the reader sees an element, and if not, whether
// only an inline visibility:hidden hides it.
func hiding(n *html.Node) hideKind {
	kind := shown
	for _, a := range n.Attr {
		switch a.Key {
		case "hidden":
			return hiddenOutright
		case "aria-hidden":
			if strings.EqualFold(strings.TrimSpace(a.Val), "true") {
				return hiddenOutright
			}
		case "style":
			switch k := styleHiding(a.Val); k {
			case hiddenOutright:
				return k
			case hiddenByVisibility:
				kind = k
			}
		case "class":
			if hidingClass(a.Val) {
				return hiddenOutright
			}
		}
	}
	return kind
}

func styleHiding(style string) hideKind {
	if !strings.Contains(style, "none") && !strings.Contains(style, "hidden") {
		return shown
	}
	s := strings.ToLower(strings.ReplaceAll(style, " ", ""))
	switch {
	case strings.Contains(s, "display:none"):
		return hiddenOutright
	case strings.Contains(s, "visibility:hidden"):
		return hiddenByVisibility
	}
	return shown
}

// hidingClass reports a class list naming a utility class that hides the
// element outright. Compound names ("overflow-hidden") are not matched.
func hidingClass(classes string) bool {
	if !mayHide(classes) {
		return false
	}
	for _, c := range strings.Fields(classes) {
		switch strings.ToLower(c) {
		case "hidden", "hide", "sr-only", "visually-hidden", "visuallyhidden", "screen-reader-text",
			"screenreader-only", "d-none", "is-hidden", "u-hidden", "element-invisible", "offscreen":
			return true
		}
	}
	return false
}

// dropTaxonomy removes class items that name a post's categories and tags
// (WordPress writes "category-social-media tag-twitter" on the article) or
// what an element contains ("has-sidebar"), which say nothing about the
// element's own role.
func dropTaxonomy(classes string) string {
	if !strings.Contains(classes, "category-") && !strings.Contains(classes, "tag-") && !strings.Contains(classes, "has-") {
		return classes
	}
	f := strings.Fields(classes)
	out := f[:0]
	for _, c := range f {
		// "has-sidebar", "o-section--has-ads" describe what is inside.
		if strings.HasPrefix(c, "category-") || strings.HasPrefix(c, "tag-") ||
			strings.HasPrefix(c, "has-") || strings.Contains(c, "-has-") {
			continue
		}
		out = append(out, c)
	}
	return strings.Join(out, " ")
}

// mayHide reports whether s holds "hid", "Hid", "only", "none",
// "invisible", "offscreen" or "screen-reader", the parts of every hiding
// class name, in one pass.
func mayHide(s string) bool {
	for i := 0; i < len(s); i++ {
		var found bool
		switch r := s[i:]; s[i] {
		case 'h':
			found = strings.HasPrefix(r, "hid")
		case 'H':
			found = strings.HasPrefix(r, "Hid")
		case 'o':
			found = strings.HasPrefix(r, "only") || strings.HasPrefix(r, "offscreen")
		case 'n':
			found = strings.HasPrefix(r, "none")
		case 'i':
			found = strings.HasPrefix(r, "invisible")
		case 's':
			found = strings.HasPrefix(r, "screen-reader")
		}
		if found {
			return true
		}
	}
	return false
}
