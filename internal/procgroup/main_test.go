package procgroup

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The test binary plays the processes the tests need, on every platform,
// when envRole names a role:
//   - "sleep": sleeps;
//   - "spawn": starts a "sleep" child (in its own group or job), prints
//     "<own pid> <child pid>", and sleeps;
//   - "spawn-and-exit": the same, but exits at once;
//   - "parent": starts a "spawn" in a group that dies with it
//     (WithParentDeath), passes its line on, and sleeps.
//
// With envStubborn set, a role ignores SIGTERM and Ctrl-Break (Terminate),
// and so do the children it starts.
const (
	envRole     = "PROCGROUP_TEST_ROLE"
	envStubborn = "PROCGROUP_TEST_STUBBORN"
)

func TestMain(m *testing.M) {
	role := os.Getenv(envRole)
	if role == "" {
		os.Exit(m.Run())
	}
	if os.Getenv(envStubborn) != "" {
		signal.Ignore(os.Interrupt, syscall.SIGTERM)
	}
	switch role {
	case "sleep":
	case "spawn", "spawn-and-exit":
		child := self("sleep")
		if err := child.Start(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Printf("%d %d\n", os.Getpid(), child.Process.Pid)
		if role == "spawn-and-exit" {
			os.Exit(0)
		}
	case "parent":
		cmd := self("spawn")
		cmd.Stdout = os.Stdout
		if _, err := Start(cmd, WithParentDeath(300*time.Millisecond)); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	default:
		os.Exit(2)
	}
	time.Sleep(time.Hour)
	os.Exit(0)
}

// self is the test binary in role (the environment, envStubborn included,
// is inherited).
func self(role string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), envRole+"="+role)
	cmd.Stderr = os.Stderr
	return cmd
}

// stubborn makes the roles the test starts ignore Terminate.
func stubborn(t *testing.T) { t.Setenv(envStubborn, "1") }

// readPids reads the line of pids a role prints, and makes sure the
// processes end with the test.
func readPids(t *testing.T, cmd *exec.Cmd, start func() error) []int {
	t.Helper()
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("no pids: %v", err)
	}
	var pids []int
	for _, f := range strings.Fields(line) {
		pid, err := strconv.Atoi(f)
		if err != nil {
			t.Fatalf("pids line %q", line)
		}
		pids = append(pids, pid)
		t.Cleanup(func() {
			if p, err := os.FindProcess(pid); err == nil {
				_ = p.Kill()
			}
		})
	}
	return pids
}

// gone waits up to limit for pid to end: no process, or (where /proc
// tells) a zombie left for its new parent to reap.
func gone(pid int, limit time.Duration) bool {
	for end := time.Now().Add(limit); ; time.Sleep(20 * time.Millisecond) {
		if !Running(pid) {
			return true
		}
		stat, _ := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if i := bytes.LastIndexByte(stat, ')'); i >= 0 && bytes.HasPrefix(stat[i+1:], []byte(" Z")) {
			return true
		}
		if time.Now().After(end) {
			return false
		}
	}
}

// killParent starts a "parent", kills it with SIGKILL (TerminateProcess
// on Windows) once its group runs, and returns the group's pids.
func killParent(t *testing.T) []int {
	t.Helper()
	parent := self("parent")
	pids := readPids(t, parent, parent.Start)
	t.Cleanup(func() { _ = parent.Process.Kill(); _ = parent.Wait() })
	for _, pid := range pids {
		if !Running(pid) {
			t.Fatalf("pid %d of the group is not running", pid)
		}
	}
	if err := parent.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = parent.Wait()
	return pids
}

// TestLeaderDiesWithTheParent: a killed parent takes its group's leader
// along: Pdeathsig on Linux, the watchdog on other Unixes, the job on
// Windows.
func TestLeaderDiesWithTheParent(t *testing.T) {
	pids := killParent(t)
	if !gone(pids[0], 3*time.Second) {
		t.Errorf("the leader (pid %d) outlived its killed parent", pids[0])
	}
}

// TestStopKillsTheWholeGroup: Stop ends a leader and its child that both
// ignore Terminate, once the grace is over.
func TestStopKillsTheWholeGroup(t *testing.T) {
	stubborn(t)
	cmd := self("spawn")
	var g *Group
	pids := readPids(t, cmd, func() (err error) { g, err = Start(cmd); return err })
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	start := time.Now()
	g.Stop(exited, 300*time.Millisecond)
	<-exited
	if took := time.Since(start); took < 300*time.Millisecond {
		t.Errorf("the group ended after %s, before the grace: Terminate was not ignored?", took)
	}
	for _, pid := range pids {
		if !gone(pid, 3*time.Second) {
			t.Errorf("pid %d outlived Stop", pid)
		}
	}
	g.Release(0)
	if err := g.Kill(); err == nil {
		t.Error("Kill of a released group succeeded")
	}
}

// TestReleaseKillsWhatTheLeaderLeft: the leader exits, its child stays in
// the group; Release gives it the grace, then kills it.
func TestReleaseKillsWhatTheLeaderLeft(t *testing.T) {
	cmd := self("spawn-and-exit")
	var g *Group
	pids := readPids(t, cmd, func() (err error) { g, err = Start(cmd, WithParentDeath(time.Second)); return err })
	_ = cmd.Wait()
	if !g.Alive() {
		t.Fatal("the group is empty while the leader's child runs")
	}
	start := time.Now()
	g.Release(200 * time.Millisecond)
	if took := time.Since(start); took < 200*time.Millisecond {
		t.Errorf("Release returned after %s, before the grace", took)
	}
	if !gone(pids[1], 3*time.Second) {
		t.Errorf("the leader's child (pid %d) outlived Release", pids[1])
	}
}

func TestRunning(t *testing.T) {
	if !Running(os.Getpid()) {
		t.Error("Running(self) = false")
	}
	cmd := self("nonesuch")
	if err := cmd.Run(); err == nil {
		t.Fatal("an unknown role succeeded")
	}
	if Running(cmd.Process.Pid) {
		t.Errorf("Running(%d) = true for a process that exited", cmd.Process.Pid)
	}
	if Running(0) || Running(-1) {
		t.Error("Running of a pid <= 0")
	}
}
