package main

import (
	"bytes"
	"slices"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// decodePageLine reads a text batch line {"id","url","html"} whose values
// are all strings; see decodeStringLine.
func decodePageLine(b []byte) (id, url, html string, ok bool) {
	vals, ok := decodeStringLine(b, "id", "url", "html")
	if !ok {
		return "", "", "", false
	}
	return vals[0], vals[1], vals[2], true
}

// decodeStringLine reads a batch line that is a JSON object of string
// values under the given keys only, in one pass; vals follow names ("" for
// a key that is absent). Pages and texts are large, and encoding/json
// spends more on a long string than some analyses do; ok is false for
// anything this fast path does not handle exactly as encoding/json would
// (other keys or value types, invalid UTF-8, control characters), and the
// caller then uses encoding/json. FuzzDecodeStringLine holds the two to the
// same answers.
func decodeStringLine(b []byte, names ...string) (vals []string, ok bool) {
	if !utf8.Valid(b) {
		return nil, false
	}
	vals = make([]string, len(names))
	i := skipWS(b, 0)
	if i >= len(b) || b[i] != '{' {
		return nil, false
	}
	i++
	for first := true; ; first = false {
		i = skipWS(b, i)
		if first && i < len(b) && b[i] == '}' {
			return vals, skipWS(b, i+1) == len(b)
		}
		key, j, ok := readString(b, i)
		if !ok {
			return nil, false
		}
		i = skipWS(b, j)
		if i >= len(b) || b[i] != ':' {
			return nil, false
		}
		i = skipWS(b, i+1)
		val, j, ok := readString(b, i)
		if !ok {
			return nil, false
		}
		k := slices.Index(names, key)
		if k < 0 {
			// encoding/json matches keys case-insensitively and
			// ignores unknown ones; leave those lines to it.
			return nil, false
		}
		vals[k] = val
		i = skipWS(b, j)
		if i < len(b) && b[i] == ',' {
			i++
			continue
		}
		if i < len(b) && b[i] == '}' {
			return vals, skipWS(b, i+1) == len(b)
		}
		return nil, false
	}
}

func skipWS(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

func readString(b []byte, i int) (string, int, bool) {
	if i >= len(b) || b[i] != '"' {
		return "", i, false
	}
	i++
	// A string with escapes is built once, in a Builder sized for the rest
	// of the line, so that a page-sized value is not copied a second time
	// when it becomes a string.
	var out strings.Builder
	started := false
	for {
		// In JSON text every '"' inside a string is escaped, so the
		// string ends at the first '"' before the next backslash.
		j := bytes.IndexByte(b[i:], '\\')
		seg := b[i:]
		if j >= 0 {
			seg = b[i : i+j]
		}
		q := bytes.IndexByte(seg, '"')
		if q >= 0 {
			seg = seg[:q+1]
		}
		// encoding/json rejects raw control characters in strings.
		for _, c := range seg {
			if c < 0x20 {
				return "", i, false
			}
		}
		if q >= 0 {
			if !started {
				return string(seg[:q]), i + q + 1, true
			}
			out.Write(seg[:q])
			return out.String(), i + q + 1, true
		}
		if j < 0 || i+j+1 >= len(b) {
			return "", i, false
		}
		if !started {
			out.Grow(len(b) - i)
			started = true
		}
		out.Write(seg)
		i += j
		switch c := b[i+1]; c {
		case '"', '\\', '/':
			out.WriteByte(c)
			i += 2
		case 'b':
			out.WriteByte('\b')
			i += 2
		case 'f':
			out.WriteByte('\f')
			i += 2
		case 'n':
			out.WriteByte('\n')
			i += 2
		case 'r':
			out.WriteByte('\r')
			i += 2
		case 't':
			out.WriteByte('\t')
			i += 2
		case 'u':
			r, ok := hex4(b, i+2)
			if !ok {
				return "", i, false
			}
			i += 6
			if utf16.IsSurrogate(r) {
				if r2, ok := hex4(b, i+2); ok && i+1 < len(b) && b[i] == '\\' && b[i+1] == 'u' {
					if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
						r = dec
						i += 6
					} else {
						r = utf8.RuneError
					}
				} else {
					r = utf8.RuneError
				}
			}
			out.WriteRune(r)
		default:
			return "", i, false
		}
	}
}

func hex4(b []byte, i int) (rune, bool) {
	if i+4 > len(b) {
		return 0, false
	}
	var r rune
	for _, c := range b[i : i+4] {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}
