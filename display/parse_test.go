package display

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseSpans(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []Span
	}{
		{"empty", "", []Span{}},
		{"space", "  \n", []Span{}},
		{"empty JSON array", "[]", []Span{}},
		{"JSON", `[{"start":0,"end":5,"label":"PERSON"},{"start":10,"end":16,"label":"ORG"}]`, []Span{{0, 5, "PERSON"}, {10, 16, "ORG"}}},
		{"JSON with extra fields (a /ner answer)", `[{"text":"Ada","label":"PERSON","start":0,"end":3}]`, []Span{{0, 3, "PERSON"}}},
		{"JSON keeps order and overlap", ` [{"start":4,"end":9,"label":"B"},{"start":0,"end":9,"label":"A"}] `, []Span{{4, 9, "B"}, {0, 9, "A"}}},
		{"JSON label kept as is", `[{"start":0,"end":1,"label":" <b>x</b> "}]`, []Span{{0, 1, " <b>x</b> "}}},
		{"compact", "0:5:PERSON,10:16:ORG", []Span{{0, 5, "PERSON"}, {10, 16, "ORG"}}},
		{"compact one", "3:4:X", []Span{{3, 4, "X"}}},
		{"compact with space", " 0 : 5 : PERSON , 10:16: ORG ", []Span{{0, 5, "PERSON"}, {10, 16, "ORG"}}},
		{"compact label with colons", "0:5:a:b:c", []Span{{0, 5, "a:b:c"}}},
		{"compact label with markup", "0:5:<script>", []Span{{0, 5, "<script>"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseSpans(tt.in)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestParseSpansErrors(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want *SpanError
	}{
		{"bad JSON", `[{"start":0`, &SpanError{-1, "invalid JSON: unexpected end of JSON input"}},
		{"JSON object", `{"start":0,"end":1,"label":"X"}`, &SpanError{-1, `want a JSON array such as [{"start":0,"end":5,"label":"PERSON"}], not an object`}},
		{"JSON element not an object", `[{"start":0,"end":1,"label":"X"}, 3]`, &SpanError{1, `want an object such as {"start":0,"end":5,"label":"PERSON"}`}},
		{"JSON null element", `[null]`, &SpanError{0, `want an object such as {"start":0,"end":5,"label":"PERSON"}`}},
		{"JSON missing start", `[{"end":1,"label":"X"}]`, &SpanError{0, "start is missing"}},
		{"JSON missing end", `[{"start":1,"label":"X"}]`, &SpanError{0, "end is missing"}},
		{"JSON missing label", `[{"start":0,"end":1}]`, &SpanError{0, "label is missing"}},
		{"JSON fractional start", `[{"start":0.5,"end":1,"label":"X"}]`, &SpanError{0, "start must be an integer"}},
		{"JSON string end", `[{"start":0,"end":"1","label":"X"}]`, &SpanError{0, "end must be an integer"}},
		{"JSON numeric label", `[{"start":0,"end":1,"label":7}]`, &SpanError{0, "label must be a string"}},
		{"JSON inverted", `[{"start":5,"end":1,"label":"X"}]`, &SpanError{0, "end 1 is before start 5"}},
		{"JSON negative", `[{"start":-2,"end":1,"label":"X"}]`, &SpanError{0, "start -2 is negative"}},
		{"JSON empty label", `[{"start":0,"end":1,"label":""}]`, &SpanError{0, "label is empty"}},
		{"compact two fields", "0:5", &SpanError{0, `want start:end:LABEL, got "0:5"`}},
		{"compact trailing comma", "0:5:A,", &SpanError{1, `want start:end:LABEL, got ""`}},
		{"compact bad start", "x:5:A", &SpanError{0, `start "x" is not an integer`}},
		{"compact bad end", "0:5:A,1:y:B", &SpanError{1, `end "y" is not an integer`}},
		{"compact huge", "0:99999999999999999999:A", &SpanError{0, `end "99999999999999999999" is not an integer`}},
		{"compact inverted", "5:1:A", &SpanError{0, "end 1 is before start 5"}},
		{"compact empty span", "5:5:A", &SpanError{0, "span is empty (start and end are both 5)"}},
		{"compact empty label", "0:5: ", &SpanError{0, "label is empty"}},
		{"null", "null", &SpanError{0, `want start:end:LABEL, got "null"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseSpans(tt.in)
			assert.Nil(t, got)
			var se *SpanError
			require.ErrorAs(t, err, &se)
			assert.Equal(t, tt.want, se)
		})
	}
	assert.EqualError(t, &SpanError{-1, "invalid JSON: x"}, "display: spans: invalid JSON: x")
	assert.EqualError(t, &SpanError{2, "label is empty"}, "display: span 2: label is empty")
}

func TestSpanJSON(t *testing.T) {
	b, err := json.Marshal([]Span{{0, 5, "PERSON"}})
	require.NoError(t, err)
	assert.JSONEq(t, `[{"start":0,"end":5,"label":"PERSON"}]`, string(b))
	got, err := ParseSpans(string(b))
	require.NoError(t, err)
	assert.Equal(t, []Span{{0, 5, "PERSON"}}, got)
}
