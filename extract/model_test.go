package extract

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/textanalysis/go-textanalysis/extract/internal/blockmodel"
)

// The embedded model must fit the features extraction computes: a
// mismatch would silently fall back to the hand rules.
func TestModelLoads(t *testing.T) {
	m, err := blockmodel.Load(featureNames)
	require.NoError(t, err)
	require.NotNil(t, m)
	assert.NotEmpty(t, m.Trees)
	assert.Equal(t, "article", m.Types[0])
}

func TestWarningAndPageType(t *testing.T) {
	tests := []struct {
		name, page string
		warning    string
		text       string
	}{
		{
			name:    "a JavaScript shell",
			page:    `<html><head><title>App</title><script src="/app.js"></script></head><body><div id="root"></div><noscript>You need to enable JavaScript to run this app.</noscript></body></html>`,
			warning: WarningJavaScript,
		},
		{
			name: "a page with its text",
			page: `<html><head><title>Bridge</title><script src="/a.js"></script></head><body><article><h1>Bridge</h1><p>` +
				strings.Repeat("The old harbour bridge reopened on Monday after two years of repairs, and the city says traffic will flow again. ", 4) +
				`</p></article></body></html>`,
			text: "The old harbour bridge reopened",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := FromHTML(t.Context(), strings.NewReader(tt.page), "", Options{})
			require.NoError(t, err)
			assert.Equal(t, tt.warning, p.Warning)
			if tt.text != "" {
				assert.Contains(t, p.Text, tt.text)
				assert.Equal(t, "article", p.PageType)
			}
		})
	}
}
