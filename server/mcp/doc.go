// Package mcp serves the API's operations as MCP tools over streamable HTTP
// (stateless, JSON responses), on the official Go SDK.
//
// Each tool call runs through the HTTP API's own handler, so a tool answers
// exactly what the HTTP operation answers for the same input, with the same
// key, metering and allowance: the result is {"status", "body", "gateway":
// {"remaining", "reset"}} as JSON text and as structured content, with
// isError set when status >= 400. Listing tools needs no key; a call
// without a valid key is a tool result with status 401, never an HTTP 401.
// Protocol errors (an unknown tool, arguments that are not an object,
// malformed JSON-RPC) never reach the API, so they are not metered.
//
// Keys come in X-API-Key, Authorization: Bearer, or the path:
// /mcp/k/<key> serves clients that can only be given a URL.
//
// [New] is cheap and its handler is safe for concurrent use; it keeps no
// state between requests. A call costs what the operation costs, plus a
// copy of its answer (at most Config.MaxResultBytes). A JSON-RPC batch
// holds at most [MaxBatch] messages.
//
//	h, err := mcp.New(mcp.Config{Tools: tools, API: api, Name: "go-textanalysis", Version: "0.1.0"})
//	if err != nil {
//		return err
//	}
//	mux.Handle("/mcp", h)
//	mux.Handle("/mcp/", h) // for /mcp/k/<key>
package mcp
