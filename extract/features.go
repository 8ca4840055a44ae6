package extract

import (
	"math"
	"slices"

	"github.com/textanalysis/go-textanalysis/extract/internal/blockmodel"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// The learned classifier sees every block of the page (an all-mode
// extraction) through the features below. Names and order are the
// model's contract: blockmodel.Load checks them.

// Element flags inherited by every block below the element.
const (
	inNav = 1 << iota
	inAside
	inFooter
	inHeader
	inMain
	inArticle
	inForm
	inLi
	inTable
	inQuote
	inRole
	inTop    // the container the rules chose
	inPre    // preformatted text (code)
	inDl     // a definition list
	inLead   // a class naming a lead
	inBodyIP // itemprop articleBody
	numFlags = iota
)

var flagNames = []string{"in_nav", "in_aside", "in_footer", "in_header", "in_main", "in_article", "in_form",
	"in_li", "in_table", "in_quote", "in_role", "in_top", "in_pre", "in_dl", "in_lead", "in_articlebody"}

// Groups of class and id words; a block gets, per group, how many of its
// ancestors name one.
var classGroups = []struct {
	name  string
	words []string
}{
	{"comment", []string{"comment", "comments", "commentlist", "disqus", "respond", "replies", "reply", "discussion"}},
	{"social", []string{"share", "shares", "sharing", "sharebar", "social", "sociallinks", "socials", "follow"}},
	{"related", []string{"related", "recommended", "recommendations", "recommendation", "outbrain", "taboola", "trending", "popular", "mostread", "more", "readmore"}},
	{"nav", []string{"nav", "navbar", "navigation", "menu", "breadcrumb", "breadcrumbs", "pagination", "pager", "toc", "skiplink"}},
	{"sidebar", []string{"sidebar", "aside", "widget", "widgets", "rail", "supplemental", "extra"}},
	{"footer", []string{"footer", "copyright", "legal", "bottom"}},
	{"header", []string{"header", "masthead", "banner", "topbar", "hero", "title", "heading", "headline"}},
	{"ad", []string{"ad", "ads", "advert", "adverts", "advertisement", "advertising", "adsense", "dfp", "sponsor", "sponsored", "promo", "promotion"}},
	{"meta", []string{"meta", "metadata", "byline", "dateline", "timestamp", "author", "date", "time", "tags", "tagcloud", "categories", "topics", "info"}},
	{"caption", []string{"caption", "credit", "credits", "figure", "figcaption", "gallery", "slideshow", "carousel", "video", "player", "image", "img", "photo", "thumbnail", "thumb"}},
	{"popup", []string{"cookie", "cookies", "consent", "gdpr", "popup", "modal", "newsletter", "subscribe", "subscription", "signup", "login", "signin", "form", "search"}},
	{"content", []string{"article", "articles", "body", "content", "contents", "entry", "main", "page", "text", "blog", "story", "prose", "richtext", "articlebody", "postbody", "maincontent", "storybody", "single", "markdown", "rte", "wysiwyg"}},
	{"product", []string{"product", "price", "description", "detail", "details", "spec", "specs", "specification", "specifications", "features", "feature", "summary", "overview"}},
	{"list", []string{"list", "item", "items", "card", "cards", "grid", "tile", "tiles", "results", "result", "listing", "collection", "row", "col", "column"}},
	{"forum", []string{"post", "posts", "message", "messages", "thread", "topic", "forum", "answer", "answers", "question", "bbcode", "quote"}},
	{"docs", []string{"doc", "docs", "documentation", "api", "code", "highlight", "section", "sect", "refsect", "chapter"}},
}

var classGroupOf = func() map[string]uint32 {
	m := map[string]uint32{}
	for g, cg := range classGroups {
		for _, w := range cg.words {
			m[w] |= 1 << g
		}
	}
	return m
}()

// nodeCtx is what a block inherits from its ancestors.
type nodeCtx struct {
	flags    uint32
	groups   [16]uint8 // ancestors naming each class group (capped)
	strong   uint8     // ancestors whose class the rules call boilerplate
	pos      uint8     // ancestors with a positive class word
	depth    uint16
	nChild   int32 // element children (entered by the walk)
	sameCls  int32 // siblings (children of the parent) with the same tag and class
	ancRep   int32 // the most sameCls of the element and its ancestors (repeated cards)
	dropDist uint16
}

// Indexes of features that decoding looks at.
var (
	fRuleKept      = featureIndex("rule_kept")
	fLogChars      = featureIndex("log_chars")
	fHeading       = featureIndex("heading_level")
	fDropped       = featureIndex("dropped")
	fInComment     = featureIndex("cls_comment")
	fBoilerplate   = featureIndex("boilerplate_line")
	fCallToAction  = featureIndex("call_to_action")
	fPictureCredit = featureIndex("picture_credit")
	fSameTitle     = featureIndex("same_title")
	fRuleFilter    = featureIndex("rule_filter")
	fWindow10      = featureIndex("rule_window10")
	fInTop         = featureIndex("in_top")
	fPageRule      = featureIndex("page_rule_share")
	fPageLog       = featureIndex("page_log_chars")
)

func featureIndex(name string) int {
	for i, n := range featureNames {
		if n == name {
			return i
		}
	}
	panic("extract: no feature " + name)
}

// featureNames lists the features, in order.
var featureNames = func() []string {
	n := []string{"log_chars", "link_density", "commas_per_word", "heading_level", "tag", "depth", "dropped", "rule_kept",
		"pos_block", "pos_chars", "strong_anc", "pos_anc",
		"parent_share", "parent_links", "gparent_share", "gparent_links", "ggparent_share", "ggparent_links",
		"log_parent_children", "log_same_class",
		"ends_sentence", "digit_share", "letter_share", "log_words", "mean_word_len", "boilerplate_line", "call_to_action",
		"picture_credit", "same_title", "starts_upper", "separators", "upper_share", "question",
		"prev_log_chars", "prev_links", "prev_rule", "next_log_chars", "next_links", "next_rule",
		"rule_window3", "rule_window10", "links_window3", "heading_next_rule",
		"page_log_chars", "page_log_blocks", "page_rule_share", "page_links", "page_rule_blocks",
		"top_share", "depth_vs_top", "rule_filter",
		"h1_before", "log_anc_repeat", "price", "parent_rule_share", "gparent_rule_share", "section_rule",
		"page_pre_share", "page_table_share", "page_li_share", "page_log_headings", "page_repeat_share", "page_form_share",
		"hsec_level", "hsec_log_chars", "hsec_log_blocks", "hsec_rule", "hsec_links",
		"dense_ratio", "dense_dist", "sib_log_count", "sib_log_chars", "intro_colon", "near_pre",
		"chars_window3", "chars_window10",
		"main_before", "main_after", "gap_prev_main", "gap_next_main"}
	n = append(n, flagNames...)
	for _, g := range classGroups {
		n = append(n, "cls_"+g.name)
	}
	numBase = len(n)
	for _, t := range blockmodel.PageTypes {
		n = append(n, "type_"+t)
	}
	return n
}()

// numBase is the number of block features proper; the last features of a
// row are the page-type probabilities (blockmodel.PageTypes order), which
// the page-type models compute from the block features.
var numBase int

// blockFeatures computes the feature vectors of the blocks of an all-mode
// extraction e; rule are the blocks the hand rules chose (from any pass:
// they are matched by owner and text) and top their container. The
// result is one row of len(featureNames) per block, in one slice. The
// cost is linear in the page: ancestors are summed top-down once.
func blockFeatures(e *extraction, rule []*block, top *html.Node, title string) []float32 {
	nf := len(featureNames)
	nb := len(e.blocks)
	out := featureBuf(nb * nf)
	if nb == 0 {
		return out
	}
	// Inherited context, parents before children (e.order).
	// e.order lists parents before children, in document order, so the
	// open ancestors are a stack: a node's parent is found without a map.
	// Only the blocks' owners need finding by node.
	ctxs := nodeCtxBuf(len(e.order))
	defer putNodeCtxs(ctxs)
	parent := make([]int32, len(e.order)) // index in e.order of the parent, or -1
	ownerAt := make(map[*html.Node]int32, nb)
	for i := range e.blocks {
		ownerAt[e.blocks[i].owner] = -1
	}
	topAt := int32(-1)
	var byNode map[*html.Node]int32 // made only if the stack misses
	stack := make([]int32, 0, 64)
	sameCls := sameClsMap()
	defer putSameCls(sameCls)
	for i, n := range e.order {
		c := &ctxs[i]
		pi := int32(-1)
		if n != e.body {
			for len(stack) > 0 && e.order[stack[len(stack)-1]] != n.Parent {
				stack = stack[:len(stack)-1]
			}
			if len(stack) > 0 {
				pi = stack[len(stack)-1]
			} else if i > 0 {
				if byNode == nil {
					byNode = make(map[*html.Node]int32, len(e.order))
					for j, m := range e.order[:i] {
						byNode[m] = int32(j)
					}
				}
				if j, ok := byNode[n.Parent]; ok {
					pi = j
				}
			}
		}
		if byNode != nil {
			byNode[n] = int32(i)
		}
		stack = append(stack, int32(i))
		parent[i] = pi
		if _, ok := ownerAt[n]; ok {
			ownerAt[n] = int32(i)
		}
		if n == top {
			topAt = int32(i)
		}
		if pi >= 0 {
			p := &ctxs[pi]
			*c = *p
			c.depth++
			c.nChild, c.sameCls = 0, 0
			p.nChild++
			if c.dropDist < 1000 {
				c.dropDist++
			}
		} else {
			c.dropDist = 1000
		}
		switch n.DataAtom {
		case atom.Nav:
			c.flags |= inNav
		case atom.Aside:
			c.flags |= inAside
		case atom.Footer:
			c.flags |= inFooter
		case atom.Header:
			c.flags |= inHeader
		case atom.Main:
			c.flags |= inMain
		case atom.Article:
			c.flags |= inArticle
		case atom.Form:
			c.flags |= inForm
		case atom.Li:
			c.flags |= inLi
		case atom.Table:
			c.flags |= inTable
		case atom.Blockquote:
			c.flags |= inQuote
		case atom.Pre, atom.Code:
			c.flags |= inPre
		case atom.Dl:
			c.flags |= inDl
		}
		if n == top {
			c.flags |= inTop
		}
		if len(n.Attr) == 0 {
			continue
		}
		if furnitureRole(n) {
			c.flags |= inRole
		}
		var v wordVerdict
		var groups uint32
		class := ""
		for _, a := range n.Attr {
			switch {
			case a.Namespace != "":
			case a.Key == "class" || a.Key == "id":
				if a.Key == "class" {
					class = a.Val
				}
				groups |= e.sh.words.scanGroups(&v, a.Val)
			case a.Key == "itemprop" && strings.Contains(a.Val, "articleBody"):
				c.flags |= inBodyIP
			}
		}
		if v.strong || v.weak && !v.pos {
			c.strong = min(c.strong+1, 20)
			c.dropDist = 0
		}
		if v.pos {
			c.pos = min(c.pos+1, 20)
		}
		if v.lead {
			c.flags |= inLead
		}
		for g := range classGroups {
			if groups&(1<<g) != 0 && c.groups[g] < 20 {
				c.groups[g]++
			}
		}
		if class != "" && n.Parent != nil {
			sameCls[clsKey{n.Parent, n.DataAtom, class}]++
		}
	}
	for i, n := range e.order {
		c := &ctxs[i]
		if n.Parent != nil && len(n.Attr) > 0 {
			if class := attr(n, "class"); class != "" {
				c.sameCls = sameCls[clsKey{n.Parent, n.DataAtom, class}]
			}
		}
		c.ancRep = c.sameCls
		if pi := parent[i]; pi >= 0 {
			c.ancRep = max(c.ancRep, ctxs[pi].ancRep)
		}
	}

	// Which blocks the rules kept.
	// (Keyed by owner, texts compared on a hit: hashing every block's
	// text would cost more.)
	kept := make(map[*html.Node][]string, len(rule))
	ruleChars := 0
	for _, b := range rule {
		kept[b.owner] = append(kept[b.owner], b.text)
		ruleChars += b.chars
	}
	isRule := make([]float32, nb)
	total, links := 0, 0
	// Characters the rules kept below each element (index in e.order),
	// summed bottom-up; page-wide shares of text by context.
	ruleBelow := make([]int32, len(e.order))
	preChars, tableChars, liChars, formChars, repChars, headings := 0, 0, 0, 0, 0, 0
	h1At := nb
	for i := range e.blocks {
		b := &e.blocks[i]
		if texts, ok := kept[b.owner]; ok && slices.Contains(texts, b.text) {
			isRule[i] = 1
			if oi := ownerAt[b.owner]; oi >= 0 {
				ruleBelow[oi] += int32(b.chars)
			}
		}
		total += b.chars
		links += b.linkChars
		if b.heading {
			headings++
		}
		if b.owner.DataAtom == atom.H1 && h1At == nb {
			h1At = i
		}
		if oi := ownerAt[b.owner]; oi >= 0 {
			c := &ctxs[oi]
			if c.flags&inPre != 0 {
				preChars += b.chars
			}
			if c.flags&inTable != 0 {
				tableChars += b.chars
			}
			if c.flags&inLi != 0 {
				liChars += b.chars
			}
			if c.flags&inForm != 0 {
				formChars += b.chars
			}
			if c.ancRep >= 3 {
				repChars += b.chars
			}
		}
	}
	for i := len(e.order) - 1; i > 0; i-- {
		if pi := parent[i]; pi >= 0 {
			ruleBelow[pi] += ruleBelow[i]
		}
	}
	ruleShareAt := func(i int32) float32 {
		if i < 0 {
			return 0
		}
		st := e.stats[e.order[i]]
		if st == nil || st.chars == 0 {
			return 0
		}
		return min(float32(ruleBelow[i])/float32(st.chars), 1)
	}
	// The rules' share of the blocks of each heading's section (from a
	// heading to the next).
	sectionRule := make([]float32, nb)
	for lo := 0; lo < nb; {
		hi := lo + 1
		for hi < nb && !e.blocks[hi].heading {
			hi++
		}
		var s float32
		for j := lo; j < hi; j++ {
			s += isRule[j]
		}
		for j := lo; j < hi; j++ {
			sectionRule[j] = s / float32(hi-lo)
		}
		lo = hi
	}
	ctx := docContext(e, ctxs, ownerAt, isRule)
	ft := float64(max(total, 1))
	topChars, topDepth := 0.0, 0.0
	if top != nil {
		if st := e.stats[top]; st != nil {
			topChars = float64(st.chars)
		}
		if topAt >= 0 {
			topDepth = float64(ctxs[topAt].depth)
		}
	}
	// Prefix sums for the windows.
	ruleSum := make([]float32, nb+1)
	linkSum := make([]float64, nb+1)
	for i := range e.blocks {
		ruleSum[i+1] = ruleSum[i] + isRule[i]
		linkSum[i+1] = linkSum[i] + float64(e.blocks[i].linkChars)/float64(max(e.blocks[i].chars, 1))
	}
	window := func(s []float32, i, w int) float32 {
		lo, hi := max(0, i-w), min(nb, i+w+1)
		return (s[hi] - s[lo]) / float32(hi-lo)
	}
	share := func(n *html.Node) (float32, float32) {
		if n == nil {
			return 0, 0
		}
		st := e.stats[n]
		if st == nil || st.chars == 0 {
			return 0, 0
		}
		return float32(float64(st.chars) / ft), float32(linkDensity(st))
	}
	logc := func(n int) float32 { return float32(math.Log1p(float64(n))) }
	pageLog := logc(total)
	pageBlocks := logc(nb)
	pageRule := float32(float64(ruleChars) / ft)
	pageLinks := float32(float64(links) / ft)
	pageRuleBlocks := logc(len(rule))
	before := 0
	for i := range e.blocks {
		b := &e.blocks[i]
		x := out[i*nf : (i+1)*nf]
		c := &nodeCtx{}
		oi, ok := ownerAt[b.owner]
		if ok && oi >= 0 {
			c = &ctxs[oi]
		}
		ld := float32(b.linkChars) / float32(max(b.chars, 1))
		st := textStats(b.text)
		k := 0
		put := func(v float32) { x[k] = v; k++ }
		put(logc(b.chars))
		put(ld)
		put(float32(b.commas) / float32(max(st.words, 1)))
		put(float32(headingLevel(b.owner.DataAtom)))
		put(float32(tagCode(b.owner.DataAtom)))
		put(float32(c.depth))
		put(b2f(b.dropped))
		put(isRule[i])
		put(float32(i) / float32(nb))
		put(float32(float64(before) / ft))
		put(float32(c.strong))
		put(float32(c.pos))
		p := b.owner.Parent
		if b.owner == e.body {
			p = nil
		}
		s, l := share(p)
		put(s)
		put(l)
		var gp, ggp *html.Node
		if p != nil && p != e.body {
			gp = p.Parent
			if gp != nil && gp != e.body {
				ggp = gp.Parent
			}
		}
		s, l = share(gp)
		put(s)
		put(l)
		s, l = share(ggp)
		put(s)
		put(l)
		if ok && oi >= 0 && p != nil && parent[oi] >= 0 {
			put(logc(int(ctxs[parent[oi]].nChild)))
		} else {
			put(0)
		}
		put(logc(int(c.sameCls)))
		put(b2f(st.endsSentence))
		put(float32(st.digits) / float32(max(st.runes, 1)))
		put(float32(st.letters) / float32(max(st.runes, 1)))
		put(logc(st.words))
		put(float32(st.letters) / float32(max(st.words, 1)))
		short := b.chars < 300
		lower := ""
		if short {
			lower = strings.ToLower(b.text)
		}
		bp := b.chars < 120 && boilerplateLine(b.text)
		cta := short && callToAction(lower)
		pc := short && pictureCredit(lower)
		put(b2f(bp))
		put(b2f(cta))
		put(b2f(pc))
		put(b2f(title != "" && short && (sameText(b.text, title) || strings.Contains(title, b.text) && b.chars > 15)))
		put(b2f(st.startsUpper))
		put(float32(st.separators))
		put(float32(st.upper) / float32(max(st.letters, 1)))
		put(b2f(st.question))
		if i > 0 {
			pb := &e.blocks[i-1]
			put(logc(pb.chars))
			put(float32(pb.linkChars) / float32(max(pb.chars, 1)))
			put(isRule[i-1])
		} else {
			put(0)
			put(0)
			put(0)
		}
		if i+1 < nb {
			nb1 := &e.blocks[i+1]
			put(logc(nb1.chars))
			put(float32(nb1.linkChars) / float32(max(nb1.chars, 1)))
			put(isRule[i+1])
		} else {
			put(0)
			put(0)
			put(0)
		}
		put(window(ruleSum, i, 3))
		put(window(ruleSum, i, 10))
		lo, hi := max(0, i-3), min(nb, i+4)
		put(float32((linkSum[hi] - linkSum[lo]) / float64(hi-lo)))
		// A heading followed by kept text heads a kept section.
		hn := float32(0)
		if b.heading {
			for j := i + 1; j < nb && j <= i+3; j++ {
				if !e.blocks[j].heading {
					hn = isRule[j]
					break
				}
			}
		}
		put(hn)
		put(pageLog)
		put(pageBlocks)
		put(pageRule)
		put(pageLinks)
		put(pageRuleBlocks)
		put(float32(topChars / ft))
		put(float32(float64(c.depth) - topDepth))
		// keepBlock's verdict, from the tests already made above.
		ldf := float64(b.linkChars) / float64(b.chars)
		ruleDrop := b.owner.DataAtom == atom.H1 || ldf > 0.8 || ldf > 0.5 && b.chars < linkLongBlock ||
			title != "" && b.chars < 300 && sameText(b.text, title) || bp ||
			b.chars < 40 && float64(st.letters)/float64(max(st.runes, 1)) < 0.5 ||
			short && (creditLine(lower) || b.chars < 200 && pc || b.chars < 250 && cta)
		put(b2f(ruleDrop))
		put(b2f(i >= h1At))
		put(logc(int(c.ancRep)))
		put(b2f(hasPrice(b.text)))
		pi, gpi := int32(-1), int32(-1)
		if ok && oi >= 0 {
			pi = parent[oi]
			if pi >= 0 {
				gpi = parent[pi]
			}
		}
		put(ruleShareAt(pi))
		put(ruleShareAt(gpi))
		put(sectionRule[i])
		put(float32(float64(preChars) / ft))
		put(float32(float64(tableChars) / ft))
		put(float32(float64(liChars) / ft))
		put(logc(headings))
		put(float32(float64(repChars) / ft))
		put(float32(float64(formChars) / ft))
		ctx.put(i, put)
		for f := 0; f < numFlags; f++ {
			put(b2f(c.flags&(1<<f) != 0))
		}
		for g := range classGroups {
			put(float32(c.groups[g]))
		}
		// The page-type probabilities come later (setTypes).
		before += b.chars
	}
	return out
}

// docCtx holds the features that read a block's surroundings beyond its
// neighbours: the heading section it is in, where the page's densest
// text is, the blocks of the same tag under the same parent (list items,
// paragraphs, cells), a list or table introduced by a line ending in a
// colon, and code nearby. Documentation pages spread their text over
// such blocks, each short or link-heavy on its own.
type docCtx struct {
	nb int
	// Prefix sums over blocks: characters, the rules' characters, link
	// characters, log characters.
	chars, ruleChars, linkChars []int32
	logSum                      []float32
	secLo, secHi                []int32 // the block's heading section, [lo, hi)
	secLevel                    []uint8
	win                         []int32 // characters within denseW blocks
	maxWin                      int32
	argWin                      int
	sibN, sibChars              []int32
	intro, nearPre              []bool
	// The main text's long paragraphs (mainPara): prefix sums of their
	// characters, and the nearest one before and after each block (-1,
	// nb: none). Furniture sits after the last of them or between
	// teasers, whatever the page's language.
	mainChars          []int32
	prevMain, nextMain []int32
}

// mainPara is the length from which a block with little link text counts
// as a paragraph of running text.
const mainPara = 200

// denseW is the half-width of the window that finds the densest text.
const denseW = 5

func docContext(e *extraction, ctxs []nodeCtx, ownerAt map[*html.Node]int32, isRule []float32) *docCtx {
	nb := len(e.blocks)
	d := &docCtx{nb: nb,
		chars: make([]int32, nb+1), ruleChars: make([]int32, nb+1), linkChars: make([]int32, nb+1), logSum: make([]float32, nb+1),
		secLo: make([]int32, nb), secHi: make([]int32, nb), secLevel: make([]uint8, nb), win: make([]int32, nb),
		sibN: make([]int32, nb), sibChars: make([]int32, nb), intro: make([]bool, nb), nearPre: make([]bool, nb),
		mainChars: make([]int32, nb+1), prevMain: make([]int32, nb), nextMain: make([]int32, nb)}
	isMain := func(b *block) bool { return b.chars >= mainPara && b.linkChars*10 < b.chars*3 }
	level := func(b *block) uint8 {
		if !b.heading {
			return 0
		}
		if l := headingLevel(b.owner.DataAtom); l > 0 {
			return uint8(l)
		}
		return 6
	}
	// A heading's section runs to the next heading of the same or a
	// higher level (a stack of the open headings); a block's section is
	// its nearest heading's, or the text before the first heading.
	secEnd := make([]int32, nb)
	open := make([]int32, 0, 8)
	type sibKey struct {
		parent *html.Node
		tag    atom.Atom
	}
	type sibAcc struct{ n, chars int32 }
	sibs := make(map[sibKey]sibAcc, nb)
	preAt := make([]bool, nb)
	firstHeading := int32(nb)
	for i := range e.blocks {
		b := &e.blocks[i]
		d.chars[i+1] = d.chars[i] + int32(b.chars)
		d.ruleChars[i+1] = d.ruleChars[i] + int32(isRule[i]*float32(b.chars))
		d.linkChars[i+1] = d.linkChars[i] + int32(b.linkChars)
		d.logSum[i+1] = d.logSum[i] + float32(math.Log1p(float64(b.chars)))
		d.mainChars[i+1] = d.mainChars[i]
		if isMain(b) {
			d.mainChars[i+1] += int32(b.chars)
		}
		if lv := level(b); lv > 0 {
			for len(open) > 0 && d.secLevel[open[len(open)-1]] >= lv {
				secEnd[open[len(open)-1]] = int32(i)
				open = open[:len(open)-1]
			}
			open = append(open, int32(i))
			d.secLevel[i] = lv
			firstHeading = min(firstHeading, int32(i))
		}
		k := sibKey{b.owner.Parent, b.owner.DataAtom}
		a := sibs[k]
		sibs[k] = sibAcc{a.n + 1, a.chars + int32(b.chars)}
		if oi := ownerAt[b.owner]; oi >= 0 {
			preAt[i] = ctxs[oi].flags&inPre != 0
		}
		// A list or table after a line ending in a colon: the line
		// introduces it, and the items after the first inherit that
		// while they share their parent and tag.
		if i > 0 {
			pb := &e.blocks[i-1]
			t := strings.TrimRight(pb.text, " \t\n")
			d.intro[i] = strings.HasSuffix(t, ":") || strings.HasSuffix(t, "：") ||
				d.intro[i-1] && pb.owner.Parent == b.owner.Parent && pb.owner.DataAtom == b.owner.DataAtom
		}
	}
	for _, h := range open {
		secEnd[h] = int32(nb)
	}
	prev, next := int32(-1), int32(nb)
	for i := range e.blocks {
		d.prevMain[i] = prev
		if isMain(&e.blocks[i]) {
			prev = int32(i)
		}
		j := nb - 1 - i
		d.nextMain[j] = next
		if isMain(&e.blocks[j]) {
			next = int32(j)
		}
	}
	last := int32(-1)
	for i := range e.blocks {
		if d.secLevel[i] > 0 {
			last = int32(i)
		}
		if last >= 0 {
			d.secLo[i], d.secHi[i] = last, secEnd[last]
			d.secLevel[i] = d.secLevel[last]
		} else {
			d.secLo[i], d.secHi[i] = 0, firstHeading
		}
		b := &e.blocks[i]
		a := sibs[sibKey{b.owner.Parent, b.owner.DataAtom}]
		d.sibN[i], d.sibChars[i] = a.n, a.chars
		lo, hi := max(0, i-denseW), min(nb, i+denseW+1)
		d.win[i] = d.chars[hi] - d.chars[lo]
		if d.win[i] > d.maxWin {
			d.maxWin, d.argWin = d.win[i], i
		}
		for j := max(0, i-2); j < min(nb, i+3); j++ {
			if j != i && preAt[j] {
				d.nearPre[i] = true
				break
			}
		}
	}
	return d
}

// put writes block i's features, in featureNames order.
func (d *docCtx) put(i int, put func(float32)) {
	logc := func(n int32) float32 { return float32(math.Log1p(float64(n))) }
	lo, hi := d.secLo[i], d.secHi[i]
	sc := d.chars[hi] - d.chars[lo]
	put(float32(d.secLevel[i]))
	put(logc(sc))
	put(logc(hi - lo))
	put(float32(d.ruleChars[hi]-d.ruleChars[lo]) / float32(max(sc, 1)))
	put(min(float32(d.linkChars[hi]-d.linkChars[lo])/float32(max(sc, 1)), 1))
	put(float32(d.win[i]) / float32(max(d.maxWin, 1)))
	put(float32(i-d.argWin) / float32(d.nb))
	put(logc(d.sibN[i]))
	put(logc(d.sibChars[i] / max(d.sibN[i], 1)))
	put(b2f(d.intro[i]))
	put(b2f(d.nearPre[i]))
	for _, w := range []int{3, 10} {
		lo, hi := max(0, i-w), min(d.nb, i+w+1)
		put((d.logSum[hi] - d.logSum[lo]) / float32(hi-lo))
	}
	put(logc(d.mainChars[i]))
	put(logc(d.mainChars[d.nb] - d.mainChars[i+1]))
	// Characters between the nearest long paragraph and the block (-1: none).
	if p := d.prevMain[i]; p >= 0 {
		put(logc(d.chars[i] - d.chars[p+1]))
	} else {
		put(-1)
	}
	if n := d.nextMain[i]; n < int32(d.nb) {
		put(logc(d.chars[n] - d.chars[i+1]))
	} else {
		put(-1)
	}
}

func b2f(b bool) float32 {
	if b {
		return 1
	}
	return 0
}

func headingLevel(a atom.Atom) int {
	switch a {
	case atom.H1:
		return 1
	case atom.H2:
		return 2
	case atom.H3:
		return 3
	case atom.H4:
		return 4
	case atom.H5:
		return 5
	case atom.H6:
		return 6
	}
	return 0
}

func tagCode(a atom.Atom) int {
	switch a {
	case atom.P:
		return 1
	case atom.Li:
		return 2
	case atom.Td, atom.Th, atom.Tr, atom.Table, atom.Tbody, atom.Thead, atom.Tfoot, atom.Caption:
		return 3
	case atom.Div:
		return 4
	case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
		return 5
	case atom.Pre:
		return 6
	case atom.Blockquote:
		return 7
	case atom.Dt, atom.Dd, atom.Dl:
		return 8
	case atom.Section, atom.Article, atom.Main:
		return 9
	case atom.Body:
		return 11
	case atom.Ul, atom.Ol:
		return 12
	case atom.Form, atom.Fieldset, atom.Legend:
		return 13
	case atom.Summary, atom.Details:
		return 14
	}
	return 10
}

// blockText are character counts of a block's text.
type blockText struct {
	runes, letters, digits, upper, words, separators int
	endsSentence, startsUpper, question              bool
}

func textStats(s string) blockText {
	var t blockText
	in := false
	first := true
	for _, r := range s {
		// ASCII is most text: classify it without the Unicode tables.
		var space, letter, upper, digit bool
		if r < utf8.RuneSelf {
			space = r == ' ' || r >= '\t' && r <= '\r'
			upper = r >= 'A' && r <= 'Z'
			letter = upper || r >= 'a' && r <= 'z'
			digit = r >= '0' && r <= '9'
		} else {
			space = unicode.IsSpace(r)
			letter = unicode.IsLetter(r)
			upper = unicode.IsUpper(r)
			digit = unicode.IsDigit(r)
		}
		if space {
			in = false
			continue
		}
		t.runes++
		switch {
		case letter:
			t.letters++
			if first {
				t.startsUpper = upper
			}
			if upper {
				t.upper++
			}
			if !in {
				t.words++
				in = true
			}
		case digit:
			t.digits++
			if !in {
				t.words++
				in = true
			}
		case r == '|' || r == '·' || r == '•' || r == '»' || r == '›' || r == '/':
			t.separators++
			in = false
		default:
			in = false
		}
		first = false
	}
	r, _ := utf8.DecodeLastRuneInString(strings.TrimRight(s, " )\"'”’»"))
	t.endsSentence = strings.ContainsRune(".!?…:。！？", r)
	t.question = r == '?'
	return t
}

// hasPrice reports whether s holds an amount of money: a currency sign
// next to a digit.
func hasPrice(s string) bool {
	for i := 0; i < len(s); {
		j := indexCurrency(s[i:])
		if j < 0 {
			return false
		}
		j += i
		_, size := utf8.DecodeRuneInString(s[j:])
		next := j + size
		for next < len(s) && s[next] == ' ' {
			next++
		}
		if next < len(s) && s[next] >= '0' && s[next] <= '9' ||
			j > 0 && s[j-1] >= '0' && s[j-1] <= '9' || j > 1 && s[j-1] == ' ' && s[j-2] >= '0' && s[j-2] <= '9' {
			return true
		}
		i = next
	}
	return false
}
