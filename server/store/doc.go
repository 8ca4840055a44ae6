// Package store defines what the server keeps: accounts with their plans,
// API keys (only their hashes), exact usage counters, the per-address trial
// limit, one-time tokens for claim and confirmation links, and server
// secrets. Implementations live in store/sqlite (embedded, the default) and
// store/postgres (shared by many server processes); both pass the contract
// suite in store/storetest.
//
// Counting is atomic in the database: [Store.Consume] increments a counter
// only while it is under its limit, in one statement, so that any number of
// processes sharing a database never count past an allowance.
//
//	count, ok, err := st.Consume(ctx, acct.ID, periodStart, 1000)
package store
