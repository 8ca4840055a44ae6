package extract

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/text/encoding/charmap"
)

func TestNormalizeDate(t *testing.T) {
	tests := map[string]string{
		"2024-03-05":                        "2024-03-05",
		"2024/3/5":                          "2024-03-05",
		"20240305":                          "2024-03-05",
		"2024-03-05T08:30:00+01:00":         "2024-03-05T08:30:00+01:00",
		"2024-03-05T08:30:00Z":              "2024-03-05T08:30:00Z",
		"2024-03-05T08:30:00":               "2024-03-05T08:30:00Z",
		"2024-03-05 08:30":                  "2024-03-05T08:30:00Z",
		"Tue, 05 Mar 2024 08:30:00 +0100":   "2024-03-05T08:30:00+01:00",
		"2024-03-05T08:30:00.000+0100 junk": "2024-03-05",
		"2024-02-30":                        "",
		"yesterday":                         "",
		"":                                  "",
		"0001-01-01T00:00:00Z":              "",
	}
	for in, want := range tests {
		assert.Equal(t, want, normalizeDate(in), in)
	}
}

func TestNormalizeLang(t *testing.T) {
	tests := map[string]string{
		"en": "en", "EN-us": "en-US", "de_AT": "de-AT", "fr, en": "fr", "": "", "english": "", "12": "",
	}
	for in, want := range tests {
		assert.Equal(t, want, normalizeLang(in), in)
	}
}

func TestCountWords(t *testing.T) {
	tests := map[string]int{
		"":                        0,
		"one":                     1,
		"don't stop well-known":   3,
		"Grüße aus Köln, 2024!":   4,
		"東京は晴れ":                   5,
		"  spaced\n\nout  words ": 3,
	}
	for in, want := range tests {
		assert.Equal(t, want, countWords(in), in)
	}
}

func TestBoilerplateLines(t *testing.T) {
	for _, s := range []string{"Read more", "Lesen Sie auch: Der Winter kommt", "Advertisement", "Photo: Jane Doe/AFP",
		"Updated at 1:23 p.m.", "Abbildung: Vergleich der Werte", "Published 20 November 2019 - 07:50 GMT", "© 2024 Example Corp", "VEA TAMBIÉN",
		"Explore further", "DON'T MISS", "Filed under: Politics |", "Tempo de leitura: 2 minutos", "Comments", "Leave a Reply",
		"Like this story? Share it with a friend!"} {
		assert.True(t, boilerplateLine(s), s)
	}
	for _, s := range []string{"The committee read more than forty letters.", "Published in 2019, the report found little change in the figures of the year.",
		"Photographers gathered outside the court.", "Comments from the minister were brief.", "Share prices fell."} {
		assert.False(t, boilerplateLine(s), s)
	}
	for _, s := range []string{"Subscribe to our newsletter!", "Follow us on Twitter for updates", "Download our app today", "Folgen Sie uns auf Instagram",
		"We use cookies to improve your experience on our website.", "Please enable JavaScript to view the comments."} {
		assert.True(t, callToAction(strings.ToLower(s)), s)
	}
	for _, s := range []string{"Lee Elder in 1975. | © Augusta National/Getty Images", "Cafe im Bohnenviertel. Foto: Stuttgart Marketing",
		"Photograph by Ed Marshall", "Symbolbild: dahancoo / Pixabay"} {
		assert.True(t, pictureCredit(strings.ToLower(s)), s)
	}
	for _, s := range []string{"The photograph shows the bridge in 1975.", "Photos of the launch were released on Monday."} {
		assert.False(t, pictureCredit(strings.ToLower(s)), s)
	}
	assert.True(t, creditLine("associated press writers jane doe and john roe contributed to this report."))
	assert.False(t, creditLine("he said the unions contributed to this reporting season's losses."))
	for _, s := range []string{"The service lost 10,000 subscribers in a month.", "Follow-up questions were answered on Friday.",
		"She baked cookies for the whole street."} {
		assert.False(t, callToAction(strings.ToLower(s)), s)
	}
}

func TestDecodeBytes(t *testing.T) {
	latin1, _ := charmap.Windows1252.NewEncoder().String("<p>café – naïve</p>")
	cyr, _ := charmap.Windows1251.NewEncoder().String("<p>привет</p>")
	tests := []struct {
		name, in, contentType, want string
	}{
		{"utf-8", "<p>café</p>", "", "<p>café</p>"},
		{"utf-8 bom", "\xEF\xBB\xBF<p>café</p>", "", "<p>café</p>"},
		{"utf-8 wins over header", "<p>café</p>", "text/html; charset=iso-8859-1", "<p>café</p>"},
		{"header charset", latin1, "text/html; charset=windows-1252", "<p>café – naïve</p>"},
		{"meta charset", `<meta charset="windows-1251">` + cyr, "", `<meta charset="windows-1251"><p>привет</p>`},
		{"fallback windows-1252", latin1, "", "<p>café – naïve</p>"},
		{"utf-16 bom", "\xFF\xFE<\x00p\x00>\x00", "", "<p>"},
		{"meta says utf-8 but bytes are not", `<meta charset="utf-8">` + latin1, "", `<meta charset="utf-8"><p>café – naïve</p>`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, string(decodeBytes([]byte(tt.in), tt.contentType)))
		})
	}
}

// findSlow is phraseSet.find as one search per phrase at every word start.
func findSlow(phrases []string, lower string, whole bool) bool {
	for i := 0; i < len(lower); i++ {
		if i > 0 && letterBefore(lower, i) {
			continue
		}
		for _, w := range phrases {
			if !strings.HasPrefix(lower[i:], w) {
				continue
			}
			if r, _ := utf8.DecodeRuneInString(lower[i+len(w):]); !whole || !unicode.IsLetter(r) {
				return true
			}
		}
	}
	return false
}

// phraseSet.find answers as a search for each phrase does, on texts made
// of phrases, their pieces, letters (some not ASCII) and separators.
func TestPhraseSetFind(t *testing.T) {
	phrases := append(append([]string{"x", "é"}, ctaWords...), creditMarkers...)
	set := newPhraseSet(phrases...)
	pieces := append([]string{"a", "b", "é", " ", ".", ":", "s", "ß", "©", "x"}, phrases...)
	for _, w := range phrases {
		pieces = append(pieces, w[:len(w)/2], w[len(w)/2:])
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 20000 {
		var b strings.Builder
		for range rng.IntN(6) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		s := b.String()
		for _, whole := range []bool{false, true} {
			require.Equal(t, findSlow(phrases, s, whole), set.find(s, whole), "%q whole=%v", s, whole)
		}
	}
}

// indexCurrency finds what strings.IndexAny finds, in valid and broken
// UTF-8.
func TestIndexCurrency(t *testing.T) {
	pieces := []string{"$", "€", "£", "¥", "\xc2", "\xe2", "\x82", "\xac", "\xa3", "\xe2\x82", "a", "1", " ", "é", "\xf0"}
	rng := rand.New(rand.NewPCG(5, 6))
	for range 20000 {
		var b strings.Builder
		for range rng.IntN(7) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		s := b.String()
		require.Equal(t, strings.IndexAny(s, "$€£¥"), indexCurrency(s), "%q", s)
	}
}
