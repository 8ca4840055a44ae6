// Command http calls a running go-textanalysis server over HTTP, each
// operation once in its POST form, and prints status, metering headers and
// body. Start the server first (go run ./cmd/textanalysis serve).
//
//	go run ./examples/http -base http://localhost:8080 -key "$API_KEY"
package main
