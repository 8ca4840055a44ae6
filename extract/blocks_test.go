package extract

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// prose returns n distinct sentences of ordinary article text.
func prose(n int) string {
	var sb strings.Builder
	for i := range n {
		sb.WriteString("The council met again on day " + strings.Repeat("I", i+1) +
			", and the members argued about the bridge, the budget, the schedule and the contractors for an hour. ")
	}
	return sb.String()
}

// TestRuleTextBlocks checks the hand rules, whose choice the classifier
// takes as a feature: a block they keep stays unless the classifier is
// confident it is not content.
func TestRuleTextBlocks(t *testing.T) {
	article := "<p>" + prose(3) + "</p><p>" + prose(2) + "</p><p>" + prose(2) + "</p>"
	tests := []struct {
		name     string
		body     string
		contains []string
		excludes []string
	}{
		{
			name:     "a wrapper hidden until its script runs",
			body:     `<div id="app" style="visibility: hidden">` + article + `</div>`,
			contains: []string{"The council met again on day I,"},
		},
		{
			name:     "a small element hidden by visibility",
			body:     article + `<div style="visibility:hidden">A hidden promotion nobody sees on the page</div>`,
			excludes: []string{"A hidden promotion"},
		},
		{
			name:     "a wrapper hidden by display none too",
			body:     `<p>Visible words.</p><div style="visibility:hidden; display: none">` + article + `</div>`,
			excludes: []string{"The council met again"},
		},
		{
			name:     "prose paragraph with a title class",
			body:     `<div class="story"><p class="title">Opening: ` + prose(2) + `</p>` + article + `</div>`,
			contains: []string{"Opening: The council"},
		},
		{
			name:     "short title class",
			body:     `<div class="story"><div class="title">Section title here</div>` + article + `</div>`,
			excludes: []string{"Section title here"},
		},
		{
			name: "hover card inside a paragraph",
			body: `<div class="story"><p>` + prose(2) + ` Rep. <a href="/p">Jane Roe</a><span class="rollover-people-block">` +
				`<a href="/x">Unrelated headline about something else</a></span> (D-Minn.) said.</p>` + article + `</div>`,
			contains: []string{"Jane Roe", "(D-Minn.) said."},
			excludes: []string{"Unrelated headline"},
		},
		{
			name:     "named anchor is not a link",
			body:     `<div class="story">` + article + `<p><a name="q7">What did the mayor say about the bridge?</a></p><p>` + prose(2) + `</p></div>`,
			contains: []string{"What did the mayor say about the bridge?"},
		},
		{
			name:     "caption with a picture credit",
			body:     `<div class="story">` + article + `<div>The bridge at dawn. | © Jane Doe/Getty Images</div><p>` + prose(2) + `</p></div>`,
			excludes: []string{"The bridge at dawn"},
		},
		{
			name: "article under a navigation-named wrapper",
			body: `<div class="navigation-wrapper"><main>` + article + `<p>` + prose(2) +
				`<span class="caption">A caption inside the article</span></p></main></div>` +
				`<div>` + strings.Repeat(`<ul><li><a href="/a">A link to another section of the site</a></li><li><a href="/b">And another link</a></li></ul>`, 40) + `</div>`,
			contains: []string{"The council met again on day I,"},
			excludes: []string{"A caption inside the article", "A link to another"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := testParse(t, []byte("<html><body>"+tt.body+"</body></html>"))
			text := testRuleText(t, doc, "")
			require.NotEmpty(t, text)
			for _, s := range tt.contains {
				assert.Contains(t, text, s)
			}
			for _, s := range tt.excludes {
				assert.NotContains(t, text, s)
			}
		})
	}
}
