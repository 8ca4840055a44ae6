// Package extract fetches a web page safely and returns its main text and
// metadata (title, author, publication date, language).
//
// [FromHTML] works on a page already in hand; [FromURL] fetches it first
// with a guarded HTTP client: only http and https; every address checked at
// dial time, redirects included, so that loopback, private, link-local,
// multicast, reserved and cloud-metadata addresses are never reached
// whatever DNS answers (legacy host spellings such as "0x7f.1" are
// normalized first); limits on size, time and redirects; gzip, deflate and
// br; and charset decoding that takes valid UTF-8 as UTF-8 before trusting
// a BOM, the Content-Type header or a <meta charset> found anywhere in the
// first 64 KiB. Errors are a *[URLError] (the URL is unacceptable) or a
// *[FetchError] (the page could not be fetched, with a machine-readable
// cause).
//
// The text is the page's main content: the body of an article, post or
// documentation page; the posts of a forum thread; the description,
// features and specifications of a product; the entries of a listing or
// collection; the text of a service page. Headings inside it are kept,
// each on a line of its own; the page's title is not repeated in the text
// (it is in Page.Title). Left out: navigation, headers and footers,
// bylines and datelines, share and newsletter boxes, cookie notices,
// related-article lists and advertising, and on article pages photo
// captions and credits and readers' comments. Blocks (paragraphs, headings, list items, table
// rows) are separated by a blank line; soft hyphens and zero-width
// characters are dropped. A page whose HTML holds next to no visible text
// but has scripts (a shell that JavaScript fills in) gets Page.Warning
// WarningJavaScript, and its description as text when it has one.
// Page.PageType says what kind of page the classifier sees ("article",
// "collection", "documentation", "forum", "listing", "product",
// "service").
//
// The text is found in two steps. Hand rules first find the article
// Readability-style: the page is parsed once with a light tree builder on
// the golang.org/x/net/html tokenizer, paragraphs vote for the elements
// above them, link-heavy and boilerplate-named containers are discounted,
// and the best container is widened to the siblings, page-builder rows and
// lead that belong to it. Then a learned classifier, gradient-boosted
// trees embedded in the package, decides block by block from features of
// each block (text and link density, tag path, class and id words,
// position, neighbours, punctuation, list and table shape, repeated
// cards, prices, what the rules chose in the block's parent and section)
// and of the page (its likely type; its share of text in code, tables,
// lists, forms and repeated cards; its headings). It keeps the rules'
// blocks unless it is confident they are not content, and adds blocks the
// rules left out when it is confident enough, more so on article pages;
// on a page it takes for another type where the rules found little text
// (under 500 characters), by thresholds chosen for that type. On a page
// it takes for an article, comment sections (class or id words such as
// "comments", "disqus") are left out whenever the rules found text
// outside them. The
// model was trained by extract/internal/train on the WCXB benchmark's
// development pages (Web Content eXtraction Benchmark, CC-BY-4.0, (c)
// 2026 Murrough Foley,
// github.com/Murrough-Foley/web-content-extraction-benchmark) and, with a
// lower weight, Mozilla Readability's test pages (which also teach the
// page-type model what an article looks like). Language comes from the
// page's own declarations, else from the text (whatlanggo).
//
// Both functions are safe for concurrent use and keep no state between
// calls. Extraction costs about a millisecond per 100 KiB of HTML and
// memory proportional to the page; FromURL adds the fetch. The cost stays
// linear in the page whatever its shape (deep nesting, unclosed tags,
// stray end tags, long attribute lists): the tree builder caps nesting at
// 400 open elements, as browsers do, and finds elements in scope without
// scanning the stack. A page whose tree would have more than
// Options.MaxNodes elements and runs of text (default 1,000,000, about
// 150 MB of tree) is [ErrTooComplex], and ctx is checked every thousand
// tokens or elements, so that a deadline stops the work.
//
//	page, err := extract.FromURL(ctx, "https://example.com/story", extract.Options{})
//	if err != nil {
//		return err // *extract.URLError (422) or *extract.FetchError (502)
//	}
//	fmt.Println(page.Title)
//	fmt.Println(page.Text)
package extract
