// Command quickstart is the README's library snippet as a whole program:
// CI builds it (go vet ./...), so the snippet compiles as pasted. It needs
// the internet only for its last call, which fetches a page.
//
//	go run ./examples/quickstart
package main
