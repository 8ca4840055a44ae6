package extract

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math"
	"strings"
	"sync"

	"github.com/textanalysis/go-textanalysis/extract/internal/blockmodel"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// FromHTML extracts the main text and metadata of the page read from r.
// pageURL is the page's address ("" if unknown); it becomes Page.URL and
// Page.FinalURL. The bytes may be in any charset: valid UTF-8 is taken as
// UTF-8, else a BOM or a <meta charset> in the first 64 KiB decides, else
// windows-1252. At most Options.MaxBytes are read; only that field and
// MaxNodes of opts are used. A page without an article gives a Page with
// empty Text, not an error; errors come only from reading r, from ctx
// (checked throughout, so that a deadline stops the work) and from a page
// over the work budget, which is ErrTooComplex.
func FromHTML(ctx context.Context, r io.Reader, pageURL string, opts Options) (*Page, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("extract: %w", err)
	}
	b, pooled, err := readAll(r, opts.maxBytes())
	if pooled {
		// The Page holds copies of what it keeps from the page.
		defer putBuf(b)
	}
	if err != nil {
		return nil, fmt.Errorf("extract: read html: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("extract: %w", err)
	}
	p, err := extractBytes(decodeBytes(b, ""), newWork(ctx, opts))
	if err != nil {
		return nil, err
	}
	p.URL = pageURL
	p.FinalURL = pageURL
	return p, nil
}

// readAll reads up to max bytes of r. When r knows its length
// (strings.Reader, bytes.Reader, bytes.Buffer) it reads them into a buffer
// from getBuf, and pooled says so: the caller gives it back with putBuf.
func readAll(r io.Reader, max int64) (b []byte, pooled bool, err error) {
	if l, ok := r.(interface{ Len() int }); ok {
		n := min(int64(l.Len()), max)
		b = getBuf(int(n))[:n]
		m, err := io.ReadFull(r, b)
		if err == io.ErrUnexpectedEOF || err == io.EOF {
			err = nil
		}
		return b[:m], true, err
	}
	b, err = io.ReadAll(io.LimitReader(r, max))
	return b, false, err
}

// extractBytes parses UTF-8 HTML and extracts text and metadata. Its
// errors are w's.
func extractBytes(s []byte, w *work) (*Page, error) {
	// The Page holds strings only: the tree's nodes can serve the next
	// page once this one is extracted.
	a := &arena{pooled: true}
	defer a.release()
	doc, err := parseHTMLDepth(s, 0, w, a)
	if err != nil {
		return nil, err
	}
	m := readMeta(doc)
	if err := w.check(); err != nil {
		return nil, err
	}
	res, err := mainText(doc, m.title, w)
	if err != nil {
		return nil, err
	}
	text := res.text
	warning := ""
	if res.visible < shellChars && bytes.Contains(s, []byte("<script")) {
		warning = WarningJavaScript
	}
	if text == "" && m.description != "" {
		// A page whose only text is its description (a video page, an
		// image page) is better described by it than by nothing.
		text = normalizeText(m.description)
	}
	p := &Page{
		Title:     m.title,
		Author:    m.author,
		Published: m.published,
		Language:  m.language,
		Text:      text,
		WordCount: countWords(text),
		Warning:   warning,
		PageType:  res.pageType,
	}
	if p.Language == "" {
		p.Language = detectLanguage(text)
	}
	return p, nil
}

// WarningJavaScript is Page.Warning for a page whose HTML holds (almost)
// no visible text but has scripts: a shell that a browser fills in with
// JavaScript, so that the text is empty or only the page's description.
const WarningJavaScript = "javascript_required: the page builds its content with JavaScript; its HTML holds little or no text"

// shellChars is the visible text (characters, all blocks of the body)
// under which a page with scripts is a JavaScript shell.
const shellChars = 200

// mainResult is what mainText finds.
type mainResult struct {
	text     string // blocks joined by blank lines
	visible  int    // characters of visible text in the body
	pageType string // the page type the model sees, "" without a model
}

// mainText finds the main text of doc: the learned classifier's choice
// when the model is available, else the hand rules'. Its errors are w's.
func mainText(doc *html.Node, title string, w *work) (mainResult, error) {
	var r mainResult
	body := findBody(doc)
	if body == nil {
		return r, nil
	}
	sh := newShared(w)
	defer sh.release()
	// One walk serves both: the rules' first pass is a strict view of it.
	e := newExtractionMode(body, true, nil, sh, true)
	if w.err != nil {
		return r, w.err
	}
	out, rule, top, err := ruleTextFrom(e.strictView(), body, title, sh)
	if err != nil {
		return r, err
	}
	r.text = out
	for i := range e.blocks {
		r.visible += e.blocks[i].chars
	}
	m, _ := blockmodel.Load(featureNames)
	if m == nil || len(e.blocks) == 0 {
		return r, nil
	}
	x := blockFeatures(e, rule, top, title)
	defer putFeatureBuf(x)
	if err := w.check(); err != nil {
		return r, err
	}
	nf := len(featureNames)
	rows := make([][]float32, len(e.blocks))
	for i := range rows {
		rows[i] = x[i*nf : (i+1)*nf]
	}
	probs, pageType := m.TypeProbs(blockmodel.PageVector(rows, numBase, fLogChars))
	r.pageType = pageType
	for _, row := range rows {
		for k, p := range probs {
			row[numBase+k] = float32(p)
		}
	}
	// The characters the rules kept, as the trainer computes them from the
	// page features.
	ruleChars := math.Expm1(float64(rows[0][fPageLog])) * float64(rows[0][fPageRule])
	dropT, addT, article := m.Thresholds(probs, ruleChars)
	pr := m.StackProbs(rows, fLogChars, fHeading)
	// The type models' most likely type, as the trainer's articleTop
	// reads it: an article when there are no type models.
	articleTop := len(m.Types) == 0 || pageType == m.Types[0]
	noComments := m.ArticleVetoComments && articleTop && blockmodel.BodyOutsideComments(rows, fRuleKept, fInComment)
	var parts []string
	for i, row := range rows {
		if m.Keep(pr[i], dropT, addT, row[fRuleKept] == 1, row[fRuleFilter] == 1,
			row[fBoilerplate] == 1 || row[fCallToAction] == 1 || row[fPictureCredit] == 1 || row[fSameTitle] == 1,
			article && row[fDropped] == 1, noComments && row[fInComment] > 0, row[fWindow10], row[fInTop], row[fPageRule]) {
			parts = append(parts, e.blocks[i].text)
		}
		if w.step() != nil {
			return r, w.err
		}
	}
	r.text = strings.Join(parts, "\n\n")
	return r, w.check()
}

// featureBufs holds the feature matrices of extracted pages (tens of
// kilobytes each) for the next pages.
var featureBufs sync.Pool // of *[]float32

// featureBuf returns n zero features, from the pool when it has room.
func featureBuf(n int) []float32 {
	if p, ok := featureBufs.Get().(*[]float32); ok && cap(*p) >= n {
		b := (*p)[:n]
		clear(b)
		return b
	}
	return make([]float32, n)
}

// putFeatureBuf gives x back to the pool; nothing may use x afterwards.
func putFeatureBuf(x []float32) {
	if cap(x) == 0 || cap(x) > maxPooledBuf/4 {
		return
	}
	featureBufs.Put(&x)
}

// clsKey is an element's parent, tag and class, for counting siblings
// with the same tag and class.
type clsKey struct {
	parent *html.Node
	tag    atom.Atom
	class  string
}

// Pools of blockFeatures' per-page tables: node contexts and the counts of
// siblings by tag and class.
var nodeCtxBufs, sameClsMaps sync.Pool // of *[]nodeCtx, map[clsKey]int32

// nodeCtxBuf returns n zero node contexts, from the pool when it has room.
func nodeCtxBuf(n int) []nodeCtx {
	if p, ok := nodeCtxBufs.Get().(*[]nodeCtx); ok && cap(*p) >= n {
		b := (*p)[:n]
		clear(b)
		return b
	}
	return make([]nodeCtx, n)
}

// putNodeCtxs gives b back to the pool; nothing may use b afterwards.
func putNodeCtxs(b []nodeCtx) {
	if cap(b) > 0 && cap(b) <= maxPooledBuf/64 {
		nodeCtxBufs.Put(&b)
	}
}

// sameClsMap returns an empty map, from the pool when it has one.
func sameClsMap() map[clsKey]int32 {
	if m, ok := sameClsMaps.Get().(map[clsKey]int32); ok {
		return m
	}
	return map[clsKey]int32{}
}

// putSameCls empties m and gives it back to the pool; nothing may use m
// afterwards.
func putSameCls(m map[clsKey]int32) {
	if len(m) > maxPooledEntries {
		return // as shared.release: clearing a huge map would cost every later page
	}
	clear(m)
	sameClsMaps.Put(m)
}

// ruleText is the hand rules' main text of the page, the blocks it holds
// and the container they were found in. Its errors are w's.
func ruleText(body *html.Node, title string, sh *shared) (string, []*block, *html.Node, error) {
	e := newExtraction(body, true, nil, sh)
	if sh.w.err != nil {
		return "", nil, nil, sh.w.err
	}
	return ruleTextFrom(e, body, title, sh)
}

// ruleTextFrom is ruleText from its first, strict pass e.
func ruleTextFrom(e *extraction, body *html.Node, title string, sh *shared) (string, []*block, *html.Node, error) {
	w := sh.w
	out := e.text(title)
	chosen, top := e.chosen, e.top
	if len(out) < 500 {
		// Class names hid (nearly) everything: a comments-only page, or a
		// site that names its article wrapper like a sidebar. Find the
		// article without that rule; then apply it again everywhere but
		// on the article's ancestors, so that the captions, share boxes
		// and related links inside the article still go.
		e2 := newExtraction(body, false, nil, sh)
		if w.err != nil {
			return "", nil, nil, w.err
		}
		if out2 := e2.text(title); len(out2) > len(out)+len(out)/2 {
			out, chosen, top = out2, e2.chosen, e2.top
			if e2.top != nil {
				trusted := map[*html.Node]bool{}
				for n := e2.top; n != nil && n != body; n = n.Parent {
					trusted[n] = true
				}
				e3 := newExtraction(body, true, trusted, sh)
				if w.err != nil {
					return "", nil, nil, w.err
				}
				if out3 := e3.text(title); len(out3)*2 > len(out2) {
					out, chosen, top = out3, e3.chosen, e3.top
				}
			}
		}
	}
	return out, chosen, top, w.check()
}

func findBody(n *html.Node) *html.Node {
	if n.Type == html.ElementNode && n.DataAtom == atom.Body {
		return n
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if b := findBody(c); b != nil {
			return b
		}
	}
	return nil
}
