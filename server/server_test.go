package server

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/textanalysis/go-textanalysis/extract"
	"github.com/textanalysis/go-textanalysis/textanalysis"
)

// testAnalyzer loads the models once for the whole test binary. Fetches may
// reach loopback so that pages can be served by httptest.
var testAnalyzer = sync.OnceValues(func() (*textanalysis.Analyzer, error) {
	return textanalysis.New(textanalysis.Options{Fetch: extract.Options{AllowPrivate: true}})
})

func newTestServer(tb testing.TB, cfg Config) *httptest.Server {
	tb.Helper()
	an, err := testAnalyzer()
	require.NoError(tb, err)
	srv, err := New(cfg, an)
	require.NoError(tb, err)
	ts := httptest.NewServer(srv)
	tb.Cleanup(ts.Close)
	return ts
}

type response struct {
	status int
	header http.Header
	body   string
}

func do(tb testing.TB, method, rawURL, body string) response {
	tb.Helper()
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	req, err := http.NewRequestWithContext(context.Background(), method, rawURL, r)
	require.NoError(tb, err)
	res, err := http.DefaultClient.Do(req)
	require.NoError(tb, err)
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	require.NoError(tb, err)
	return response{status: res.StatusCode, header: res.Header, body: string(b)}
}

// articleServer serves a small article page for /text and /qa with url.
func articleServer(tb testing.TB) *httptest.Server {
	tb.Helper()
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<!doctype html><html lang="en"><head><title>Ada Lovelace</title>
<meta name="author" content="Jane Writer"></head><body>
<nav><a href="/">Home</a> <a href="/about">About</a></nav>
<article><h1>Ada Lovelace</h1>
<p>Ada Lovelace was an English mathematician and writer, chiefly known for her work on Charles Babbage's proposed mechanical general-purpose computer, the Analytical Engine.</p>
<p>She was born in London on 10 December 1815, the only legitimate child of the poet Lord Byron and the mathematician Anne Isabella Milbanke.</p>
<p>Her notes on the engine include what many consider the first algorithm intended to be carried out by a machine.</p>
</article><footer>Copyright 2024 Example</footer></body></html>`)
	}))
	tb.Cleanup(ts.Close)
	return ts
}

func TestOperationsAnswer200(t *testing.T) {
	ts := newTestServer(t, Config{})
	page := articleServer(t).URL + "/ada"
	q := url.QueryEscape
	tests := []struct {
		name, method, path, body string
		contentType              string
		keys                     []string // top-level keys the JSON body must have
		contains                 string
	}{
		{"get_text", "GET", "/text?url=" + q(page), "", "application/json", []string{"url", "final_url", "title", "author", "published", "language", "text", "word_count"}, "Analytical Engine"},
		{"get_text_post", "POST", "/text", `{"url":"` + page + `"}`, "application/json", []string{"url", "final_url", "text", "word_count"}, "Analytical Engine"},
		{"analyze_ner", "GET", "/ner?text=" + q("Ada Lovelace was born in London."), "", "application/json", []string{"model", "entities"}, "London"},
		{"analyze_ner_post", "POST", "/ner", `{"text":"Ada Lovelace was born in London."}`, "application/json", []string{"model", "entities"}, "London"},
		{"display_ner", "GET", "/ner/display?text=" + q("Ada Lovelace was born in London."), "", "text/html", nil, "London"},
		{"display_ner_post", "POST", "/ner/display", `{"text":"Ada was born in London.","spans":"0:3:PERSON,16:22:GPE"}`, "text/html", nil, "PERSON"},
		{"analyze_sentiment", "GET", "/sentiment?text=" + q("What a wonderful day. The food was awful."), "", "application/json", []string{"label", "compound", "pos", "neu", "neg", "sentences"}, "wonderful"},
		{"analyze_sentiment_post", "POST", "/sentiment", `{"text":"I love it"}`, "application/json", []string{"label", "compound", "sentences"}, "positive"},
		{"qa", "GET", "/qa?question=" + q("Where was Ada born?") + "&context=" + q("Ada Lovelace was born in London in 1815. She wrote notes."), "", "application/json", []string{"answer", "score", "start", "end", "source"}, "London"},
		{"qa_post context", "POST", "/qa", `{"question":"Where was Ada born?","context":"Ada Lovelace was born in London in 1815. She wrote notes."}`, "application/json", []string{"answer", "score", "start", "end", "source"}, "London"},
		{"qa_post url", "POST", "/qa", `{"question":"Who was her father?","url":"` + page + `"}`, "application/json", []string{"answer", "score", "source", "url"}, `"source":"url"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := do(t, tt.method, ts.URL+tt.path, tt.body)
			require.Equal(t, http.StatusOK, res.status, res.body)
			assert.Contains(t, res.header.Get("Content-Type"), tt.contentType)
			assert.NotEmpty(t, res.header.Get("X-Request-Id"))
			assert.Contains(t, res.body, tt.contains)
			if tt.keys != nil {
				var m map[string]any
				require.NoError(t, json.Unmarshal([]byte(res.body), &m))
				for _, k := range tt.keys {
					assert.Contains(t, m, k)
				}
			}
		})
	}
}

// The exact bodies FastAPI gives for the same mistakes (DESIGN.md §4).
func TestValidationBodiesMatchFastAPI(t *testing.T) {
	ts := newTestServer(t, Config{})
	tests := []struct {
		name, method, path, body string
		want                     string
	}{
		{"missing query parameter", "GET", "/ner", "",
			`{"detail":[{"type":"missing","loc":["query","text"],"msg":"Field required","input":null}]}`},
		{"missing body field", "POST", "/ner", `{}`,
			`{"detail":[{"type":"missing","loc":["body","text"],"msg":"Field required","input":{}}]}`},
		{"wrong type", "POST", "/ner", `{"text": 123}`,
			`{"detail":[{"type":"string_type","loc":["body","text"],"msg":"Input should be a valid string","input":123}]}`},
		{"body is not JSON", "POST", "/ner", `x`,
			`{"detail":[{"type":"json_invalid","loc":["body",0],"msg":"JSON decode error","input":{},"ctx":{"error":"Expecting value"}}]}`},
		{"empty body", "POST", "/ner", ``,
			`{"detail":[{"type":"missing","loc":["body"],"msg":"Field required","input":null}]}`},
		{"null body", "POST", "/sentiment", `null`,
			`{"detail":[{"type":"missing","loc":["body"],"msg":"Field required","input":null}]}`},
		{"qa neither", "POST", "/qa", `{"question":"q"}`,
			`{"detail":[{"type":"value_error","loc":["body"],"msg":"Value error, exactly one of url and context is required","input":{"question":"q"},"ctx":{"error":{}}}]}`},
		{"qa both", "POST", "/qa", `{"question": "q", "url": "http://example.com", "context": "c"}`,
			`{"detail":[{"type":"value_error","loc":["body"],"msg":"Value error, exactly one of url and context is required","input":{"question":"q","url":"http://example.com","context":"c"},"ctx":{"error":{}}}]}`},
		{"qa get needs context", "GET", "/qa?question=q", "",
			`{"detail":[{"type":"missing","loc":["query","context"],"msg":"Field required","input":null}]}`},
		{"several errors listed", "GET", "/qa", "",
			`{"detail":[{"type":"missing","loc":["query","question"],"msg":"Field required","input":null},{"type":"missing","loc":["query","context"],"msg":"Field required","input":null}]}`},
		{"body not an object", "POST", "/sentiment", `["text"]`,
			`{"detail":[{"type":"model_attributes_type","loc":["body"],"msg":"Input should be a valid dictionary or object to extract fields from","input":["text"]}]}`},
		{"unknown format", "GET", "/ner/display?text=a&format=bold", "",
			`{"detail":[{"type":"literal_error","loc":["query","format"],"msg":"Input should be 'ent' or 'span'","input":"bold","ctx":{"expected":"'ent' or 'span'"}}]}`},
		{"empty question", "POST", "/qa", `{"question":"","context":"c"}`,
			`{"detail":[{"type":"string_too_short","loc":["body","question"],"msg":"String should have at least 1 character","input":"","ctx":{"min_length":1}}]}`},
		{"display without text", "GET", "/ner/display?spans=0:1:X", "",
			`{"detail":[{"type":"missing","loc":["query","text"],"msg":"Field required","input":null}]}`},
		{"display without anything", "POST", "/ner/display", `{}`,
			`{"detail":[{"type":"missing","loc":["body","text"],"msg":"Field required","input":{}}]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := do(t, tt.method, ts.URL+tt.path, tt.body)
			assert.Equal(t, http.StatusUnprocessableEntity, res.status)
			assert.Equal(t, tt.want, res.body)
			assert.Equal(t, "application/json", res.header.Get("Content-Type"))
			assert.NotEmpty(t, res.header.Get("X-Request-Id"))
		})
	}
}

// Every operation answers the exact missing-input 422 in both forms.
func TestEveryOperationRejectsMissingInput(t *testing.T) {
	ts := newTestServer(t, Config{})
	for _, op := range operations {
		t.Run(op.ID, func(t *testing.T) {
			if op.Method == http.MethodGet {
				res := do(t, "GET", ts.URL+op.Path, "")
				require.Equal(t, http.StatusUnprocessableEntity, res.status)
				first := op.Fields[0].Name
				assert.True(t, strings.HasPrefix(res.body, `{"detail":[{"type":"missing","loc":["query","`+first+`"],"msg":"Field required","input":null}`), res.body)
				return
			}
			res := do(t, "POST", ts.URL+op.Path, "{}")
			require.Equal(t, http.StatusUnprocessableEntity, res.status)
			assert.True(t, strings.HasPrefix(res.body, `{"detail":[{"type":"missing","loc":["body","`+op.Fields[0].Name+`"],"msg":"Field required","input":{}}`), res.body)
		})
	}
}

func TestLimits(t *testing.T) {
	ts := newTestServer(t, Config{MaxBodyBytes: 1000})
	long := strings.Repeat("é", textanalysis.DefaultMaxTextRunes+1)

	t.Run("field too long", func(t *testing.T) {
		srv := newTestServer(t, Config{})
		res := do(t, "POST", srv.URL+"/sentiment", `{"text":"`+long+`"}`)
		require.Equal(t, http.StatusUnprocessableEntity, res.status)
		var body validationError
		require.NoError(t, json.Unmarshal([]byte(res.body), &body))
		require.Len(t, body.Detail, 1)
		assert.Equal(t, "string_too_long", body.Detail[0].Type)
		assert.Equal(t, []any{"body", "text"}, body.Detail[0].Loc)
		assert.Equal(t, "String should have at most 100000 characters", body.Detail[0].Msg)
		assert.Equal(t, map[string]any{"max_length": float64(100000)}, body.Detail[0].Ctx)
	})
	t.Run("text at the limit is accepted", func(t *testing.T) {
		srv := newTestServer(t, Config{MaxBodyBytes: 4 << 20})
		res := do(t, "POST", srv.URL+"/sentiment", `{"text":"`+strings.Repeat("a", textanalysis.DefaultMaxTextRunes)+`"}`)
		assert.Equal(t, http.StatusOK, res.status)
	})
	t.Run("body too large", func(t *testing.T) {
		res := do(t, "POST", ts.URL+"/ner", `{"text":"`+strings.Repeat("a", 2000)+`"}`)
		require.Equal(t, http.StatusRequestEntityTooLarge, res.status)
		assert.JSONEq(t, `{"detail":"The request body is larger than 1000 bytes.","error":"body_too_large","limit":1000}`, res.body)
		assert.NotEmpty(t, res.header.Get("X-Request-Id"))
	})
}

func TestSemanticErrors(t *testing.T) {
	ts := newTestServer(t, Config{})
	t.Run("unknown model lists the known ones", func(t *testing.T) {
		res := do(t, "GET", ts.URL+"/ner?text=a&model=nope", "")
		require.Equal(t, http.StatusUnprocessableEntity, res.status)
		var body validationError
		require.NoError(t, json.Unmarshal([]byte(res.body), &body))
		assert.Equal(t, "literal_error", body.Detail[0].Type)
		assert.Equal(t, []any{"query", "model"}, body.Detail[0].Loc)
		for _, name := range textanalysis.NERModelNames() {
			assert.Contains(t, body.Detail[0].Msg, "'"+name+"'")
		}
	})
	t.Run("bad spans point at spans", func(t *testing.T) {
		res := do(t, "POST", ts.URL+"/ner/display", `{"text":"abc","spans":"0:9:X"}`)
		require.Equal(t, http.StatusUnprocessableEntity, res.status)
		assert.Contains(t, res.body, `"loc":["body","spans"]`)
	})
	t.Run("non-http url", func(t *testing.T) {
		res := do(t, "GET", ts.URL+"/text?url="+url.QueryEscape("file:///etc/passwd"), "")
		require.Equal(t, http.StatusUnprocessableEntity, res.status)
		assert.Contains(t, res.body, `"loc":["query","url"]`)
	})
	t.Run("page that fails upstream is 502", func(t *testing.T) {
		gone := httptest.NewServer(http.NotFoundHandler())
		defer gone.Close()
		res := do(t, "POST", ts.URL+"/text", `{"url":"`+gone.URL+`/missing"}`)
		require.Equal(t, http.StatusBadGateway, res.status, res.body)
		var body map[string]any
		require.NoError(t, json.Unmarshal([]byte(res.body), &body))
		assert.Equal(t, "fetch_failed", body["error"])
		assert.Equal(t, "status", body["cause"])
	})
	t.Run("hostile display input stays text", func(t *testing.T) {
		res := do(t, "POST", ts.URL+"/ner/display", `{"text":"<script>alert(1)</script> Bob","spans":"26:29:<b>PERSON</b>"}`)
		require.Equal(t, http.StatusOK, res.status, res.body)
		assert.NotContains(t, res.body, "<script>")
		assert.NotContains(t, res.body, "<b>")
		assert.Contains(t, res.body, "&lt;script&gt;")
	})
}

func TestRoutingErrors(t *testing.T) {
	ts := newTestServer(t, Config{})
	tests := []struct {
		name, method, path string
		status             int
		body               string
	}{
		{"unknown path", "GET", "/nope", http.StatusNotFound, `{"detail":"Not Found"}`},
		{"wrong method", "DELETE", "/ner", http.StatusMethodNotAllowed, `{"detail":"Method Not Allowed"}`},
		{"unknown operation docs", "GET", "/docs/nope.md", http.StatusNotFound, `{"detail":"Not Found"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := do(t, tt.method, ts.URL+tt.path, "")
			assert.Equal(t, tt.status, res.status)
			assert.Equal(t, tt.body, res.body)
			assert.NotEmpty(t, res.header.Get("X-Request-Id"))
		})
	}
}

func TestRequestIDKeepsClientValue(t *testing.T) {
	ts := newTestServer(t, Config{})
	req, err := http.NewRequest("GET", ts.URL+"/healthz", nil)
	require.NoError(t, err)
	req.Header.Set("X-Request-Id", "abc-123")
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	res.Body.Close()
	assert.Equal(t, "abc-123", res.Header.Get("X-Request-Id"))

	req.Header.Set("X-Request-Id", "bad id\twith spaces")
	res, err = http.DefaultClient.Do(req)
	require.NoError(t, err)
	res.Body.Close()
	assert.NotEqual(t, "bad id\twith spaces", res.Header.Get("X-Request-Id"))
	assert.Len(t, res.Header.Get("X-Request-Id"), 24)
}

func TestPanicAnswers500WithRequestID(t *testing.T) {
	an, err := testAnalyzer()
	require.NoError(t, err)
	srv, err := New(Config{}, an)
	require.NoError(t, err)
	h := srv.recoverPanics(srv.requestID(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { panic("boom") })))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
	assert.Equal(t, http.StatusInternalServerError, rec.Code)
	id := rec.Header().Get("X-Request-Id")
	require.NotEmpty(t, id)
	assert.Contains(t, rec.Body.String(), `"request_id":"`+id+`"`)
	assert.NotContains(t, rec.Body.String(), "boom")
}

func TestHealthReadyAndMetrics(t *testing.T) {
	ts, admin := publicAndAdmin(t)
	for _, p := range []string{"/healthz", "/readyz"} {
		assert.Equal(t, http.StatusOK, do(t, "GET", ts.URL+p, "").status, p)
		assert.Equal(t, http.StatusOK, do(t, "GET", admin.URL+p, "").status, "admin "+p)
	}
	do(t, "GET", ts.URL+"/ner?text="+url.QueryEscape("Paris"), "")
	do(t, "GET", ts.URL+"/ner", "")
	public := do(t, "GET", ts.URL+"/metrics", "")
	assert.Equal(t, http.StatusNotFound, public.status, "the public port does not serve /metrics")
	assert.NotContains(t, public.body, "textanalysis_http")
	res := do(t, "GET", admin.URL+"/metrics", "")
	require.Equal(t, http.StatusOK, res.status)
	assert.Contains(t, res.body, `textanalysis_http_requests_total{operation="analyze_ner",status="200"} 1`)
	assert.Contains(t, res.body, `textanalysis_http_requests_total{operation="analyze_ner",status="422"} 1`)
	assert.Contains(t, res.body, `textanalysis_http_request_duration_seconds_bucket{operation="analyze_ner",status="200"`)
	assert.Equal(t, http.StatusNotFound, do(t, "GET", admin.URL+"/ner?text=x", "").status, "the admin port serves no operation")
}
