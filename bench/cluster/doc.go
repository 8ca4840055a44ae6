// Command cluster tests the arrangement of "Running several instances" as a
// whole: three `textanalysis serve` processes on one PostgreSQL (a fresh
// schema per run, dropped at the end) and one Redis, with clients that send
// each request to the next instance in turn.
//
//	go install ./cmd/textanalysis
//	go run ./bench/cluster -bin "$(go env GOPATH)/bin/textanalysis" -assert
//
// During the run (-d, 20 s by default) it
//   - drives a Pay-as-you-go key above its per-second rate from every
//     instance (-c clients; the plan's rate times -rate-scale);
//   - SIGKILLs one instance at 30% of the run and restarts it on the same
//     addresses;
//   - revokes a second key, which probes every instance every 40 ms, with
//     `textanalysis keys revoke` once the restarted instance is ready;
//   - stops the instances with SIGTERM and reads the counts with
//     `textanalysis usage --format json`.
//
// It prints what the clients saw and what the store counted, and with
// -assert exits 1 unless:
//   - counts are exact: for each key, counted ≥ the 200s the clients got
//     (nothing lost) and counted ≤ those 200s plus the requests cut by the
//     kill (nothing double). A request the killed instance had read but not
//     answered may or may not have been counted, and the client cannot
//     know: such requests are the ones that ended in a broken connection
//     (not a refused one: a refused connection never reached a server);
//   - the rate held: the 200s per second of the driven key, from its first
//     rate-limit 429 to the end, are within 20% of the plan's rate (three
//     instances with per-process limits would allow three times it);
//   - the revoked key is refused everywhere within the key cache's TTL
//     (-key-cache, 1 s): on each instance no request sent TTL or more after
//     `keys revoke` returned got a 200, and each instance answered 401
//     revoked_key after it.
//
// PostgreSQL is -pg (TEXTANALYSIS_TEST_POSTGRES_URL, else
// postgres://postgres@127.0.0.1:5432/test?sslmode=disable); Redis is -redis
// (TEXTANALYSIS_TEST_REDIS_URL, else redis://127.0.0.1:6379/0), whose
// buckets for the run's two accounts are reset at the start, since account
// IDs repeat in every fresh schema. It sends traffic only to 127.0.0.1 and
// stops by itself.
package main
