package display

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// ParseSpans parses the spans parameter of the API in either of its two
// forms:
//
//   - a JSON array of objects with integer "start" and "end" and a string
//     "label": [{"start":0,"end":5,"label":"PERSON"}]; other fields are
//     ignored, so the "entities" of a /ner answer can be passed as they are;
//   - the compact form "start:end:LABEL" joined by commas:
//     "0:5:PERSON,10:16:ORG". Space around items and fields is ignored; the
//     label is everything after the second colon, so it may contain colons
//     but not commas (use JSON for those).
//
// Offsets count code points, end exclusive. Each span must have 0 <= start <
// end and a non-empty label; whether it fits the text is checked by [Render]
// and [Validate]. The spans are returned in the order given. An empty or
// all-space s yields no spans and no error.
//
// Errors are *SpanError: Index is the position of the span at fault, or -1
// when s as a whole is malformed.
func ParseSpans(s string) ([]Span, error) {
	s = strings.TrimSpace(s)
	switch {
	case s == "":
		return []Span{}, nil
	case s[0] == '[':
		return parseJSON(s)
	case s[0] == '{':
		return nil, &SpanError{Index: -1, Reason: `want a JSON array such as [{"start":0,"end":5,"label":"PERSON"}], not an object`}
	}
	return parseCompact(s)
}

type jsonSpan struct {
	Start *int    `json:"start"`
	End   *int    `json:"end"`
	Label *string `json:"label"`
}

func parseJSON(s string) ([]Span, error) {
	var raws []json.RawMessage
	if err := json.Unmarshal([]byte(s), &raws); err != nil {
		return nil, &SpanError{Index: -1, Reason: "invalid JSON: " + strings.TrimPrefix(err.Error(), "json: ")}
	}
	spans := make([]Span, 0, len(raws))
	for i, raw := range raws {
		if len(raw) == 0 || raw[0] != '{' {
			return nil, &SpanError{Index: i, Reason: `want an object such as {"start":0,"end":5,"label":"PERSON"}`}
		}
		var js jsonSpan
		if err := json.Unmarshal(raw, &js); err != nil {
			return nil, &SpanError{Index: i, Reason: jsonReason(err)}
		}
		switch {
		case js.Start == nil:
			return nil, &SpanError{Index: i, Reason: "start is missing"}
		case js.End == nil:
			return nil, &SpanError{Index: i, Reason: "end is missing"}
		case js.Label == nil:
			return nil, &SpanError{Index: i, Reason: "label is missing"}
		}
		sp := Span{Start: *js.Start, End: *js.End, Label: *js.Label}
		if reason := checkSpan(sp); reason != "" {
			return nil, &SpanError{Index: i, Reason: reason}
		}
		spans = append(spans, sp)
	}
	return spans, nil
}

// jsonReason turns a decoding error of one span into a sentence that does
// not mention Go types.
func jsonReason(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		switch te.Field {
		case "start", "end":
			return te.Field + " must be an integer"
		case "label":
			return "label must be a string"
		}
	}
	return "invalid span: " + strings.TrimPrefix(err.Error(), "json: ")
}

func parseCompact(s string) ([]Span, error) {
	items := strings.Split(s, ",")
	spans := make([]Span, 0, len(items))
	for i, item := range items {
		parts := strings.SplitN(item, ":", 3)
		if len(parts) != 3 {
			return nil, &SpanError{Index: i, Reason: fmt.Sprintf("want start:end:LABEL, got %q", strings.TrimSpace(item))}
		}
		start, err := strconv.Atoi(strings.TrimSpace(parts[0]))
		if err != nil {
			return nil, &SpanError{Index: i, Reason: fmt.Sprintf("start %q is not an integer", strings.TrimSpace(parts[0]))}
		}
		end, err := strconv.Atoi(strings.TrimSpace(parts[1]))
		if err != nil {
			return nil, &SpanError{Index: i, Reason: fmt.Sprintf("end %q is not an integer", strings.TrimSpace(parts[1]))}
		}
		sp := Span{Start: start, End: end, Label: strings.TrimSpace(parts[2])}
		if reason := checkSpan(sp); reason != "" {
			return nil, &SpanError{Index: i, Reason: reason}
		}
		spans = append(spans, sp)
	}
	return spans, nil
}

// checkSpan returns why sp is invalid whatever the text, or "".
func checkSpan(sp Span) string {
	switch {
	case sp.Label == "":
		return "label is empty"
	case sp.Start < 0:
		return fmt.Sprintf("start %d is negative", sp.Start)
	case sp.End < sp.Start:
		return fmt.Sprintf("end %d is before start %d", sp.End, sp.Start)
	case sp.End == sp.Start:
		return fmt.Sprintf("span is empty (start and end are both %d)", sp.Start)
	}
	return ""
}
