package main

import (
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"time"

	"golang.org/x/exp/trace"
)

// batcherFrame names the function in whose calls the metered server's
// group commit waits for the store (access's batcher, committing a batch).
const batcherFrame = "access.(*meter).commit"

// schedStats is what an execution trace says of where a metered request's
// time goes in the Go scheduler: how long the batcher's goroutine was
// blocked inside the store call (the store's own time, plus the time until
// the runtime noticed the answer), how long it then waited for a core, and
// how long every other goroutine waited for one.
type schedStats struct {
	storeWaits, batcherRunDelays, otherRunDelays []time.Duration
}

// analyzeTrace reads a runtime/trace execution trace. Goroutines blocked
// with a frame containing frame on their stack count as the batcher.
func analyzeTrace(r io.Reader, frame string) (schedStats, error) {
	var s schedStats
	tr, err := trace.NewReader(r)
	if err != nil {
		return s, err
	}
	type state struct {
		blockedAt, runnableAt trace.Time
		batcher               bool
	}
	gs := map[trace.GoID]*state{}
	for {
		ev, err := tr.ReadEvent()
		if err == io.EOF {
			break
		}
		if err != nil {
			return s, err
		}
		if ev.Kind() != trace.EventStateTransition {
			continue
		}
		st := ev.StateTransition()
		if st.Resource.Kind != trace.ResourceGoroutine {
			continue
		}
		g := gs[st.Resource.Goroutine()]
		if g == nil {
			g = &state{}
			gs[st.Resource.Goroutine()] = g
		}
		from, to := st.Goroutine()
		switch {
		case to == trace.GoWaiting:
			g.blockedAt, g.batcher = ev.Time(), false
			for f := range st.Stack.Frames() {
				if strings.Contains(f.Func, frame) {
					g.batcher = true
					break
				}
			}
		case to == trace.GoRunnable:
			g.runnableAt = ev.Time()
			if from == trace.GoWaiting && g.batcher && g.blockedAt != 0 {
				s.storeWaits = append(s.storeWaits, time.Duration(ev.Time()-g.blockedAt))
			}
		case to == trace.GoRunning && from == trace.GoRunnable && g.runnableAt != 0:
			d := time.Duration(ev.Time() - g.runnableAt)
			if g.batcher {
				s.batcherRunDelays = append(s.batcherRunDelays, d)
			} else {
				s.otherRunDelays = append(s.otherRunDelays, d)
			}
			g.batcher, g.runnableAt = false, 0
		}
	}
	return s, nil
}

// traceSched takes a trace of secs seconds from a server's admin address
// and analyzes it.
func traceSched(admin string, secs int) (schedStats, error) {
	r, err := http.Get(fmt.Sprintf("%s/debug/pprof/trace?seconds=%d", admin, secs))
	if err != nil {
		return schedStats{}, err
	}
	defer r.Body.Close()
	if r.StatusCode != http.StatusOK {
		return schedStats{}, fmt.Errorf("trace: %s", r.Status)
	}
	return analyzeTrace(r.Body, batcherFrame)
}

type schedResult struct {
	stats schedStats
	err   error
}

// startTrace traces the server at admin for the middle half of a run of
// dur that starts now.
func startTrace(admin string, dur time.Duration) chan schedResult {
	out := make(chan schedResult, 1)
	secs := min(max(int(dur.Seconds()/2), 1), 25)
	go func() {
		time.Sleep(dur / 4)
		st, err := traceSched(admin, secs)
		out <- schedResult{st, err}
	}()
	return out
}

// spread is a distribution's count, mean, median and 90th percentile.
func spread(ds []time.Duration) string {
	if len(ds) == 0 {
		return "none"
	}
	ds = slices.Clone(ds)
	slices.Sort(ds)
	var sum time.Duration
	for _, d := range ds {
		sum += d
	}
	return fmt.Sprintf("%d, mean %s, p50 %s, p90 %s", len(ds), usec(sum/time.Duration(len(ds))), usec(ds[len(ds)/2]), usec(ds[len(ds)*9/10]))
}
