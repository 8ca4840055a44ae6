package main

import (
	"bytes"
	"encoding/json"
	"math"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/textanalysis/go-textanalysis/sentiment"
	"github.com/textanalysis/go-textanalysis/server"
)

func stdJSON(t testing.TB, v any) string {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return string(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
}

func TestSentimentJSONMatchesEncodingJSON(t *testing.T) {
	tests := []struct {
		name string
		res  sentiment.Result
	}{
		{"typical", sentiment.Result{Label: "positive", Compound: 0.4404, Pos: 0.592, Neu: 0.408, Sentences: []sentiment.Sentence{
			{Text: "Great \"day\" \\ <b>&</b>\n\tok", Start: 0, End: 25, Label: "positive", Compound: 0.6249, Pos: 1}}}},
		{"no sentences", sentiment.Result{Label: "neutral", Sentences: []sentiment.Sentence{}}},
		{"tiny and huge floats", sentiment.Result{Label: "x", Compound: -1e-7, Pos: 1e22, Neu: 123456789.125, Neg: 5e-324, Sentences: []sentiment.Sentence{}}},
		{"odd text", sentiment.Result{Label: "\u2028\u2029\x00\x1f\x7f é 😀 \xff", Sentences: []sentiment.Sentence{{Text: "\xc3\x28", Label: "y"}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := string(sentimentJSON{&tt.res}.appendJSON(nil))
			assert.Equal(t, stdJSON(t, &tt.res), got)
			assert.True(t, json.Valid([]byte(got)))
		})
	}
}

func FuzzSentimentJSON(f *testing.F) {
	f.Add("Great day!", -0.25, 1e-9)
	f.Add("\xff\u2028\"\\\x01", math.SmallestNonzeroFloat64, 3e21)
	f.Fuzz(func(t *testing.T, text string, x, y float64) {
		if math.IsNaN(x) || math.IsInf(x, 0) || math.IsNaN(y) || math.IsInf(y, 0) {
			return
		}
		res := &sentiment.Result{Label: text, Compound: x, Pos: y, Sentences: []sentiment.Sentence{{Text: text, Start: 1, End: 2, Label: text, Neg: x * y}}}
		if math.IsInf(x*y, 0) || math.IsNaN(x*y) {
			return
		}
		if got, want := string(sentimentJSON{res}.appendJSON(nil)), stdJSON(t, res); got != want {
			t.Fatalf("appendJSON %s\nencoding/json %s", got, want)
		}
	})
}

// A text result is written as the API's encoding/json writes it; a
// test of the field list, so that a field added to TextBody fails here
// until textJSON writes it too.
func TestTextJSONMatchesEncodingJSON(t *testing.T) {
	str := func(s string) *string { return &s }
	tests := []struct {
		name string
		body server.TextBody
	}{
		{"all null", server.TextBody{Text: ""}},
		{"full", server.TextBody{URL: str("https://x/a?b=1&c=<2>"), FinalURL: str("https://x/"), Title: str("A \"title\""),
			Author: str("Ann"), Published: str("2024-01-02"), Language: str("en"), LanguageTag: str("en-US"),
			Text: "Para one.\n\nPara two \u2028 é 😀 \xff\x01", WordCount: 7, Warning: str("w"), PageType: str("article")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, stdJSON(t, tt.body), string(textJSON{tt.body}.appendJSON(nil)))
		})
	}
	// Every field of TextBody is written.
	full := tests[1].body
	var m map[string]any
	assert.NoError(t, json.Unmarshal(textJSON{full}.appendJSON(nil), &m))
	assert.Len(t, m, reflect.TypeOf(full).NumField())
}

// The ids of batch lines are written as json.Marshal writes them.
func TestMarshalJSONStringMatchesEncodingJSON(t *testing.T) {
	for _, s := range []string{"", "a", "id-1", "<b>&amp;</b>", "q\"\\/", "\x00\x1f\x7f", "é😀", "\u2028\u2029", "\xff\xc3\x28", "a\tb\nc\rd\be\ff"} {
		want, err := json.Marshal(s)
		assert.NoError(t, err)
		assert.Equal(t, string(want), string(marshalJSONString(s)), "%q", s)
	}
}

func FuzzMarshalJSONString(f *testing.F) {
	f.Add("id <1> & \"2\"")
	f.Add("\xff\u2028\\\x01")
	f.Fuzz(func(t *testing.T, s string) {
		want, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := marshalJSONString(s); !bytes.Equal(got, want) {
			t.Fatalf("%q: marshalJSONString %s, json.Marshal %s", s, got, want)
		}
	})
}
