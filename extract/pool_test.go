package extract

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPooledBuffersNotKept checks that neither a Page nor a tree keeps a
// slice of the buffers that FromHTML and the parser give back to the pool:
// extracting other pages, which reuse them, must leave an earlier result
// as it was.
func TestPooledBuffersNotKept(t *testing.T) {
	page := func(word string) []byte {
		return []byte(`<html lang="en"><head><title>` + word + ` title</title><meta name="author" content="` + word + ` Author">` +
			`<script>var x = 1;</script></head><body class="` + word + `"><article><h1>` + word + `</h1>` +
			strings.Repeat(`<p class="`+word+`">The `+word+` paragraph, with commas, is long enough to be kept as text. `+word+` again.</p><!-- c -->`, 20) +
			`<noscript><p>` + word + ` in noscript</p></noscript></article></body></html>`)
	}
	first, err := FromHTML(t.Context(), bytes.NewReader(page("alpha")), "", Options{})
	require.NoError(t, err)
	require.Contains(t, first.Text, "alpha paragraph")
	want := fmt.Sprintf("%+v", *first)
	doc := testParse(t, page("gamma"))
	wantTree := dumpTree(doc)
	for i := 0; i < 4; i++ {
		_, err := FromHTML(t.Context(), strings.NewReader(string(page("betabeta"))), "", Options{})
		require.NoError(t, err)
	}
	assert.Equal(t, want, fmt.Sprintf("%+v", *first))
	assert.Equal(t, wantTree, dumpTree(doc))
}
