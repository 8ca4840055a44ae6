package main

import (
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/textanalysis/go-textanalysis/sentiment"
	"github.com/textanalysis/go-textanalysis/server"
)

// jsonAppender is a result that writes its own JSON, exactly as
// encoding/json (with HTML escaping off) would, but without reflection:
// for results that are many and small, such as a batch of sentiment
// scores, encoding took half the time of scoring.
type jsonAppender interface {
	appendJSON(b []byte) []byte
}

// sentimentJSON writes a sentiment result.
type sentimentJSON struct{ *sentiment.Result }

func (r sentimentJSON) appendJSON(b []byte) []byte {
	b = append(b, `{"label":`...)
	b = appendJSONString(b, r.Label)
	b = appendScores(b, r.Compound, r.Pos, r.Neu, r.Neg)
	b = append(b, `,"sentences":[`...)
	for i, s := range r.Sentences {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"text":`...)
		b = appendJSONString(b, s.Text)
		b = append(b, `,"start":`...)
		b = strconv.AppendInt(b, int64(s.Start), 10)
		b = append(b, `,"end":`...)
		b = strconv.AppendInt(b, int64(s.End), 10)
		b = append(b, `,"label":`...)
		b = appendJSONString(b, s.Label)
		b = appendScores(b, s.Compound, s.Pos, s.Neu, s.Neg)
		b = append(b, '}')
	}
	return append(b, "]}"...)
}

func appendScores(b []byte, compound, pos, neu, neg float64) []byte {
	b = append(b, `,"compound":`...)
	b = appendJSONFloat(b, compound)
	b = append(b, `,"pos":`...)
	b = appendJSONFloat(b, pos)
	b = append(b, `,"neu":`...)
	b = appendJSONFloat(b, neu)
	b = append(b, `,"neg":`...)
	return appendJSONFloat(b, neg)
}

// appendJSONFloat formats a finite float64 as encoding/json does.
func appendJSONFloat(b []byte, f float64) []byte {
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		// e-09 → e-9, as encoding/json writes it.
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

const hexDigits = "0123456789abcdef"

// appendJSONString quotes s as encoding/json does with HTML escaping off:
// invalid UTF-8 becomes \ufffd, and U+2028 and U+2029 are escaped.
func appendJSONString(b []byte, s string) []byte {
	return appendQuoted(b, s, false)
}

// textJSON writes a text result (the API's TextBody) in a batch.
type textJSON struct{ server.TextBody }

func (r textJSON) appendJSON(b []byte) []byte {
	b = append(b, `{"url":`...)
	b = appendNullable(b, r.URL)
	b = append(b, `,"final_url":`...)
	b = appendNullable(b, r.FinalURL)
	b = append(b, `,"title":`...)
	b = appendNullable(b, r.Title)
	b = append(b, `,"author":`...)
	b = appendNullable(b, r.Author)
	b = append(b, `,"published":`...)
	b = appendNullable(b, r.Published)
	b = append(b, `,"language":`...)
	b = appendNullable(b, r.Language)
	b = append(b, `,"language_tag":`...)
	b = appendNullable(b, r.LanguageTag)
	b = append(b, `,"text":`...)
	b = appendJSONString(b, r.Text)
	b = append(b, `,"word_count":`...)
	b = strconv.AppendInt(b, int64(r.WordCount), 10)
	b = append(b, `,"warning":`...)
	b = appendNullable(b, r.Warning)
	b = append(b, `,"page_type":`...)
	b = appendNullable(b, r.PageType)
	return append(b, '}')
}

func appendNullable(b []byte, s *string) []byte {
	if s == nil {
		return append(b, "null"...)
	}
	return appendJSONString(b, *s)
}

// marshalJSONString is json.Marshal(s): as appendJSONString, and with <, >
// and & escaped too.
func marshalJSONString(s string) []byte {
	return appendQuoted(make([]byte, 0, len(s)+2), s, true)
}

func appendQuoted(b []byte, s string, escapeHTML bool) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && (!escapeHTML || c != '<' && c != '>' && c != '&') {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
