package agentbench

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// clockTick is one unit of utime and stime in /proc/PID/stat. USER_HZ is
// 100 on every Linux ABI Go supports; it is not the kernel's HZ.
const clockTick = 10 * time.Millisecond

// RSS returns the resident set size of process pid in bytes (VmRSS of
// /proc/PID/status).
func RSS(pid int) (int64, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(data), "\n") {
		rest, ok := strings.CutPrefix(line, "VmRSS:")
		if !ok {
			continue
		}
		kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
		if err != nil {
			return 0, fmt.Errorf("/proc/%d/status: VmRSS %q: %w", pid, rest, err)
		}
		return kb << 10, nil
	}
	return 0, fmt.Errorf("/proc/%d/status has no VmRSS (a zombie?)", pid)
}

// TreeRSS returns the summed RSS of pid and all its live descendants, and
// how many processes that is. Pages two processes share count twice.
func TreeRSS(pid int) (int64, int, error) {
	total, err := RSS(pid)
	if err != nil {
		return 0, 0, err
	}
	procs := 1
	for _, child := range Descendants(pid) {
		if rss, err := RSS(child); err == nil { // a child may exit meanwhile
			total += rss
			procs++
		}
	}
	return total, procs, nil
}

// Descendants lists the live descendants of pid (children, their children,
// ...), read from the parent pid of every process in /proc.
func Descendants(pid int) []int {
	children := map[int][]int{}
	entries, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, e := range entries {
		fields, err := statFields(e)
		if err != nil {
			continue
		}
		child, _ := strconv.Atoi(filepath.Base(filepath.Dir(e)))
		ppid, _ := strconv.Atoi(fields[1])
		children[ppid] = append(children[ppid], child)
	}
	var out []int
	queue := []int{pid}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		out = append(out, children[p]...)
		queue = append(queue, children[p]...)
	}
	return out
}

// CPUTime returns the CPU time process pid has used so far, user plus
// system, over all its threads, live and exited (utime + stime of
// /proc/PID/stat). Its resolution is one clock tick, 10 ms.
func CPUTime(pid int) (time.Duration, error) {
	fields, err := statFields(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	// fields[0] is the state (field 3 of proc(5)); utime and stime are
	// fields 14 and 15.
	utime, err1 := strconv.ParseInt(fields[11], 10, 64)
	stime, err2 := strconv.ParseInt(fields[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, fmt.Errorf("/proc/%d/stat: bad utime %q or stime %q", pid, fields[11], fields[12])
	}
	return time.Duration(utime+stime) * clockTick, nil
}

// ThreadCPUTime returns the CPU time of the live threads of process pid, to
// the nanosecond: the sum of the first field of /proc/PID/task/TID/schedstat.
// Unlike CPUTime it forgets threads that have exited; the Go runtime and
// node keep theirs for the life of the process.
func ThreadCPUTime(pid int) (time.Duration, error) {
	files, err := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/schedstat", pid))
	if err != nil || len(files) == 0 {
		return 0, fmt.Errorf("no /proc/%d/task/*/schedstat", pid)
	}
	var total int64
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			continue // the thread exited
		}
		first, _, _ := strings.Cut(strings.TrimSpace(string(data)), " ")
		ns, err := strconv.ParseInt(first, 10, 64)
		if err != nil {
			return 0, fmt.Errorf("%s: %q: %w", f, data, err)
		}
		total += ns
	}
	return time.Duration(total), nil
}

// statFields reads a /proc/PID/stat file and returns its fields after the
// command name (which may hold spaces and parentheses): fields[0] is the
// state, fields[1] the parent pid.
func statFields(path string) ([]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	i := bytes.LastIndexByte(data, ')')
	if i < 0 {
		return nil, fmt.Errorf("%s: no command name", path)
	}
	fields := strings.Fields(string(data[i+1:]))
	if len(fields) < 13 {
		return nil, fmt.Errorf("%s: %d fields", path, len(fields))
	}
	return fields, nil
}
