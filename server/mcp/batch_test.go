package mcp_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/textanalysis/go-textanalysis/server/access"
	"github.com/textanalysis/go-textanalysis/server/mcp"
)

// A JSON-RPC batch (protocol 2025-03-26) of several calls in one HTTP
// request: each call is metered once and answers on its own.
func TestBatchOfCalls(t *testing.T) {
	e := newEnv(t, access.Config{})
	key := e.key(t)
	before := e.remaining(t, key)
	calls := []string{
		`{"name":"analyze_sentiment_post","arguments":{"text":"good"}}`,
		`{"name":"get_text_post","arguments":{"url":"http://127.0.0.1:1/"}}`,
		`{"name":"analyze_sentiment","arguments":{}}`,
		`{"name":"get_text","arguments":{"url":"http://127.0.0.1:1/"}}`,
	}
	var msgs []string
	for i, c := range calls {
		msgs = append(msgs, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":%s}`, i+1, c))
	}
	req, err := http.NewRequest("POST", e.ts.URL+"/mcp", strings.NewReader("["+strings.Join(msgs, ",")+"]"))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2025-03-26")
	req.Header.Set("X-API-Key", key)
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	var out []struct {
		ID     int `json:"id"`
		Result struct {
			StructuredContent struct{ Status int } `json:"structuredContent"`
		} `json:"result"`
	}
	require.NoError(t, json.Unmarshal(b, &out), string(b))
	statuses := map[int]int{}
	for _, o := range out {
		statuses[o.ID] = o.Result.StructuredContent.Status
	}
	assert.Equal(t, map[int]int{1: 200, 2: 502, 3: 422, 4: 502}, statuses)
	assert.Equal(t, before-4, e.remaining(t, key))
}

// A batch is capped at mcp.MaxBatch messages: without a cap, one request
// without a key of 48 KB (a thousand tools/list) made the server build a
// 46 MB answer (528 MB allocated), and a 1 MiB body twenty times that.
func TestBatchIsCapped(t *testing.T) {
	e := newEnv(t, access.Config{})
	batch := func(n int) string {
		msgs := make([]string, n)
		for i := range msgs {
			msgs[i] = fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/list"}`, i+1)
		}
		return "[" + strings.Join(msgs, ",") + "]"
	}
	tests := []struct {
		name   string
		n      int
		status int
	}{
		{"at the cap", mcp.MaxBatch, http.StatusOK},
		{"one over", mcp.MaxBatch + 1, http.StatusBadRequest},
		{"a thousand", 1000, http.StatusBadRequest},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := rpcPost(t, e.ts.URL+"/mcp", batch(tt.n))
			require.Equal(t, tt.status, res.status, "%.300s", res.body)
			if tt.status == http.StatusOK {
				var out []json.RawMessage
				require.NoError(t, json.Unmarshal([]byte(res.body), &out))
				assert.Len(t, out, tt.n)
				return
			}
			assert.JSONEq(t, fmt.Sprintf(`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: a batch may hold at most %d messages"}}`, mcp.MaxBatch), res.body)
		})
	}
}
