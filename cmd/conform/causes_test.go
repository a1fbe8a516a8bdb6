package conform

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airwire/airwire/cmd/cmdutil"
	"github.com/airwire/airwire/conform"
	"github.com/airwire/airwire/conform/golden"
	"github.com/airwire/airwire/reports"
)

// causeRun is a golden mismatch of a run with session n: every run has
// the new default mode at configOptions[0].currentValue (its session id
// differs from run to run), and the run named many also has 25 results
// with a new value, which is more differences than a run lists.
func causeRun(name string, n int, many bool) error {
	var want, got strings.Builder
	fmt.Fprintf(&want, "client agent->editor {\"id\":1,\"result\":{\"configOptions\":[{\"currentValue\":\"default\"}],\"sessionId\":\"<session-%d>\"}}\n", n)
	fmt.Fprintf(&got, "client agent->editor {\"id\":1,\"result\":{\"configOptions\":[{\"currentValue\":\"auto\"}],\"sessionId\":\"<session-%d>\"}}\n", n)
	for i := range 25 {
		fmt.Fprintf(&want, "client agent->editor {\"id\":%d,\"result\":{\"stopReason\":\"end_turn\"}}\n", i+2)
		reason := "end_turn"
		if many {
			reason = "cancelled"
		}
		fmt.Fprintf(&got, "client agent->editor {\"id\":%d,\"result\":{\"stopReason\":%q}}\n", i+2, reason)
	}
	return golden.Compare("goldens/"+name+".golden", []byte(want.String()), []byte(got.String()))
}

// TestConformGroupsCauses: one change that hits every run and another that
// hits one run are two causes, each said once with its count of runs and
// an example, most runs first; each failed run names its causes and lists
// all its differences up to the bound, saying when the bound was hit; the
// JSON report, the JUnit XML and the HTML page say the same.
func TestConformGroupsCauses(t *testing.T) {
	names := []string{"alpha", "beta", "gamma", "delta", "epsilon"}
	n := 0
	fc := newFakeConform(t, names, nil, func(name string) error {
		n++
		return causeRun(name, n, name == "gamma/air")
	})
	out := t.TempDir()
	fc.opts.JSON, fc.opts.JUnit, fc.opts.HTML = filepath.Join(out, "r.json"), filepath.Join(out, "junit.xml"), filepath.Join(out, "html")
	if err := runConform(context.Background(), &fc.opts); !errors.Is(err, cmdutil.ErrMismatch) {
		t.Fatalf("err = %v", err)
	}
	stderr := fc.err.String()
	for _, want := range []string{
		"causes (2, most runs first):\n" +
			"  #1 10 runs, e.g. alpha/air: client agent->editor $.result.configOptions[0].currentValue: \"default\" → \"auto\"\n" +
			"  #2 1 run, e.g. gamma/air: client agent->editor $.result.stopReason: \"end_turn\" → \"cancelled\"\n",
		"  gamma/air (causes #1, #2)\n",
		"  alpha/plain (cause #1)\n",
		"differences (the first 20; more were found, not listed):\n  line 1 client agent->editor $.result.configOptions[0].currentValue",
		"  line 20 client agent->editor $.result.stopReason: \"end_turn\" → \"cancelled\"\n",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	rep, err := reports.Read(fc.opts.JSON)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Causes) != 2 || rep.Causes[0].Runs != 10 || rep.Causes[0].Example != "alpha/air" || rep.Causes[1].Runs != 1 || rep.Causes[1].Example != "gamma/air" {
		t.Fatalf("causes %+v", rep.Causes)
	}
	for _, run := range rep.Runs {
		f := run.Failure
		wantDiffs, wantCauses := 1, "[1]"
		if run.ID() == "gamma/air" {
			wantDiffs, wantCauses = golden.MaxDiffs, "[1 2]"
		}
		if len(f.Differences) != wantDiffs || f.MoreDifferences != (wantDiffs > 1) || fmt.Sprint(f.Causes) != wantCauses {
			t.Errorf("%s: %d differences (more %v), causes %v", run.ID(), len(f.Differences), f.MoreDifferences, f.Causes)
		}
	}
	junit, err := os.ReadFile(fc.opts.JUnit)
	if err != nil {
		t.Fatal(err)
	}
	if want := `message="causes #1, #2: client agent-&gt;editor $.result.configOptions[0].currentValue: &#34;default&#34; → &#34;auto&#34; (10 runs); and 1 more cause"`; !strings.Contains(string(junit), want) {
		t.Errorf("the JUnit XML lacks %s:\n%s", want, junit)
	}
	page, err := os.ReadFile(filepath.Join(fc.opts.HTML, reports.HTMLFile))
	if err != nil {
		t.Fatal(err)
	}
	causes, failures := strings.Index(string(page), `<h2>Causes</h2>`), strings.Index(string(page), `<h2>Failures</h2>`)
	if causes < 0 || failures < causes || !strings.Contains(string(page), `<li id="cause-2" value="2"><span class="cause-runs">1 run</span>`) {
		t.Errorf("the page lacks its Causes section before the failures")
	}
}

// modeRun is a golden mismatch of run k as a change of the default mode
// makes it: the session/new response (its id 1, or 2 after an
// authenticate) and the CLI's spawn argv (the option at another index
// when the run adds options, the CLI process numbered 1 or 2) change from
// "auto" to "default". A run with stop also ends its prompt otherwise.
func modeRun(t *testing.T, dir string, k int, stop bool) *reports.Failure {
	side := func(mode, reason string) []byte {
		var b strings.Builder
		b.WriteString("client editor->agent {\"id\":0,\"method\":\"initialize\",\"params\":{}}\nclient agent->editor {\"id\":0,\"result\":{}}\n")
		id := 1
		if k%2 == 1 {
			b.WriteString("client editor->agent {\"id\":1,\"method\":\"authenticate\",\"params\":{}}\nclient agent->editor {\"id\":1,\"result\":{}}\n")
			id = 2
		}
		fmt.Fprintf(&b, "client editor->agent {\"id\":%d,\"method\":\"session/new\",\"params\":{}}\n", id)
		fmt.Fprintf(&b, "cli:%d spawn {\"argv\":[\"<cli>\"%s,\"--permission-mode=%s\",\"--verbose\"]}\n", 1+k%2, strings.Repeat(",\"--x\"", k%3), mode)
		fmt.Fprintf(&b, "client agent->editor {\"id\":%d,\"result\":{\"configOptions\":[{\"currentValue\":%q}],\"modes\":{\"currentModeId\":%q},\"sessionId\":\"<session-%d>\"}}\n", id, mode, mode, k)
		fmt.Fprintf(&b, "client editor->agent {\"id\":%d,\"method\":\"session/prompt\",\"params\":{}}\nclient agent->editor {\"id\":%d,\"result\":{\"stopReason\":%q}}\n", id+1, id+1, reason)
		return []byte(b.String())
	}
	want, got := side("auto", "end_turn"), side("default", "end_turn")
	if stop {
		got = side("default", "cancelled")
	}
	file := filepath.Join(dir, fmt.Sprintf("m%d.golden", k))
	if err := os.WriteFile(file, want, 0o644); err != nil {
		t.Fatal(err)
	}
	mm := golden.Compare(file, want, got)
	return failureOf(outcome{err: mm, out: &conform.Outcome{Compared: got}}, file, nil)
}

// TestOneChangeIsOneCause: a change of the default mode that shows in the
// session/new response under different response ids, in the spawn argv at
// different indexes of different CLI processes, and in the refusals of
// cassettes that do not apply, is one cause of all those runs, its three
// differences together; a change of stop reason in one run is another;
// two runs that did not complete for the same reason (their numbers
// apart) are a third, and a load failure a fourth.
func TestOneChangeIsOneCause(t *testing.T) {
	dir := t.TempDir()
	r := &reports.Report{}
	for k := range 6 {
		r.Add(reports.Run{Scenario: fmt.Sprintf("g%d", k), Profile: "air", Status: reports.StatusFail, Failure: modeRun(t, dir, k, k == 4)})
	}
	for k := range 3 {
		ce := &conform.CassetteError{Cassette: fmt.Sprintf("c%d/zed.cassette", k),
			Reasons: []string{fmt.Sprintf("stream-json spawn #%d: the CLI was started with `--permission-mode=default` where the recording has `--permission-mode=auto`", k+1)}}
		r.Add(reports.Run{Scenario: fmt.Sprintf("c%d", k), Profile: "zed", Status: reports.StatusFail, Failure: failureOf(outcome{err: ce}, "", nil)})
	}
	for k := range 2 {
		err := fmt.Errorf("r%d/plain: the agent exited with status %d after %dms", k, k+1, 100*k+7)
		r.Add(reports.Run{Scenario: fmt.Sprintf("r%d", k), Profile: "plain", Status: reports.StatusFail, Failure: failureOf(outcome{err: err}, "", nil)})
	}
	r.Add(reports.Run{Scenario: "broken", Status: reports.StatusFail, Failure: &reports.Failure{Check: reports.CheckLoad, Message: "broken.yaml: line 3: bad"}})
	r.Group()
	var b strings.Builder
	r.WriteCauses(&b)
	want := "causes (4, most runs first):\n" +
		"  #1 9 runs, e.g. g0/air: cli:N spawn $.argv[--permission-mode]: \"--permission-mode=auto\" → \"--permission-mode=default\"\n" +
		"      with client agent->editor session/new $.result.configOptions[0].currentValue: \"auto\" → \"default\"\n" +
		"      with client agent->editor session/new $.result.modes.currentModeId: \"auto\" → \"default\"\n" +
		"  #2 2 runs, e.g. r0/plain: run failed: <scenario>/<profile>: the agent exited with status N after Nms\n" +
		"  #3 1 run, e.g. g4/air: client agent->editor session/prompt $.result.stopReason: \"end_turn\" → \"cancelled\"\n" +
		"  #4 1 run, e.g. broken/: load failed: <scenario>.yaml: line N: bad\n"
	if b.String() != want {
		t.Errorf("causes:\n%s\nwant:\n%s", b.String(), want)
	}
	for _, run := range r.Runs {
		wantIDs := map[string]string{"g4/air": "[1 3]", "r0/plain": "[2]", "r1/plain": "[2]", "broken/": "[4]"}[run.ID()]
		if got := fmt.Sprint(run.Failure.Causes); got != cmp.Or(wantIDs, "[1]") {
			t.Errorf("%s: causes %s, want %s", run.ID(), got, cmp.Or(wantIDs, "[1]"))
		}
	}
}
