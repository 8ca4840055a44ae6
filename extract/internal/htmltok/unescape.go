package htmltok

import (
	"strings"

	"golang.org/x/net/html"
)

// UnescapeAttr decodes the character references of an attribute value as
// x/net/html's tokenizer does. html.UnescapeString follows the rule for
// text, which differs in attributes: there a named reference without ";"
// is decoded only when the whole name is one, never before "=", and never
// by its longest known prefix, so the link "?a=1&notify=1" keeps its
// "&notify" where text would read "¬ify".
func UnescapeAttr(s string) string {
	i := strings.IndexByte(s, '&')
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i >= 0 {
		b.WriteString(s[:i])
		s = s[i:]
		next := strings.IndexByte(s[1:], '&')
		seg := s
		if next >= 0 {
			seg = s[:next+1]
		}
		// seg holds one "&", at its start: what follows is copied as is.
		if len(seg) > 1 && seg[1] == '#' {
			// Numeric references decode alike in text and attributes.
			b.WriteString(html.UnescapeString(seg))
		} else {
			n := 1
			for n < len(seg) && isAlnum(seg[n]) {
				n++
			}
			name := seg[1:n]
			semi := n < len(seg) && seg[n] == ';'
			if semi {
				name = seg[1 : n+1]
			}
			switch {
			case name == "", !semi && n < len(seg) && seg[n] == '=', !isWholeEntity(name):
				b.WriteString(seg)
			default:
				b.WriteString(html.UnescapeString("&" + name))
				b.WriteString(seg[1+len(name):])
			}
		}
		s = s[len(seg):]
		i = strings.IndexByte(s, '&')
	}
	b.WriteString(s)
	return b.String()
}

// isWholeEntity reports whether name (with its ";", if written) is a
// named character reference as a whole. html.UnescapeString tells: it
// decodes a whole name, or else the longest known prefix of up to six
// characters followed by the rest of the name, or nothing.
func isWholeEntity(name string) bool {
	out := html.UnescapeString("&" + name)
	if out == "&"+name {
		return false
	}
	for j := min(len(name)-1, 6); j > 1; j-- {
		if p := html.UnescapeString("&" + name[:j]); p != "&"+name[:j] && out == p+name[j:] {
			return false
		}
	}
	return true
}

func isAlnum(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}
