// Package htmltok splits HTML held in memory into the tokens that the
// extractor's tree builder reads: text, start, end and self-closing tags,
// with comments and doctypes skipped over.
//
// It splits a page exactly where golang.org/x/net/html's Tokenizer does
// (the same token boundaries, raw bytes, tag self-closing and raw text
// rules, including the script-data escapes), which its fuzz test holds it
// to, but works on a byte slice instead of an io.Reader: it never copies
// the page, finds the next '<' and the end of a quoted value with
// bytes.IndexByte, and allocates nothing per tag: a tag's name and
// attributes are spans of the input, which the caller lowers and decodes
// only for what it keeps. Text is decoded (newlines, NUL in raw text,
// character references) only when the caller asks for it and only when
// it holds '\r', NUL or '&'.
//
//	z := htmltok.New(page)
//	for tt := z.Next(); tt != htmltok.ErrorToken; tt = z.Next() {
//		switch tt {
//		case htmltok.TextToken:
//			use(z.Text())
//		case htmltok.StartTagToken:
//			name, attrs := z.TagName(), z.Attrs()
//		}
//	}
//
// Work is linear in the input: every byte is looked at a bounded number of
// times. A Tokenizer is not safe for concurrent use; it never writes to
// its input.
package htmltok
