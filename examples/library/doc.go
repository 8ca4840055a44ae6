// Command library shows go-textanalysis used as a Go library: one Analyzer,
// shared, running each function on a short text.
//
//	go run ./examples/library
package main
