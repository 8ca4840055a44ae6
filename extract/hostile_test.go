package extract

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestHostilePages feeds shapes that make naive extractors quadratic or
// deeply recursive. They must finish (quickly: the whole test takes well
// under a second) and stay deterministic.
func TestHostilePages(t *testing.T) {
	para := "<p>Some words, with commas, make this a paragraph of reasonable length for scoring.</p>"
	tests := map[string]string{
		"many siblings":    "<div>" + strings.Repeat("<div>"+para+"</div>", 3000) + "</div>",
		"deep nesting":     strings.Repeat("<div><span>", 20000) + para,
		"many line breaks": "<p>" + strings.Repeat("word <br> ", 20000) + "</p>",
		"long attribute":   `<div class="` + strings.Repeat("a-", 200000) + `">` + para + "</div>",
		"many classes":     strings.Repeat(`<div class="comment share related sidebar">`+para+"</div>", 2000),
		"unclosed tags":    strings.Repeat("<p><b><i><a href=x>", 5000) + para,
		"many headers":     strings.Repeat("<header><header><p>"+strings.Repeat("x", 120)+"</p>", 500),
		"many scripts":     strings.Repeat("<script>var a = 1;</script><!-- c --><svg><path/></svg>", 5000) + para,
	}
	for name, page := range tests {
		t.Run(name, func(t *testing.T) {
			p1, err := FromHTML(t.Context(), strings.NewReader(page), "", Options{})
			require.NoError(t, err)
			p2, err := FromHTML(t.Context(), strings.NewReader(page), "", Options{})
			require.NoError(t, err)
			assert.Equal(t, p1, p2, "extraction must be deterministic")
		})
	}
}
