package extract

import (
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/textanalysis/go-textanalysis/extract/internal/blockmodel"
)

func TestHasPrice(t *testing.T) {
	tests := []struct {
		text string
		want bool
	}{
		{"Now only $19.99", true},
		{"Price: 24,90 €", true},
		{"£ 5 off today", true},
		{"12€ per month", true},
		{"Costs in $ are shown below", false},
		{"We raised 5 million euros", false},
		{"Pay with €", false},
		{"", false},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			assert.Equal(t, tt.want, hasPrice(tt.text))
		})
	}
}

// TestContextFeatures checks the features of a block's place in the page:
// after the h1 or not, inside repeated cards, the page's share of code.
func TestContextFeatures(t *testing.T) {
	page := `<html><body><nav><a href="/">Home</a> <a href="/docs">Docs</a></nav><main><h1>Widgets</h1>` +
		`<p>` + prose(2) + `</p><pre>go get example.com/widget</pre><ul>` +
		strings.Repeat(`<li class="card"><p>A card about a widget for $5 with some words.</p></li>`, 4) +
		`</ul></main></body></html>`
	v, err := view(t.Context(), []byte(page))
	require.NoError(t, err)
	feature := func(b blockmodel.Block, name string) float32 { return b.Features[featureIndex(name)] }
	byText := map[string]blockmodel.Block{}
	for _, b := range v.Blocks {
		byText[b.Text] = b
	}
	nav, card := byText["Home Docs"], byText["A card about a widget for $5 with some words."]
	require.NotNil(t, nav.Features)
	require.NotNil(t, card.Features)
	assert.Equal(t, float32(0), feature(nav, "h1_before"))
	assert.Equal(t, float32(1), feature(card, "h1_before"))
	assert.Equal(t, float32(0), feature(nav, "log_anc_repeat"))
	assert.Greater(t, feature(card, "log_anc_repeat"), float32(1))
	assert.Equal(t, float32(1), feature(card, "price"))
	assert.Equal(t, float32(0), feature(nav, "price"))
	assert.Greater(t, feature(nav, "page_pre_share"), float32(0))
	assert.Equal(t, feature(nav, "page_pre_share"), feature(card, "page_pre_share"))
	assert.Greater(t, feature(card, "page_li_share"), float32(0))
}

// TestDocContextFeatures checks the features of a block's surroundings:
// its heading section (nested by level), the list introduced by a line
// ending in a colon, code nearby, and the same-tag siblings.
func TestDocContextFeatures(t *testing.T) {
	page := `<html><body><nav><a href="/">Home</a> <a href="/docs">Docs</a></nav><main>` +
		`<h2>Install</h2><p>` + prose(2) + `</p><p>Pick one of these:</p><ul>` +
		`<li>The binary release</li><li>The source tarball</li><li>A package</li></ul>` +
		`<h3>From source</h3><p>Run this:</p><pre>make install</pre>` +
		`<h2>Use</h2><p>` + prose(1) + `</p></main></body></html>`
	v, err := view(t.Context(), []byte(page))
	require.NoError(t, err)
	feature := func(b blockmodel.Block, name string) float32 { return b.Features[featureIndex(name)] }
	byText := map[string]blockmodel.Block{}
	for _, b := range v.Blocks {
		byText[b.Text] = b
	}
	nav, item, last := byText["Home Docs"], byText["The source tarball"], byText["A package"]
	sub, run := byText["From source"], byText["Run this:"]
	for _, b := range []blockmodel.Block{nav, item, last, sub, run} {
		require.NotNil(t, b.Features)
	}
	assert.Equal(t, float32(0), feature(nav, "hsec_level"))
	assert.Equal(t, float32(2), feature(item, "hsec_level"))
	assert.Equal(t, float32(3), feature(run, "hsec_level"))
	// The h2's section holds its h3's; the h3's ends at the next h2.
	assert.Greater(t, feature(item, "hsec_log_blocks"), feature(run, "hsec_log_blocks"))
	assert.Equal(t, float32(1), feature(item, "intro_colon"))
	assert.Equal(t, float32(1), feature(last, "intro_colon"))
	assert.Equal(t, float32(0), feature(nav, "intro_colon"))
	assert.Equal(t, float32(1), feature(run, "near_pre"))
	assert.Equal(t, float32(0), feature(nav, "near_pre"))
	assert.InDelta(t, math.Log1p(3), float64(feature(item, "sib_log_count")), 1e-6)
	assert.InDelta(t, math.Log1p(1), float64(feature(nav, "sib_log_count")), 1e-6)
}
