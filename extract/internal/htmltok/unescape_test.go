package htmltok

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"golang.org/x/net/html"
)

func TestUnescapeAttr(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"no reference", "plain value", "plain value"},
		{"named with semicolon", "Tom &amp; Jerry", "Tom & Jerry"},
		{"legacy name without semicolon", "a&amp b", "a& b"},
		{"query parameter that starts like an entity", "?a=1&notify=1", "?a=1&notify=1"},
		{"known prefix is not decoded", "&nbsp00", "&nbsp00"},
		{"before =", "?x&copy=2", "?x&copy=2"},
		{"unknown name", "R&D &foo; AT&T", "R&D &foo; AT&T"},
		{"numeric", "&#65;&#x42;&#67", "ABC"},
		{"two-rune entity", "&fjlig;", "fj"},
		{"semicolon entity", "&semi;", ";"},
		{"ampersand at the end", "a&", "a&"},
		{"ampersands in a row", "&&amp;&", "&&&"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, UnescapeAttr(tt.in))
			assert.Equal(t, xnetAttr(t, tt.in), UnescapeAttr(tt.in), "as x/net/html decodes it")
		})
	}
}

// xnetAttr is x/net/html's decoding of the attribute value v.
func xnetAttr(t *testing.T, v string) string {
	z := html.NewTokenizer(strings.NewReader(`<a b="` + v + `">`))
	if z.Next() != html.StartTagToken {
		t.Fatalf("not a start tag: %q", v)
	}
	_, val, _ := z.TagAttr()
	return string(val)
}

func FuzzUnescapeAttr(f *testing.F) {
	for _, s := range []string{"&nbsp00", "?a=1&notify=1", "&amp;", "&#x41", "&fjlig;", "&copy=", "&&"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		if strings.ContainsAny(v, "\"\r\x00") {
			return // not a double-quoted value as written
		}
		assert.Equal(t, xnetAttr(t, v), UnescapeAttr(v))
	})
}
