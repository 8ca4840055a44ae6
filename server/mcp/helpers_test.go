package mcp_test

import (
	"context"
	"encoding/json"
	"net/http"
	"sync"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/textanalysis/go-textanalysis/server/mcp"
)

// headerTransport adds headers to every request and remembers the HTTP
// statuses the MCP endpoint answered.
type headerTransport struct {
	header http.Header
	base   http.RoundTripper

	mu       sync.Mutex
	statuses []int
}

func (t *headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	for name, vs := range t.header {
		r.Header[name] = vs
	}
	res, err := t.base.RoundTrip(r)
	if err == nil {
		t.mu.Lock()
		t.statuses = append(t.statuses, res.StatusCode)
		t.mu.Unlock()
	}
	return res, err
}

// Statuses returns the HTTP statuses seen so far.
func (t *headerTransport) Statuses() []int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]int(nil), t.statuses...)
}

// connect opens a session with the SDK's own client, sending header with
// every request.
func connect(tb testing.TB, endpoint string, header http.Header) (*sdk.ClientSession, *headerTransport) {
	tb.Helper()
	ht := &headerTransport{header: header, base: http.DefaultTransport}
	client := sdk.NewClient(&sdk.Implementation{Name: "mcp-test", Version: "0.0.1"}, nil)
	cs, err := client.Connect(context.Background(), &sdk.StreamableClientTransport{
		Endpoint:             endpoint,
		HTTPClient:           &http.Client{Transport: ht},
		DisableStandaloneSSE: true,
		MaxRetries:           -1,
	}, nil)
	require.NoError(tb, err)
	tb.Cleanup(func() { _ = cs.Close() })
	return cs, ht
}

// call calls a tool and returns its result, checking that the text content
// and the structured content say the same.
func call(tb testing.TB, cs *sdk.ClientSession, tool string, args any) (mcp.Result, *sdk.CallToolResult) {
	tb.Helper()
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: tool, Arguments: args})
	require.NoError(tb, err)
	require.Len(tb, res.Content, 1)
	text, ok := res.Content[0].(*sdk.TextContent)
	require.True(tb, ok, "content is %T", res.Content[0])
	var out mcp.Result
	require.NoError(tb, json.Unmarshal([]byte(text.Text), &out), text.Text)
	structured, err := json.Marshal(res.StructuredContent)
	require.NoError(tb, err)
	assert.JSONEq(tb, text.Text, string(structured))
	assert.Equal(tb, out.Status >= 400, res.IsError)
	return out, res
}

func header(kv ...string) http.Header {
	h := http.Header{}
	for i := 0; i+1 < len(kv); i += 2 {
		h.Set(kv[i], kv[i+1])
	}
	return h
}

func ptr[T any](v T) *T { return &v }
