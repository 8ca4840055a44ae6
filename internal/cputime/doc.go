// Package cputime reads the CPU time this process has used, for
// benchmarks that report CPU per operation: on a shared machine that
// varies much less than the time per operation.
package cputime
