package server

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/textanalysis/go-textanalysis/extract"
	"github.com/textanalysis/go-textanalysis/textanalysis"
)

// gzipPageServer serves page gzip-compressed, as the hostile pages of
// issue 12 came: a few KiB on the wire for megabytes of HTML.
func gzipPageServer(tb testing.TB, page string) *httptest.Server {
	tb.Helper()
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	_, err := io.WriteString(zw, page)
	require.NoError(tb, err)
	require.NoError(tb, zw.Close())
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Content-Encoding", "gzip")
		_, _ = w.Write(gz.Bytes())
	}))
	tb.Cleanup(ts.Close)
	return ts
}

// doWithin is do with a client that gives up after limit: the answer must
// come within the request's deadline.
func doWithin(tb testing.TB, limit time.Duration, method, rawURL, body string) response {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, rawURL, strings.NewReader(body))
	require.NoError(tb, err)
	res, err := http.DefaultClient.Do(req)
	require.NoError(tb, err, "no answer within %v", limit)
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	require.NoError(tb, err)
	return response{status: res.StatusCode, header: res.Header, body: string(b)}
}

// TestHostilePagesAnswerInTime fetches nested-div pages through /text and
// /qa: within the budget they are extracted, past it they are a 502 with
// cause too_complex; either way the answer comes well within the deadline.
func TestHostilePagesAnswerInTime(t *testing.T) {
	const timeout = 20 * time.Second // the server's; generous on a busy machine
	ts := newTestServer(t, Config{RequestTimeout: timeout})
	// The page of issue 12: 4.5 MiB of nested <div>, 943,000 elements.
	nested := gzipPageServer(t, strings.Repeat("<div>", 4608<<10/5)+"<p>The words at the bottom, with a comma.</p>").URL
	// 3.6 MiB of nested <div> with text: 1,200,000 nodes, past the budget.
	over := gzipPageServer(t, strings.Repeat("<div>x", 600_000)).URL
	q := url.QueryEscape
	tests := []struct {
		name, method, path, body string
		status                   int
		cause                    string
	}{
		{"get_text nested", "GET", "/text?url=" + q(nested), "", http.StatusOK, ""},
		{"get_text over the budget", "GET", "/text?url=" + q(over), "", http.StatusBadGateway, "too_complex"},
		{"get_text_post over the budget", "POST", "/text", `{"url":"` + over + `"}`, http.StatusBadGateway, "too_complex"},
		{"qa_post url over the budget", "POST", "/qa", `{"question":"What is it?","url":"` + over + `"}`, http.StatusBadGateway, "too_complex"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := doWithin(t, timeout, tt.method, ts.URL+tt.path, tt.body)
			require.Equal(t, tt.status, res.status, res.body)
			var body map[string]any
			require.NoError(t, json.Unmarshal([]byte(res.body), &body))
			if tt.status == http.StatusOK {
				assert.Equal(t, "The words at the bottom, with a comma.", body["text"])
				return
			}
			assert.Equal(t, "fetch_failed", body["error"])
			assert.Equal(t, tt.cause, body["cause"])
			assert.Equal(t, over, body["url"])
			assert.Contains(t, body["detail"], "more elements than the server extracts")
			assert.NotEmpty(t, body["request_id"])
		})
	}
}

// TestHostilePageDeadline extracts a page with no work budget under a
// short deadline: the answer is the deadline's 504, in time, not a hang.
func TestHostilePageDeadline(t *testing.T) {
	// Lazy: /text loads no model.
	an, err := textanalysis.New(textanalysis.Options{Lazy: true, Fetch: extract.Options{AllowPrivate: true, MaxNodes: -1}})
	require.NoError(t, err)
	srv, err := New(Config{RequestTimeout: 300 * time.Millisecond}, an)
	require.NoError(t, err)
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	// 5 MiB of nested <div> with text, 1,750,000 nodes: about a second of
	// extraction, against a fetch of 20 KiB from loopback.
	page := gzipPageServer(t, strings.Repeat("<div>x", 5<<20/6)).URL

	res := doWithin(t, 10*time.Second, "GET", ts.URL+"/text?url="+url.QueryEscape(page), "")
	var body map[string]any
	require.NoError(t, json.Unmarshal([]byte(res.body), &body))
	if res.status == http.StatusBadGateway && body["cause"] == "timeout" {
		// A machine too busy to fetch 20 KiB in 300 ms ran out of time in
		// the fetch instead: still an answer in time.
		t.Skip("the deadline passed during the fetch")
	}
	require.Equal(t, http.StatusGatewayTimeout, res.status, res.body)
	assert.Equal(t, "timeout", body["error"])
}

// TestErrorResponseForHostilePages maps the errors of a page that needs too
// much work, or runs out of time while extracted.
func TestErrorResponseForHostilePages(t *testing.T) {
	tooComplex := fmt.Errorf("%w: more than 1000000 elements and runs of text", extract.ErrTooComplex)
	tests := []struct {
		name   string
		err    error
		status int
		want   problem
	}{
		{"fetch error too_complex", &extract.FetchError{URL: "https://example.com/p", Cause: extract.CauseTooComplex, Err: tooComplex}, http.StatusBadGateway,
			problem{Detail: "The page could not be fetched: it has more elements than the server extracts.", Error: "fetch_failed", Cause: "too_complex", URL: "https://example.com/p"}},
		{"bare ErrTooComplex", tooComplex, http.StatusBadGateway,
			problem{Detail: "The page could not be read: it has more elements than the server extracts.", Error: "fetch_failed", Cause: "too_complex"}},
		{"deadline during extraction", fmt.Errorf("extract: %w", context.DeadlineExceeded), http.StatusGatewayTimeout,
			problem{Detail: "The request took longer than the server allows.", Error: "timeout"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, body := errorResponse(tt.err, "query", nil)
			assert.Equal(t, tt.status, status)
			assert.Equal(t, tt.want, body)
		})
	}
}
