package server

import (
	"encoding/json"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/textanalysis/go-textanalysis/server/access"
	"github.com/textanalysis/go-textanalysis/server/store"
)

var (
	shBlock  = regexp.MustCompile("(?s)```sh\n(.*?)```")
	curlURL  = regexp.MustCompile(`'?(https?://[^' ]+)'?\s*$`)
	curlData = regexp.MustCompile(`-d '((?:[^']|'\\'')*)'`)
)

// Every curl example of /docs.md and /docs/{id}.md runs as printed and
// answers 200, but those that fetch a page from the internet, which show
// their answer instead. .ci/docs-examples.sh runs the same examples with
// curl itself against the smoke server.
func TestDocsExamplesRun(t *testing.T) {
	ms := newMeteredServer(t, filepath.Join(t.TempDir(), "ta.db"), access.Config{Rates: noRates}, Config{})
	key := ms.issue(t, store.PlanFree, "docs@example.com").Secret
	pages := []string{"/docs.md"}
	for _, op := range operations {
		pages = append(pages, "/docs/"+op.ID+".md")
	}
	seen := map[string]bool{}
	for _, page := range pages {
		doc := call(t, http.MethodGet, ms.URL+page, "", "")
		require.Equal(t, http.StatusOK, doc.status)
		blocks := shBlock.FindAllStringSubmatch(doc.body, -1)
		require.NotEmpty(t, blocks, page)
		for _, b := range blocks {
			cmd := strings.ReplaceAll(b[1], "\\\n", " ")
			if strings.Contains(cmd, "from the internet") {
				assert.Contains(t, doc.body, `"final_url": `, "%s shows the answer of an example it cannot run", page)
				continue
			}
			if seen[cmd] {
				continue
			}
			seen[cmd] = true
			t.Run(strings.TrimSpace(cmd)[:min(len(strings.TrimSpace(cmd)), 80)], func(t *testing.T) {
				u := curlURL.FindStringSubmatch(strings.TrimSpace(cmd))
				require.NotNil(t, u, cmd)
				target := strings.Replace(u[1], "http://localhost:8080", ms.URL, 1)
				method, body := http.MethodGet, ""
				if strings.Contains(cmd, "-X POST") {
					method = http.MethodPost
				}
				if d := curlData.FindStringSubmatch(cmd); d != nil {
					method, body = http.MethodPost, strings.ReplaceAll(d[1], `'\''`, "'")
					require.True(t, json.Valid([]byte(body)), body)
				}
				res := call(t, method, target, key, body)
				assert.Equal(t, http.StatusOK, res.status, res.body)
			})
		}
	}
	assert.GreaterOrEqual(t, len(seen), 9)
}

// The reference says how to get a key, what the plans and limits are and
// where the MCP endpoint is; GET / and the OpenAPI document link there.
func TestDocsSayHowToGetAKey(t *testing.T) {
	ms := newMeteredServer(t, filepath.Join(t.TempDir(), "ta.db"), access.Config{Rates: noRates}, Config{})
	md := call(t, http.MethodGet, ms.URL+"/docs.md", "", "").body
	for _, want := range []string{
		"## Getting a key", "http://localhost:8080/developer/", "POST http://localhost:8080/developer/trial",
		"| Free (`ta_live_…`) | 1000 requests per calendar month (UTC) | 5 (10) | free |",
		"0.10 USD per 1,000 requests", "`error: rate_limited`", "`error: allowance_exhausted`",
		"## MCP", `"url": "http://localhost:8080/mcp", "headers": {"X-API-Key": "<API_KEY>"}`, "/mcp/k/<API_KEY>",
	} {
		assert.Contains(t, md, want)
	}
	html := call(t, http.MethodGet, ms.URL+"/docs", "", "").body
	assert.Contains(t, html, `href="http://localhost:8080/docs.md#getting-a-key"`)

	var idx struct{ Keys map[string]string }
	require.NoError(t, json.Unmarshal([]byte(call(t, http.MethodGet, ms.URL+"/", "", "").body), &idx))
	assert.Equal(t, "http://localhost:8080/developer/", idx.Keys["developer_site"])
	assert.Equal(t, "http://localhost:8080/mcp", idx.Keys["mcp"])
	assert.Equal(t, "http://localhost:8080/docs.md#getting-a-key", idx.Keys["plans"])

	var doc struct {
		Info         struct{ Description string }
		ExternalDocs struct{ URL string } `json:"externalDocs"`
	}
	require.NoError(t, json.Unmarshal([]byte(call(t, http.MethodGet, ms.URL+"/openapi.json", "", "").body), &doc))
	assert.Contains(t, doc.Info.Description, "http://localhost:8080/developer/")
	assert.Contains(t, doc.Info.Description, "http://localhost:8080/mcp")
	assert.Equal(t, "http://localhost:8080/docs.md", doc.ExternalDocs.URL)
}

func TestDocsHTML(t *testing.T) {
	ms := newMeteredServer(t, filepath.Join(t.TempDir(), "ta.db"), access.Config{Rates: noRates}, Config{BaseURL: "https://api.example.com/v0"})
	page := call(t, http.MethodGet, ms.URL+"/docs", "", "").body
	visible := regexp.MustCompile(`(?s)<script.*?</script>`).ReplaceAllString(page, "")
	assert.NotContains(t, visible, "`", "Markdown code spans are drawn as <code>")
	assert.Contains(t, visible, "<code>spans</code>")
	t.Run("the display text row does not say Required", func(t *testing.T) {
		row := regexp.MustCompile(`(?s)<section class="op" id="display_ner">.*?</table>`).FindString(visible)
		require.NotEmpty(t, row)
		assert.NotContains(t, row, "Required")
	})
	t.Run("the console calls under the base URL's path", func(t *testing.T) {
		assert.Contains(t, page, `data-path="/v0/ner"`)
		assert.Contains(t, page, `data-path="/v0/ner/display"`)
		assert.NotContains(t, page, `data-path="/ner"`)
	})
}
