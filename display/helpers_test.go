package display

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/require"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// shown is what a reader sees in a rendered fragment: the text (line breaks
// as \n, labels left out) and the labels in document order.
type shown struct {
	Text   string
	Labels []string
}

// parseShown parses fragment as a browser would and returns what it shows.
// It fails the test if the fragment holds anything but the elements Render
// writes, or not exactly one top-level element.
func parseShown(tb testing.TB, fragment string) shown {
	tb.Helper()
	ctx := &html.Node{Type: html.ElementNode, Data: "body", DataAtom: atom.Body}
	nodes, err := html.ParseFragment(strings.NewReader(fragment), ctx)
	require.NoError(tb, err)
	if len(nodes) != 1 {
		tb.Fatalf("%d top-level nodes in %q, want 1", len(nodes), fragment)
	}
	var s shown
	var text strings.Builder
	var walk func(n *html.Node, label *strings.Builder)
	walk = func(n *html.Node, label *strings.Builder) {
		switch n.Type {
		case html.TextNode:
			if label != nil {
				label.WriteString(n.Data)
			} else {
				text.WriteString(n.Data)
			}
			return
		case html.ElementNode:
			switch n.DataAtom {
			case atom.Div, atom.Mark, atom.Span:
			case atom.Br:
				if label != nil {
					tb.Fatalf("line break in a label in %q", fragment)
				}
				text.WriteByte('\n')
				return
			default:
				tb.Fatalf("unexpected element <%s> in %q", n.Data, fragment)
			}
			for _, a := range n.Attr {
				if a.Key != "class" && a.Key != "style" {
					tb.Fatalf("attribute %s in %q", a.Key, fragment)
				}
			}
			if cls := attr(n, "class"); cls == "entity-label" || cls == "span-label" {
				if label != nil {
					tb.Fatalf("label in a label in %q", fragment)
				}
				var lb strings.Builder
				for c := n.FirstChild; c != nil; c = c.NextSibling {
					walk(c, &lb)
				}
				s.Labels = append(s.Labels, lb.String())
				return
			}
		default:
			tb.Fatalf("unexpected node of type %v in %q", n.Type, fragment)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c, label)
		}
	}
	walk(nodes[0], nil)
	s.Text = text.String()
	return s
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

// want returns what Render should show for text and spans in format f.
func want(text string, spans []Span, f Format) shown {
	s := shown{Text: normalizeText(text)}
	sorted := slices.Clone(spans)
	slices.SortStableFunc(sorted, func(a, b Span) int { return a.Start - b.Start })
	for _, sp := range sorted {
		s.Labels = append(s.Labels, normalizeText(sp.Label))
	}
	if f == FormatSpan {
		slices.Sort(s.Labels)
	}
	return s
}

// shownSorted sorts the labels of s in FormatSpan, where labels come in
// token and row order rather than span order.
func shownSorted(s shown, f Format) shown {
	if f == FormatSpan {
		slices.Sort(s.Labels)
	}
	return s
}

// normalizeText turns s into what an HTML page shows of it: each invalid
// UTF-8 byte (as []rune counts them) and NUL as U+FFFD, \r\n and \r as \n.
func normalizeText(s string) string {
	var b strings.Builder
	prev := rune(0)
	for _, r := range s {
		switch {
		case r == 0:
			b.WriteRune(utf8.RuneError)
		case r == '\r':
			b.WriteByte('\n')
		case r == '\n' && prev == '\r':
		default:
			b.WriteRune(r)
		}
		prev = r
	}
	return b.String()
}
