package extract

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"golang.org/x/net/html"
)

func TestClassVerdict(t *testing.T) {
	tests := []struct {
		class string
		drop  bool
		w     int
	}{
		{"post-comments", true, 0},
		{"shareBar", true, -25},
		{"read-more", true, -25},
		{"entry-content", false, 25},
		{"content-sidebar-wrap", false, 0},
		{"article-meta", true, 0},
		{"header", true, -25},
		{"shadow", false, 0},
		{"ad-slot", true, -25},
		{"socialLinks", true, -25},
		{"category-social-media tag-twitter post", false, 25},
		{"off-canvas", false, 0},
	}
	for _, tt := range tests {
		d, w := classVerdict(&html.Node{Attr: []html.Attribute{{Key: "class", Val: tt.class}}})
		assert.Equal(t, tt.drop, d, tt.class)
		if tt.w != 0 {
			assert.Equal(t, tt.w, w, tt.class)
		}
	}
}

// maybeWord never turns away a word that scanWords could find: every
// known word of lower-case letters passes it.
func TestMaybeWordKeepsKnownWords(t *testing.T) {
	for w := range wordInfoOf {
		letters := w != ""
		for i := 0; i < len(w); i++ {
			letters = letters && w[i] >= 'a' && w[i] <= 'z'
		}
		if letters {
			assert.True(t, maybeWord([]byte(w)), w)
		}
	}
	assert.False(t, maybeWord(nil))
}
