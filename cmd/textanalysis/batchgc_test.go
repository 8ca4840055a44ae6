package main

import (
	"runtime/debug"
	"testing"

	"github.com/stretchr/testify/assert"
)

// A batch raises the collector's target unless the user set GOGC or
// GOMEMLIMIT, which always win.
func TestBatchGCSettings(t *testing.T) {
	tests := []struct {
		name      string
		gogc      string
		memlimit  string
		wantGC    int
		wantLimit int64
	}{
		{name: "defaults", wantGC: batchGCPercent, wantLimit: batchMemoryLimit},
		{name: "GOGC set", gogc: "100", wantGC: 100, wantLimit: batchMemoryLimit},
		{name: "GOMEMLIMIT set", memlimit: "2GiB", wantGC: batchGCPercent, wantLimit: 7 << 20},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			prevGC := debug.SetGCPercent(100)
			prevLimit := debug.SetMemoryLimit(7 << 20)
			t.Cleanup(func() {
				debug.SetGCPercent(prevGC)
				debug.SetMemoryLimit(prevLimit)
			})
			t.Setenv("GOGC", tt.gogc)
			t.Setenv("GOMEMLIMIT", tt.memlimit)

			tuneGCForBatch()

			assert.Equal(t, tt.wantGC, debug.SetGCPercent(100))
			assert.Equal(t, tt.wantLimit, debug.SetMemoryLimit(7<<20))
		})
	}
}
