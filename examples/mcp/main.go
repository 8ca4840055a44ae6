package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"net/http"
	"os"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// keyTransport sends the API key with every request of the MCP client.
type keyTransport struct {
	key  string
	base http.RoundTripper
}

func (t keyTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if t.key != "" {
		r = r.Clone(r.Context())
		r.Header.Set("X-API-Key", t.key)
	}
	return t.base.RoundTrip(r)
}

func main() {
	endpoint := flag.String("url", "http://localhost:8080/mcp", "MCP endpoint (or .../mcp/k/<key> with the key in the path)")
	key := flag.String("key", os.Getenv("TEXTANALYSIS_API_KEY"), "API key, sent as X-API-Key (default $TEXTANALYSIS_API_KEY)")
	tool := flag.String("tool", "analyze_sentiment_post", "tool to call")
	args := flag.String("args", `{"text":"What a wonderful day. The train was late."}`, "tool arguments as a JSON object")
	flag.Parse()

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()

	client := mcp.NewClient(&mcp.Implementation{Name: "textanalysis-example", Version: "0.1.0"}, nil)
	session, err := client.Connect(ctx, &mcp.StreamableClientTransport{
		Endpoint:   *endpoint,
		HTTPClient: &http.Client{Transport: keyTransport{key: *key, base: http.DefaultTransport}},
		// The server is stateless: it offers no stream of its own.
		DisableStandaloneSSE: true,
	}, nil)
	if err != nil {
		log.Fatalf("connect: %v", err)
	}
	defer session.Close()

	tools, err := session.ListTools(ctx, nil)
	if err != nil {
		log.Fatalf("list tools: %v", err)
	}
	for _, t := range tools.Tools {
		fmt.Printf("%-24s %s\n", t.Name, t.Title)
	}

	var arguments map[string]any
	if err := json.Unmarshal([]byte(*args), &arguments); err != nil {
		log.Fatalf("-args: %v", err)
	}
	res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: *tool, Arguments: arguments})
	if err != nil {
		log.Fatalf("call %s: %v", *tool, err)
	}
	// The text content is the JSON result {"status", "body", "gateway"};
	// StructuredContent holds the same value, decoded.
	var result struct {
		Status  int             `json:"status"`
		Body    json.RawMessage `json:"body"`
		Gateway struct {
			Remaining *int64  `json:"remaining"`
			Reset     *string `json:"reset"`
		} `json:"gateway"`
	}
	if len(res.Content) == 0 {
		log.Fatalf("call %s: empty result", *tool)
	}
	text, ok := res.Content[0].(*mcp.TextContent)
	if !ok {
		log.Fatalf("call %s: unexpected content %T", *tool, res.Content[0])
	}
	if err := json.Unmarshal([]byte(text.Text), &result); err != nil {
		log.Fatalf("call %s: %v", *tool, err)
	}
	fmt.Printf("\n%s -> status %d (isError %t)\n%s\n", *tool, result.Status, res.IsError, result.Body)
	if result.Gateway.Remaining != nil {
		fmt.Printf("remaining %d until %s\n", *result.Gateway.Remaining, *result.Gateway.Reset)
	} else {
		fmt.Println("no allowance reported: the call had no valid key")
	}
	if res.IsError {
		os.Exit(1)
	}
}
