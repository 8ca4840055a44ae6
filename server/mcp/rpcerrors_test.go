package mcp_test

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/textanalysis/go-textanalysis/server/access"
)

// Protocol mistakes get JSON-RPC errors in JSON, never the SDK's plain
// text (which names Go types for some), so that clients raise McpError.
func TestProtocolMistakesAreJSONRPCErrors(t *testing.T) {
	e := newEnv(t, access.Config{})
	tests := []struct {
		name, body string
		status     int
		want       string // the whole JSON answer
	}{
		{"unknown method", `{"jsonrpc":"2.0","id":1,"method":"nope/nope"}`, 200,
			`{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found: \"nope/nope\""}}`},
		{"tools/call without params", `{"jsonrpc":"2.0","id":"a","method":"tools/call"}`, 200,
			`{"jsonrpc":"2.0","id":"a","error":{"code":-32602,"message":"Invalid params: \"tools/call\" needs params"}}`},
		{"id null", `{"jsonrpc":"2.0","id":null,"method":"tools/list"}`, 400,
			`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: \"id\" must be a string or a number"}}`},
		{"empty batch", `[]`, 400,
			`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: empty batch"}}`},
		{"a string", `"hello"`, 400,
			`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: a message must be a JSON object"}}`},
		{"not JSON", `{bad`, 400,
			`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: the body is not JSON"}}`},
		{"wrong version", `{"jsonrpc":"1.0","id":5,"method":"tools/list"}`, 400,
			`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: \"jsonrpc\" must be \"2.0\""}}`},
		{"batch with an unknown method", `[{"jsonrpc":"2.0","id":3,"method":"ping"},{"jsonrpc":"2.0","id":4,"method":"nope"}]`, 200,
			`[{"jsonrpc":"2.0","id":3,"result":{}},{"jsonrpc":"2.0","id":4,"error":{"code":-32601,"message":"Method not found: \"nope\""}}]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := rpcPost(t, e.ts.URL+"/mcp", tt.body)
			assert.Equal(t, tt.status, res.status, res.body)
			assert.Equal(t, "application/json", res.header.Get("Content-Type"))
			assert.JSONEq(t, tt.want, res.body)
			assert.NotContains(t, res.body, "jsonrpc2.")
		})
	}
	t.Run("a body over the limit gets the API's JSON 413", func(t *testing.T) {
		res := rpcPost(t, e.ts.URL+"/mcp", strings.Repeat("x", 2<<20))
		assert.Equal(t, http.StatusRequestEntityTooLarge, res.status)
		var body struct{ Detail, Error string }
		require.NoError(t, json.Unmarshal([]byte(res.body), &body), res.body)
		assert.Equal(t, "body_too_large", body.Error)
	})
}

// rpcPost sends body as an MCP client would, with its headers.
func rpcPost(t *testing.T, url, body string) httpAnswer {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	return httpAnswer{status: res.StatusCode, header: res.Header, body: string(b)}
}
