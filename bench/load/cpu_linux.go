package main

import (
	"fmt"
	"os"
	"strings"
	"syscall"
	"time"
)

// clockTick is the unit of /proc's CPU times (USER_HZ), 100 per second
// on every Linux architecture Go runs on.
const clockTick = 10 * time.Millisecond

// procCPU is the CPU time (user and system) a process has used, from
// /proc/PID/stat.
func procCPU(pid int) (time.Duration, bool) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, false
	}
	// The command name, in parentheses, may hold spaces: count fields
	// after its closing one. utime and stime are fields 14 and 15.
	i := strings.LastIndexByte(string(b), ')')
	if i < 0 {
		return 0, false
	}
	var utime, stime int64
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 13 {
		return 0, false
	}
	if _, err := fmt.Sscan(f[11]+" "+f[12], &utime, &stime); err != nil {
		return 0, false
	}
	return time.Duration(utime+stime) * clockTick, true
}

// selfCPU is the CPU time (user and system) this process has used.
func selfCPU() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
