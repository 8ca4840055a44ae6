package main

import (
	"bytes"
	"runtime/trace"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// storeCallForTest stands for the batcher's store call: it blocks on a
// channel for about d each time.
//
//go:noinline
func storeCallForTest(answer <-chan struct{}) {
	<-answer
}

// TestAnalyzeTrace traces a goroutine that blocks in a known function
// five times for 2 ms each and checks that the analysis finds those waits,
// and only those, as the batcher's.
func TestAnalyzeTrace(t *testing.T) {
	var buf bytes.Buffer
	require.NoError(t, trace.Start(&buf))
	answer, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		for range 5 {
			storeCallForTest(answer)
		}
	}()
	for range 5 {
		time.Sleep(2 * time.Millisecond)
		answer <- struct{}{}
	}
	<-done
	trace.Stop()

	data := buf.Bytes()
	s, err := analyzeTrace(bytes.NewReader(data), "storeCallForTest")
	require.NoError(t, err)
	require.Len(t, s.storeWaits, 5, "one wait per blocked call")
	for _, d := range s.storeWaits {
		assert.GreaterOrEqual(t, d, time.Millisecond, "each wait lasts about the sleep")
	}
	assert.Len(t, s.batcherRunDelays, 5, "each wake-up is followed by a run")
	assert.NotEmpty(t, s.otherRunDelays, "the test's own goroutine counts as another")

	none, err := analyzeTrace(bytes.NewReader(data), "noSuchFunction")
	require.NoError(t, err)
	assert.Empty(t, none.storeWaits)
}

func TestAnalyzeTraceRejectsGarbage(t *testing.T) {
	_, err := analyzeTrace(bytes.NewReader([]byte("not a trace")), batcherFrame)
	assert.Error(t, err)
}
