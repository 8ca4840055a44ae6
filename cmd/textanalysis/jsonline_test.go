package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDecodePageLine(t *testing.T) {
	tests := []struct {
		name string
		line string
		ok   bool
	}{
		{"plain", `{"id":"a","url":"http://x/","html":"<p>caf\u00e9 \"q\" \\ \n\t \ud83d\ude00 <>&</p>"}`, true},
		{"html escaped as encoding/json does", `{"id":"a","html":"\u003cp class=\"x\"\u003eA \u0026amp; B\u003c/p\u003e"}`, true},
		{"upper-case hex", `{"html":"\u00E9\u003C"}`, true},
		{"empty values", `{"id":"","url":"","html":""}`, true},
		{"spaces", " { \"html\" : \"x\" , \"id\" : \"1\" } \n", true},
		{"escaped key", `{"i\u0064":"a","html":"x"}`, true},
		{"repeated key", `{"html":"first","html":"second"}`, true},
		{"number id", `{"id":1,"html":"x"}`, false},
		{"other key", `{"id":"a","HTML":"x"}`, false},
		{"trailing data", `{"id":"a"} x`, false},
		{"raw control character", "{\"html\":\"a\tb\"}", false},
		{"raw control character in a long run", "{\"html\":\"abcdefghijklmnop\x01qrstuvwxyz\"}", false},
		{"invalid UTF-8", "{\"html\":\"\xff\"}", false},
		{"lone surrogate", `{"html":"\ud800x"}`, true},
		{"bad hex", `{"html":"\u00g0"}`, false},
		{"unknown escape", `{"html":"\x41"}`, false},
		{"unterminated", `{"html":"abcdefghijklmnopqrstuvwxyz`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			id, url, html, ok := decodePageLine([]byte(tt.line), nil)
			assert.Equal(t, tt.ok, ok)
			if ok {
				var want struct{ ID, URL, HTML string }
				require.NoError(t, json.Unmarshal([]byte(tt.line), &want))
				assert.Equal(t, want, struct{ ID, URL, HTML string }{id, url, string(html)})
			}
		})
	}
}

// The page is unescaped into the buffer given, which is reused.
func TestDecodePageLineReusesBuffer(t *testing.T) {
	buf := make([]byte, 0, 64)
	_, _, html, ok := decodePageLine([]byte(`{"id":"1","html":"\u003cp\u003eone\u003c/p\u003e"}`), buf)
	require.True(t, ok)
	assert.Equal(t, "<p>one</p>", string(html))
	assert.Same(t, &buf[:1][0], &html[0])

	// A key that is absent gives nil; one that is empty gives no bytes.
	_, _, html, ok = decodePageLine([]byte(`{"id":"1","url":"u"}`), buf)
	require.True(t, ok)
	assert.Nil(t, html)
	_, _, html, ok = decodePageLine([]byte(`{"id":"1","html":""}`), nil)
	require.True(t, ok)
	assert.NotNil(t, html)
	assert.Empty(t, html)
}

// plainRun stops at the first '"', '\\' or control character wherever it
// falls in an eight-byte word, and passes over every other byte, UTF-8
// included.
func TestPlainRun(t *testing.T) {
	base := "abcdefghijklmnopqrstuvwxyzé€😀ABCDEFGH"
	for _, stop := range []byte{'"', '\\', 0, '\n', 0x1f} {
		for at := range len(base) {
			b := []byte(base)
			b[at] = stop
			assert.Equal(t, at, plainRun(b, 0), "stop %q at %d", stop, at)
			// A stop byte right after the first must not hide it.
			if at+1 < len(b) {
				b[at+1] = 0
				assert.Equal(t, at, plainRun(b, 0), "stops %q, 0 at %d", stop, at)
			}
		}
	}
	for c := 0x20; c < 0x100; c++ {
		if c == '"' || c == '\\' {
			continue
		}
		b := []byte(strings.Repeat("x", 20))
		b[9] = byte(c)
		assert.Equal(t, len(b), plainRun(b, 0), "byte %#x", c)
	}
}

// The fast path answers exactly as encoding/json, or stands aside.
func FuzzDecodePageLine(f *testing.F) {
	f.Add(`{"id":"a","url":"http://x/","html":"<p>caf\u00e9 \"q\" \\ \n \ud83d\ude00</p>"}`)
	f.Add(`{"id":"1","html":"\ud800\udc00\ud800"}`)
	f.Add(`{"html":"a\/b\b\f\r"}`)
	f.Add(`{"id":"2","html":"\u003chtml\u003e\u003cbody class=\"a b\"\u003eLong enough text \u0026amp; more\u003c/body\u003e"}`)
	f.Fuzz(func(t *testing.T, line string) {
		id, url, html, ok := decodePageLine([]byte(line), nil)
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
		if deref(want.ID) != id || deref(want.URL) != url || deref(want.HTML) != string(html) || (want.HTML == nil) != (html == nil) {
			t.Fatalf("%q: fast %q %q %q, encoding/json %q %q %q", line, id, url, html, deref(want.ID), deref(want.URL), deref(want.HTML))
		}
	})
}

func FuzzDecodeStringLine(f *testing.F) {
	f.Add(`{"id":"a","text":"caf\u00e9 \"q\" \\ \n \ud83d\ude00","model":"m"}`)
	f.Add(`{"text":"\ud800\udc00\ud800\u0041"}`)
	f.Add(`{"id":"x\ty"}`)
	f.Fuzz(func(t *testing.T, line string) {
		vals, ok := decodeStringLine([]byte(line), "id", "text", "model")
		if !ok {
			return
		}
		var want struct{ ID, Text, Model string }
		if err := json.Unmarshal([]byte(line), &want); err != nil {
			t.Fatalf("fast path accepted what encoding/json rejects: %q: %v", line, err)
		}
		if got := []string{want.ID, want.Text, want.Model}; !assert.ObjectsAreEqual(got, vals) {
			t.Fatalf("%q: fast %q, encoding/json %q", line, vals, got)
		}
	})
}

// A page as encoding/json writes it, with its tags escaped.
func BenchmarkDecodePageLine(b *testing.B) {
	var page strings.Builder
	for i := range 2000 {
		fmt.Fprintf(&page, "<div class=\"c%d\"><p>Paragraph %d says something & more, \"quoted\".</p></div>\n", i%7, i)
	}
	line, err := json.Marshal(map[string]string{"id": "1", "url": "https://example.com/", "html": page.String()})
	require.NoError(b, err)
	b.SetBytes(int64(len(line)))
	var buf []byte
	for b.Loop() {
		_, _, html, ok := decodePageLine(line, buf)
		if !ok {
			b.Fatal("not decoded")
		}
		buf = html[:0]
	}
}
