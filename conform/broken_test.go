package conform_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"github.com/airwire/airwire/internal/testroot"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/airwire/airwire/conform"
	"github.com/airwire/airwire/conform/scenario"
	"github.com/airwire/airwire/internal/procgroup"
)

// brokenAgent writes a shell script that stands in for a broken adapter.
func brokenAgent(t *testing.T, body string) []string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "agent.sh")
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return []string{p}
}

func textTurn(t *testing.T) *scenario.Scenario {
	t.Helper()
	sc, err := scenario.Load("testdata/text-turn.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// runBroken runs text-turn against agent and returns the RunError and how
// long Run took.
func runBroken(t *testing.T, ctx context.Context, agent []string, o conform.Options) (*conform.RunError, time.Duration) {
	t.Helper()
	o.Airwire, o.Agent, o.Scenario, o.Profile, o.Dir = testroot.Binary(t), agent, textTurn(t), scenario.ProfilePlain, t.TempDir()
	start := time.Now()
	_, err := conform.Run(ctx, o)
	took := time.Since(start)
	var re *conform.RunError
	if !errors.As(err, &re) {
		t.Fatalf("want a RunError, got %v", err)
	}
	return re, took
}

// An adapter that hangs at initialize: the run says the agent never
// answered it, in plain words, with the stderr tail, and it does not wait
// the full exit timeout once it has failed (issue 11, item 15).
func TestRunAgentHangsAtInitialize(t *testing.T) {
	agent := brokenAgent(t, `echo "adapter: waiting for a licence server" >&2; exec sleep 60`)
	re, took := runBroken(t, context.Background(), agent, conform.Options{WaitTimeout: time.Second})
	if !re.BeforeInitialize {
		t.Errorf("BeforeInitialize = false: %v", re)
	}
	msg := re.Error()
	for _, want := range []string{"waited 1s for the response to initialize (id 0)", "waiting for a licence server", "agent exit: "} {
		if !strings.Contains(msg, want) {
			t.Errorf("error lacks %q:\n%s", want, msg)
		}
	}
	if strings.Contains(msg, "no the") {
		t.Errorf("garbled message: %s", msg)
	}
	if limit := time.Second + conform.FailedExitTimeout + 2*time.Second; took > limit {
		t.Errorf("the run took %s, want under %s (wait timeout + FailedExitTimeout)", took.Round(time.Millisecond), limit)
	}
}

// An adapter that prints non-JSON and exits: the failure names the lines
// and the exit status (issue 11, item 16).
func TestRunAgentPrintsNonJSONAndExits(t *testing.T) {
	agent := brokenAgent(t, `echo "Error: Cannot find module './dist/index.js'"; echo "    at Module._resolveFilename"; echo "node: fatal" >&2; exit 3`)
	re, _ := runBroken(t, context.Background(), agent, conform.Options{})
	if !re.BeforeInitialize {
		t.Errorf("BeforeInitialize = false: %v", re)
	}
	if len(re.NotJSON) != 2 || !strings.Contains(re.NotJSON[0], "Cannot find module") {
		t.Errorf("NotJSON = %q", re.NotJSON)
	}
	msg := re.Error()
	for _, want := range []string{"closed its output", "agent exit: exit status 3", "not JSON-RPC", "Cannot find module './dist/index.js'", "Module._resolveFilename", "node: fatal"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error lacks %q:\n%s", want, msg)
		}
	}
}

// --run-timeout is a hard cap: the run, ending the agent included, is over
// by the context's deadline even for an agent that ignores stdin EOF and
// SIGTERM (issue 11, item 17).
func TestRunTimeoutIsAHardCap(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pid")
	agent := brokenAgent(t, `trap '' TERM; echo $$ > '`+pidFile+`'; echo started >&2; while :; do sleep 0.1; done`)
	testroot.Binary(t) // built before the clock starts: alone, the build took the run's time
	const limit = 2 * time.Second
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	re, took := runBroken(t, ctx, agent, conform.Options{})
	if took > limit+300*time.Millisecond {
		t.Errorf("a %s run took %s", limit, took.Round(time.Millisecond))
	}
	if !errors.Is(re, context.DeadlineExceeded) || !strings.Contains(re.Error(), "time limit ran out") {
		t.Errorf("error: %v", re)
	}
	if !strings.Contains(re.Exit, "SIGKILL") {
		t.Errorf("Exit = %q, want the SIGKILL the client sent", re.Exit)
	}
	// The agent, which ignores SIGTERM, does not outlive the run.
	data, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(data)))
	if !gone(pid, 2*time.Second) {
		t.Errorf("the agent (pid %d) outlived the run", pid)
		if p, err := os.FindProcess(pid); err == nil {
			_ = p.Kill()
		}
	}
}

// gone waits up to limit for pid to end: no process, or (where /proc
// tells) a zombie left for its new parent to reap.
func gone(pid int, limit time.Duration) bool {
	for end := time.Now().Add(limit); ; time.Sleep(20 * time.Millisecond) {
		if !procgroup.Running(pid) {
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
