package main

import (
	"encoding/binary"
	"math/bits"
	"slices"
	"unicode/utf16"
	"unicode/utf8"
)

// decodePageLine reads a text batch line {"id","url","html"} whose values
// are all strings, as decodeStringLine does, except that the page is
// unescaped into buf[:0] (grown as needed) and returned as bytes: a page
// is the bulk of the line, and a buffer reused from line to line spares
// allocating, zeroing and faulting in a page-sized string per line.
func decodePageLine(b, buf []byte) (id, url string, html []byte, ok bool) {
	vals, html, ok := decodeLineInto(b, []string{"id", "url", "html"}, 2, buf)
	if !ok {
		return "", "", nil, false
	}
	return vals[0], vals[1], html, true
}

// decodeStringLine reads a batch line that is a JSON object of string
// values under the given keys only, in one pass; vals follow names ("" for
// a key that is absent). Pages and texts are large, and encoding/json
// spends more on a long string than some analyses do; ok is false for
// anything this fast path does not handle exactly as encoding/json would
// (other keys or value types, invalid UTF-8, control characters), and the
// caller then uses encoding/json. FuzzDecodeStringLine and
// FuzzDecodePageLine hold the two to the same answers.
func decodeStringLine(b []byte, names ...string) (vals []string, ok bool) {
	vals, _, ok = decodeLineInto(b, names, -1, nil)
	return vals, ok
}

// decodeLineInto is decodeStringLine, except that the value under
// names[into], if into is an index of names, is unescaped into buf[:0]
// and returned as raw (nil if the key is absent) instead of in vals.
func decodeLineInto(b []byte, names []string, into int, buf []byte) (vals []string, raw []byte, ok bool) {
	if !utf8.Valid(b) {
		return nil, nil, false
	}
	vals = make([]string, len(names))
	i := skipWS(b, 0)
	if i >= len(b) || b[i] != '{' {
		return nil, nil, false
	}
	i++
	for first := true; ; first = false {
		i = skipWS(b, i)
		if first && i < len(b) && b[i] == '}' {
			return vals, raw, skipWS(b, i+1) == len(b)
		}
		key, j, ok := readString(b, i)
		if !ok {
			return nil, nil, false
		}
		i = skipWS(b, j)
		if i >= len(b) || b[i] != ':' {
			return nil, nil, false
		}
		i = skipWS(b, i+1)
		k := slices.Index(names, key)
		if k < 0 {
			// encoding/json matches keys case-insensitively and
			// ignores unknown ones; leave those lines to it.
			return nil, nil, false
		}
		if k == into {
			// A repeated key: the last value wins, as in encoding/json.
			raw, j, ok = appendUnquoted(buf[:0], b, i)
			if raw == nil {
				raw = []byte{}
			}
		} else {
			vals[k], j, ok = readString(b, i)
		}
		if !ok {
			return nil, nil, false
		}
		i = skipWS(b, j)
		if i < len(b) && b[i] == ',' {
			i++
			continue
		}
		if i < len(b) && b[i] == '}' {
			return vals, raw, skipWS(b, i+1) == len(b)
		}
		return nil, nil, false
	}
}

func skipWS(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// readString reads the JSON string that starts at b[i] and returns it and
// the index after it.
func readString(b []byte, i int) (string, int, bool) {
	if i >= len(b) || b[i] != '"' {
		return "", i, false
	}
	// A string without escapes, the common case, is copied once.
	j := plainRun(b, i+1)
	if j < len(b) && b[j] == '"' {
		return string(b[i+1 : j]), j + 1, true
	}
	// Find the closing quote, so that appendUnquoted makes room for this
	// string and not for the rest of the line.
	for j+1 < len(b) && b[j] == '\\' {
		j = plainRun(b, j+2)
	}
	if j >= len(b) || b[j] != '"' {
		return "", i, false
	}
	out, j, ok := appendUnquoted(nil, b[:j+1], i)
	if !ok {
		return "", i, false
	}
	return string(out), j, true
}

// stopByte marks the bytes that end a run of a JSON string's bytes that
// stand for themselves: the closing quote, a backslash, and the control
// characters, which encoding/json rejects.
var stopByte = func() (t [256]bool) {
	for c := range 0x20 {
		t[c] = true
	}
	t['"'], t['\\'] = true, true
	return t
}()

// Eight copies of a byte, for testing the eight bytes of a word at once.
const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// stopMask has the high bit of each byte of w that is a stop byte set,
// the lowest one at least exactly: a borrow can only mark a byte above a
// stop byte.
func stopMask(w uint64) uint64 {
	q, s := w^('"'*ones), w^('\\'*ones)
	return ((w-0x20*ones)&^w | (q-ones)&^q | (s-ones)&^s) & highs
}

// plainRun returns the index of the first stop byte in b at or after i,
// or len(b).
func plainRun(b []byte, i int) int {
	for ; i+8 <= len(b); i += 8 {
		if m := stopMask(binary.LittleEndian.Uint64(b[i:])); m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
	}
	for i < len(b) && !stopByte[b[i]] {
		i++
	}
	return i
}

// appendUnquoted appends the value of the JSON string that starts at b[i]
// to dst, exactly as encoding/json decodes it (a lone surrogate becomes
// U+FFFD), and returns the index after the string. b must be valid UTF-8.
//
// It copies eight bytes at a time, stopping at a stop byte: in a page as
// encoding/json writes it every tag has two escapes (\u003c, \u003e) and
// most attributes two more, so that the runs between escapes are some
// twenty bytes long, and unescaping a page-sized line byte by byte, or
// run by run, cost a tenth of extracting the page.
func appendUnquoted(dst, b []byte, i int) ([]byte, int, bool) {
	if i >= len(b) || b[i] != '"' {
		return dst, i, false
	}
	i++
	// A value is never longer than its JSON text: room for all of it,
	// and for the last word copied whole, is made once, and out[n:] is
	// written without growing.
	n := len(dst)
	dst = slices.Grow(dst, len(b)-i+8)
	out := dst[:cap(dst)]
	for {
		for i+8 <= len(b) {
			w := binary.LittleEndian.Uint64(b[i:])
			binary.LittleEndian.PutUint64(out[n:], w)
			if m := stopMask(w); m != 0 {
				k := bits.TrailingZeros64(m) >> 3
				i, n = i+k, n+k
				break
			}
			i, n = i+8, n+8
		}
		for i < len(b) && !stopByte[b[i]] {
			out[n] = b[i]
			i, n = i+1, n+1
		}
		if i >= len(b) {
			return out[:n], i, false
		}
		switch b[i] {
		case '"':
			return out[:n], i + 1, true
		case '\\':
		default: // a control character
			return out[:n], i, false
		}
		if i+1 >= len(b) {
			return out[:n], i, false
		}
		c := b[i+1]
		switch c {
		case '"', '\\', '/':
		case 'b':
			c = '\b'
		case 'f':
			c = '\f'
		case 'n':
			c = '\n'
		case 'r':
			c = '\r'
		case 't':
			c = '\t'
		case 'u':
			r, ok := hex4(b, i+2)
			if !ok {
				return out[:n], i, false
			}
			i += 6
			if r < utf8.RuneSelf {
				// "<", ">" and "&" are \u003c, \u003e and \u0026 in
				// what encoding/json writes by default.
				out[n] = byte(r)
				n++
				continue
			}
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
			n += utf8.EncodeRune(out[n:], r)
			continue
		default:
			return out[:n], i, false
		}
		out[n] = c
		i, n = i+2, n+1
	}
}

// hexVal is the value of a hexadecimal digit, or 0xff.
var hexVal = func() (t [256]byte) {
	for i := range t {
		t[i] = 0xff
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = byte(c - '0')
	}
	for c := 'a'; c <= 'f'; c++ {
		t[c] = byte(c - 'a' + 10)
		t[c-'a'+'A'] = byte(c - 'a' + 10)
	}
	return t
}()

func hex4(b []byte, i int) (rune, bool) {
	if i < 0 || i+4 > len(b) {
		return 0, false
	}
	h0, h1, h2, h3 := hexVal[b[i]], hexVal[b[i+1]], hexVal[b[i+2]], hexVal[b[i+3]]
	if h0|h1|h2|h3 == 0xff {
		return 0, false
	}
	return rune(h0)<<12 | rune(h1)<<8 | rune(h2)<<4 | rune(h3), true
}
