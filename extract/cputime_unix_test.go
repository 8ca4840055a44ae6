//go:build unix

package extract

import (
	"syscall"
	"time"
)

// processCPU returns the CPU time (user and system) the process has used,
// for benchmarks on shared machines, where wall time says little.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
