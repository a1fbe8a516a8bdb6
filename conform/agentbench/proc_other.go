//go:build !linux

package agentbench

import (
	"errors"
	"time"
)

// ErrNotMeasured is what the process measures return off Linux: RSS and
// CPU time are read from /proc, which only Linux has, so a benchmark that
// needs them stops with this rather than report a number it did not read.
var ErrNotMeasured = errors.New("process RSS and CPU time are not measured here: they are read from /proc, on Linux only")

// RSS would return the resident set size of process pid; see proc_linux.go.
func RSS(int) (int64, error) { return 0, ErrNotMeasured }

// TreeRSS would return the summed RSS of pid and its descendants.
func TreeRSS(int) (int64, int, error) { return 0, 0, ErrNotMeasured }

// Descendants finds no descendants here: it reads /proc.
func Descendants(int) []int { return nil }

// CPUTime would return the CPU time process pid has used so far.
func CPUTime(int) (time.Duration, error) { return 0, ErrNotMeasured }

// ThreadCPUTime would return the CPU time of the live threads of pid.
func ThreadCPUTime(int) (time.Duration, error) { return 0, ErrNotMeasured }
