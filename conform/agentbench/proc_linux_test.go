package agentbench

import (
	"os"
	"os/exec"
	"slices"
	"testing"
	"time"
)

func TestRSSGrowsWithTouchedMemory(t *testing.T) {
	before, err := RSS(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 64<<20)
	for i := range buf {
		buf[i] = byte(i)
	}
	after, err := RSS(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	if after-before < 48<<20 {
		t.Errorf("RSS went from %d to %d bytes after touching 64 MiB", before, after)
	}
	_ = buf[len(buf)-1]
}

func TestTreeRSSCountsDescendants(t *testing.T) {
	// sh -c 'sleep 30 & wait': a child (sh) with a grandchild (sleep).
	cmd := exec.Command("sh", "-c", "sleep 30 & wait")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	var kids []int
	for deadline := time.Now().Add(5 * time.Second); len(kids) < 2 && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
		kids = Descendants(os.Getpid())
	}
	if !slices.Contains(kids, cmd.Process.Pid) || len(kids) < 2 {
		t.Fatalf("Descendants = %v, want sh (%d) and its sleep", kids, cmd.Process.Pid)
	}
	own, err := RSS(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	total, procs, err := TreeRSS(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	if procs < 3 || total <= own {
		t.Errorf("TreeRSS = %d bytes over %d processes; own RSS %d", total, procs, own)
	}
}

func TestCPUTimeCountsBusyWork(t *testing.T) {
	pid := os.Getpid()
	stat0, err := CPUTime(pid)
	if err != nil {
		t.Fatal(err)
	}
	threads0, err := ThreadCPUTime(pid)
	if err != nil {
		t.Fatal(err)
	}
	spin(300 * time.Millisecond)
	stat1, _ := CPUTime(pid)
	threads1, _ := ThreadCPUTime(pid)
	// The spin burns at least 300 ms of wall time on the CPU, less what
	// other processes took from it on a loaded machine.
	if d := stat1 - stat0; d < 100*time.Millisecond {
		t.Errorf("CPUTime grew by %v over a 300 ms spin", d)
	}
	if d := threads1 - threads0; d < 100*time.Millisecond {
		t.Errorf("ThreadCPUTime grew by %v over a 300 ms spin", d)
	}
}

var sink int

func spin(d time.Duration) {
	for end := time.Now().Add(d); time.Now().Before(end); {
		for i := range 10000 {
			sink += i
		}
	}
}

func TestProcReadersFailOnAMissingProcess(t *testing.T) {
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	pid := cmd.Process.Pid // reaped: /proc has no such process now
	if _, err := RSS(pid); err == nil {
		t.Error("RSS of a reaped process: no error")
	}
	if _, err := CPUTime(pid); err == nil {
		t.Error("CPUTime of a reaped process: no error")
	}
	if _, err := ThreadCPUTime(pid); err == nil {
		t.Error("ThreadCPUTime of a reaped process: no error")
	}
}
