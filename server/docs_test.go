package server

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var specOperationIDs = []string{
	"get_text", "get_text_post", "analyze_ner", "analyze_ner_post", "display_ner", "display_ner_post",
	"analyze_sentiment", "analyze_sentiment_post", "qa", "qa_post",
}

func TestOpenAPIValidates(t *testing.T) {
	ts := newTestServer(t, Config{})
	res := do(t, "GET", ts.URL+"/openapi.json", "")
	require.Equal(t, http.StatusOK, res.status)

	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData([]byte(res.body))
	require.NoError(t, err)
	require.NoError(t, doc.Validate(context.Background()))
	assert.Equal(t, "3.0.2", doc.OpenAPI)
	assert.Equal(t, "0.1.0", doc.Info.Version)

	var ids []string
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			ids = append(ids, op.OperationID)
			if op.OperationID == "docs__get" {
				continue
			}
			// Every operation declares the statuses and headers clients rely on.
			for _, status := range []string{"200", "401", "422", "429"} {
				resp := op.Responses.Value(status)
				require.NotNil(t, resp, "%s %s has no %s", method, path, status)
				assert.Contains(t, resp.Value.Headers, "X-Gw-Remaining")
				assert.Contains(t, resp.Value.Headers, "X-Gw-Reset")
			}
			assert.NotEmpty(t, op.Security, op.OperationID)
		}
	}
	slices.Sort(ids)
	want := append(slices.Clone(specOperationIDs), "docs__get")
	slices.Sort(want)
	assert.Equal(t, want, ids)
	assert.Contains(t, doc.Components.SecuritySchemes, "APIKeyHeader")
	assert.Contains(t, doc.Components.SecuritySchemes, "HTTPBearer")
	for _, name := range []string{"Website", "Entities", "DisplayEntities", "Text", "QA", "HTTPValidationError", "ValidationError",
		"TextResult", "NERResult", "SentimentResult", "QAResult"} {
		assert.Contains(t, doc.Components.Schemas, name)
	}
}

// The table is the single source: routes, OpenAPI, the index and the docs
// must all name the same ten operations.
func TestTableDrivesEverything(t *testing.T) {
	const base = "https://api.example.com"
	ts := newTestServer(t, Config{BaseURL: base})
	var ids []string
	for _, op := range operations {
		ids = append(ids, op.ID)
	}
	assert.Equal(t, specOperationIDs, ids)

	var idx docsIndex
	res := do(t, "GET", ts.URL+"/", "")
	require.Equal(t, http.StatusOK, res.status)
	require.NoError(t, json.Unmarshal([]byte(res.body), &idx))
	assert.Equal(t, "0.1.0", idx.Version)
	assert.Equal(t, base+"/openapi.json", idx.OpenAPI)
	assert.NotEmpty(t, idx.NERModels)
	assert.Len(t, idx.DisplayFormats, 2)
	var indexed []string
	for _, op := range idx.Operations {
		indexed = append(indexed, op.OperationID)
		require.True(t, strings.HasPrefix(op.Markdown, base+"/"), op.Markdown)
		md := do(t, "GET", ts.URL+strings.TrimPrefix(op.Markdown, base), "")
		require.Equal(t, http.StatusOK, md.status, op.Markdown)
		assert.Contains(t, md.header.Get("Content-Type"), "text/markdown")
		assert.Contains(t, md.body, "`"+op.Method+" "+op.Path+"`")
	}
	assert.Equal(t, specOperationIDs, indexed)

	whole := do(t, "GET", ts.URL+"/docs.md", "")
	require.Equal(t, http.StatusOK, whole.status)
	html := do(t, "GET", ts.URL+"/docs", "")
	require.Equal(t, http.StatusOK, html.status)
	assert.Contains(t, html.header.Get("Content-Type"), "text/html")
	for _, id := range specOperationIDs {
		assert.Contains(t, whole.body, "## `"+id+"`")
		assert.Contains(t, html.body, `id="`+id+`"`)
	}
	for _, m := range idx.NERModels {
		assert.Contains(t, whole.body, "`"+m.Name+"`")
	}
	assert.False(t, strings.Contains(whole.body, "<no value>"), "a template field is missing")
}
