package extract

import (
	"bytes"
	"mime"
	"regexp"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html/charset"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/unicode"
)

// metaScan is how far into a page decodeBytes looks for a <meta charset>:
// archived and script-heavy pages declare it well after the 1 KiB the
// WHATWG prescan reads.
const metaScan = 64 << 10

var metaCharsetRe = regexp.MustCompile(`(?i)<meta[^>]*?charset\s*=\s*["']?\s*([a-z0-9_:.\-]+)`)

// decodeBytes turns page bytes into UTF-8 text. In order: bytes that are
// valid UTF-8 are UTF-8 (a BOM is dropped); a UTF-16 BOM decides; the
// Content-Type header's charset; a <meta charset> in the first 64 KiB;
// else windows-1252, which maps every byte to some character.
func decodeBytes(b []byte, contentType string) []byte {
	if bytes.HasPrefix(b, []byte{0xEF, 0xBB, 0xBF}) {
		b = b[3:]
		if utf8.Valid(b) {
			return b
		}
		return bytes.ToValidUTF8(b, []byte("\uFFFD"))
	}
	if utf8.Valid(b) {
		return b
	}
	if len(b) >= 2 && (b[0] == 0xFF && b[1] == 0xFE || b[0] == 0xFE && b[1] == 0xFF) {
		return decodeWith(unicode.UTF16(unicode.BigEndian, unicode.ExpectBOM), b)
	}
	if contentType != "" {
		if _, params, err := mime.ParseMediaType(contentType); err == nil {
			if enc := lookupCharset(params["charset"]); enc != nil {
				return decodeWith(enc, b)
			}
		}
	}
	head := b
	if len(head) > metaScan {
		head = head[:metaScan]
	}
	if m := metaCharsetRe.FindSubmatch(head); m != nil {
		if enc := lookupCharset(string(m[1])); enc != nil {
			return decodeWith(enc, b)
		}
	}
	return decodeWith(charmap.Windows1252, b)
}

// lookupCharset finds a decoder for a charset label. UTF-8 and UTF-16
// labels give nil: the bytes were already found not to be valid UTF-8, and
// a meta tag declaring UTF-16 is wrong by definition (WHATWG).
func lookupCharset(label string) encoding.Encoding {
	label = strings.TrimSpace(label)
	if label == "" {
		return nil
	}
	enc, name := charset.Lookup(label)
	if enc == nil || name == "utf-8" || strings.HasPrefix(name, "utf-16") || name == "replacement" {
		return nil
	}
	return enc
}

func decodeWith(enc encoding.Encoding, b []byte) []byte {
	out, err := enc.NewDecoder().Bytes(b)
	if err != nil {
		return bytes.ToValidUTF8(b, []byte("\uFFFD"))
	}
	return out
}
