package mcp

import (
	"bytes"
	"encoding/json"
	"testing"
)

// FuzzQuery checks the translation of a GET tool's arguments: it never
// panics, accepts exactly the JSON objects, keeps strings as they are and
// turns any other non-null value into its compact JSON text.
func FuzzQuery(f *testing.F) {
	for _, seed := range []string{
		`{"text":"Ada","model":null}`, `{"n":1.50,"b":false,"a":[1, {"x":"y"}]}`, `{}`, ``, `[]`, `"s"`,
		`{"text":"\u00e9\ud83d\ude00 & = ?"}`, `{"a":1,"a":2}`, `{"a":`, `null`, ` {"a":"b"} `,
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		args, err := arguments(json.RawMessage(raw))
		if err != nil {
			return
		}
		var m map[string]json.RawMessage
		if json.Unmarshal(args, &m) != nil {
			t.Fatalf("accepted %q, not an object", raw)
		}
		q, err := query(args)
		if err != nil {
			t.Fatalf("query(%q): %v", raw, err)
		}
		for name, v := range m {
			got, ok := q[name]
			if string(v) == "null" {
				if ok {
					t.Fatalf("null %q became %q", name, got)
				}
				continue
			}
			if len(got) != 1 {
				t.Fatalf("%q: %d values", name, len(got))
			}
			var s string
			if json.Unmarshal(v, &s) == nil {
				if got[0] != s {
					t.Fatalf("string %q became %q", s, got[0])
				}
				continue
			}
			var want bytes.Buffer
			if json.Compact(&want, v) != nil || got[0] != want.String() {
				t.Fatalf("%q: %s became %q", name, v, got[0])
			}
		}
	})
}
