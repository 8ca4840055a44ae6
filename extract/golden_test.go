package extract

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// TestGolden extracts every testdata/golden/<name>.html and compares the
// Page with <name>.json. Run `go test ./extract -update` to rewrite them,
// then review the diff.
func TestGolden(t *testing.T) {
	pages, err := filepath.Glob(filepath.Join("testdata", "golden", "*.html"))
	require.NoError(t, err)
	require.NotEmpty(t, pages)
	for _, path := range pages {
		name := strings.TrimSuffix(filepath.Base(path), ".html")
		t.Run(name, func(t *testing.T) {
			raw, err := os.ReadFile(path)
			require.NoError(t, err)
			got, err := FromHTML(t.Context(), bytes.NewReader(raw), "https://example.com/"+name, Options{})
			require.NoError(t, err)
			goldenPath := strings.TrimSuffix(path, ".html") + ".json"
			if *update {
				b, err := json.MarshalIndent(got, "", "  ")
				require.NoError(t, err)
				require.NoError(t, os.WriteFile(goldenPath, append(b, '\n'), 0o644))
			}
			b, err := os.ReadFile(goldenPath)
			require.NoError(t, err, "run go test ./extract -update")
			var want Page
			require.NoError(t, json.Unmarshal(b, &want))
			assert.Equal(t, want, *got)
		})
	}
}

// TestGoldenProperties states what the golden files must show, so that an
// -update cannot silently accept a regression.
func TestGoldenProperties(t *testing.T) {
	tests := []struct {
		file     string
		contains []string
		excludes []string
		lang     string
	}{
		{
			file:     "article-sidebar.html",
			contains: []string{"The old harbour bridge reopened", "What changes for drivers", "keep running at weekends"},
			excludes: []string{"Most read", "Storm warning", "morning briefing", "Share on", "Photo: J. Berg", "All rights reserved", "Advertisement", "tracker"},
			lang:     "en-GB",
		},
		{
			file:     "comments.html",
			contains: []string{"For ten years", "notebook, and I", "never needs an update"},
			excludes: []string{"Ana", "I did the same", "ink bleeds", "thoughts on", "Leave a Reply", "Tags:", "Posted on"},
			lang:     "en",
		},
		{
			// The same page with one paragraph of running-text length: the
			// model scores the first comment as text, and only the comment
			// veto (blockmodel.Model.ArticleVetoComments) keeps it out.
			file:     "comments-long-paragraph.html",
			contains: []string{"For ten years", "before I can write down a single line"},
			excludes: []string{"I did the same", "ink bleeds", "thoughts on", "Leave a Reply"},
			lang:     "en",
		},
		{
			file:     "list-heavy.html",
			contains: []string{"Two pairs of merino socks", "A head torch", "Leave the rest at home"},
			excludes: []string{"Choosing a tent", "Related guides", "Guides"},
			lang:     "en",
		},
		{file: "no-article.html", excludes: []string{"Shoes", "Cart"}},
		{file: "comments-only.html", contains: []string{"The timetable change was announced"}, lang: "en"},
		{file: "non-utf8.html", contains: []string{"Le café au lait est une boisson très populaire", "beurrée – ou"}, lang: "fr"},
		{file: "late-charset.html", contains: []string{"Весна пришла в город рано", "тёплая погода"},
			// Two sentences are too few for whatlanggo to tell Russian from
			// Bulgarian reliably, so no language is claimed.
			lang: ""},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			raw, err := os.ReadFile(filepath.Join("testdata", "golden", tt.file))
			require.NoError(t, err)
			p, err := FromHTML(t.Context(), bytes.NewReader(raw), "", Options{})
			require.NoError(t, err)
			for _, s := range tt.contains {
				assert.Contains(t, p.Text, s)
			}
			for _, s := range tt.excludes {
				assert.NotContains(t, p.Text, s)
			}
			assert.Equal(t, tt.lang, p.Language)
			assert.NotContains(t, p.Text, "\u00ad")
			assert.NotContains(t, p.Text, "\n\n\n")
		})
	}
}
