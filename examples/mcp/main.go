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

// options are the command's flags.
type options struct {
	endpoint, key, tool, args string
}

// parseFlags reads the flags of args into fs. The key's default is read
// from the environment after parsing, not given as the flag's default, so
// that -h never prints it.
func parseFlags(fs *flag.FlagSet, args []string) (options, error) {
	var o options
	fs.StringVar(&o.endpoint, "url", "http://localhost:8080/mcp", "MCP endpoint (or .../mcp/k/<key> with the key in the path)")
	fs.StringVar(&o.key, "key", "", "API key, sent as X-API-Key (default: $TEXTANALYSIS_API_KEY)")
	fs.StringVar(&o.tool, "tool", "analyze_sentiment_post", "tool to call")
	fs.StringVar(&o.args, "args", `{"text":"What a wonderful day. The train was late."}`, "tool arguments as a JSON object")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if o.key == "" {
		o.key = os.Getenv("TEXTANALYSIS_API_KEY")
	}
	return o, nil
}

func main() {
	opts, _ := parseFlags(flag.CommandLine, os.Args[1:]) // ExitOnError: a bad flag exits
	endpoint, key, tool, args := &opts.endpoint, &opts.key, &opts.tool, &opts.args

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
