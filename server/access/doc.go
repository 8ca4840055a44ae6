// Package access decides who may call the API and how much: API keys (made,
// hashed, looked up), plans and their allowances, exact metering against
// the store, per-second rate limits, trial keys and their claim.
//
// One [Gate] serves a process; it is safe for concurrent use. Allowances are
// exact across processes that share a store, because the store counts
// atomically; rate limits are kept per process.
//
//	d, err := gate.Admit(ctx, key)
//	if d.Refused() { ... answer d.Status ... }
package access
