package conform

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airwire/airwire/cmd/cmdutil"
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
