// Command load measures the HTTP API under load on loopback: it starts
// `textanalysis serve` twice on this machine, once with keys and metering
// (a Pay-as-you-go key on a fresh store) and once with --no-keys, drives
// each operation at a fixed concurrency for a fixed time, and prints
// requests/s and p50/p99 latency per operation for both, with the ratio,
// and on Linux the CPU time per request of the server and of the load
// generator in each mode (where metering's cost goes when both saturate
// the cores), and from the metered server's /metrics the group commit's
// mean batch, mean commit and the mean time a request waited for its
// count (what a durable commit's disk flush costs each request). With
// -sched it also takes an execution trace of the metered server (from
// its admin address's /debug/pprof/trace) and prints how long the group
// commit's goroutine was blocked in the store, how long it then waited
// for a core, and how long the other goroutines waited for one.
//
//	go install ./cmd/textanalysis
//	go run ./bench/load -c 16 -d 10s
//	go run ./bench/load -d 4s -only sentiment -rounds 5   # medians of alternating runs
//	TEXTANALYSIS_DATABASE_URL=postgres://… go run ./bench/load   # metering on PostgreSQL
//	go run ./bench/load -d 8s -only sentiment -sched   # where the group commit's time goes
//
// It sends traffic only to 127.0.0.1 and stops by itself.
package main
