// Package sqlstore is the one core of the SQL stores (store/sqlite and
// store/postgres): the queries and the logic of metering, accounts, keys,
// tokens, secrets, counters and the mail outbox, written once, so that a
// change to metering is made in one place. Each store supplies a [DB], its
// dialect: how a query reaches the database (placeholders, pipelining,
// transactions), how times are kept, and how errors map to the store's
// sentinels.
//
// Queries are written for PostgreSQL with numbered placeholders ($1) and
// standard SQL otherwise (CAST, LEAST and GREATEST, ON CONFLICT,
// RETURNING); the SQLite [DB] rewrites the placeholders (?1) and the two
// functions (MIN, MAX). Times are passed and scanned as time.Time; each
// DB converts them (a zero time is NULL).
//
// A [Core] is safe for concurrent use, as its DB is.
//
//	c := &sqlstore.Core{R: reads, W: writes}
//	n, ok, err := c.Consume(ctx, accountID, period, 1000)
package sqlstore
