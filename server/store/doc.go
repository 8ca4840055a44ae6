// Package store defines what the server keeps: accounts with their plans,
// API keys (only their hashes), exact usage counters, per-address counters
// (trial keys, sign-up and sign-in mails), one-time tokens for
// confirmation and sign-in links, account-page sessions, requests for a
// plan, and server secrets. Implementations live in store/sqlite (embedded, the default) and
// store/postgres (shared by many server processes); both pass the contract
// suite in store/storetest.
//
// Counting is atomic in the database: [Store.Consume] increments a counter
// only while it is under its limit, in one statement, so that any number of
// processes sharing a database never count past an allowance. The same
// holds for [Store.TakeSlot] and the live-key limit of
// [Store.CreateKeyLimited]. A link acts once: [Store.ConfirmSignUp],
// [Store.ConfirmClaim] and [Store.SignIn] each delete their token in the
// transaction that acts on it.
//
// Retention: [Store.Purge] deletes what can no longer matter (expired
// tokens and sessions, counters of ended windows, unclaimed trials [TrialRetention] after
// they expired) in batches of [PurgeBatch] rows; the server runs it hourly.
// [Store.DeleteAccount] erases an account on request. Neither ever deletes
// a usage row: those are billing records, and the account they refer to
// stays as an anonymous record (ID, plan, cap, creation time) without
// e-mail or keys.
//
//	count, ok, err := st.Consume(ctx, acct.ID, periodStart, 1000)
package store
