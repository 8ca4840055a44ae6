package htmltok

import (
	"bytes"

	"golang.org/x/net/html"
)

// TokenType is the kind of a token.
type TokenType uint8

const (
	// ErrorToken ends the input: Next returns it at the end, and then
	// always.
	ErrorToken TokenType = iota
	// TextToken is a run of text.
	TextToken
	// StartTagToken is a start tag, <a href="x">.
	StartTagToken
	// EndTagToken is an end tag, </a>.
	EndTagToken
	// SelfClosingTagToken is a start tag that ends in "/>", <br/>.
	SelfClosingTagToken
	// CommentToken is a comment, a bogus comment (<?x>, <!x>, </ x>) or
	// an empty end tag </>.
	CommentToken
	// DoctypeToken is a <!DOCTYPE> declaration.
	DoctypeToken
)

// Span is the input's bytes [Start, End).
type Span struct{ Start, End int }

// Attr is an attribute of a start tag as written: its key (not lowered)
// and its value (without quotes, not decoded).
type Attr struct{ Key, Val Span }

// Tokenizer reads the tokens of an HTML document held in memory.
type Tokenizer struct {
	buf []byte
	pos int  // the next byte to read; the end of the current token
	eof bool // a read went past the end: the next token is ErrorToken

	tt   TokenType
	raw  Span // the current token's bytes
	data Span // its text, or a tag's name

	// rawTag is the lower-case name of the element whose raw text the
	// next token is ("script", "title", ...), or "".
	rawTag     string
	textIsRaw  bool // the text holds no character references
	convertNUL bool // NUL in the text becomes U+FFFD

	attrs   []Attr // a start tag's attributes with a non-empty key
	scratch []byte // decoded text
}

// New returns a Tokenizer over b, which it does not modify or copy.
func New(b []byte) *Tokenizer {
	return &Tokenizer{buf: b}
}

// Raw returns the bytes of the current token, a slice of the input. The
// tokens' raw bytes partition the input up to the ErrorToken.
func (z *Tokenizer) Raw() []byte { return z.buf[z.raw.Start:z.raw.End] }

// Bytes returns the input's bytes in s.
func (z *Tokenizer) Bytes(s Span) []byte { return z.buf[s.Start:s.End] }

// TagName returns the name of a tag token as written (not lowered), a
// slice of the input.
func (z *Tokenizer) TagName() []byte {
	switch z.tt {
	case StartTagToken, EndTagToken, SelfClosingTagToken:
		return z.buf[z.data.Start:z.data.End]
	}
	return nil
}

// Attrs returns the attributes of a start or self-closing tag token with
// a non-empty key, in order, duplicates included (x/net/html keeps the
// first of keys equal when lowered). The slice is reused by Next.
func (z *Tokenizer) Attrs() []Attr {
	switch z.tt {
	case StartTagToken, SelfClosingTagToken:
		return z.attrs
	}
	return nil
}

var (
	nul         = []byte("\x00")
	replacement = []byte("\ufffd")
)

// Text returns the text of a text token, as x/net/html's Tokenizer.Text
// does: "\r\n" and "\r" become "\n", NUL in raw text becomes U+FFFD, and
// character references are decoded except in raw text (script, style,
// noscript...). It is a slice of the input when nothing needs decoding,
// else of a buffer that Next and Text reuse.
func (z *Tokenizer) Text() []byte {
	if z.tt != TextToken {
		return nil
	}
	s := z.buf[z.data.Start:z.data.End]
	if bytes.IndexByte(s, '\r') >= 0 {
		z.scratch = convertNewlines(append(z.scratch[:0], s...))
		s = z.scratch
	}
	if z.convertNUL && bytes.IndexByte(s, 0) >= 0 {
		s = bytes.ReplaceAll(s, nul, replacement)
	}
	if !z.textIsRaw && bytes.IndexByte(s, '&') >= 0 {
		z.scratch = append(z.scratch[:0], html.UnescapeString(string(s))...)
		s = z.scratch
	}
	return s
}

// convertNewlines converts "\r" and "\r\n" in s to "\n", in place.
func convertNewlines(s []byte) []byte {
	dst := 0
	for src := 0; src < len(s); src++ {
		c := s[src]
		if c == '\r' {
			c = '\n'
			if src+1 < len(s) && s[src+1] == '\n' {
				src++
			}
		}
		s[dst] = c
		dst++
	}
	return s[:dst]
}

// readByte returns the next byte, or sets eof at the end.
func (z *Tokenizer) readByte() byte {
	if z.pos >= len(z.buf) {
		z.eof = true
		return 0
	}
	c := z.buf[z.pos]
	z.pos++
	return c
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\f'
}

func isLetter(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// skipWhiteSpace skips past any white space.
func (z *Tokenizer) skipWhiteSpace() {
	for z.pos < len(z.buf) && isSpace(z.buf[z.pos]) {
		z.pos++
	}
	if z.pos >= len(z.buf) {
		z.eof = true
	}
}

// Next reads the next token and returns its type.
func (z *Tokenizer) Next() TokenType {
	z.raw.Start = z.pos
	z.data = Span{z.pos, z.pos}
	z.attrs = z.attrs[:0]
	if z.eof {
		z.tt = ErrorToken
		return z.tt
	}
	if z.rawTag != "" {
		if z.rawTag == "plaintext" {
			z.pos, z.eof = len(z.buf), true
			z.data.End = z.pos
			z.textIsRaw = true
		} else {
			z.readRawOrRCDATA()
		}
		if z.data.End > z.data.Start {
			z.convertNUL = true
			return z.token(TextToken)
		}
	}
	z.textIsRaw = false
	z.convertNUL = false
loop:
	for {
		i := bytes.IndexByte(z.buf[z.pos:], '<')
		if i < 0 {
			z.pos, z.eof = len(z.buf), true
			break
		}
		z.pos += i + 1
		c := z.readByte()
		if z.eof {
			break // "<" at the end is text
		}
		var tt TokenType
		switch {
		case isLetter(c):
			tt = StartTagToken
		case c == '/':
			tt = EndTagToken
		case c == '!' || c == '?':
			tt = CommentToken
		default:
			z.pos-- // reconsume c: it may be a '<'
			continue
		}
		// Text gathered before the tag is a token of its own.
		if x := z.pos - 2; z.raw.Start < x {
			z.pos = x
			z.data.End = x
			return z.token(TextToken)
		}
		switch tt {
		case StartTagToken:
			return z.token(z.readStartTag())
		case EndTagToken:
			c = z.readByte()
			if z.eof {
				break loop // "</" at the end is text
			}
			if c == '>' {
				// "</>" is no token; x/net/html calls it an empty comment.
				return z.token(CommentToken)
			}
			if isLetter(c) {
				z.readTag(false)
				if z.eof {
					return z.token(ErrorToken)
				}
				return z.token(EndTagToken)
			}
			z.pos--
			z.readUntilCloseAngle()
			return z.token(CommentToken)
		case CommentToken:
			if c == '!' {
				return z.token(z.readMarkupDeclaration())
			}
			z.pos--
			z.readUntilCloseAngle()
			return z.token(CommentToken)
		}
	}
	if z.raw.Start < z.pos {
		z.data.End = z.pos
		return z.token(TextToken)
	}
	return z.token(ErrorToken)
}

// token ends the current token, of type tt.
func (z *Tokenizer) token(tt TokenType) TokenType {
	z.tt = tt
	z.raw.End = z.pos
	return tt
}

// readRawOrRCDATA reads the raw text of z.rawTag up to its end tag.
func (z *Tokenizer) readRawOrRCDATA() {
	if z.rawTag == "script" {
		z.readScript()
		z.data.End = z.pos
		z.textIsRaw = true
		z.rawTag = ""
		return
	}
	for {
		i := bytes.IndexByte(z.buf[z.pos:], '<')
		if i < 0 {
			z.pos, z.eof = len(z.buf), true
			break
		}
		z.pos += i + 1
		c := z.readByte()
		if z.eof {
			break
		}
		if c != '/' {
			z.pos--
			continue
		}
		if z.readRawEndTag() || z.eof {
			break
		}
	}
	z.data.End = z.pos
	// A textarea's or title's RCDATA can hold character references.
	z.textIsRaw = z.rawTag != "textarea" && z.rawTag != "title"
	z.rawTag = ""
}

// readRawEndTag reads "</rawTag" and a byte that ends a tag name after
// the "</" just read; on success it backs up to the '<' and returns true.
func (z *Tokenizer) readRawEndTag() bool {
	for i := 0; i < len(z.rawTag); i++ {
		c := z.readByte()
		if z.eof {
			return false
		}
		if c != z.rawTag[i] && c != z.rawTag[i]-('a'-'A') {
			z.pos--
			return false
		}
	}
	c := z.readByte()
	if z.eof {
		return false
	}
	switch c {
	case ' ', '\n', '\r', '\t', '\f', '/', '>':
		z.pos -= 3 + len(z.rawTag)
		return true
	}
	z.pos--
	return false
}

// readScript reads up to the </script> that ends a script, following the
// script data states of HTML's tokenizer (escapes and double escapes).
func (z *Tokenizer) readScript() {
	var c byte

scriptData:
	c = z.readByte()
	if z.eof {
		return
	}
	if c == '<' {
		goto scriptDataLessThanSign
	}
	goto scriptData

scriptDataLessThanSign:
	c = z.readByte()
	if z.eof {
		return
	}
	switch c {
	case '/':
		goto scriptDataEndTagOpen
	case '!':
		goto scriptDataEscapeStart
	}
	z.pos--
	goto scriptData

scriptDataEndTagOpen:
	if z.readRawEndTag() || z.eof {
		return
	}
	goto scriptData

scriptDataEscapeStart:
	c = z.readByte()
	if z.eof {
		return
	}
	if c == '-' {
		goto scriptDataEscapeStartDash
	}
	z.pos--
	goto scriptData

scriptDataEscapeStartDash:
	c = z.readByte()
	if z.eof {
		return
	}
	if c == '-' {
		goto scriptDataEscapedDashDash
	}
	z.pos--
	goto scriptData

scriptDataEscaped:
	c = z.readByte()
	if z.eof {
		return
	}
	switch c {
	case '-':
		goto scriptDataEscapedDash
	case '<':
		goto scriptDataEscapedLessThanSign
	}
	goto scriptDataEscaped

scriptDataEscapedDash:
	c = z.readByte()
	if z.eof {
		return
	}
	switch c {
	case '-':
		goto scriptDataEscapedDashDash
	case '<':
		goto scriptDataEscapedLessThanSign
	}
	goto scriptDataEscaped

scriptDataEscapedDashDash:
	c = z.readByte()
	if z.eof {
		return
	}
	switch c {
	case '-':
		goto scriptDataEscapedDashDash
	case '<':
		goto scriptDataEscapedLessThanSign
	case '>':
		goto scriptData
	}
	goto scriptDataEscaped

scriptDataEscapedLessThanSign:
	c = z.readByte()
	if z.eof {
		return
	}
	if c == '/' {
		goto scriptDataEscapedEndTagOpen
	}
	if isLetter(c) {
		goto scriptDataDoubleEscapeStart
	}
	z.pos--
	goto scriptData

scriptDataEscapedEndTagOpen:
	if z.readRawEndTag() || z.eof {
		return
	}
	goto scriptDataEscaped

scriptDataDoubleEscapeStart:
	z.pos--
	for i := 0; i < len("script"); i++ {
		c = z.readByte()
		if z.eof {
			return
		}
		if c != "script"[i] && c != "SCRIPT"[i] {
			z.pos--
			goto scriptDataEscaped
		}
	}
	c = z.readByte()
	if z.eof {
		return
	}
	switch c {
	case ' ', '\n', '\r', '\t', '\f', '/', '>':
		goto scriptDataDoubleEscaped
	}
	z.pos--
	goto scriptDataEscaped

scriptDataDoubleEscaped:
	c = z.readByte()
	if z.eof {
		return
	}
	switch c {
	case '-':
		goto scriptDataDoubleEscapedDash
	case '<':
		goto scriptDataDoubleEscapedLessThanSign
	}
	goto scriptDataDoubleEscaped

scriptDataDoubleEscapedDash:
	c = z.readByte()
	if z.eof {
		return
	}
	switch c {
	case '-':
		goto scriptDataDoubleEscapedDashDash
	case '<':
		goto scriptDataDoubleEscapedLessThanSign
	}
	goto scriptDataDoubleEscaped

scriptDataDoubleEscapedDashDash:
	c = z.readByte()
	if z.eof {
		return
	}
	switch c {
	case '-':
		goto scriptDataDoubleEscapedDashDash
	case '<':
		goto scriptDataDoubleEscapedLessThanSign
	case '>':
		goto scriptData
	}
	goto scriptDataDoubleEscaped

scriptDataDoubleEscapedLessThanSign:
	c = z.readByte()
	if z.eof {
		return
	}
	if c == '/' {
		goto scriptDataDoubleEscapeEnd
	}
	z.pos--
	goto scriptDataDoubleEscaped

scriptDataDoubleEscapeEnd:
	if z.readRawEndTag() {
		z.pos += len("</script>")
		goto scriptDataEscaped
	}
	if z.eof {
		return
	}
	goto scriptDataDoubleEscaped
}

// readComment reads past the end of a comment whose "<!--" was read.
func (z *Tokenizer) readComment() {
	dashCount := 0
	beginning := true
	for {
		c := z.readByte()
		if z.eof {
			return
		}
		switch c {
		case '-':
			dashCount++
			continue
		case '>':
			if dashCount >= 2 || beginning {
				return
			}
		case '!':
			if dashCount >= 2 {
				c = z.readByte()
				if z.eof || c == '>' {
					return
				}
				if c == '-' {
					dashCount = 1
					beginning = false
					continue
				}
			}
		}
		dashCount = 0
		beginning = false
	}
}

// readUntilCloseAngle reads past the next '>', or to the end.
func (z *Tokenizer) readUntilCloseAngle() {
	i := bytes.IndexByte(z.buf[z.pos:], '>')
	if i < 0 {
		z.pos, z.eof = len(z.buf), true
		return
	}
	z.pos += i + 1
}

// readMarkupDeclaration reads a token that starts with the "<!" just
// read: a comment, a doctype or a bogus comment.
func (z *Tokenizer) readMarkupDeclaration() TokenType {
	start := z.pos
	var c [2]byte
	for i := range c {
		c[i] = z.readByte()
		if z.eof {
			return CommentToken
		}
	}
	if c[0] == '-' && c[1] == '-' {
		z.readComment()
		return CommentToken
	}
	z.pos = start
	if z.readDoctype() {
		return DoctypeToken
	}
	z.pos = start
	z.readUntilCloseAngle()
	return CommentToken
}

// readDoctype reads a doctype after the "<!" just read, or returns false.
func (z *Tokenizer) readDoctype() bool {
	const s = "DOCTYPE"
	for i := 0; i < len(s); i++ {
		if z.pos >= len(z.buf) {
			return false // a bogus comment up to the end
		}
		c := z.buf[z.pos]
		z.pos++
		if c != s[i] && c != s[i]+('a'-'A') {
			return false
		}
	}
	if z.skipWhiteSpace(); z.eof {
		return true
	}
	z.readUntilCloseAngle()
	return true
}

// startTagIs reports whether the tag name in z.data is s (lower case),
// ignoring ASCII case.
func (z *Tokenizer) startTagIs(s string) bool {
	name := z.buf[z.data.Start:z.data.End]
	if len(name) != len(s) {
		return false
	}
	for i, c := range name {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != s[i] {
			return false
		}
	}
	return true
}

// rawTexts are the elements whose content is raw text, by first letter.
var rawTexts = [26][]string{
	'i' - 'a': {"iframe"},
	'n' - 'a': {"noembed", "noframes", "noscript"},
	'p' - 'a': {"plaintext"},
	's' - 'a': {"script", "style"},
	't' - 'a': {"textarea", "title"},
	'x' - 'a': {"xmp"},
}

// readStartTag reads a start tag whose "<" and first letter were read.
func (z *Tokenizer) readStartTag() TokenType {
	z.readTag(true)
	if z.eof {
		return ErrorToken
	}
	c := z.buf[z.data.Start] | ('a' - 'A') // a letter
	if c >= 'a' && c <= 'z' {
		for _, s := range rawTexts[c-'a'] {
			if z.startTagIs(s) {
				z.rawTag = s
				break
			}
		}
	}
	// "/>" ends a self-closing tag, unless the '/' is the end of the last
	// attribute's unquoted value (<p a=/>).
	if z.buf[z.pos-2] == '/' {
		n := len(z.attrs)
		if n == 0 || z.pos-2 != z.attrs[n-1].Val.End-1 || z.isDuplicate(n-1) {
			return SelfClosingTagToken
		}
	}
	return StartTagToken
}

// isDuplicate reports whether attribute i has the key of an earlier one,
// ignoring ASCII case: x/net/html keeps only the first.
func (z *Tokenizer) isDuplicate(i int) bool {
	key := z.Bytes(z.attrs[i].Key)
	for _, a := range z.attrs[:i] {
		if equalFoldASCII(z.Bytes(a.Key), key) {
			return true
		}
	}
	return false
}

func equalFoldASCII(a, b []byte) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}

// readTag reads a tag's name and attributes after its "<" or "</" and the
// first letter of its name; saveAttr keeps the attributes.
func (z *Tokenizer) readTag(saveAttr bool) {
	z.readTagName()
	if z.skipWhiteSpace(); z.eof {
		return
	}
	for {
		c := z.readByte()
		if z.eof || c == '>' {
			break
		}
		z.pos--
		var a Attr
		a.Key = z.readTagAttrKey()
		a.Val = z.readTagAttrVal()
		if saveAttr && a.Key.Start != a.Key.End {
			z.attrs = append(z.attrs, a)
		}
		if z.skipWhiteSpace(); z.eof {
			break
		}
	}
}

// readTagName sets z.data to the tag name, whose first byte was read.
func (z *Tokenizer) readTagName() {
	z.data.Start = z.pos - 1
	for z.pos < len(z.buf) {
		switch z.buf[z.pos] {
		case ' ', '\n', '\r', '\t', '\f':
			z.data.End = z.pos
			z.pos++
			return
		case '/', '>':
			z.data.End = z.pos
			return
		}
		z.pos++
	}
	z.eof = true
	z.data.End = z.pos
}

// readTagAttrKey reads an attribute's key.
func (z *Tokenizer) readTagAttrKey() Span {
	start := z.pos
	for {
		c := z.readByte()
		if z.eof {
			return Span{start, z.pos}
		}
		switch c {
		case '=':
			if start+1 == z.pos {
				// An '=' that starts a key is part of it.
				continue
			}
			fallthrough
		case ' ', '\n', '\r', '\t', '\f', '/', '>':
			z.pos--
			return Span{start, z.pos}
		}
	}
}

// readTagAttrVal reads an attribute's value, if it has one.
func (z *Tokenizer) readTagAttrVal() Span {
	v := Span{z.pos, z.pos}
	if z.skipWhiteSpace(); z.eof {
		return v
	}
	c := z.readByte()
	if c == '/' {
		return v
	}
	if c != '=' {
		z.pos--
		return v
	}
	if z.skipWhiteSpace(); z.eof {
		return v
	}
	quote := z.readByte()
	switch quote {
	case '>':
		z.pos--
		return v
	case '\'', '"':
		v.Start = z.pos
		i := bytes.IndexByte(z.buf[z.pos:], quote)
		if i < 0 {
			z.pos, z.eof = len(z.buf), true
			v.End = z.pos
			return v
		}
		v.End = z.pos + i
		z.pos += i + 1
		return v
	default:
		v.Start = z.pos - 1
		for z.pos < len(z.buf) {
			switch z.buf[z.pos] {
			case ' ', '\n', '\r', '\t', '\f':
				v.End = z.pos
				z.pos++
				return v
			case '>':
				v.End = z.pos
				return v
			}
			z.pos++
		}
		z.eof = true
		v.End = z.pos
		return v
	}
}
