// Package postgres is the [store.Store] on PostgreSQL (pgx, pgxpool), for
// several server processes that must share exact counts.
//
// [Open] connects and migrates the schema; the migrations hold a
// transaction-scoped advisory lock, so processes starting at once apply
// them once. The tables go into the first schema of the connection's
// search_path (set it in the URL, e.g. ?search_path=textanalysis, to keep
// them apart). A [Store] is safe for concurrent use; pool settings come
// from the URL (pool_max_conns and the like).
//
// [Store.Consume] counts in one INSERT … ON CONFLICT … DO UPDATE … WHERE
// count < limit, which PostgreSQL runs atomically against the latest row
// version, so any number of processes sharing the database never count past
// an allowance. Times are timestamptz, kept to the microsecond.
//
// Each [Store.ConsumeBatch] is a commit (the server's batcher puts the
// counts of all the requests that arrive meanwhile into one), and with
// PostgreSQL's default synchronous_commit a commit waits for its WAL to
// reach the disk, holding the counter row until then: one account's
// batches queue on it, one disk flush each. On the shared 2-core test
// machine (fdatasync 2.4 ms) pgbench measured about 280 durable updates a
// second of one row, with 1 client or 4, against 1,000 a second of 16
// rows with 8 clients; the server counted 11-12.5 requests per commit
// and served 0.17-0.30× its unmetered rate (see [access] for the designs
// tried).
// Adding synchronous_commit=off to the URL makes a count cost about as much
// as a round trip; a crash of the database server (not of a client) may
// then lose its last fraction of a second of counts, which never lets an
// account past its allowance by more than those few requests.
//
// [Store.Purge] takes each batch of rows with FOR UPDATE SKIP LOCKED, so
// that server processes purging at once share the work. Deleted and erased
// rows stay in the table files as dead row versions until (auto)vacuum
// reclaims them, and in backups taken before.
//
// The queries and their logic are store/sqlstore's, shared with the
// SQLite store; this package supplies PostgreSQL's part: pgx natively
// (its statement cache; a multi-take ConsumeBatch as one pipeline, one
// round trip), row locks (FOR UPDATE, FOR SHARE, SKIP LOCKED) and the
// migrations.
//
//	st, err := postgres.Open(ctx, "postgres://textanalysis@db.internal/textanalysis")
//	if err != nil {
//		return err
//	}
//	defer st.Close()
//	count, ok, err := st.Consume(ctx, accountID, periodStart, 1000)
package postgres
