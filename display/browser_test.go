package display

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Hostile input for TestBrowser. If any of it were markup, its script would
// change the document title and add an element with id "pwned".
const (
	pwn           = `document.title='PWNED';document.body.insertAdjacentHTML('beforeend','<p id=pwned>PWNED</p>')`
	browserTitle  = `display <test> & "page"`
	browserText   = "Ada Lovelace met <script>" + pwn + "</script> Charles Babbage in \"London\" & <img src=x onerror=\"" + pwn + "\"> on 5 June 1843.\nZoë paid £3 to ACME™ <b>bold</b>.\r\nThe end."
	hostileLabel  = `"><img src=x onerror="` + pwn + `">ORG`
	trustedScript = `<script>
(function () {
  // Written by the test, not by Render: it proves that scripts run in this
  // browser, and counts the highlights and labels that have a visible box.
  var shown = 0;
  document.querySelectorAll(".entity, .entity-label, .span-label").forEach(function (e) {
    var r = e.getBoundingClientRect();
    if (r.width > 0 && r.height > 0 && getComputedStyle(e).visibility === "visible") shown++;
  });
  document.body.setAttribute("data-js", "ran");
  document.body.setAttribute("data-shown", String(shown));
})();
</script>`
)

// spanOf returns the span of the first occurrence of sub in text at or after
// code point from, in code points.
func spanOf(tb testing.TB, text, sub string, from int, label string) Span {
	tb.Helper()
	byteFrom := len(string([]rune(text)[:from]))
	i := strings.Index(text[byteFrom:], sub)
	require.GreaterOrEqual(tb, i, 0, "%q not in text", sub)
	start := from + utf8.RuneCountInString(text[byteFrom:byteFrom+i])
	return Span{Start: start, End: start + utf8.RuneCountInString(sub), Label: label}
}

// findChromium returns the headless browser to use: $TEXTANALYSIS_CHROMIUM,
// or the first of Debian's chromium and its usual other names on PATH.
func findChromium() string {
	if p := os.Getenv("TEXTANALYSIS_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// runChromium runs the browser headless on url with extra flags and returns
// its standard output.
func runChromium(tb testing.TB, chromium, url string, extra ...string) []byte {
	tb.Helper()
	// The profile is removed by us, with retries, not by tb.TempDir:
	// Chromium's helper processes may still write to it for a moment after
	// the browser exits, which fails TempDir's own clean-up.
	profile, err := os.MkdirTemp("", "ta-chromium-")
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		for range 20 {
			if os.RemoveAll(profile) == nil {
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
	})
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Second)
	defer cancel()
	args := append([]string{
		"--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
		"--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage",
		"--user-data-dir=" + profile,
	}, extra...)
	cmd := exec.CommandContext(ctx, chromium, append(args, url)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		tb.Fatalf("%s %s: %v\n%s", chromium, strings.Join(extra, " "), err, stderr.String())
	}
	return stdout.Bytes()
}

// TestBrowser renders entities and spans over hostile text into a page,
// loads it in headless Chromium and checks, in the DOM the browser built
// after running the page's scripts, that every entity is shown with its
// label and that the hostile text stayed text. It writes a screenshot to
// $TEXTANALYSIS_SCREENSHOT_DIR (or a temporary directory) and logs its path.
//
// Without Chromium the test is skipped, unless $CI is "true": CI installs
// Debian's chromium package and must run it.
func TestBrowser(t *testing.T) {
	chromium := findChromium()
	if chromium == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("chromium not found and CI=true: install it (apt-get install -y chromium) or set TEXTANALYSIS_CHROMIUM")
		}
		t.Skip("chromium not found (apt-get install -y chromium, or set TEXTANALYSIS_CHROMIUM)")
	}

	text := browserText
	ents := []Span{
		spanOf(t, text, "Ada Lovelace", 0, "PERSON"),
		spanOf(t, text, "<script>", 0, "<script>"+pwn+"</script>"),
		spanOf(t, text, "Charles Babbage", 0, "PERSON"),
		spanOf(t, text, "London", 0, "GPE"),
		spanOf(t, text, `<img src=x onerror="`, 0, "HTML"),
		spanOf(t, text, "5 June 1843", 0, "DATE"),
		spanOf(t, text, "Zoë", 0, "PERSON"),
		spanOf(t, text, "£3", 0, "MONEY"),
		spanOf(t, text, "ACME™ <b>bold</b>", 0, hostileLabel),
	}
	spans := append([]Span{
		{Start: ents[0].Start, End: ents[2].End, Label: "MEETING"},
		spanOf(t, text, "Charles", 0, "GIVEN"),
		spanOf(t, text, "June 1843.\nZoë", 0, "ACROSS A LINE"),
	}, ents...)

	var ent, span strings.Builder
	require.NoError(t, Render(&ent, text, ents, Options{}))
	require.NoError(t, Render(&span, text, spans, Options{Format: FormatSpan}))
	var page bytes.Buffer
	require.NoError(t, Page(&page, browserTitle, ent.String()+"\n"+span.String()+"\n"+trustedScript))

	dir := os.Getenv("TEXTANALYSIS_SCREENSHOT_DIR")
	if dir == "" {
		dir = t.TempDir()
	} else {
		require.NoError(t, os.MkdirAll(dir, 0o755))
	}
	dir, err := filepath.Abs(dir)
	require.NoError(t, err)
	pagePath := filepath.Join(dir, "display-browser-test.html")
	require.NoError(t, os.WriteFile(pagePath, page.Bytes(), 0o644))
	url := "file://" + filepath.ToSlash(pagePath)

	dom := runChromium(t, chromium, url, "--dump-dom")
	doc, err := html.Parse(bytes.NewReader(dom))
	require.NoError(t, err)

	// The page's own script ran, so the hostile scripts would have run too
	// had they been markup; they did not.
	body := first(doc, func(n *html.Node) bool { return n.DataAtom == atom.Body })
	require.NotNil(t, body, "no body in %s", dom)
	assert.Equal(t, "ran", attr(body, "data-js"), "scripts did not run in the browser")
	titleEl := first(doc, func(n *html.Node) bool { return n.DataAtom == atom.Title })
	require.NotNil(t, titleEl)
	assert.Equal(t, browserTitle, textOf(titleEl), "document title")
	assert.Nil(t, first(doc, func(n *html.Node) bool { return attr(n, "id") == "pwned" }), "hostile script ran")
	assert.Len(t, all(doc, func(n *html.Node) bool { return n.DataAtom == atom.Script }), 1, "only the test's own script")
	assert.Empty(t, all(doc, func(n *html.Node) bool { return n.DataAtom == atom.Img || n.DataAtom == atom.B }), "hostile markup became elements")
	assert.NotContains(t, string(dom), "PWNED</p>")

	// Every highlight and every label has a visible box.
	assert.Equal(t, strconv.Itoa(2*len(ents)+len(spans)), attr(body, "data-shown"), "visible highlights and labels")

	// The browser shows the text and the labels exactly.
	for _, tc := range []struct {
		class string
		spans []Span
		f     Format
	}{{"entities", ents, FormatEnt}, {"spans", spans, FormatSpan}} {
		div := first(doc, func(n *html.Node) bool { return n.DataAtom == atom.Div && attr(n, "class") == tc.class })
		require.NotNil(t, div, "no div.%s", tc.class)
		var b strings.Builder
		require.NoError(t, html.Render(&b, div))
		assert.Equal(t, want(text, tc.spans, tc.f), shownSorted(parseShown(t, b.String()), tc.f), tc.class)
	}
	// Each highlight holds its entity's text, then its label.
	marks := all(doc, func(n *html.Node) bool { return n.DataAtom == atom.Mark && attr(n, "class") == "entity" })
	require.Len(t, marks, len(ents))
	runes := []rune(normalizeText(text))
	for i, m := range marks {
		label := first(m, func(n *html.Node) bool { return attr(n, "class") == "entity-label" })
		require.NotNil(t, label)
		assert.Equal(t, ents[i].Label, textOf(label))
		assert.Equal(t, string(runes[ents[i].Start:ents[i].End])+ents[i].Label, textOf(m))
	}

	shot := filepath.Join(dir, "display-browser-test.png")
	runChromium(t, chromium, url, "--hide-scrollbars", "--window-size=1280,1100", "--screenshot="+shot)
	st, err := os.Stat(shot)
	require.NoError(t, err)
	assert.Greater(t, st.Size(), int64(10_000), "screenshot too small to show anything")
	t.Logf("page: %s\nscreenshot: %s (set TEXTANALYSIS_SCREENSHOT_DIR to keep them)", pagePath, shot)
}

func all(n *html.Node, match func(*html.Node) bool) []*html.Node {
	var out []*html.Node
	for d := range n.Descendants() {
		if d.Type == html.ElementNode && match(d) {
			out = append(out, d)
		}
	}
	return out
}

func first(n *html.Node, match func(*html.Node) bool) *html.Node {
	for d := range n.Descendants() {
		if d.Type == html.ElementNode && match(d) {
			return d
		}
	}
	return nil
}

// textOf returns the text under n, <br> as \n.
func textOf(n *html.Node) string {
	var b strings.Builder
	for d := range n.Descendants() {
		switch {
		case d.Type == html.TextNode:
			b.WriteString(d.Data)
		case d.DataAtom == atom.Br:
			b.WriteByte('\n')
		}
	}
	return b.String()
}
