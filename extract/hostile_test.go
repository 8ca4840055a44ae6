package extract

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/net/html"
)

// TestHostilePages feeds shapes that make naive extractors quadratic or
// deeply recursive. They must finish (quickly: the whole test takes well
// under a second) and stay deterministic.
func TestHostilePages(t *testing.T) {
	para := "<p>Some words, with commas, make this a paragraph of reasonable length for scoring.</p>"
	tests := map[string]string{
		"many siblings":    "<div>" + strings.Repeat("<div>"+para+"</div>", 3000) + "</div>",
		"deep nesting":     strings.Repeat("<div><span>", 20000) + para,
		"many line breaks": "<p>" + strings.Repeat("word <br> ", 20000) + "</p>",
		"long attribute":   `<div class="` + strings.Repeat("a-", 200000) + `">` + para + "</div>",
		"many classes":     strings.Repeat(`<div class="comment share related sidebar">`+para+"</div>", 2000),
		"unclosed tags":    strings.Repeat("<p><b><i><a href=x>", 5000) + para,
		"many headers":     strings.Repeat("<header><header><p>"+strings.Repeat("x", 120)+"</p>", 500),
		"many scripts":     strings.Repeat("<script>var a = 1;</script><!-- c --><svg><path/></svg>", 5000) + para,
	}
	for _, shape := range hostileShapes {
		tests[shape.name] = shape.build(256 << 10)
	}
	for name, page := range tests {
		t.Run(name, func(t *testing.T) {
			p1, err := FromHTML(t.Context(), strings.NewReader(page), "", Options{})
			require.NoError(t, err)
			p2, err := FromHTML(t.Context(), strings.NewReader(page), "", Options{})
			require.NoError(t, err)
			assert.Equal(t, p1, p2, "extraction must be deterministic")
		})
	}
}

// TestDeepNesting nests many kinds of element far past the depth cap: the
// text at the bottom is still found, and a page with more nodes than the
// budget is ErrTooComplex.
func TestDeepNesting(t *testing.T) {
	const end = "<p>The words at the very bottom of the page, with a comma, and a full stop.</p>"
	const want = "The words at the very bottom of the page, with a comma, and a full stop."
	tests := []struct {
		name     string
		open     string
		n        int
		maxNodes int
		tooMuch  bool // ErrTooComplex instead of want
	}{
		{"div", "<div>", 100_000, 0, false},
		{"span", "<span>", 100_000, 0, false},
		{"inline mix", "<b><i><em><span>", 50_000, 0, false},
		{"table in table", "<table><tr><td>", 50_000, 0, false},
		{"lists", "<ul><li><ol><li>", 50_000, 0, false},
		{"blockquote", "<blockquote>", 100_000, 0, false},
		{"section and article", "<section><article>", 50_000, 0, false},
		{"unknown elements", "<x-a><x-b>", 50_000, 0, false},
		{"header", "<header>", 100_000, 0, false},
		{"p in table cells", "<p class=title>x<table><tr><td>", 30_000, 0, false},
		{"div over the budget", "<div>", 1_100_000, 0, true},
		{"bare tags over the budget", "<b>", 1_100_000, 0, true},
		{"div over a small budget", "<div>", 10_000, 5_000, true},
		{"div under no budget", "<div>", 10_000, -1, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			page := strings.Repeat(tt.open, tt.n) + end
			p, err := FromHTML(t.Context(), strings.NewReader(page), "", Options{MaxNodes: tt.maxNodes})
			if tt.tooMuch {
				require.ErrorIs(t, err, ErrTooComplex)
				assert.Nil(t, p)
				return
			}
			require.NoError(t, err)
			assert.Contains(t, p.Text, want)
		})
	}
}

// countdownContext reports DeadlineExceeded from the n-th call of Err on:
// a deadline that passes at a known point of the work, not at a time.
type countdownContext struct {
	context.Context
	left  atomic.Int64
	calls atomic.Int64
}

func newCountdownContext(parent context.Context, n int64) *countdownContext {
	c := &countdownContext{Context: parent}
	c.left.Store(n)
	return c
}

func (c *countdownContext) Err() error {
	c.calls.Add(1)
	if c.left.Add(-1) <= 0 {
		return context.DeadlineExceeded
	}
	return c.Context.Err()
}

// TestExtractionHonoursContext ends the context at points inside parsing
// and inside the extraction passes: the work stops there with the
// context's error.
func TestExtractionHonoursContext(t *testing.T) {
	page := strings.Repeat("<div><p>A paragraph, with commas, long enough to be scored.</p></div>", 20_000)
	tokens := int64(20_000 * 5) // start and end tags and text
	t.Run("before the start", func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		cancel()
		_, err := FromHTML(ctx, strings.NewReader(page), "", Options{})
		require.ErrorIs(t, err, context.Canceled)
	})
	t.Run("during parsing", func(t *testing.T) {
		ctx := newCountdownContext(t.Context(), 10)
		_, err := FromHTML(ctx, strings.NewReader(page), "", Options{})
		require.ErrorIs(t, err, context.DeadlineExceeded)
		// Parsing looks every checkEvery tokens; it stopped at the 10th look.
		assert.Less(t, ctx.calls.Load(), tokens/checkEvery)
	})
	t.Run("during the passes over the tree", func(t *testing.T) {
		doc := testParse(t, []byte(page))
		ctx := newCountdownContext(t.Context(), 5)
		_, err := mainText(doc, "", newWork(ctx, Options{}))
		require.ErrorIs(t, err, context.DeadlineExceeded)
		assert.Equal(t, int64(5), ctx.calls.Load(), "the walk stopped at the first failed look")
	})
	t.Run("a real deadline", func(t *testing.T) {
		// A page that takes far longer than the deadline; the test's own
		// timeout is the generous bound on when the answer comes.
		big := strings.Repeat("<div>a, ", 600_000)
		ctx, cancel := context.WithTimeout(t.Context(), time.Millisecond)
		defer cancel()
		_, err := FromHTML(ctx, strings.NewReader(big), "", Options{MaxNodes: -1})
		require.ErrorIs(t, err, context.DeadlineExceeded)
	})
}

// TestFromURLHostilePage serves a gzipped nested-div page: over the budget
// it is a FetchError with cause too_complex that wraps ErrTooComplex, and a
// deadline that passes while it is extracted is the context's error, not a
// fetch timeout.
func TestFromURLHostilePage(t *testing.T) {
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	_, err := zw.Write([]byte(strings.Repeat("<div>x", 100_000)))
	require.NoError(t, err)
	require.NoError(t, zw.Close())
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Header().Set("Content-Encoding", "gzip")
		w.Write(gz.Bytes())
	})

	_, err = fromURL(t.Context(), srv.URL, Options{MaxNodes: 50_000}, publicGuard(t, srv))
	require.ErrorIs(t, err, ErrTooComplex)
	var fe *FetchError
	require.ErrorAs(t, err, &fe)
	assert.Equal(t, CauseTooComplex, fe.Cause)
	assert.Equal(t, srv.URL, fe.URL)

	p, err := fromURL(t.Context(), srv.URL, Options{}, publicGuard(t, srv))
	require.NoError(t, err)
	assert.Equal(t, 100_000, p.WordCount)

	// The fetch looks at the context about 3 times; parsing 200,000 tokens
	// about 200 times.
	ctx := newCountdownContext(t.Context(), 20)
	_, err = fromURL(ctx, srv.URL, Options{}, publicGuard(t, srv))
	require.ErrorIs(t, err, context.DeadlineExceeded)
	assert.False(t, errors.As(err, &fe), "a deadline during extraction is not a fetch error: %v", err)
}

// TestTreeIndex checks the open-element index against shapes where the
// innermost element of a name, or a scope boundary, is deep in the stack.
func TestTreeIndex(t *testing.T) {
	tests := []struct {
		name, in, body string
	}{
		{"end tag finds a deep element", "<div>" + strings.Repeat("<span>", 300) + "a</div>b", "div(" + strings.Repeat("span(", 300) + "'a'" + strings.Repeat(")", 300) + ")'b'"},
		{"boundary hides an outer p", "<p>a<object>b</p>c</object>d", "p('a'object('bc')'d')"},
		{"p closes the p within the cell", "<table><tr><td><p>a<p>b</td></tr></table>", "table(tr(td(p('a')p('b'))))"},
		{"li closes only within its list", "<ul><li>a<ol><li>b<li>c</ol><li>d</ul>", "ul(li('a'ol(li('b')li('c')))li('d'))"},
		{"td closes within its table", "<table><tr><td>a<table><tr><td>b<td>c</td></tr></table><td>d</table>", "table(tr(td('a'table(tr(td('b')td('c'))))td('d')))"},
		{"an open cell hides its table", "<table><tr><td>a<table><tr><td>b<td>c</table><td>d</table>", "table(tr(td('a'table(tr(td('b')td('c')td('d'))))))"},
		{"dd and dt close within their list", "<dl><dt>a<dd>b<dt>c<dl><dd>d</dl><dd>e</dl>", "dl(dt('a')dd('b')dt('c'dl())dd('d'))dd('e')"},
		{"reopened names", "<div>a<div>b</div>c</div>d<div>e</div>", "div('a'div('b')'c')'d'div('e')"},
		{"unknown names", "<x-a>a<x-b>b<x-a>c</x-a>d</x-b>e</x-a>f", "x-a('a'x-b('b'x-a('c')'d')'e')'f'"},
		{"end tag of a closed element", "<div><b>a</b></b>b</div>", "div(b('a')'b')"},
		{"past the depth cap", strings.Repeat("<div>", maxDepth+10) + "a" + strings.Repeat("</div>", maxDepth+10) + "b", ""},
		{"text runs split by ignored tags", "<p>" + strings.Repeat("x</q>", 1000) + "</p>", "p('" + strings.Repeat("x", 1000) + "')"},
		{"html attributes once", "<p>a" + strings.Repeat(`<html id lang="en">`, 1000), "p('a')"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := testParse(t, []byte(tt.in))
			body := findBody(doc)
			require.NotNil(t, body)
			if tt.body != "" {
				assert.Equal(t, tt.body, outline(body))
			}
			switch tt.name {
			case "past the depth cap":
				// The closing tags close everything: b is back in body.
				last := body.LastChild
				require.Equal(t, html.TextNode, last.Type)
				assert.Equal(t, "b", last.Data)
			case "html attributes once":
				assert.Len(t, doc.FirstChild.Attr, 2)
			}
		})
	}
}
