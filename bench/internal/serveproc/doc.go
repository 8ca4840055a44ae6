// Package serveproc starts and stops `textanalysis serve` processes for the
// bench programs: free loopback ports, waiting until a server answers,
// SIGTERM with a deadline or SIGKILL, logs kept in memory, and keys made
// with `textanalysis keys create --json`.
package serveproc
