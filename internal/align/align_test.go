package align

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/text/unicode/norm"
)

func TestRunes(t *testing.T) {
	tests := []struct {
		name string
		text string
		byte int
		want int
	}{
		{"ascii", "hello world", 6, 6},
		{"start", "héllo", 0, 0},
		{"after two-byte rune", "héllo", 3, 2},
		{"inside two-byte rune", "héllo", 2, 1},
		{"end", "héllo", 6, 5},
		{"past end clamps", "héllo", 99, 5},
		{"emoji", "a😀b", 5, 2},
		{"negative", "abc", -1, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, NewIndex(tt.text).Runes(tt.byte))
		})
	}
}

func TestBytesRoundTrip(t *testing.T) {
	text := "Zoë met “Ana” in Köln 😀 ok"
	idx := NewIndex(text)
	r := 0
	for b := range text {
		assert.Equal(t, r, idx.Runes(b), "byte %d", b)
		assert.Equal(t, b, idx.Bytes(r), "rune %d", r)
		r++
	}
	assert.Equal(t, utf8.RuneCountInString(text), idx.Runes(len(text)))
}

func TestFind(t *testing.T) {
	tests := []struct {
		name, text, token string
		from              int
		want              string
		ok                bool
	}{
		{"plain", "a cat sat", "sat", 0, "sat", true},
		{"from skips earlier", "sat a sat", "sat", 1, "sat", true},
		{"curly quote", "he said “hi”", `"`, 0, "“", true},
		{"curly apostrophe", "don’t", "'t", 0, "’t", true},
		{"missing", "abc", "x", 0, "", false},
		{"empty token", "abc", "", 0, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, e, ok := Find(tt.text, tt.token, tt.from)
			require.Equal(t, tt.ok, ok)
			if ok {
				assert.Equal(t, tt.want, tt.text[s:e])
			}
		})
	}
}

func FuzzRunes(f *testing.F) {
	f.Add("Zoë “quoted” 😀\n")
	f.Add("\xff\xfe bad")
	f.Fuzz(func(t *testing.T, text string) {
		idx := NewIndex(text)
		prev := 0
		for b := 0; b <= len(text); b++ {
			r := idx.Runes(b)
			if r < prev || r > utf8.RuneCountInString(text) {
				t.Fatalf("Runes(%d)=%d not monotonic in %q", b, r, text)
			}
			prev = r
		}
	})
}

func TestValid(t *testing.T) {
	for _, text := range []string{"ok", "a\xffb", "\x9c0", "\xe2\x82"} {
		v := Valid(text)
		assert.True(t, utf8.ValidString(v))
		assert.Equal(t, string([]rune(text)), v)
	}
}

func TestNFC(t *testing.T) {
	tests := []struct {
		name, text, want string
	}{
		{"already NFC", "Amélie in Zürich", "Amélie in Zürich"},
		{"combining accent", "Ame\u0301lie met Zu\u0308rich", "Amélie met Zürich"},
		{"mark after a space stays", "a \u0301b", "a \u0301b"},
		{"empty", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := NFC(tt.text)
			assert.Equal(t, tt.want, n.Text)
			// Every word of the normalized text maps back to the same
			// word, as written, in the original.
			for _, w := range strings.Fields(n.Text) {
				i := strings.Index(n.Text, w)
				s, e := n.Source(i, false), n.Source(i+len(w), true)
				assert.Equal(t, w, norm.NFC.String(tt.text[s:e]))
			}
			assert.Equal(t, 0, n.Source(0, false))
			assert.Equal(t, len(tt.text), n.Source(len(n.Text), true))
		})
	}
}

// A token may start inside a segment that normalization kept as it was
// (an emoji followed by a stray mark): its start maps to the same place in
// the original, not back to the emoji.
func TestNFCInsideUnchangedSegment(t *testing.T) {
	text := "A\u0301 \U0001F468\u030100" // NFD elsewhere, so a mapping is built
	n := NFC(text)
	mark := strings.Index(n.Text, "\u0301")
	require.Positive(t, mark)
	assert.Equal(t, "\u030100", text[n.Source(mark, false):])
	assert.Equal(t, "\u030100", text[n.Source(mark, true):])
	// Inside a segment normalization changed, offsets still widen.
	assert.Equal(t, 0, n.Source(1, false))
	assert.Equal(t, 3, n.Source(1, true))

	// The same when normalization rewrites the mark (U+0341 is U+0301 in
	// NFC): the emoji is a segment of its own, so the mark's token still
	// starts after it (fuzzing found "👨" + U+0341 + "0" read as a PERSON
	// that held the emoji).
	text = "👨́0 009"
	n = NFC(text)
	mark = strings.Index(n.Text, "́")
	assert.Equal(t, "́0 009", text[n.Source(mark, false):])
	assert.Equal(t, "👨", text[:n.Source(mark, true)])
}

func FuzzNFC(f *testing.F) {
	f.Add("Ame\u0301lie")
	f.Add("e\u0301\u0301\u0323x")
	f.Add("e\u0301 0\uffac\u08e8\uffac \u1100\u1161")
	f.Fuzz(func(t *testing.T, text string) {
		n := NFC(text)
		if utf8.ValidString(text) && n.Text != norm.NFC.String(text) {
			t.Fatalf("NFC(%q) = %q, want %q", text, n.Text, norm.NFC.String(text))
		}
		checkSource(t, text, n)
	})
}

// checkSource fails t unless every offset of n.Text maps into text, in
// order, as a span that starts no later than it ends.
func checkSource(t *testing.T, text string, n *Normalized) {
	t.Helper()
	prev := 0
	for off := 0; off <= len(n.Text); off++ {
		s, e := n.Source(off, false), n.Source(off, true)
		if s < prev || s > e || e > len(text) {
			t.Fatalf("offset %d maps to [%d, %d) after %d in %q", off, s, e, prev, text)
		}
		prev = s
	}
}

func TestFold(t *testing.T) {
	tests := []struct {
		name, text, want string
	}{
		{"ascii", "Amelie in Zurich", "Amelie in Zurich"},
		{"precomposed", "Amélie in Zürich, José", "Amelie in Zurich, Jose"},
		{"combining accent", "Ame\u0301lie met Zu\u0308rich", "Amelie met Zurich"},
		{"no decomposition", "Bjørn Straße Łódź", "Bjørn Straße Łodz"},
		{"other scripts keep their marks", "नमस्ते שָׁלוֹם", "नमस्ते שָׁלוֹם"},
		{"mark after a space stays", "a \u0301b", "a \u0301b"},
		{"emoji", "Merkel 👍🏽", "Merkel 👍🏽"},
		{"hangul jamo compose", "Zu\u0308rich \u1100\u1161", "Zurich \uac00"},
		{"emoji and a mark NFC rewrites", "Zu\u0308rich \U0001F468\u0341x", "Zurich \U0001F468\u0301x"},
		{"mark on a hangul letter stays", "Zu\u0308rich 0\uffac\u08e8\uffac", "Zurich 0\uffac\u08e8\uffac"},
		{"empty", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := Fold(tt.text)
			assert.Equal(t, tt.want, n.Text)
			// Every word of the folded text maps back to the word, as
			// written, in the original.
			orig := strings.Fields(tt.text)
			for k, w := range strings.Fields(n.Text) {
				i := strings.Index(n.Text, w)
				s, e := n.Source(i, false), n.Source(i+len(w), true)
				assert.Equal(t, orig[k], tt.text[s:e])
			}
			assert.Equal(t, 0, n.Source(0, false))
			assert.Equal(t, len(tt.text), n.Source(len(n.Text), true))
		})
	}
}

func FuzzFold(f *testing.F) {
	f.Add("Ame\u0301lie")
	f.Add("e\u0301\u0301\u0323x Zürich")
	f.Add("שָׁלוֹם Łódź")
	// golang.org/x/text's norm.Iter panicked on this one.
	f.Add("Ame\u0301lie 0\uffac\u08e8\uffac")
	f.Fuzz(func(t *testing.T, text string) {
		if !utf8.ValidString(text) {
			return
		}
		n := Fold(text)
		if !norm.NFC.IsNormalString(n.Text) {
			t.Fatalf("Fold(%q) = %q, not in NFC", text, n.Text)
		}
		// needsFold's shortcut never skips a change, and foldLetter's
		// never makes one, that the general way would not.
		var f folder
		if walked := segments(text, f.foldAny); walked.Text != n.Text {
			t.Fatalf("Fold(%q) = %q, the general way gives %q", text, n.Text, walked.Text)
		}
		checkSource(t, text, n)
	})
}

// BenchmarkFold measures folding a text with no Latin marks (Chinese: the
// shortcut) and one with many (French: the segment walk).
func BenchmarkFold(b *testing.B) {
	for _, tt := range []struct{ name, text string }{
		{"chinese", strings.Repeat("北京是中华人民共和国的首都。", 200)},
		{"french", strings.Repeat("Amélie a visité Zürich avec François. ", 200)},
	} {
		b.Run(tt.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(tt.text)))
			for b.Loop() {
				Fold(tt.text)
			}
		})
	}
}
