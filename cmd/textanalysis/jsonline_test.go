package main

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestDecodePageLine(t *testing.T) {
	tests := []struct {
		name string
		line string
		ok   bool
	}{
		{"plain", `{"id":"a","url":"http://x/","html":"<p>caf\u00e9 \"q\" \\ \n\t \ud83d\ude00 <>&</p>"}`, true},
		{"empty values", `{"id":"","url":"","html":""}`, true},
		{"spaces", " { \"html\" : \"x\" , \"id\" : \"1\" } \n", true},
		{"number id", `{"id":1,"html":"x"}`, false},
		{"other key", `{"id":"a","HTML":"x"}`, false},
		{"trailing data", `{"id":"a"} x`, false},
		{"raw control character", "{\"html\":\"a\tb\"}", false},
		{"invalid UTF-8", "{\"html\":\"\xff\"}", false},
		{"lone surrogate", `{"html":"\ud800x"}`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			id, url, html, ok := decodePageLine([]byte(tt.line))
			assert.Equal(t, tt.ok, ok)
			if ok {
				var want struct{ ID, URL, HTML string }
				assert.NoError(t, json.Unmarshal([]byte(tt.line), &want))
				assert.Equal(t, want, struct{ ID, URL, HTML string }{id, url, html})
			}
		})
	}
}

// The fast path answers exactly as encoding/json, or stands aside.
func FuzzDecodePageLine(f *testing.F) {
	f.Add(`{"id":"a","url":"http://x/","html":"<p>caf\u00e9 \"q\" \\ \n \ud83d\ude00</p>"}`)
	f.Add(`{"id":"1","html":"\ud800\udc00\ud800"}`)
	f.Add(`{"html":"a\/b\b\f\r"}`)
	f.Fuzz(func(t *testing.T, line string) {
		id, url, html, ok := decodePageLine([]byte(line))
		if !ok {
			return
		}
		var want struct {
			ID   *string `json:"id"`
			URL  *string `json:"url"`
			HTML *string `json:"html"`
		}
		if err := json.Unmarshal([]byte(line), &want); err != nil {
			t.Fatalf("fast path accepted what encoding/json rejects: %q: %v", line, err)
		}
		deref := func(p *string) string {
			if p == nil {
				return ""
			}
			return *p
		}
		if deref(want.ID) != id || deref(want.URL) != url || deref(want.HTML) != html {
			t.Fatalf("%q: fast %q %q %q, encoding/json %q %q %q", line, id, url, html, deref(want.ID), deref(want.URL), deref(want.HTML))
		}
	})
}
