package display

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Right-to-left text is drawn right to left, in both formats.
func TestDirection(t *testing.T) {
	tests := []struct {
		name, text, want string
	}{
		{"English", "Ada was born in London.", "ltr"},
		{"Hebrew", "עדה נולדה בלונדון.", "rtl"},
		{"Arabic after digits", "1815 ولدت آدا في لندن", "rtl"},
		{"English first, Arabic later", "Ada: آدا", "ltr"},
		{"no letters", "123 !?", "ltr"},
	}
	for _, tt := range tests {
		for _, f := range []Format{FormatEnt, FormatSpan} {
			t.Run(tt.name+" "+string(f), func(t *testing.T) {
				var b strings.Builder
				n := len([]rune(tt.text))
				require.NoError(t, Render(&b, tt.text, []Span{{Start: 0, End: min(3, n), Label: "X"}}, Options{Format: f}))
				assert.Contains(t, b.String(), "direction: "+tt.want+`"`)
			})
		}
	}
}
