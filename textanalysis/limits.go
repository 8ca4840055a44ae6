package textanalysis

import (
	"time"

	"github.com/textanalysis/go-textanalysis/display"
)

// The limits every front end (server, CLI, MCP) applies, documented in the
// README. Options can change each of them.
const (
	// DefaultMaxTextRunes caps `text` and `context`, in code points.
	DefaultMaxTextRunes = 100_000
	// DefaultMaxQuestionRunes caps a question, in code points.
	DefaultMaxQuestionRunes = 1_000
	// DefaultMaxURLRunes caps a URL, in code points.
	DefaultMaxURLRunes = 2_048
	// DefaultMaxSpans caps the spans a caller may give to Display.
	DefaultMaxSpans = 10_000
	// DefaultMaxDisplayBytes caps the HTML that Display writes (16 MiB):
	// see display.DefaultMaxOutputBytes for what fits in it.
	DefaultMaxDisplayBytes = display.DefaultMaxOutputBytes
	// DefaultMaxPageBytes caps a fetched page.
	DefaultMaxPageBytes = 5 << 20
	// DefaultMaxPageNodes caps the elements and runs of text of a fetched
	// page, the work of extracting it (extract.Options.MaxNodes); a page
	// with more is an *extract.FetchError with cause "too_complex".
	DefaultMaxPageNodes = 1_000_000
	// DefaultFetchTimeout caps a whole fetch, redirects included.
	DefaultFetchTimeout = 10 * time.Second
)

// Limits are the sizes the Analyzer accepts. A zero field means its default.
type Limits struct {
	MaxTextRunes     int // 0 means DefaultMaxTextRunes
	MaxQuestionRunes int // 0 means DefaultMaxQuestionRunes
	MaxURLRunes      int // 0 means DefaultMaxURLRunes
	MaxSpans         int // 0 means DefaultMaxSpans
	// MaxDisplayBytes caps the HTML Display writes; a larger drawing is a
	// *display.OutputTooLargeError. 0 means DefaultMaxDisplayBytes.
	MaxDisplayBytes int
}

func (l Limits) withDefaults() Limits {
	if l.MaxTextRunes <= 0 {
		l.MaxTextRunes = DefaultMaxTextRunes
	}
	if l.MaxQuestionRunes <= 0 {
		l.MaxQuestionRunes = DefaultMaxQuestionRunes
	}
	if l.MaxURLRunes <= 0 {
		l.MaxURLRunes = DefaultMaxURLRunes
	}
	if l.MaxSpans <= 0 {
		l.MaxSpans = DefaultMaxSpans
	}
	if l.MaxDisplayBytes <= 0 {
		l.MaxDisplayBytes = DefaultMaxDisplayBytes
	}
	return l
}
