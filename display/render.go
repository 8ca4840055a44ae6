package display

import (
	"cmp"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// defaultColor is displaCy's colour for labels it has no colour for.
const defaultColor = "#ddd"

// labelColors are displaCy's colours for the OntoNotes labels spaCy's
// English models produce.
var labelColors = map[string]string{
	"ORG":         "#7aecec",
	"PRODUCT":     "#bfeeb7",
	"GPE":         "#feca74",
	"LOC":         "#ff9561",
	"PERSON":      "#aa9cfc",
	"NORP":        "#c887fb",
	"FAC":         "#9cc9cc",
	"EVENT":       "#ffeb80",
	"LAW":         "#ff8197",
	"LANGUAGE":    "#ff8197",
	"WORK_OF_ART": "#f0d0ff",
	"DATE":        "#bfe1d9",
	"TIME":        "#bfe1d9",
	"MONEY":       "#e4e7d2",
	"QUANTITY":    "#e4e7d2",
	"ORDINAL":     "#e4e7d2",
	"CARDINAL":    "#e4e7d2",
	"PERCENT":     "#e4e7d2",
}

// LabelColor returns the colour [Render] gives label with zero Options:
// displaCy's colour for the 18 OntoNotes labels (compared case-insensitively)
// and grey (#ddd) for any other.
func LabelColor(label string) string {
	if c, ok := labelColors[strings.ToUpper(label)]; ok {
		return c
	}
	return defaultColor
}

// Layout of the span style, in px, as displaCy's defaults.
const (
	spanTopOffset   = 40 // first underline below the top of the token
	spanLabelOffset = 20 // room for the label below the lowest underline
	spanOffsetStep  = 17 // distance between stacked underlines
)

var colorRE = regexp.MustCompile(`^(#([0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})|[a-zA-Z]{1,40})$`)

// placed is a validated span with what drawing it needs.
type placed struct {
	Span
	index int    // position in the caller's list
	slot  int    // FormatSpan: row below the line, from 0
	color string // CSS colour, safe to write into a style attribute
}

// plan is validated input, ready to draw.
type plan struct {
	format Format
	text   []rune
	spans  []placed // by start, longer first, then label and index
}

// Validate reports whether [Render] would accept text, spans and opts, without
// drawing anything. Its errors are those of Render.
func Validate(text string, spans []Span, opts Options) error {
	_, err := prepare(text, spans, opts)
	return err
}

func prepare(text string, spans []Span, opts Options) (*plan, error) {
	format := opts.Format
	if format == "" {
		format = FormatEnt
	}
	if format != FormatEnt && format != FormatSpan {
		return nil, unknownFormat(string(format))
	}
	var colors map[string]string
	if len(opts.Colors) > 0 {
		colors = make(map[string]string, len(opts.Colors))
		for label, c := range opts.Colors {
			if !colorRE.MatchString(c) {
				return nil, fmt.Errorf("display: colour %q for label %q is neither a hex colour nor a colour name", c, label)
			}
			colors[strings.ToUpper(label)] = c
		}
	}
	p := &plan{format: format, text: []rune(text), spans: make([]placed, len(spans))}
	n := len(p.text)
	for i, sp := range spans {
		if reason := checkSpan(sp); reason != "" {
			return nil, &SpanError{Index: i, Reason: reason}
		}
		if sp.End > n {
			return nil, &SpanError{Index: i, Reason: fmt.Sprintf("end %d is beyond the end of the text (%d code points)", sp.End, n)}
		}
		upper := strings.ToUpper(sp.Label)
		c, ok := colors[upper]
		if !ok {
			c = LabelColor(upper)
		}
		p.spans[i] = placed{Span: sp, index: i, color: c}
	}
	// displaCy's order: by start, longer spans first (they go on top), then label.
	slices.SortFunc(p.spans, func(a, b placed) int {
		return cmp.Or(cmp.Compare(a.Start, b.Start), cmp.Compare(b.End, a.End),
			strings.Compare(a.Label, b.Label), cmp.Compare(a.index, b.index))
	})
	if format == FormatEnt {
		for k := 1; k < len(p.spans); k++ {
			if prev, cur := p.spans[k-1], p.spans[k]; cur.Start < prev.End {
				return nil, &SpanError{Index: cur.index, Reason: fmt.Sprintf(
					"overlaps span %d; the ent format needs spans that do not overlap (the span format stacks them)", prev.index)}
			}
		}
		return p, nil
	}
	maxOverlap := opts.MaxOverlap
	if maxOverlap == 0 {
		maxOverlap = DefaultMaxOverlap
	}
	// Greedy interval colouring in start order uses as many rows as the
	// deepest overlap, the fewest possible.
	var rowEnd []int
	for k := range p.spans {
		sp := &p.spans[k]
		slot := slices.IndexFunc(rowEnd, func(end int) bool { return end <= sp.Start })
		if slot < 0 {
			slot = len(rowEnd)
			rowEnd = append(rowEnd, 0)
		}
		if maxOverlap > 0 && slot >= maxOverlap {
			return nil, &SpanError{Index: sp.index, Reason: fmt.Sprintf(
				"more than %d spans overlap at code point %d", maxOverlap, sp.Start)}
		}
		rowEnd[slot] = sp.End
		sp.slot = slot
	}
	return p, nil
}

// Render writes text with spans drawn on it to w, as an HTML fragment with
// inline styles in the format opts.Format: a <div class="entities"> of
// <mark class="entity"> elements for FormatEnt, a <div class="spans"> for
// FormatSpan, with displaCy's markup. Newlines (\n, \r\n, \r) become <br>.
// Every piece of text and every label is HTML-escaped; NUL becomes U+FFFD
// and so does invalid UTF-8 (one per bad byte, as []rune(text) counts them).
//
// Render checks everything before it writes: a span out of the text, empty,
// inverted, with an empty label, overlapping another in FormatEnt or
// stacked deeper than Options.MaxOverlap in FormatSpan is a *SpanError whose
// Index is the span's position in spans; an unknown format wraps
// [ErrUnknownFormat]; a bad colour in Options.Colors is an error too; a
// fragment larger than Options.MaxOutputBytes is an *OutputTooLargeError
// (matching [ErrOutputTooLarge]), found by measuring the drawing first. On
// those errors nothing is written. Otherwise the fragment is streamed to w
// in writes of at most a few tens of kilobytes, so that Render holds no
// copy of it; Render returns the first write error.
func Render(w io.Writer, text string, spans []Span, opts Options) error {
	p, err := prepare(text, spans, opts)
	if err != nil {
		return err
	}
	limit := opts.MaxOutputBytes
	if limit == 0 {
		limit = DefaultMaxOutputBytes
	}
	if limit > 0 {
		// A dry run costs as much time as drawing but no memory, and it
		// stops as soon as the limit is passed.
		size := &sink{limit: limit}
		if p.draw(size); size.err != nil {
			return &OutputTooLargeError{Max: limit}
		}
	}
	out := &sink{w: w}
	p.draw(out)
	return out.err
}

// chunkBytes is the size at which drawing hands its output to the writer.
const chunkBytes = 32 << 10

// A sink receives the drawing in chunks: it writes them to w, or, with a
// nil w, only counts them and fails once they pass limit.
type sink struct {
	w     io.Writer
	limit int // with a nil w: the most bytes allowed
	n     int // bytes handed over so far
	err   error
	buf   []byte
}

// flush hands b over when it is full enough (or at the end) and returns
// the buffer to go on appending to. After an error it keeps returning b
// emptied, so the drawing finishes quickly without output.
func (s *sink) flush(b []byte, final bool) []byte {
	if len(b) < chunkBytes && !final {
		return b
	}
	if s.err == nil {
		s.n += len(b)
		switch {
		case s.w != nil:
			_, s.err = s.w.Write(b)
		case s.n > s.limit:
			s.err = ErrOutputTooLarge
		}
	}
	return b[:0]
}

// draw renders the plan into s.
func (p *plan) draw(s *sink) {
	b := make([]byte, 0, chunkBytes+4096)
	if p.format == FormatSpan {
		b = p.appendSpans(b, s)
	} else {
		b = p.appendEnts(b, s)
	}
	s.flush(b, true)
}

func (p *plan) appendEnts(b []byte, s *sink) []byte {
	b = append(b, `<div class="entities" style="line-height: 2.5; direction: `...)
	b = append(b, direction(p.text)...)
	b = append(b, `">`...)
	pos := 0
	for _, sp := range p.spans {
		if b = s.flush(b, false); s.err != nil {
			return b
		}
		b = p.appendText(b, pos, sp.Start, s)
		b = append(b, `<mark class="entity" style="background: `...)
		b = append(b, sp.color...)
		b = append(b, `; padding: 0.45em 0.6em; margin: 0 0.25em; line-height: 1; border-radius: 0.35em;">`...)
		b = p.appendText(b, sp.Start, sp.End, s)
		b = append(b, `<span class="entity-label" style="font-size: 0.8em; font-weight: bold; line-height: 1; border-radius: 0.35em; vertical-align: middle; margin-left: 0.5rem">`...)
		b = appendLabel(b, sp.Label)
		b = append(b, `</span></mark>`...)
		pos = sp.End
	}
	b = p.appendText(b, pos, len(p.text), s)
	return append(b, `</div>`...)
}

// appendSpans draws the span style. Like displaCy it works token by token, a
// token being a run of non-space code points that no span boundary cuts:
// each token under at least one span becomes an inline block holding the
// token's text, one underline per covering span and the label of each span
// that starts there. Space between tokens stays plain text, so underlines
// break between words as in displaCy.
func (p *plan) appendSpans(b []byte, s *sink) []byte {
	b = append(b, `<div class="spans" style="line-height: 2.5; direction: `...)
	b = append(b, direction(p.text)...)
	b = append(b, `">`...)
	text, sps := p.text, p.spans
	// ink[i] counts non-space code points in text[:i]; a span with no ink
	// is drawn on its space so that its label still shows.
	ink := make([]int, len(text)+1)
	for i, r := range text {
		ink[i+1] = ink[i]
		if !unicode.IsSpace(r) {
			ink[i+1]++
		}
	}
	labelled := make([]bool, len(sps))
	var active, cover []int
	next := 0
	for pos := 0; pos < len(text); {
		if b = s.flush(b, false); s.err != nil {
			return b
		}
		for next < len(sps) && sps[next].Start == pos {
			active = append(active, next)
			next++
		}
		active = slices.DeleteFunc(active, func(k int) bool { return sps[k].End <= pos })
		end := len(text)
		if next < len(sps) {
			end = min(end, sps[next].Start)
		}
		for _, k := range active {
			end = min(end, sps[k].End)
		}
		space := unicode.IsSpace(text[pos])
		q := pos + 1
		for q < end && unicode.IsSpace(text[q]) == space {
			q++
		}
		token := len(active) > 0 && !space
		if len(active) > 0 && space {
			for _, k := range active {
				if !labelled[k] && ink[sps[k].End] == ink[sps[k].Start] {
					token = true
				}
			}
		}
		if !token {
			b = p.appendText(b, pos, q, s)
			pos = q
			continue
		}
		cover = append(cover[:0], active...)
		slices.SortFunc(cover, func(x, y int) int { return cmp.Compare(sps[x].slot, sps[y].slot) })
		height := spanTopOffset + spanLabelOffset + spanOffsetStep*sps[cover[len(cover)-1]].slot
		b = append(b, `<span style="font-weight: bold; display: inline-block; position: relative; height: `...)
		b = strconv.AppendInt(b, int64(height), 10)
		b = append(b, `px;">`...)
		b = p.appendText(b, pos, q, s)
		for _, k := range cover {
			b = append(b, `<span style="background: `...)
			b = append(b, sps[k].color...)
			b = append(b, `; top: `...)
			b = strconv.AppendInt(b, int64(spanTopOffset+spanOffsetStep*sps[k].slot), 10)
			b = append(b, `px; height: 4px; left: -1px; width: calc(100% + 2px); position: absolute;"></span>`...)
		}
		for _, k := range cover {
			if labelled[k] {
				continue
			}
			labelled[k] = true
			b = append(b, `<span style="background: `...)
			b = append(b, sps[k].color...)
			b = append(b, `; top: `...)
			b = strconv.AppendInt(b, int64(spanTopOffset+spanOffsetStep*sps[k].slot), 10)
			b = append(b, `px; height: 4px; border-top-left-radius: 3px; border-bottom-left-radius: 3px; left: -1px; width: calc(100% + 2px); position: absolute;">`...)
			b = append(b, `<span class="span-label" style="background: `...)
			b = append(b, sps[k].color...)
			b = append(b, `; z-index: 10; color: #000; top: -0.5em; padding: 2px 3px; position: absolute; font-size: 0.6em; font-weight: bold; line-height: 1; border-radius: 3px; white-space: nowrap">`...)
			b = appendLabel(b, sps[k].Label)
			b = append(b, `</span></span>`...)
		}
		b = append(b, `</span>`...)
		pos = q
	}
	return append(b, `</div>`...)
}

// appendText appends p.text[from:to] escaped, with line breaks as <br>,
// handing full chunks to s on the way. It looks at the code point before
// from so that a \r\n cut by a span boundary still makes one break.
func (p *plan) appendText(b []byte, from, to int, s *sink) []byte {
	for i := from; i < to; i++ {
		if len(b) >= chunkBytes {
			b = s.flush(b, false)
		}
		r := p.text[i]
		switch r {
		case '\r':
			b = append(b, "<br>"...)
		case '\n':
			if i == 0 || p.text[i-1] != '\r' {
				b = append(b, "<br>"...)
			}
		default:
			b = appendEscaped(b, r)
		}
	}
	return b
}

// appendLabel appends label escaped, its line breaks as \n.
func appendLabel(b []byte, label string) []byte {
	prev := rune(0)
	for _, r := range label {
		switch {
		case r == '\r':
			b = append(b, '\n')
		case r == '\n' && prev == '\r':
		default:
			b = appendEscaped(b, r)
		}
		prev = r
	}
	return b
}

func appendEscaped(b []byte, r rune) []byte {
	switch r {
	case '<':
		return append(b, "&lt;"...)
	case '>':
		return append(b, "&gt;"...)
	case '&':
		return append(b, "&amp;"...)
	case '"':
		return append(b, "&#34;"...)
	case '\'':
		return append(b, "&#39;"...)
	case 0:
		// HTML parsers drop or replace NUL; say so explicitly.
		r = unicode.ReplacementChar
	}
	if r < 0x80 {
		return append(b, byte(r))
	}
	return utf8.AppendRune(b, r)
}

// Page writes a complete HTML document to w that shows fragment (the output
// of [Render], written as it is) under title (escaped; empty means no
// heading and the document title "displaCy"), in displaCy's page layout.
// The document declares UTF-8, so it opens correctly from a file.
func Page(w io.Writer, title string, fragment string) error {
	var b strings.Builder
	b.Grow(len(fragment) + 1024)
	b.WriteString("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n" +
		"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>")
	if title == "" {
		b.WriteString("displaCy")
	} else {
		b.Write(appendLabel(nil, title))
	}
	b.WriteString("</title>\n</head>\n<body style=\"font-size: 16px; font-family: -apple-system, BlinkMacSystemFont, 'Segoe UI', Helvetica, Arial, sans-serif, 'Apple Color Emoji', 'Segoe UI Emoji', 'Segoe UI Symbol'; padding: 4rem 2rem; direction: ltr\">\n" +
		"<figure style=\"margin-bottom: 6rem\">\n")
	if title != "" {
		b.WriteString("<h2 style=\"margin: 0\">")
		b.Write(appendLabel(nil, title))
		b.WriteString("</h2>\n")
	}
	b.WriteString(fragment)
	b.WriteString("\n</figure>\n</body>\n</html>\n")
	_, err := io.WriteString(w, b.String())
	return err
}
