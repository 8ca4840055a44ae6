// Command genbin writes model.bin from model.json in the current folder
// (go generate ./extract/internal/blockmodel runs it); the trainer writes
// both itself.
package main
