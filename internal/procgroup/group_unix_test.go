//go:build unix

package procgroup

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

// envParent makes the test binary a parent that starts a group and then
// waits to be killed (see TestMain).
const envParent = "PROCGROUP_TEST_PARENT"

func TestMain(m *testing.M) {
	if script := os.Getenv(envParent); script != "" {
		os.Exit(parentMain(script))
	}
	os.Exit(m.Run())
}

// parentMain starts script in a group that dies with this process,
// passes on the pids the script prints, and waits to be killed.
func parentMain(script string) int {
	cmd := exec.Command("/bin/sh", "-c", script)
	cmd.Stdout = os.Stdout
	if _, err := Start(cmd, WithParentDeath(300*time.Millisecond)); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	time.Sleep(time.Hour)
	return 0
}

// startParent runs the test binary as a parent of script and returns it
// with the pids script printed on its first line.
func startParent(t *testing.T, script string) (*exec.Cmd, []int) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), envParent+"="+script)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("the parent printed no pids: %v", err)
	}
	var pids []int
	for _, f := range strings.Fields(line) {
		pid, err := strconv.Atoi(f)
		if err != nil {
			t.Fatalf("pids line %q", line)
		}
		pids = append(pids, pid)
		t.Cleanup(func() { _ = exec.Command("kill", "-9", f).Run() })
	}
	return cmd, pids
}

// gone waits up to limit for pid to end: no process, or a zombie left for
// its new parent to reap. ps, not /proc: macOS has no /proc.
func gone(pid int, limit time.Duration) bool {
	for end := time.Now().Add(limit); ; time.Sleep(20 * time.Millisecond) {
		out, err := exec.Command("ps", "-o", "stat=", "-p", strconv.Itoa(pid)).Output()
		st := strings.TrimSpace(string(out))
		if err != nil || st == "" || strings.HasPrefix(st, "Z") {
			return true
		}
		if time.Now().After(end) {
			return false
		}
	}
}

// TestLeaderDiesWithTheParent: a SIGKILLed parent takes its group's
// leader along, through Pdeathsig on Linux and the watchdog elsewhere.
func TestLeaderDiesWithTheParent(t *testing.T) {
	parent, pids := startParent(t, `echo $$; exec sleep 30`)
	if err := parent.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = parent.Wait()
	if !gone(pids[0], 3*time.Second) {
		t.Errorf("the child (pid %d) outlived its SIGKILLed parent", pids[0])
	}
}

// TestStopKillsTheWholeGroup: Stop ends a leader and a grandchild that
// both ignore SIGTERM, after the grace.
func TestStopKillsTheWholeGroup(t *testing.T) {
	cmd := exec.Command("/bin/sh", "-c", `trap '' TERM; sleep 30 & echo $!; wait`)
	out, _ := cmd.StdoutPipe()
	g, err := Start(cmd)
	if err != nil {
		t.Fatal(err)
	}
	line, _ := bufio.NewReader(out).ReadString('\n')
	grandchild, _ := strconv.Atoi(strings.TrimSpace(line))
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	start := time.Now()
	g.Stop(exited, 200*time.Millisecond)
	<-exited
	if took := time.Since(start); took < 200*time.Millisecond {
		t.Errorf("the group ended after %s, before the grace: SIGTERM was not ignored?", took)
	}
	if !gone(grandchild, 2*time.Second) {
		t.Errorf("the grandchild (pid %d) outlived Stop", grandchild)
	}
	// The killed grandchild may stay a zombie in the group for a moment,
	// until init reaps it.
	for end := time.Now().Add(2 * time.Second); g.Alive() && time.Now().Before(end); {
		time.Sleep(10 * time.Millisecond)
	}
	if g.Alive() {
		t.Error("the group is alive after Stop")
	}
	g.Release(0)
}

// TestReleaseKillsWhatTheLeaderLeft: the leader exits, a grandchild stays
// in the group; Release gives it the grace, then kills it.
func TestReleaseKillsWhatTheLeaderLeft(t *testing.T) {
	cmd := exec.Command("/bin/sh", "-c", `sleep 30 & echo $!`)
	out, _ := cmd.StdoutPipe()
	g, err := Start(cmd, WithParentDeath(time.Second))
	if err != nil {
		t.Fatal(err)
	}
	line, _ := bufio.NewReader(out).ReadString('\n')
	grandchild, _ := strconv.Atoi(strings.TrimSpace(line))
	_ = cmd.Wait()
	if !g.Alive() {
		t.Fatal("the group is empty while the grandchild runs")
	}
	g.Release(50 * time.Millisecond)
	if !gone(grandchild, 2*time.Second) {
		t.Errorf("the grandchild (pid %d) outlived Release", grandchild)
	}
}

func TestRunning(t *testing.T) {
	if !Running(os.Getpid()) {
		t.Error("Running(self) = false")
	}
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	if Running(cmd.Process.Pid) {
		t.Errorf("Running(%d) = true for a reaped process", cmd.Process.Pid)
	}
	if Running(0) || Running(-1) {
		t.Error("Running of a pid <= 0")
	}
}
