package play_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/airwire/airwire/internal/deps"
	"github.com/airwire/airwire/internal/journal"
	"github.com/airwire/airwire/internal/testroot"
	"github.com/airwire/airwire/reports"
)

// The acceptance of `airwire play`: ACP clients no one on this project wrote
// launch it as their agent, as a client team's CI would, and play's verdict
// is theirs. The clients are the ones `make deps` installs into
// .deps/clients: the official TypeScript SDK's client side, driven by
// testdata/sdk-client.mjs, and acpx, a headless CLI ACP client.

// thirdParty is what the tests need: Node, the clients, the ACP schema and
// this checkout's airwire.
type thirdParty struct {
	node, clients, schema string
	airwire, root         string
}

func needThirdParty(t *testing.T) thirdParty {
	t.Helper()
	missing := func(err error) {
		t.Helper()
		msg := fmt.Sprintf("the third-party ACP clients are not installed (run make deps): %v", err)
		deps.Unavailable(t, "%s", msg)
	}
	p, err := deps.Paths()
	if err != nil {
		missing(err)
	}
	var tp thirdParty
	if tp.node, err = p.RequireNode(); err != nil {
		missing(err)
	}
	if tp.clients, err = p.RequireACPClients(); err != nil {
		missing(err)
	}
	if tp.schema, err = p.RequireACPSchemaDir(); err != nil {
		missing(err)
	}
	for _, f := range []string{"node_modules/@agentclientprotocol/sdk/package.json", "node_modules/acpx/dist/cli.js"} {
		if _, err := os.Stat(filepath.Join(tp.clients, f)); err != nil {
			missing(fmt.Errorf("%w: %w", err, deps.ErrMissing))
		}
	}
	tp.root = testroot.Root(t)
	tp.airwire = testroot.Binary(t)
	return tp
}

// playArgs is the agent command the clients launch: airwire play of one
// plain-profile scenario from this checkout's scenarios and goldens, its
// workspace ws and its report in report.
func (tp thirdParty) playArgs(scenario, ws, report string) []string {
	return []string{tp.airwire, "play", "--scenario", scenario, "--profile", "plain", "--workspace", ws, "--report", report,
		"--scenarios", filepath.Join(tp.root, "scenarios"), "--goldens", filepath.Join(tp.root, "goldens"),
		"--acp-schema", tp.schema}
}

// clientRun is one client driving one play.
type clientRun struct {
	code           int
	stdout, stderr string
	report         *reports.Report
	reportDir      string
	took           time.Duration
}

// drive runs the client command (its agent command inside), waits for it
// (2 minutes at most) and reads play's report.
func (tp thirdParty) drive(t *testing.T, client, report string, name string, args ...string) clientRun {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	home := t.TempDir()
	cmd.Dir = home
	// acpx keeps its config and sessions under HOME; both clients find
	// node on PATH.
	cmd.Env = append(os.Environ(), "HOME="+home, "PATH="+filepath.Dir(tp.node)+string(os.PathListSeparator)+os.Getenv("PATH"),
		"AIRWIRE_ACP_CLIENTS="+tp.clients, "NO_COLOR=1")
	cmd.WaitDelay = 10 * time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	r := clientRun{stdout: stdout.String(), stderr: stderr.String(), reportDir: report, took: time.Since(start)}
	var exit *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit):
		r.code = exit.ExitCode()
	default:
		t.Fatalf("%s: %v\nstderr:\n%s", name, err, r.stderr)
	}
	if ctx.Err() != nil {
		t.Fatalf("the client did not end in 2 minutes\nstderr:\n%s", r.stderr)
	}
	t.Logf("%s exited %d in %s", client, r.code, r.took.Round(time.Millisecond))
	rep, err := reports.Read(filepath.Join(report, "report.json"))
	if err != nil {
		t.Fatalf("play wrote no report: %v\nclient exit %d\nstdout:\n%s\nstderr:\n%s", err, r.code, r.stdout, r.stderr)
	}
	if len(rep.Runs) != 1 {
		t.Fatalf("report.json has %d runs, want 1", len(rep.Runs))
	}
	r.report = rep
	for _, f := range []string{"junit.xml", "index.html", "journal.html", "journal.jsonl"} {
		if _, err := os.Stat(filepath.Join(report, f)); err != nil {
			t.Errorf("the report lacks %s: %v", f, err)
		}
	}
	return r
}

// sdk drives play with testdata/sdk-client.mjs in mode, sending prompts
// prompts of its own.
func (tp thirdParty) sdk(t *testing.T, scenario, mode string, prompts int) clientRun {
	t.Helper()
	ws, report := t.TempDir(), filepath.Join(t.TempDir(), "report")
	script, err := filepath.Abs(filepath.Join("testdata", "sdk-client.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	args := append([]string{script, "--clients", tp.clients, "--cwd", ws, "--mode", mode, "--prompts", fmt.Sprint(prompts),
		"--cancel-after", "1500", "--timeout", "60000", "--"}, tp.playArgs(scenario, ws, report)...)
	return tp.drive(t, "sdk-client.mjs --mode "+mode, report, tp.node, args...)
}

// acpx drives play with acpx's one-shot exec, answering permission requests
// by policy: --approve-all or --deny-all.
func (tp thirdParty) acpx(t *testing.T, scenario, policy string) clientRun {
	t.Helper()
	ws, report := t.TempDir(), filepath.Join(t.TempDir(), "report")
	agent := tp.playArgs(scenario, ws, report)
	for _, a := range agent {
		if strings.ContainsAny(a, " \t'\"\\") {
			t.Skipf("acpx takes the agent as one command line; %q would need quoting", a)
		}
	}
	return tp.drive(t, "acpx exec "+policy, report, tp.node, filepath.Join(tp.clients, "node_modules", "acpx", "dist", "cli.js"),
		"--agent", strings.Join(agent, " "), "--cwd", ws, policy, "--non-interactive-permissions", "fail",
		"--format", "json", "--timeout", "60", "exec", "please do the thing")
}

// promptStops are the stop reasons of the session/prompt responses in the
// report's journal (the editor lane).
func promptStops(t *testing.T, dir string) []string {
	t.Helper()
	r, err := journal.Open(filepath.Join(dir, "journal.jsonl"))
	if err != nil {
		t.Fatalf("the report's journal: %v", err)
	}
	defer r.Close()
	var stops []string
	for {
		e, err := r.Next()
		if errors.Is(err, io.EOF) {
			return stops
		}
		if err != nil {
			t.Fatalf("the report's journal: %v", err)
		}
		if e.Kind != journal.KindMsg || e.Lane != journal.LaneClient || e.Dir != journal.DirAgent || e.Method != "session/prompt" {
			continue
		}
		var m struct {
			Result *struct {
				StopReason string `json:"stopReason"`
			} `json:"result"`
		}
		if json.Unmarshal(e.Msg, &m) == nil && m.Result != nil && m.Result.StopReason != "" {
			stops = append(stops, m.Result.StopReason)
		}
	}
}

// editorErrors are the report's findings that fail the editor.
func editorErrors(run reports.Run) []reports.Finding {
	var out []reports.Finding
	for _, f := range run.Findings {
		if f.Severity == "error" && !f.Known {
			out = append(out, f)
		}
	}
	return out
}

func (r clientRun) String() string {
	return fmt.Sprintf("client exit %d\nstdout:\n%s\nstderr:\n%s", r.code, tail(r.stdout), tail(r.stderr))
}

func tail(s string) string {
	const max = 6000
	if len(s) > max {
		return "…" + s[len(s)-max:]
	}
	return s
}

// keptAll checks a run where the client kept every obligation: exit 0, a
// passing report, no editor error, a completed prompt and an agent message
// the client saw (sawChunk: the client's own output says so).
func keptAll(t *testing.T, r clientRun, sawChunk string) {
	t.Helper()
	run := r.report.Runs[0]
	if r.code != 0 {
		t.Errorf("the client exited %d, want 0", r.code)
	}
	if run.Status != reports.StatusPass {
		t.Errorf("report status %q, want pass (failure: %+v)", run.Status, run.Failure)
	}
	for _, f := range editorErrors(run) {
		t.Errorf("editor finding: %s %s: %s", f.Rule, f.Pointer, f.Message)
	}
	if stops := promptStops(t, r.reportDir); len(stops) == 0 {
		t.Errorf("the journal has no session/prompt response with a stopReason")
	}
	if !strings.Contains(r.stdout+r.stderr, sawChunk) {
		t.Errorf("the client saw no agent_message_chunk (looked for %q)", sawChunk)
	}
	if t.Failed() {
		t.Log(r)
	}
}

// The scenarios the clients play: model scenarios the plain profile has a
// recording (or a script) for, one with a permission request.
var clientScenarios = []struct {
	name    string
	prompts int // the SDK client's prompts: more than the scenario's turns is allowed
}{
	{"text-and-thinking", 2},
	{"read", 1},
	{"network-permission", 1},
	{"edit-with-permission", 1},
}

func TestThirdPartyClientsPlay(t *testing.T) {
	tp := needThirdParty(t)
	for _, sc := range clientScenarios {
		t.Run("sdk/"+sc.name, func(t *testing.T) {
			keptAll(t, tp.sdk(t, sc.name, "keep", sc.prompts), "sdk-client: update agent_message_chunk")
		})
		t.Run("acpx/"+sc.name, func(t *testing.T) {
			keptAll(t, tp.acpx(t, sc.name, "--approve-all"), `"sessionUpdate":"agent_message_chunk"`)
		})
	}
	// Refusing a permission is the user's right, not a broken obligation:
	// acpx answers the offered reject option, and the play passes (acpx
	// itself exits 5, its code for a denied permission).
	t.Run("acpx/deny-all/network-permission", func(t *testing.T) {
		r := tp.acpx(t, "network-permission", "--deny-all")
		run := r.report.Runs[0]
		if run.Status != reports.StatusPass {
			t.Errorf("report status %q, want pass (failure: %+v)", run.Status, run.Failure)
		}
		for _, f := range editorErrors(run) {
			t.Errorf("editor finding: %s %s: %s", f.Rule, f.Pointer, f.Message)
		}
		if !strings.Contains(r.stdout, `"outcome":"selected","optionId":"reject"`) {
			t.Errorf("acpx did not answer the offered reject option")
		}
		if stops := promptStops(t, r.reportDir); len(stops) == 0 {
			t.Errorf("the journal has no session/prompt response with a stopReason")
		}
		if t.Failed() {
			t.Log(r)
		}
	})
}

func TestThirdPartyClientBreaksAnObligation(t *testing.T) {
	tp := needThirdParty(t)
	const scenario = "network-permission"
	t.Run("unoffered optionId", func(t *testing.T) {
		r := tp.sdk(t, scenario, "unoffered", 1)
		broke(t, r, map[string]string{"permission-answer-offered": "/result/outcome/optionId"})
	})
	t.Run("permission ignored past session/cancel", func(t *testing.T) {
		r := tp.sdk(t, scenario, "ignore", 1)
		broke(t, r, map[string]string{"permission-cancelled-after-cancel": "", "client-request-unanswered": "/id"})
	})
}

// broke checks a run where the client broke an obligation: a nonzero exit,
// a failing report and an editor finding of one of rules (rule → pointer;
// "" accepts any pointer).
func broke(t *testing.T, r clientRun, rules map[string]string) {
	t.Helper()
	run := r.report.Runs[0]
	if r.code == 0 {
		t.Errorf("the client exited 0: play did not fail the broken obligation")
	}
	if run.Status != reports.StatusFail {
		t.Errorf("report status %q, want fail", run.Status)
	}
	found := false
	for _, f := range editorErrors(run) {
		t.Logf("editor finding: %s at %s", f.Rule, f.Pointer)
		if ptr, ok := rules[f.Rule]; ok && (ptr == "" || f.Pointer == ptr) {
			found = true
		}
	}
	if !found {
		t.Errorf("no editor finding of %v; the findings: %+v", rules, run.Findings)
	}
	if t.Failed() {
		t.Log(r)
	}
}
