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

	batches, tickets atomic.Int64 // for tests and benchmarks

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
	m.batches.Add(1)
	m.tickets.Add(int64(len(batch)))
	ctx, cancel := context.WithTimeout(context.Background(), BatchTimeout)
	defer cancel()
	taken, err := m.st.ConsumeBatch(ctx, takes)
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
			t.answer()
		}
	}
}

// BatchStats returns how many transactions of counts this gate has
// committed and how many requests they counted, for benchmarks and
// metrics: their ratio is the mean batch size.
func (g *Gate) BatchStats() (batches, requests int64) {
	return g.meter.batches.Load(), g.meter.tickets.Load()
}
