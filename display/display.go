package display

import (
	"errors"
	"fmt"
	"strings"
)

// A Span is a labelled range of the text in Unicode code points, end
// exclusive: string([]rune(text)[s.Start:s.End]) is the spanned text.
type Span struct {
	Start int    `json:"start"`
	End   int    `json:"end"`
	Label string `json:"label"`
}

// A Format is one of the two displaCy styles.
type Format string

const (
	// FormatEnt highlights each span inline, its label after its text
	// (displaCy's "ent" style). Spans must not overlap: overlapping spans are
	// a *SpanError naming the later one, because one highlight cannot show
	// two labels and silently dropping a span would hide input.
	FormatEnt Format = "ent"
	// FormatSpan underlines each span, the label where it starts (displaCy's
	// "span" style). Spans may overlap; they are stacked below the line, at
	// most Options.MaxOverlap deep at any code point.
	FormatSpan Format = "span"
)

// FormatInfo describes a format for documentation.
type FormatInfo struct {
	Name        Format `json:"name"`
	Description string `json:"description"`
}

var formats = []FormatInfo{
	{FormatEnt, "inline highlighted entities, each followed by its label (displaCy's \"ent\" style); spans must not overlap"},
	{FormatSpan, "underlined spans labelled where they start, overlapping spans stacked below the line (displaCy's \"span\" style)"},
}

// Formats lists the formats [Render] draws, the default ([FormatEnt]) first.
// The caller may modify the returned slice.
func Formats() []FormatInfo {
	return append([]FormatInfo(nil), formats...)
}

// ErrUnknownFormat is returned (wrapped, with the name and the known names)
// by [ParseFormat] and [Render] for a format that is not in [Formats].
var ErrUnknownFormat = errors.New("display: unknown format")

// ParseFormat returns the Format named s ("ent" or "span", case and
// surrounding space ignored). Any other value, the empty string included,
// is an error wrapping [ErrUnknownFormat] that lists the known names.
func ParseFormat(s string) (Format, error) {
	f := Format(strings.ToLower(strings.TrimSpace(s)))
	for _, fi := range formats {
		if fi.Name == f {
			return f, nil
		}
	}
	return "", unknownFormat(s)
}

func unknownFormat(s string) error {
	names := make([]string, len(formats))
	for i, fi := range formats {
		names[i] = string(fi.Name)
	}
	return fmt.Errorf("%w %q (known: %s)", ErrUnknownFormat, s, strings.Join(names, ", "))
}

// DefaultMaxOverlap is the number of spans that may overlap at one code point
// in [FormatSpan] when Options.MaxOverlap is zero.
const DefaultMaxOverlap = 10

// Options controls [Render]. The zero value draws displaCy's "ent" style with
// displaCy's colours.
type Options struct {
	// Format is the style to draw. Empty means FormatEnt.
	Format Format
	// Colors maps labels (compared case-insensitively) to CSS colours, over
	// displaCy's defaults. A colour must be a hex colour (#rgb, #rgba,
	// #rrggbb, #rrggbbaa) or a colour name (letters only); anything else is
	// an error. Nil means displaCy's colours only; labels without a colour
	// are grey (#ddd), as in displaCy.
	Colors map[string]string
	// MaxOverlap caps how many spans may cover one code point in FormatSpan,
	// which bounds the size of the output. Zero means DefaultMaxOverlap;
	// negative means no limit.
	MaxOverlap int
	// MaxOutputBytes caps the size of the fragment [Render] writes: a
	// larger one is an *OutputTooLargeError, found before anything is
	// written. Zero means DefaultMaxOutputBytes; negative means no limit.
	MaxOutputBytes int
}

// DefaultMaxOutputBytes is the cap on the fragment [Render] writes when
// Options.MaxOutputBytes is zero: 16 MiB. The largest drawings of ordinary
// input fit well within it: 100,000 code points of text with 10,000 spans
// take about 3.7 MB in FormatEnt and 6.5–9 MB in FormatSpan (one or two
// words per span), and one span over the whole text about 4.5 MB. Only
// deep stacks of long overlapping spans go beyond it: ten spans over
// 100,000 code points of one-letter words would take 65 MB.
const DefaultMaxOutputBytes = 16 << 20

// ErrOutputTooLarge is matched (with errors.Is) by the *OutputTooLargeError
// that [Render] returns when the fragment would exceed
// Options.MaxOutputBytes.
var ErrOutputTooLarge = errors.New("display: output too large")

// An OutputTooLargeError reports a fragment larger than
// Options.MaxOutputBytes. It matches [ErrOutputTooLarge].
type OutputTooLargeError struct {
	Max int // the limit in bytes
}

func (e *OutputTooLargeError) Error() string {
	return fmt.Sprintf("display: output would be larger than %d bytes; draw fewer or shorter overlapping spans", e.Max)
}

// Is makes errors.Is(err, ErrOutputTooLarge) true.
func (e *OutputTooLargeError) Is(target error) bool { return target == ErrOutputTooLarge }

// A SpanError reports a span that cannot be parsed or drawn. Index is the
// position of the span at fault in the caller's list (or in the parsed
// value), or -1 when the value as a whole is malformed.
type SpanError struct {
	Index  int
	Reason string
}

func (e *SpanError) Error() string {
	if e.Index < 0 {
		return "display: spans: " + e.Reason
	}
	return fmt.Sprintf("display: span %d: %s", e.Index, e.Reason)
}
