package server

import (
	"encoding/json"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/textanalysis/go-textanalysis/server/access"
	"github.com/textanalysis/go-textanalysis/server/store"
)

// A per-second refusal says when the next request is allowed: its reset is
// Retry-After seconds away, not the allowance's refill at the month's end
// (which X-Gw-Reset still gives).
func TestRateLimitedResetIsTheNextAllowedRequest(t *testing.T) {
	now := time.Date(2026, 3, 10, 12, 0, 0, 300_000_000, time.UTC)
	one := access.Rate{PerSecond: 1, Burst: 1}
	ms := newMeteredServer(t, filepath.Join(t.TempDir(), "ta.db"), access.Config{
		Rates: map[store.Plan]access.Rate{store.PlanTrial: one, store.PlanFree: one, store.PlanPayg: one, store.PlanSandbox: one},
		Now:   func() time.Time { return now },
	}, Config{})
	key := ms.issue(t, store.PlanFree, "rate@example.com").Secret
	first := call(t, http.MethodGet, ms.URL+"/sentiment?text=fine", key, "")
	require.Equal(t, http.StatusOK, first.status, first.body)
	res := call(t, http.MethodGet, ms.URL+"/sentiment?text=fine", key, "")
	require.Equal(t, http.StatusTooManyRequests, res.status, res.body)
	var body struct {
		Error, Action, Reset string
	}
	require.NoError(t, json.Unmarshal([]byte(res.body), &body))
	assert.Equal(t, "rate_limited", body.Error)
	assert.Equal(t, "wait", body.Action)
	retry, err := strconv.Atoi(res.header.Get("Retry-After"))
	require.NoError(t, err)
	assert.Equal(t, 1, retry)
	reset, err := time.Parse(time.RFC3339, body.Reset)
	require.NoError(t, err)
	assert.False(t, reset.Before(now.Add(700*time.Millisecond)), "reset %s is before the next allowed request", reset)
	// Written in whole seconds, reset is rounded up: never early, at most a
	// second after Retry-After.
	assert.False(t, reset.After(now.Add(time.Duration(retry+1)*time.Second)), "reset %s is far after Retry-After", reset)
	assert.Equal(t, "2026-04-01T00:00:00Z", res.header.Get("X-Gw-Reset"), "the allowance still refills on the 1st")
}

func TestFirstTouchErrors(t *testing.T) {
	ms := newMeteredServer(t, filepath.Join(t.TempDir(), "ta.db"), access.Config{Rates: noRates}, Config{})
	key := ms.issue(t, store.PlanFree, "errors@example.com").Secret
	t.Run("a span error names no Go package", func(t *testing.T) {
		res := call(t, http.MethodPost, ms.URL+"/ner/display", key, `{"text":"Ada","spans":"0:9:PERSON"}`)
		require.Equal(t, http.StatusUnprocessableEntity, res.status, res.body)
		assert.Contains(t, res.body, `"msg":"Value error, span 0: `)
		assert.NotContains(t, res.body, "display:")
	})
	t.Run("GET /developer/trial is a JSON 405", func(t *testing.T) {
		res := call(t, http.MethodGet, ms.URL+"/developer/trial", "", "")
		assert.Equal(t, http.StatusMethodNotAllowed, res.status)
		assert.Equal(t, "application/json", strings.Split(res.header.Get("Content-Type"), ";")[0])
		assert.Equal(t, http.MethodPost, res.header.Get("Allow"))
		assert.JSONEq(t, `{"detail":"Method Not Allowed"}`, res.body)
	})
	t.Run("the overlap limit is documented", func(t *testing.T) {
		res := call(t, http.MethodGet, ms.URL+"/docs.md", "", "")
		assert.Contains(t, res.body, "at most 10 may overlap at one character")
		res = call(t, http.MethodGet, ms.URL+"/openapi.json", "", "")
		assert.Contains(t, res.body, "at most 10 at one character")
		res = call(t, http.MethodGet, ms.URL+"/", "", "")
		assert.Contains(t, res.body, `"max_overlapping_spans":10`)
	})
}

func TestSentimentModel(t *testing.T) {
	ms := newMeteredServer(t, filepath.Join(t.TempDir(), "ta.db"), access.Config{Rates: noRates}, Config{})
	key := ms.issue(t, store.PlanFree, "model@example.com").Secret
	text := "Not bad at all :)"
	get := func(model string) response {
		q := "/sentiment?text=" + strings.ReplaceAll(text, " ", "+")
		if model != "" {
			q += "&model=" + model
		}
		return call(t, http.MethodGet, ms.URL+q, key, "")
	}
	def, vader := get(""), get("vader")
	require.Equal(t, http.StatusOK, def.status, def.body)
	require.Equal(t, http.StatusOK, vader.status, vader.body)
	assert.NotEqual(t, def.body, vader.body, "vader scores differ from the default model's")
	assert.Equal(t, def.body, get("hybrid").body, "the default by name")
	post := call(t, http.MethodPost, ms.URL+"/sentiment", key, `{"text":"`+text+`","model":"vader"}`)
	assert.Equal(t, vader.body, post.body)
	for _, bad := range []string{"nonexistent", "VADER"} {
		res := get(bad)
		assert.Equal(t, http.StatusUnprocessableEntity, res.status, res.body)
		assert.JSONEq(t, `{"detail":[{"type":"literal_error","loc":["query","model"],"msg":"Input should be 'hybrid' or 'vader'","input":"`+bad+`","ctx":{"expected":"'hybrid' or 'vader'"}}]}`, res.body)
	}
	doc := call(t, http.MethodGet, ms.URL+"/openapi.json", "", "")
	assert.NotContains(t, doc.body, "Share of neutral words")
}

func TestSpansAsArrayOrString(t *testing.T) {
	ms := newMeteredServer(t, filepath.Join(t.TempDir(), "ta.db"), access.Config{Rates: noRates}, Config{})
	key := ms.issue(t, store.PlanFree, "spans@example.com").Secret
	text := "Ada Lovelace was born in London."
	var want string
	for _, tt := range []struct{ name, spans string }{
		{"array", `[{"start":0,"end":12,"label":"PERSON"},{"start":25,"end":31,"label":"GPE"}]`},
		{"string holding an array", `"[{\"start\":0,\"end\":12,\"label\":\"PERSON\"},{\"start\":25,\"end\":31,\"label\":\"GPE\"}]"`},
		{"compact string", `"0:12:PERSON,25:31:GPE"`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			res := call(t, http.MethodPost, ms.URL+"/ner/display", key, `{"text":"`+text+`","spans":`+tt.spans+`}`)
			require.Equal(t, http.StatusOK, res.status, res.body)
			if want == "" {
				want = res.body
			}
			assert.Equal(t, want, res.body)
		})
	}
	t.Run("a bad span in the array is a value error on spans", func(t *testing.T) {
		res := call(t, http.MethodPost, ms.URL+"/ner/display", key, `{"text":"Ada","spans":[{"start":0,"end":9,"label":"PERSON"}]}`)
		require.Equal(t, http.StatusUnprocessableEntity, res.status, res.body)
		assert.Contains(t, res.body, `"loc":["body","spans"]`)
		assert.Contains(t, res.body, `"type":"value_error"`)
	})
	t.Run("other types are still string_type", func(t *testing.T) {
		res := call(t, http.MethodPost, ms.URL+"/ner/display", key, `{"text":"Ada","spans":{"start":0}}`)
		require.Equal(t, http.StatusUnprocessableEntity, res.status, res.body)
		assert.Contains(t, res.body, `"type":"string_type"`)
	})
	t.Run("OpenAPI describes oneOf in the body, a string in the query", func(t *testing.T) {
		var doc struct {
			Paths      map[string]map[string]json.RawMessage
			Components struct {
				Schemas map[string]struct {
					Properties map[string]map[string]any
				}
			}
		}
		res := call(t, http.MethodGet, ms.URL+"/openapi.json", "", "")
		require.NoError(t, json.Unmarshal([]byte(res.body), &doc))
		spans := doc.Components.Schemas["DisplayEntities"].Properties["spans"]
		require.Contains(t, spans, "oneOf")
		assert.Len(t, spans["oneOf"], 2)
		assert.Contains(t, string(doc.Paths["/ner/display"]["get"]), `"schema":{"description"`)
		assert.NotContains(t, string(doc.Paths["/ner/display"]["get"]), "oneOf")
	})
}
