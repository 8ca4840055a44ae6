// Command abuse runs the attacks of the security review against a real
// `textanalysis serve` and reports what each one cost the server: peak
// resident memory, how long every request took to be answered, and whether
// a probe client was still served meanwhile. With -assert it exits 1 when a
// target is missed, which is how CI runs it.
//
//	go run ./bench/abuse -bin "$(go env GOPATH)/bin/textanalysis" -assert
//
// The attacks:
//
//   - headers: 300 connections, from 30 loopback addresses, each dripping
//     1.4 MB of request headers without ever finishing them; then 1,100
//     connections from 20 addresses holding 60 KB each, just under the
//     header limit and over the connection cap;
//   - display: six concurrent /ner/display requests whose 10 spans each
//     cover 100,000 code points (an answer of tens of MB before the cap);
//   - nested: four concurrent /text requests for an 8 KB gzip page that
//     inflates to 4.5 MiB of nested <div>;
//   - signup: 30 sign-ups for variants of one address (+tags, dots, case),
//     counting the keys that work before any address is confirmed;
//   - logs: requests carrying secrets (a key in junk, URL passwords and
//     tokens), then a search of the server's log for every one of them.
//
// Linux only: memory is read from /proc/<pid>/status.
package main
