package mcp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/textanalysis/go-textanalysis/extract"
	"github.com/textanalysis/go-textanalysis/server"
	"github.com/textanalysis/go-textanalysis/server/access"
	"github.com/textanalysis/go-textanalysis/server/mcp"
	"github.com/textanalysis/go-textanalysis/server/store"
	"github.com/textanalysis/go-textanalysis/server/store/sqlite"
	"github.com/textanalysis/go-textanalysis/textanalysis"
)

// The operation ids of SPEC.md §4.1–4.5: the tool names.
var operationIDs = []string{
	"get_text", "get_text_post", "analyze_ner", "analyze_ner_post", "display_ner", "display_ner_post",
	"analyze_sentiment", "analyze_sentiment_post", "qa", "qa_post",
}

// testAnalyzer loads the models once for the whole test binary; fetches may
// reach loopback so that a page can be served by httptest.
var testAnalyzer = sync.OnceValues(func() (*textanalysis.Analyzer, error) {
	return textanalysis.New(textanalysis.Options{Fetch: extract.Options{AllowPrivate: true}})
})

// env is a real server with a gate over a fresh SQLite store.
type env struct {
	ts   *httptest.Server
	gate *access.Gate
	st   store.Store
}

func newEnv(tb testing.TB, cfg access.Config) *env {
	tb.Helper()
	ctx := context.Background()
	an, err := testAnalyzer()
	require.NoError(tb, err)
	st, err := sqlite.Open(ctx, filepath.Join(tb.TempDir(), "t.db"))
	require.NoError(tb, err)
	tb.Cleanup(func() { _ = st.Close() })
	cfg.Store = st
	// Raised so that the per-second limit never interferes.
	fast := access.Rate{PerSecond: 1000, Burst: 1000}
	if cfg.Rates == nil {
		cfg.Rates = map[store.Plan]access.Rate{store.PlanTrial: fast, store.PlanFree: fast, store.PlanPayg: fast, store.PlanSandbox: fast}
	}
	gate, err := access.New(ctx, cfg)
	require.NoError(tb, err)
	srv, err := server.New(server.Config{Gate: gate}, an)
	require.NoError(tb, err)
	ts := httptest.NewServer(srv)
	tb.Cleanup(ts.Close)
	return &env{ts: ts, gate: gate, st: st}
}

// key issues a Free key on a new account.
func (e *env) key(tb testing.TB) string {
	tb.Helper()
	ctx := context.Background()
	acct, err := e.st.CreateAccount(ctx, store.Account{Email: fmt.Sprintf("t%d@example.com", nextID()), Plan: store.PlanFree, EmailConfirmed: true})
	require.NoError(tb, err)
	iss, err := e.gate.IssueKey(ctx, acct, access.KindLive, "test")
	require.NoError(tb, err)
	return iss.Secret
}

var lastID atomic.Int64

func nextID() int64 { return lastID.Add(1) }

// remaining reads a key's allowance without counting a request.
func (e *env) remaining(tb testing.TB, key string) int64 {
	tb.Helper()
	d, err := e.gate.Peek(context.Background(), key)
	require.NoError(tb, err)
	require.True(tb, d.Metered)
	return d.Remaining
}

type httpAnswer struct {
	status int
	header http.Header
	body   string
}

// do makes a direct HTTP request to the API.
func (e *env) do(tb testing.TB, method, target, body, key string) httpAnswer {
	tb.Helper()
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, e.ts.URL+target, r)
	require.NoError(tb, err)
	if key != "" {
		req.Header.Set("X-API-Key", key)
	}
	res, err := http.DefaultClient.Do(req)
	require.NoError(tb, err)
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	require.NoError(tb, err)
	return httpAnswer{status: res.StatusCode, header: res.Header, body: string(b)}
}

func articleServer(tb testing.TB) *httptest.Server {
	tb.Helper()
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<!doctype html><html lang="en"><head><title>Ada Lovelace</title></head><body>
<article><h1>Ada Lovelace</h1>
<p>Ada Lovelace was an English mathematician and writer, chiefly known for her work on Charles Babbage's proposed mechanical general-purpose computer, the Analytical Engine.</p>
<p>She was born in London on 10 December 1815, the only legitimate child of the poet Lord Byron and the mathematician Anne Isabella Milbanke.</p>
</article></body></html>`)
	}))
	tb.Cleanup(ts.Close)
	return ts
}

func TestListToolsWithoutKey(t *testing.T) {
	e := newEnv(t, access.Config{})
	cs, ht := connect(t, e.ts.URL+"/mcp", nil)
	res, err := cs.ListTools(context.Background(), nil)
	require.NoError(t, err)
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
		t.Run(tool.Name, func(t *testing.T) {
			assert.NotEmpty(t, tool.Description)
			schema, ok := tool.InputSchema.(map[string]any)
			require.True(t, ok, "input schema is %T", tool.InputSchema)
			assert.Equal(t, "object", schema["type"])
			assert.NotEmpty(t, schema["properties"])
			assert.NotNil(t, tool.OutputSchema)
			require.NotNil(t, tool.Annotations)
			assert.True(t, tool.Annotations.ReadOnlyHint)
		})
	}
	assert.ElementsMatch(t, operationIDs, names)
	for _, st := range ht.Statuses() {
		assert.Equal(t, http.StatusOK, st)
	}
}

func TestCallEachTool(t *testing.T) {
	e := newEnv(t, access.Config{})
	page := articleServer(t).URL + "/ada"
	key := e.key(t)
	cs, _ := connect(t, e.ts.URL+"/mcp", header("X-API-Key", key))
	tests := []struct {
		tool string
		args map[string]any
		// want is a piece of the body.
		want string
	}{
		{"get_text", map[string]any{"url": page}, `born in London`},
		{"get_text_post", map[string]any{"url": page}, `"title":"Ada Lovelace"`},
		{"analyze_ner", map[string]any{"text": "Ada Lovelace was born in London."}, `"entities"`},
		{"analyze_ner_post", map[string]any{"text": "Ada Lovelace was born in London."}, `"entities"`},
		{"display_ner", map[string]any{"text": "Ada was born in London.", "spans": "0:3:PERSON"}, `PERSON`},
		{"display_ner_post", map[string]any{"text": "Ada was born in London.", "spans": `[{"start":0,"end":3,"label":"PERSON"}]`}, `PERSON`},
		{"analyze_sentiment", map[string]any{"text": "What a wonderful day!"}, `"label":"positive"`},
		{"analyze_sentiment_post", map[string]any{"text": "What a wonderful day!"}, `"label":"positive"`},
		{"qa", map[string]any{"question": "Where was Ada born?", "context": "Ada was born in London."}, `London`},
		{"qa_post", map[string]any{"question": "Where was Ada born?", "url": page}, `London`},
	}
	prev := e.remaining(t, key)
	var called []string
	for _, tt := range tests {
		t.Run(tt.tool, func(t *testing.T) {
			called = append(called, tt.tool)
			res, raw := call(t, cs, tt.tool, tt.args)
			require.Equal(t, http.StatusOK, res.Status, string(res.Body))
			assert.False(t, raw.IsError)
			assert.Contains(t, string(res.Body), tt.want)
			require.NotNil(t, res.Gateway.Remaining)
			require.NotNil(t, res.Gateway.Reset)
			assert.Equal(t, prev-1, *res.Gateway.Remaining)
			assert.Equal(t, *res.Gateway.Remaining, e.remaining(t, key))
			prev = *res.Gateway.Remaining
		})
	}
	assert.ElementsMatch(t, operationIDs, called)
}

// A tool answers what the HTTP operation answers for the same input: a
// bad argument gives the very 422 body.
func TestAnswersAsHTTP(t *testing.T) {
	e := newEnv(t, access.Config{})
	key := e.key(t)
	cs, _ := connect(t, e.ts.URL+"/mcp", header("X-API-Key", key))
	tests := []struct {
		name         string
		tool         string
		args         string
		method, path string
		body         string
	}{
		{"missing query parameter", "analyze_sentiment", `{}`, "GET", "/sentiment", ""},
		{"missing body field", "analyze_sentiment_post", `{}`, "POST", "/sentiment", `{}`},
		{"wrong type", "analyze_sentiment_post", `{"text":123}`, "POST", "/sentiment", `{"text":123}`},
		{"several errors", "qa_post", `{"question":5,"context":[1]}`, "POST", "/qa", `{"question":5,"context":[1]}`},
		{"qa neither url nor context", "qa_post", `{"question":"q"}`, "POST", "/qa", `{"question":"q"}`},
		{"qa GET needs context", "qa", `{"question":"q"}`, "GET", "/qa?question=q", ""},
		{"unknown model", "analyze_ner", `{"text":"Ada","model":"nope"}`, "GET", "/ner?text=Ada&model=nope", ""},
		{"spans without text", "display_ner_post", `{"spans":"0:3:PERSON"}`, "POST", "/ner/display", `{"spans":"0:3:PERSON"}`},
		{"display without anything", "display_ner", `{}`, "GET", "/ner/display", ""},
		{"array where a string is due (POST)", "display_ner_post", `{"text":"Ada","spans":[{"start":0,"end":3,"label":"PERSON"}]}`,
			"POST", "/ner/display", `{"text":"Ada","spans":[{"start":0,"end":3,"label":"PERSON"}]}`},
		{"fetch failure", "get_text_post", `{"url":"http://127.0.0.1:1/"}`, "POST", "/text", `{"url":"http://127.0.0.1:1/"}`},
		// A query has only strings: spans, which may be an array, travels
		// as its JSON text. (Other wrongly typed values are the POST
		// twin's 422: TestGetToolsValidateLikeTheirTwins.)
		{"array in a query", "display_ner", `{"text":"Ada","spans":[{"start":0,"end":3,"label":"PERSON"}]}`,
			"GET", "/ner/display?text=Ada&spans=" + url.QueryEscape(`[{"start":0,"end":3,"label":"PERSON"}]`), ""},
		{"null is absent", "analyze_ner", `{"text":"Ada","model":null}`, "GET", "/ner?text=Ada", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := e.do(t, tt.method, tt.path, tt.body, key)
			res, raw := call(t, cs, tt.tool, json.RawMessage(tt.args))
			assert.Equal(t, want.status >= 400, raw.IsError)
			assert.Equal(t, want.status, res.Status)
			if strings.HasPrefix(want.header.Get("Content-Type"), "text/html") {
				var html string
				require.NoError(t, json.Unmarshal(res.Body, &html))
				assert.Equal(t, want.body, html)
			} else {
				assert.JSONEq(t, withoutRequestID(t, want.body), withoutRequestID(t, string(res.Body)))
			}
			require.NotNil(t, res.Gateway.Remaining, "422s are metered")
		})
	}
}

// withoutRequestID drops the one field two answers to the same input
// differ in.
func withoutRequestID(tb testing.TB, body string) string {
	tb.Helper()
	var m map[string]any
	if json.Unmarshal([]byte(body), &m) != nil {
		return body
	}
	delete(m, "request_id")
	out, err := json.Marshal(m)
	require.NoError(tb, err)
	return string(out)
}

func TestNoValidKey(t *testing.T) {
	e := newEnv(t, access.Config{})
	tests := []struct {
		name   string
		path   string
		header http.Header
	}{
		{"no key", "/mcp", nil},
		{"unknown key", "/mcp", header("X-API-Key", "ta_live_00000000000000000000000000000000")},
		{"other API's key", "/mcp", header("Authorization", "Bearer sk_live_abc")},
		{"unknown key in the path", "/mcp/k/ta_live_00000000000000000000000000000000", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cs, ht := connect(t, e.ts.URL+tt.path, tt.header)
			_, err := cs.ListTools(context.Background(), nil)
			require.NoError(t, err, "listing needs no key")
			res, raw := call(t, cs, "analyze_sentiment", map[string]any{"text": "fine"})
			assert.Equal(t, http.StatusUnauthorized, res.Status)
			assert.True(t, raw.IsError)
			assert.Equal(t, mcp.Gateway{}, res.Gateway)
			assert.JSONEq(t, `{"remaining":null,"reset":null}`, gatewayJSON(t, raw))
			var body struct{ Detail, Error string }
			require.NoError(t, json.Unmarshal(res.Body, &body))
			assert.NotEmpty(t, body.Detail)
			assert.NotEmpty(t, body.Error)
			statuses := ht.Statuses()
			require.NotEmpty(t, statuses)
			for _, st := range statuses {
				assert.Equal(t, http.StatusOK, st, "the endpoint never answers HTTP 401")
			}
		})
	}
}

func gatewayJSON(tb testing.TB, raw *sdk.CallToolResult) string {
	tb.Helper()
	var m map[string]json.RawMessage
	require.NoError(tb, json.Unmarshal([]byte(raw.Content[0].(*sdk.TextContent).Text), &m))
	return string(m["gateway"])
}

func TestExhaustedKey(t *testing.T) {
	e := newEnv(t, access.Config{FreeAllowance: 2})
	key := e.key(t)
	cs, _ := connect(t, e.ts.URL+"/mcp", header("Authorization", "Bearer "+key))
	var statuses []int
	var last mcp.Result
	for range 3 {
		res, _ := call(t, cs, "analyze_sentiment_post", map[string]any{"text": "fine"})
		statuses = append(statuses, res.Status)
		last = res
	}
	assert.Equal(t, []int{200, 200, 429}, statuses)
	var body struct {
		Error, Action, Reset string
	}
	require.NoError(t, json.Unmarshal(last.Body, &body))
	assert.Equal(t, "allowance_exhausted", body.Error)
	assert.Equal(t, "wait", body.Action)
	require.NotNil(t, last.Gateway.Remaining)
	assert.Equal(t, int64(0), *last.Gateway.Remaining)
	require.NotNil(t, last.Gateway.Reset)
	assert.Equal(t, body.Reset, *last.Gateway.Reset)
}

func TestKeyInThePath(t *testing.T) {
	e := newEnv(t, access.Config{})
	key := e.key(t)
	before := e.remaining(t, key)
	cs, _ := connect(t, e.ts.URL+"/mcp/k/"+key, nil)
	res, _ := call(t, cs, "analyze_sentiment", map[string]any{"text": "What a wonderful day!"})
	require.Equal(t, http.StatusOK, res.Status, string(res.Body))
	require.NotNil(t, res.Gateway.Remaining)
	assert.Equal(t, before-1, *res.Gateway.Remaining)
	assert.Equal(t, before-1, e.remaining(t, key))
}

// An MCP call lowers X-Gw-Remaining exactly as an HTTP call does, and
// protocol errors are not metered.
func TestSameMeterAsHTTP(t *testing.T) {
	e := newEnv(t, access.Config{})
	key := e.key(t)
	cs, _ := connect(t, e.ts.URL+"/mcp", header("X-API-Key", key))
	gw := func(a httpAnswer) (int64, string) {
		n, err := strconv.ParseInt(a.header.Get("X-Gw-Remaining"), 10, 64)
		require.NoError(t, err)
		return n, a.header.Get("X-Gw-Reset")
	}
	r1, reset := gw(e.do(t, "GET", "/sentiment?text=fine", "", key))
	res, _ := call(t, cs, "analyze_sentiment", map[string]any{"text": "fine"})
	require.NotNil(t, res.Gateway.Remaining)
	assert.Equal(t, r1-1, *res.Gateway.Remaining)
	assert.Equal(t, reset, *res.Gateway.Reset)

	_, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "no_such_tool", Arguments: map[string]any{}})
	require.Error(t, err)
	_, err = cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "analyze_sentiment", Arguments: []string{"fine"}})
	require.Error(t, err)
	_, err = cs.ListTools(context.Background(), nil)
	require.NoError(t, err)

	r3, _ := gw(e.do(t, "POST", "/sentiment", `{"text":"fine"}`, key))
	assert.Equal(t, r1-2, r3, "one MCP call, one HTTP call; protocol errors and listing are free")
}

// Every tool is an operation of the OpenAPI document, with the same inputs.
func TestToolsMatchOpenAPI(t *testing.T) {
	e := newEnv(t, access.Config{})
	var doc struct {
		Paths map[string]map[string]struct {
			OperationID string `json:"operationId"`
			Parameters  []struct {
				Name     string `json:"name"`
				Required bool   `json:"required"`
			} `json:"parameters"`
		} `json:"paths"`
	}
	a := e.do(t, "GET", "/openapi.json", "", "")
	require.Equal(t, http.StatusOK, a.status)
	require.NoError(t, json.Unmarshal([]byte(a.body), &doc))
	getParams := map[string][]string{}
	for _, methods := range doc.Paths {
		for method, op := range methods {
			if method != "get" {
				continue
			}
			var required []string
			for _, p := range op.Parameters {
				if p.Required {
					required = append(required, p.Name)
				}
			}
			getParams[op.OperationID] = required
		}
	}
	cs, _ := connect(t, e.ts.URL+"/mcp", nil)
	res, err := cs.ListTools(context.Background(), nil)
	require.NoError(t, err)
	for _, tool := range res.Tools {
		want, ok := getParams[tool.Name]
		if !ok {
			continue // a POST operation
		}
		schema := tool.InputSchema.(map[string]any)
		var got []string
		if req, ok := schema["required"].([]any); ok {
			for _, r := range req {
				got = append(got, r.(string))
			}
		}
		slices.Sort(got)
		slices.Sort(want)
		assert.Equal(t, want, got, tool.Name)
	}
}
