// Package hygiene holds the tests that keep the module's shape: the import
// direction of DESIGN.md §1 (library packages import no server, CLI, MCP or
// database code, and the analysis leaves import none of each other) and one
// package comment per package, in doc.go. It has no code of its own.
package hygiene
