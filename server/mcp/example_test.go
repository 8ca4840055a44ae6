package mcp_test

import (
	"context"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/textanalysis/go-textanalysis/server/mcp"
)

// New serves an API's operations as tools; here the API is a stand-in
// that greets. A client calls the tool with its key in the path.
func ExampleNew() {
	api := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("X-API-Key") != "ta_live_example" {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("X-Gw-Remaining", "999")
		w.Header().Set("X-Gw-Reset", "2026-06-01T00:00:00Z")
		_, _ = io.WriteString(w, `{"greeting":"Hello, `+r.URL.Query().Get("name")+`!"}`)
	})
	h, err := mcp.New(mcp.Config{
		API: api,
		Tools: []mcp.Tool{{
			Name: "greet", Description: "Greets someone by name.", Method: http.MethodGet, Path: "/greet",
			InputSchema: map[string]any{"type": "object", "properties": map[string]any{"name": map[string]any{"type": "string"}}},
		}},
	})
	if err != nil {
		log.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", h)
	mux.Handle("/mcp/", h)
	ts := httptest.NewServer(mux)
	defer ts.Close()

	ctx := context.Background()
	client := sdk.NewClient(&sdk.Implementation{Name: "example", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &sdk.StreamableClientTransport{Endpoint: ts.URL + "/mcp/k/ta_live_example", DisableStandaloneSSE: true}, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "greet", Arguments: map[string]any{"name": "Ada"}})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Content[0].(*sdk.TextContent).Text)
	// Output:
	// {"status":200,"body":{"greeting":"Hello, Ada!"},"gateway":{"remaining":999,"reset":"2026-06-01T00:00:00Z"}}
}
