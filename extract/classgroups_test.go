package extract

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode"

	"github.com/stretchr/testify/assert"
)

// classGroups32 is a plain reading of the class groups named by the words\n// of s, for TestScanGroups.
func classGroups32(s string) uint32 {
	var g uint32
	start := -1
	var buf [32]byte
	emit := func(w string) {
		if len(w) > 32 {
			return
		}
		n := 0
		for i := 0; i < len(w); i++ {
			c := w[i]
			if c >= 'A' && c <= 'Z' {
				c += 'a' - 'A'
			}
			buf[n] = c
			n++
		}
		g |= classGroupOf[string(buf[:n])]
	}
	for i := 0; i <= len(s); i++ {
		letter := i < len(s) && (s[i] >= 'a' && s[i] <= 'z' || s[i] >= 'A' && s[i] <= 'Z')
		// Split at case changes too: "commentList".
		if letter && start >= 0 && s[i] >= 'A' && s[i] <= 'Z' && s[i-1] >= 'a' && s[i-1] <= 'z' {
			emit(s[start:i])
			start = i
			continue
		}
		if letter {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			emit(s[start:i])
			start = -1
		}
	}
	return g
}

// scanGroups finds the class groups that a separate pass over the words
// finds, and the same verdict as scan.
func TestScanGroups(t *testing.T) {
	var words []string
	for _, g := range classGroups {
		words = append(words, g.words...)
	}
	words = append(words, "x", "Share", "BAR", "readMore", "sidebarWidget", "-", "_", " ", "1", "verylongwordthatgoesonandonandonandon")
	rng := rand.New(rand.NewPCG(3, 4))
	for k := 0; k < 20000; k++ {
		s := ""
		for n := rng.IntN(6); n > 0; n-- {
			s += words[rng.IntN(len(words))]
			if rng.IntN(3) > 0 {
				s += []string{" ", "-", "_", "", "2"}[rng.IntN(5)]
			}
		}
		var v1, v2 wordVerdict
		v1.scan(s)
		g := v2.scanGroups(s)
		assert.Equal(t, classGroups32(s), g, s)
		assert.Equal(t, v1, v2, s)
	}
}

// mayHide finds what the searches it replaces find.
func TestMayHide(t *testing.T) {
	parts := []string{"hid", "Hid", "only", "none", "invisible", "offscreen", "screen-reader", "hi", "on", "no", "x", " ", "-", "sr", "d", "H"}
	rng := rand.New(rand.NewPCG(5, 6))
	for k := 0; k < 20000; k++ {
		s := ""
		for n := rng.IntN(5); n > 0; n-- {
			p := parts[rng.IntN(len(parts))]
			if rng.IntN(2) == 0 && len(p) > 1 {
				p = p[:1+rng.IntN(len(p)-1)]
			}
			s += p
		}
		want := strings.Contains(s, "hid") || strings.Contains(s, "only") || strings.Contains(s, "none") ||
			strings.Contains(s, "invisible") || strings.Contains(s, "offscreen") ||
			strings.Contains(s, "screen-reader") || strings.Contains(s, "Hid")
		assert.Equal(t, want, mayHide(s), s)
	}
}

// textStats counts as the Unicode tables say, ASCII included.
func TestTextStatsASCII(t *testing.T) {
	for r := rune(0); r < 0x80; r++ {
		s := string(r)
		st := textStats("a" + s + "b")
		want := textStatsSlow("a" + s + "b")
		assert.Equal(t, want, st, "%q", s)
	}
}

// textStatsSlow is textStats's counting through the Unicode tables only.
func textStatsSlow(s string) blockText {
	var t blockText
	in := false
	for _, r := range s {
		if unicode.IsSpace(r) {
			in = false
			continue
		}
		t.runes++
		switch {
		case unicode.IsLetter(r):
			t.letters++
			if unicode.IsUpper(r) {
				t.upper++
			}
			if !in {
				t.words++
				in = true
			}
		case unicode.IsDigit(r):
			t.digits++
			if !in {
				t.words++
				in = true
			}
		case r == '|' || r == '/':
			t.separators++
			in = false
		default:
			in = false
		}
	}
	full := textStats(s)
	t.endsSentence, t.startsUpper, t.question = full.endsSentence, full.startsUpper, full.question
	return t
}
