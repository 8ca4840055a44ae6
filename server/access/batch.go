package access

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/textanalysis/go-textanalysis/server/store"
)

// Group commit of counts. Requests that arrive while one transaction of
// counts is being committed wait for it and go together into the next
// (one [store.Store.ConsumeBatch] for all of them); each is answered only
// when that transaction is committed, so a count is durable before its
// request is served. A batch never takes more than an account has left:
// the store grants at most the remainder, and the requests past it are
// refused.
//
// One transaction at a time, as large as it can be, is the design that
// measured best. A durable count cannot be answered sooner than one disk
// flush (F) after it is written, and with flushes back to back a request
// waits about 1.5 F: 16 clients of one process get at most about
// 16 / 1.5 F requests a second, whatever the batching (4,400 at F =
// 2.4 ms). Measured with go run ./bench/load -d 4s -c 16 -only sentiment
// -rounds 2, alternating binaries, on the 2 shared cores at load 7-11
// (fdatasync 2.4 ms by pg_test_fsync, against 168 µs when quiet),
// metered/unmetered:
//   - PostgreSQL, this design: 0.17-0.30, 11-13 requests per commit. The
//     server process used about 0.2 of a core (perf): it waits on the
//     commits, not on the CPU.
//   - Several transactions under way per process on the hot row (a
//     durable commit holds the row through the flush): 2 at once 0.14,
//     4 at once 0.07-0.09, against 0.23 in the same run.
//   - Counts committed with synchronous_commit off, then a durable flush
//     in the same pipeline (a transactional pg_logical_emit_message), so
//     that the row is free during the flush: 4 under way 0.16-0.18
//     against 0.18-0.22 (3.4 requests per commit against 12.5); 2 under
//     way 0.17-0.20; 8 under way 0.19-0.21 against 0.17-0.29 (metered
//     1,604-1,778 req/s against 1,922-2,260). Two instances on one
//     database, one under way: within noise (metered 1,211-1,517 req/s
//     against 1,159-1,473). It is exact and durable (the store tests
//     passed); commit 5e67a7c keeps it. With F out of the way
//     (synchronous_commit=off in the URL, not durable: for the
//     comparison only) this design served 0.54-0.60 and 4 or 8 under way
//     0.30-0.41 (3.5-4.1 requests per commit): more, smaller commits cost
//     CPU that the analyses need, so it would not win on a quiet machine
//     either.
//   - PostgreSQL, a shorter wait for the last batch's clients (maxGather
//     0 or 500 µs): 0.15-0.24 and 0.23 against 0.18-0.29.
//   - SQLite, this design: 0.38-0.87, 5.5-7 requests per commit. No
//     Gosched yields (batchYields 0): 1.6 requests per commit, 0.38-0.40
//     against 0.38-0.81; 32 yields gathered no more than 8; waiting for
//     the last batch's clients after fast commits too (slowCommit 0): 2.2
//     requests per commit, 0.52-0.66 against 0.60-0.74.
//
// On a quiet machine (load under 1; the figures above were taken under
// load) the same command gives SQLite 0.67-0.75 and PostgreSQL 0.37-0.40.
// There the Go scheduler is a large part of the cost: while a batch
// commits, the server's goroutines all wait, its idle threads spin
// looking for work, and on 2 cores they take CPU from the database and the
// load generator. The metered server spent 100-129 µs of CPU per request
// at the default GOMAXPROCS (2) against 62-83 µs at GOMAXPROCS=1; the
// unmetered one 48-68 µs either way. Alternating runs, rounds 2:
//   - GOMAXPROCS=1 for the server and the load generator: PostgreSQL
//     0.50-0.51 (metered 8,567-8,867 req/s, unmetered 17,256-17,274)
//     against 0.38-0.40 (5,784-6,985; 14,518-18,311); SQLite 1.04
//     (16,685; 15,958) against 0.75 (13,853; 18,466).
//   - GOMAXPROCS=1 for the server alone: SQLite 0.94 and 1.08 (metered
//     13,365 and 10,664 req/s) against 0.75 and 0.62 (10,240 and 8,927).
//
// So where a server shares a small machine with its database, a
// GOMAXPROCS below the core count is worth measuring; the README says so.
//
// Measured again on a quiet machine (load under 0.5, fdatasync 141 µs by
// pg_test_fsync), same command, rounds 2-3: PostgreSQL 0.39-0.40
// (metered 7,900-9,000 req/s, 9-10 requests per commit, mean commit
// 580-680 µs, mean wait 1.0-1.1 ms). The experiment of commit 5e67a7c
// (counts committed with synchronous_commit off and a durable flush
// behind them, 4 batches under way), alternating with this design:
// 0.31 and 0.41 against 0.39 and 0.40, commits of 1.0-1.3 ms with 3.9-4.6
// requests each: still no gain. pgbench, one client running the same
// one-row UPDATE while bench/load drove the unmetered server (cores
// saturated), took 293 µs a commit (171 µs with synchronous_commit off),
// against the 580-680 µs the batcher sees. That is not the Go scheduler:
// an execution trace of the metered server (go run ./bench/load -d 8s -c
// 16 -only sentiment -sched, quiet machine) shows the batcher's goroutine
// running 0.3 µs (median; mean 19 µs) after PostgreSQL's answer made it
// runnable, while it was blocked in the store for 561 µs (median; mean
// 658, p90 1,016). One caller's durable commit on an idle machine takes
// 393-475 µs (BenchmarkConsume in store/postgres) with fdatasync at
// 155-166 µs (pg_test_fsync): the round trip, the backend's wake-ups and
// the flush, slower again when the backend waits for a core behind the
// server and the load generator on the two shared cores. With 16 clients
// each request waits for the commit under way and then its own (about
// 1.5 such commits, 0.9 ms mean by /metrics), so PostgreSQL with durable
// commits cannot reach 0.8 here whatever the server does: 0.8 of the
// unmetered rate (about 16,000 requests a second) leaves each of the 16
// clients 1.0 ms a request, less than that wait plus the request's own
// time (0.6-0.8 ms unmetered, p50). Skipping gather's wait after a slow
// commit (slowCommit out of reach), alternating, rounds 3: 0.39 and 0.41
// against 0.40 and 0.41 (7.2 requests per commit against 9.5): no change.
// renice -10 of PostgreSQL's processes: 0.42 against 0.40. With
// GOMAXPROCS 1 or 4 for both programs: 0.40 and 0.34. A longer gather on
// SQLite (BatchWait 150 µs, 400 µs): 0.74 and 0.69 against 0.76, batches
// of 5.0 and 9.7 requests against 5.0: fewer commits, but the wait costs
// more than the commits it saves.
//
// Where PostgreSQL's commit time goes (2026-12-07, quiet machine, same
// command with -d 4s or 6s). While the metered server ran, a separate
// process counting one request per durable commit on the same database
// (store/postgres BenchmarkConsume) took 337-345 µs a commit, and pgbench
// with the same UPDATE 409-419 µs, against 720-920 µs for the server's
// batcher: the commit itself is not the slow part, the server's turn to
// read its answer is. Not Go's network poller: the server with
// GOMAXPROCS 3 (820 µs a commit, 0.38 against 0.34-0.36), or with the
// connection polled for its answer every 20 µs by a timer, which every
// scheduling round checks (658 and 745 µs, 0.46 and 0.48 against 0.39
// and 0.37, unmetered runs slower with it), did not shorten it. The
// server's threads, busy on two cores shared with the load generator and
// PostgreSQL, wait for the kernel to run them; a process that sleeps until
// its answer comes is woken first.
//
// Where the SQLite server's time goes (go run ./bench/load -d 8s -c 16
// -only sentiment -serverprofile FILE, quiet machine: 0.72, 14,367
// against 19,948 req/s, 4.7 requests per commit, mean commit 69 µs). Both
// runs keep the two cores busy (server and load generator together 1.73
// and 1.81 cores), so the ratio is the ratio of CPU per request: 75.5 +
// 44.6 µs metered against 48.5 + 42.2 (server + load generator), 0.76.
// The servers' profiles, per request: metered 70 µs, unmetered 44. Of
// the 26 µs more, the batcher's goroutine takes 11 (the store's
// statement 6.5 of it, its commit, which SQLite makes when the
// autocommit statement is reset, 3.8, answering the tickets 2); the
// request's goroutine 12 (Begin 3.1: authentication 1.6, the admission's
// allocation 1, the rate limit 0.5; the gateway headers and the parked
// wait for the count the rest); the scheduler and the collector 3. No
// part is large enough alone: 0.8 needs the server under 69 µs a
// request here, that is, a commit of counts nearly free.
const (
	// MaxBatch is the most requests one transaction counts.
	MaxBatch = 1024
	// batchYields is how many times, at most, a batch lets the other
	// goroutines run (runtime.Gosched) to gather more requests before it
	// is committed; it stops as soon as a yield brought none. Timers are
	// too coarse for this (a 250 µs sleep takes about 1 ms on a busy
	// machine), and a request's work runs meanwhile anyway (see
	// [Gate.Begin]): fewer, larger transactions leave the CPU to the work.
	batchYields = 8
	// BatchTimeout bounds one transaction of counts.
	BatchTimeout = 10 * time.Second
)

// meter is the per-process batcher.
type meter struct {
	st store.Store
	// wait is how long a batch waits for more requests: 0 means yield
	// while requests keep coming (batchYields), negative not at all.
	wait time.Duration

	batches, tickets atomic.Int64 // for tests, benchmarks and metrics
	// commitNanos sums the transactions' times and waitNanos the
	// requests' times from enqueue to answer: the mean commit is the
	// floor under what metering adds to a request (see BatchTimes).
	commitNanos, waitNanos atomic.Int64

	mu    sync.Mutex
	queue []*ticket
	spare []*ticket // the array of the batch in commit, for the next
	busy  bool      // a goroutine is committing; it takes the queue next
	// parked says the run goroutine waits on wake for the next request
	// (busy is then false). It stays up to runIdle between batches, so
	// that a busy process does not start a goroutine, and grow its stack
	// to the store's depth, for every batch.
	parked bool
	wake   chan struct{}
	// While a slow store commits, the requests of the batch in commit
	// cannot join the next one; gather waits for them, up to the last
	// commit's time (at most maxGather), when the commit took longer
	// than slowCommit: full is closed when the queue reaches target.
	full       chan struct{}
	target     int
	lastSize   int
	lastCommit time.Duration

	// commit's scratch, reused between batches.
	takes  []store.Take
	groups [][]*ticket
	index  map[groupKey]int
}

// Limits of gather's wait for the requests of the batch in commit.
const (
	slowCommit = 500 * time.Microsecond
	maxGather  = 2 * time.Millisecond
	// runIdle is how long the run goroutine waits for a request after
	// the queue emptied before it ends.
	runIdle = time.Second
)

// A ticket is one request's count. It lives in the request's Admission:
// one allocation for both.
type ticket struct {
	ctx  context.Context
	take store.Take // N is 1
	// queued is when the ticket was enqueued, for waitNanos.
	queued time.Time
	// done is released once the fields below are set.
	done  sync.WaitGroup
	ok    bool
	count int64
	err   error
}

func newMeter(st store.Store, wait time.Duration) *meter {
	return &meter{st: st, wait: wait, wake: make(chan struct{}, 1)}
}

// enqueue asks to count t, one request of an account's period, up to
// limit, admitted on plan (billing counts Pay as you go apart); t's wait
// says what became of it.
func (m *meter) enqueue(t *ticket, ctx context.Context, accountID int64, period time.Time, limit int64, plan store.Plan) {
	t.ctx = ctx
	t.take = store.Take{AccountID: accountID, Period: period, N: 1, Limit: limit, Plan: plan}
	t.done.Add(1)
	t.queued = time.Now()
	m.mu.Lock()
	m.queue = append(m.queue, t)
	if m.full != nil && len(m.queue) >= m.target {
		close(m.full)
		m.full = nil
	}
	if !m.busy {
		m.busy = true
		if m.parked {
			m.parked = false
			m.wake <- struct{}{} // never blocks: one wake per parking
		} else {
			go m.run()
		}
	}
	m.mu.Unlock()
}

// wait returns, as store.Consume does, the count after the request and
// true, or the current count and false when the allowance is used up. It
// returns when the count is durable, whatever the request's context does:
// the count may already be in a transaction.
func (t *ticket) wait() (int64, bool, error) {
	t.done.Wait()
	return t.count, t.ok, t.err
}

// answer releases the ticket's waiter; t must not be used after it.
func (t *ticket) answer() {
	t.done.Done()
}

// run commits batches while requests come. One run goroutine exists at
// a time; it parks while the queue is empty and ends after runIdle
// without a request.
func (m *meter) run() {
	idle := time.NewTimer(runIdle)
	defer idle.Stop()
	for {
		m.gather()
		m.mu.Lock()
		batch := m.queue
		if len(batch) > MaxBatch {
			batch = batch[:MaxBatch:MaxBatch]
		}
		m.queue = m.queue[len(batch):]
		if len(batch) == 0 {
			m.queue = m.queue[:0]
			m.busy, m.parked = false, true
			m.mu.Unlock()
			idle.Reset(runIdle)
			select {
			case <-m.wake:
				continue
			case <-idle.C:
			}
			m.mu.Lock()
			if m.parked {
				m.parked = false
				m.mu.Unlock()
				return
			}
			// A request woke us as the timer fired: its wake is sent.
			m.mu.Unlock()
			<-m.wake
			continue
		}
		if len(m.queue) == 0 {
			// The next batch goes into the array of the last one, whose
			// tickets are all answered.
			m.queue, m.spare = m.spare[:0], nil
		}
		m.mu.Unlock()
		start := time.Now()
		m.commit(batch)
		clear(batch)
		m.mu.Lock()
		m.lastSize, m.lastCommit = len(batch), time.Since(start)
		if cap(batch) <= 2*MaxBatch {
			m.spare = batch[:0]
		}
		m.mu.Unlock()
	}
}

// gather waits for more requests to join the next batch.
func (m *meter) gather() {
	switch {
	case m.wait > 0:
		time.Sleep(m.wait)
	case m.wait == 0:
		m.mu.Lock()
		n := len(m.queue)
		if m.lastCommit >= slowCommit && n < m.lastSize+n && n < MaxBatch {
			// The clients of the last batch come back within about a
			// round trip: let them join this one rather than wait a whole
			// commit for the next.
			m.target, m.full = min(m.lastSize+n, MaxBatch), make(chan struct{})
			full := m.full
			m.mu.Unlock()
			t := time.NewTimer(min(m.lastCommit, maxGather))
			select {
			case <-full:
			case <-t.C:
			}
			t.Stop()
			m.mu.Lock()
			m.full = nil
			m.mu.Unlock()
			return
		}
		m.mu.Unlock()
		for range batchYields {
			runtime.Gosched()
			m.mu.Lock()
			grew := len(m.queue) > n
			n = len(m.queue)
			m.mu.Unlock()
			if !grew || n >= MaxBatch {
				return
			}
		}
	}
}

// groupKey is what the tickets of one take share.
type groupKey struct {
	account int64
	period  time.Time
	limit   int64
	plan    store.Plan
}

// commit counts a batch in one transaction and answers its tickets. The
// tickets of one account, period, limit and plan become one take of N; the
// first Granted of them, in arrival order, are admitted.
func (m *meter) commit(batch []*ticket) {
	// The run goroutine alone commits: the scratch is reused.
	if m.index == nil {
		m.index = map[groupKey]int{}
	}
	takes, groups, index := m.takes[:0], m.groups[:0], m.index
	defer func() {
		clear(index)
		for i := range groups {
			clear(groups[i])
			groups[i] = groups[i][:0]
		}
		m.takes, m.groups = takes[:0], groups[:0]
	}()
	for _, t := range batch {
		if err := t.ctx.Err(); err != nil {
			// Gone before its count was made: nothing to count.
			t.err = err
			t.answer()
			continue
		}
		k := groupKey{t.take.AccountID, t.take.Period.UTC(), t.take.Limit, t.take.Plan}
		i, ok := index[k]
		if !ok {
			i = len(takes)
			index[k] = i
			takes = append(takes, store.Take{AccountID: k.account, Period: k.period, Limit: k.limit, Plan: k.plan})
			if len(groups) < cap(groups) {
				groups = groups[:len(groups)+1] // with its old array, emptied
			} else {
				groups = append(groups, nil)
			}
		}
		takes[i].N++
		groups[i] = append(groups[i], t)
	}
	if len(takes) == 0 {
		return
	}
	counted := 0
	for _, g := range groups {
		counted += len(g)
	}
	m.batches.Add(1)
	m.tickets.Add(int64(counted))
	ctx, cancel := context.WithTimeout(context.Background(), BatchTimeout)
	defer cancel()
	start := time.Now()
	taken, err := m.st.ConsumeBatch(ctx, takes)
	end := time.Now()
	m.commitNanos.Add(int64(end.Sub(start)))
	var waited time.Duration
	for i, g := range groups {
		var tk store.Taken
		if err == nil {
			tk = taken[i]
		}
		before := tk.Count - tk.Granted
		for j, t := range g {
			switch {
			case err != nil:
				t.err = err
			case tk.Err != nil:
				t.err = tk.Err
			case int64(j) < tk.Granted:
				t.ok, t.count = true, before+int64(j)+1
			default:
				t.count = tk.Count
			}
			waited += end.Sub(t.queued)
			t.answer()
		}
	}
	m.waitNanos.Add(int64(waited))
}

// BatchStats returns how many transactions of counts this gate has
// committed and how many requests they counted, for benchmarks and
// metrics: their ratio is the mean batch size.
func (g *Gate) BatchStats() (batches, requests int64) {
	return g.meter.batches.Load(), g.meter.tickets.Load()
}

// BatchTimes returns the summed wall time of this gate's transactions of
// counts, and the summed time its counted requests waited from being
// queued to their transaction's end. Over the counts of BatchStats they
// give the mean commit, the floor under what metering adds to a
// request's time (a durable commit's disk flush, on PostgreSQL), and the
// mean wait, what it adds in fact when the request's own work is shorter.
func (g *Gate) BatchTimes() (commit, wait time.Duration) {
	return time.Duration(g.meter.commitNanos.Load()), time.Duration(g.meter.waitNanos.Load())
}
