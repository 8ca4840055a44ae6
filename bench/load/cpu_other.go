//go:build !linux

package main

import "time"

// procCPU and selfCPU say nothing outside Linux: the CPU figures are left
// out.
func procCPU(int) (time.Duration, bool) { return 0, false }

func selfCPU() (time.Duration, bool) { return 0, false }
