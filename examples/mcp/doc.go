// Command mcp calls a running go-textanalysis server as an MCP client, with
// the official Go SDK: it lists the tools (no key needed), calls one with
// the key in the X-API-Key header, and prints the {status, body, gateway}
// result. Start the server first (go run ./cmd/textanalysis serve) and
// create a key (textanalysis keys create --plan free --email you@example.com).
//
//	go run ./examples/mcp -url http://localhost:8080/mcp -key "$TEXTANALYSIS_API_KEY"
//	go run ./examples/mcp -tool qa_post -args '{"question":"Where was Ada born?","context":"Ada was born in London."}'
package main
