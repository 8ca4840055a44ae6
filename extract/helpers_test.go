package extract

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"
	"golang.org/x/net/html"
)

func contextWithCancel(t testing.TB) (context.Context, context.CancelFunc) {
	t.Helper()
	return context.WithCancel(t.Context())
}

func errCanceled() error { return context.Canceled }

// testParse parses b with the default work budget.
func testParse(tb testing.TB, b []byte) *html.Node {
	tb.Helper()
	doc, err := parseHTML(b, newWork(tb.Context(), Options{}))
	require.NoError(tb, err)
	return doc
}

// testMainText is mainText with the default work budget.
func testMainText(tb testing.TB, doc *html.Node, title string) string {
	tb.Helper()
	res, err := mainText(doc, title, newWork(tb.Context(), Options{}))
	require.NoError(tb, err)
	return res.text
}

// testRuleText is the hand rules' text (ruleText) with the default work
// budget: what the classifier sees as the rule_kept feature.
func testRuleText(tb testing.TB, doc *html.Node, title string) string {
	tb.Helper()
	body := findBody(doc)
	require.NotNil(tb, body)
	text, _, _, err := ruleText(body, title, newShared(newWork(tb.Context(), Options{})))
	require.NoError(tb, err)
	return text
}
