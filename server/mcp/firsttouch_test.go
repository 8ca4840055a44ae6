package mcp_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/textanalysis/go-textanalysis/server/access"
	"github.com/textanalysis/go-textanalysis/server/store"
)

// A per-second 429 carries retry_after (the Retry-After header HTTP
// clients read) and a body.reset seconds away, not at the month's end.
func TestRateLimitedResultCarriesRetryAfter(t *testing.T) {
	slow := access.Rate{PerSecond: 0.01, Burst: 1}
	e := newEnv(t, access.Config{Rates: map[store.Plan]access.Rate{store.PlanTrial: slow, store.PlanFree: slow, store.PlanPayg: slow, store.PlanSandbox: slow}})
	key := e.key(t)
	cs, _ := connect(t, e.ts.URL+"/mcp", header("X-API-Key", key))
	first, _ := call(t, cs, "analyze_sentiment", map[string]any{"text": "fine"})
	require.Equal(t, http.StatusOK, first.Status, string(first.Body))
	assert.Nil(t, first.RetryAfter, "a 200 has no retry_after")
	res, _ := call(t, cs, "analyze_sentiment", map[string]any{"text": "fine"})
	require.Equal(t, http.StatusTooManyRequests, res.Status, string(res.Body))
	var body struct{ Error, Reset string }
	require.NoError(t, json.Unmarshal(res.Body, &body))
	assert.Equal(t, "rate_limited", body.Error)
	require.NotNil(t, res.RetryAfter)
	assert.InDelta(t, 100, *res.RetryAfter, 2)
	reset, err := time.Parse(time.RFC3339, body.Reset)
	require.NoError(t, err)
	assert.WithinDuration(t, time.Now().Add(time.Duration(*res.RetryAfter)*time.Second), reset, 5*time.Second)
}

// The instructions tell the two kinds of 429 apart, so that an agent does
// not wait for the month's end after a per-second refusal.
func TestInstructionsTellThe429sApart(t *testing.T) {
	e := newEnv(t, access.Config{})
	cs, _ := connect(t, e.ts.URL+"/mcp", nil)
	ins := cs.InitializeResult().Instructions
	for _, want := range []string{`"rate_limited"`, "retry_after", `"allowance_exhausted"`} {
		assert.Contains(t, ins, want)
	}
	assert.NotContains(t, ins, "wait for gateway.reset")
}

// spans may be a JSON array in both display tools, as over HTTP.
func TestSpansArrayInTools(t *testing.T) {
	e := newEnv(t, access.Config{})
	cs, _ := connect(t, e.ts.URL+"/mcp", header("X-API-Key", e.key(t)))
	spans := []map[string]any{{"start": 0, "end": 12, "label": "PERSON"}}
	for _, tool := range []string{"display_ner", "display_ner_post"} {
		t.Run(tool, func(t *testing.T) {
			res, _ := call(t, cs, tool, map[string]any{"text": "Ada Lovelace was here.", "spans": spans})
			require.Equal(t, http.StatusOK, res.Status, string(res.Body))
			assert.Contains(t, string(res.Body), "PERSON")
		})
	}
}

// Tool schemas are JSON Schema 2020-12: no OpenAPI-only keywords, a body
// that says something, every status described.
func TestToolSchemasAreJSONSchema(t *testing.T) {
	e := newEnv(t, access.Config{})
	cs, _ := connect(t, e.ts.URL+"/mcp", nil)
	list, err := cs.ListTools(t.Context(), nil)
	require.NoError(t, err)
	require.NotEmpty(t, list.Tools)
	for _, tool := range list.Tools {
		t.Run(tool.Name, func(t *testing.T) {
			in, err := json.Marshal(tool.InputSchema)
			require.NoError(t, err)
			out, err := json.Marshal(tool.OutputSchema)
			require.NoError(t, err)
			for _, kw := range []string{`"nullable"`, `"example"`, `"$ref"`} {
				assert.NotContains(t, string(in), kw)
				assert.NotContains(t, string(out), kw)
			}
			var schema struct {
				Properties map[string]struct {
					Description string
					AnyOf       []map[string]any `json:"anyOf"`
				}
			}
			require.NoError(t, json.Unmarshal(out, &schema))
			require.Len(t, schema.Properties["body"].AnyOf, 2, "body: the answer or an error")
			for _, status := range []string{"200", "401", "413", "422", "429", "500", "502", "503", "504"} {
				assert.Contains(t, schema.Properties["status"].Description, status)
			}
			assert.NotContains(t, string(in), "Required:")
		})
	}
	t.Run("optional inputs take null", func(t *testing.T) {
		var s struct {
			Properties map[string]struct {
				Type     any
				Examples []any
			}
		}
		for _, tool := range list.Tools {
			if tool.Name != "analyze_ner" {
				continue
			}
			b, _ := json.Marshal(tool.InputSchema)
			require.NoError(t, json.Unmarshal(b, &s))
		}
		assert.Equal(t, []any{"string", "null"}, s.Properties["model"].Type)
		assert.NotEmpty(t, s.Properties["text"].Examples)
	})
}

// A GET tool checks the JSON types of its arguments as its POST twin does.
func TestGetToolsValidateLikeTheirTwins(t *testing.T) {
	e := newEnv(t, access.Config{})
	cs, _ := connect(t, e.ts.URL+"/mcp", header("X-API-Key", e.key(t)))
	tests := []struct {
		name string
		args map[string]any
	}{
		{"array text", map[string]any{"text": []string{"a", "b"}}},
		{"number text", map[string]any{"text": 5}},
		{"null text", map[string]any{"text": nil}},
		{"object model", map[string]any{"text": "Ada", "model": map[string]any{"x": 1}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			get, _ := call(t, cs, "analyze_ner", tt.args)
			post, _ := call(t, cs, "analyze_ner_post", tt.args)
			require.Equal(t, http.StatusUnprocessableEntity, get.Status, string(get.Body))
			require.Equal(t, http.StatusUnprocessableEntity, post.Status, string(post.Body))
			assert.Equal(t, strings.ReplaceAll(string(post.Body), `["body",`, `["query",`), string(get.Body))
		})
	}
	t.Run("spans may still be an array", func(t *testing.T) {
		res, _ := call(t, cs, "display_ner", map[string]any{"text": "Ada", "spans": []map[string]any{{"start": 0, "end": 3, "label": "PERSON"}}})
		assert.Equal(t, http.StatusOK, res.Status, string(res.Body))
	})
}

// The tools of a pair can be told apart, and say which to prefer; the
// models and labels of GET / are in the descriptions.
func TestToolPairsCanBeToldApart(t *testing.T) {
	e := newEnv(t, access.Config{})
	cs, _ := connect(t, e.ts.URL+"/mcp", nil)
	list, err := cs.ListTools(t.Context(), nil)
	require.NoError(t, err)
	titles := map[string]string{}
	byName := map[string]string{}
	for _, tool := range list.Tools {
		if other, dup := titles[tool.Title]; dup {
			t.Errorf("%s and %s share the title %q", other, tool.Name, tool.Title)
		}
		titles[tool.Title] = tool.Name
		byName[tool.Name] = tool.Description
		if tool.Annotations != nil {
			assert.Equal(t, tool.Title, tool.Annotations.Title)
		}
	}
	for _, name := range []string{"analyze_ner", "display_ner", "analyze_sentiment", "qa", "get_text"} {
		assert.Contains(t, byName[name], "`"+name+"_post`", "%s names its twin", name)
		assert.Contains(t, byName[name+"_post"], "`"+name+"`", "%s_post names its twin", name)
	}
	assert.Contains(t, byName["analyze_ner_post"], "prefer this tool for texts longer")
	for _, name := range []string{"analyze_ner", "analyze_ner_post", "display_ner"} {
		assert.Contains(t, byName[name], "`ontonotes` (the default) labels PERSON, NORP")
		assert.Contains(t, byName[name], "`conll` labels PERSON, ORG, LOC, MISC")
	}
	assert.Contains(t, byName["analyze_sentiment"], "`vader`")
	assert.Contains(t, byName["display_ner_post"], "`span`: ")
}

// Over MCP, a call without a key is told about both places a key may go,
// and about clients that drop a key in the path.
func TestMissingKeyNamesThePathForm(t *testing.T) {
	e := newEnv(t, access.Config{})
	cs, _ := connect(t, e.ts.URL+"/mcp", nil)
	res, _ := call(t, cs, "analyze_sentiment", map[string]any{"text": "fine"})
	require.Equal(t, http.StatusUnauthorized, res.Status)
	var body struct{ Detail, Error string }
	require.NoError(t, json.Unmarshal(res.Body, &body))
	assert.Equal(t, "missing_key", body.Error)
	assert.Contains(t, body.Detail, "X-API-Key")
	assert.Contains(t, body.Detail, "/mcp/k/<key>")
	assert.Contains(t, body.Detail, "Inspector")
	t.Run("other 401s keep the API's sentence", func(t *testing.T) {
		cs, _ := connect(t, e.ts.URL+"/mcp", header("X-API-Key", "ta_live_00000000000000000000000000000000"))
		res, _ := call(t, cs, "analyze_sentiment", map[string]any{"text": "fine"})
		http := e.do(t, "GET", "/sentiment?text=fine", "", "ta_live_00000000000000000000000000000000")
		assert.JSONEq(t, withoutRequestID(t, http.body), withoutRequestID(t, string(res.Body)))
	})
}
