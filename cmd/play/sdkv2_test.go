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
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/airwire/airwire/conform/fakecli"
	"github.com/airwire/airwire/internal/deps"
	"github.com/airwire/airwire/internal/execwrap"
	"github.com/airwire/airwire/internal/journal"
)

// The official SDK's experimental ACP v2 client (testdata/sdk-v2-client.mjs)
// plays one session against an agent that serves the v2 draft, under
// airwire record, and airwire validate checks the journal. The agent runs
// the fake Claude CLI with v2Script, so the same session runs against the
// reference adapter and airwire agent.

// v2Script is the fake CLI's part of the session: a text turn, a Bash call
// that asks permission, and a turn that streams, then waits to be
// interrupted (the client's session/cancel).
const v2Script = `turns:
  - steps:
      - text: "Hello there."
  - steps:
      - tool: {id: toolu_rm, name: Bash, input: {command: "rm -rf tmp", description: "Delete temp files"}, permission: ask}
      - text: "Deleted."
  - steps:
      - text: "Working on it."
      - pause: {until: interrupt}
`

// v2Session is the driver's summary of the session (its stdout's JSON line).
type v2Session struct {
	ProtocolVersion *int     `json:"protocolVersion"`
	SessionID       string   `json:"sessionId"`
	Stops           []string `json:"stops"`
	Permissions     []struct {
		Title    string   `json:"title"`
		OptionID string   `json:"optionId"`
		Offered  []string `json:"offered"`
	} `json:"permissions"`
	Updates map[string]int `json:"updates"`
	Error   string         `json:"error"`
}

// v2Run is one run of the driver under airwire record.
type v2Run struct {
	code           int
	stdout, stderr string
	journal        string
	session        v2Session
}

func (r v2Run) String() string {
	return fmt.Sprintf("client exit %d\nstdout:\n%s\nstderr:\n%s", r.code, tail(r.stdout), tail(r.stderr))
}

// runV2 runs the driver against agent (argv) behind airwire record, with
// the fake CLI playing v2Script, in a HOME, CLAUDE_CONFIG_DIR and workspace
// of its own. NODE_V8_COVERAGE passes through, so the reference's coverage
// of the session can be measured (docs/reach.md).
func (tp thirdParty) runV2(t *testing.T, agent []string) v2Run {
	t.Helper()
	dir := t.TempDir()
	home, ws, tmp := filepath.Join(dir, "home"), filepath.Join(dir, "work"), filepath.Join(dir, "tmp")
	for _, d := range []string{filepath.Join(home, ".claude"), ws, tmp} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	cli, script := filepath.Join(dir, execwrap.Name("claude")), filepath.Join(dir, "cli.yaml")
	if err := execwrap.Write(cli, tp.airwire, "fake-cli"); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(script, []byte(v2Script), 0o644); err != nil {
		t.Fatal(err)
	}
	driver, err := filepath.Abs(filepath.Join("testdata", "sdk-v2-client.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	r := v2Run{journal: filepath.Join(dir, "session.jsonl")}
	args := append([]string{driver, "--clients", tp.clients, "--cwd", ws, "--timeout", "30000", "--",
		tp.airwire, "record", "--journal", r.journal, "--"}, agent...)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, tp.node, args...)
	cmd.Dir = ws
	cmd.Env = []string{"PATH=" + filepath.Dir(tp.node) + string(os.PathListSeparator) + os.Getenv("PATH"),
		"HOME=" + home, "CLAUDE_CONFIG_DIR=" + filepath.Join(home, ".claude"), "TMPDIR=" + tmp, "IS_SANDBOX=1",
		"TZ=UTC", "LANG=C.UTF-8", "NO_COLOR=1", "CLAUDE_CODE_EXECUTABLE=" + cli, fakecli.EnvScript + "=" + script,
		fakecli.EnvLog + "=" + filepath.Join(dir, "fake-cli.log")}
	if cov := os.Getenv("NODE_V8_COVERAGE"); cov != "" {
		cmd.Env = append(cmd.Env, "NODE_V8_COVERAGE="+cov)
	}
	cmd.WaitDelay = 10 * time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	r.stdout, r.stderr = stdout.String(), stderr.String()
	var exit *exec.ExitError
	switch {
	case ctx.Err() != nil:
		t.Fatalf("the client did not end in 2 minutes\n%s", r)
	case err == nil:
	case errors.As(err, &exit):
		r.code = exit.ExitCode()
	default:
		t.Fatalf("node: %v\n%s", err, r)
	}
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &r.session); err != nil {
		t.Fatalf("the client printed no session summary: %v\n%s", err, r)
	}
	return r
}

// clientLane is the journal's client-lane messages.
func clientLane(t *testing.T, file string) []journal.Entry {
	t.Helper()
	r, err := journal.Open(file)
	if err != nil {
		t.Fatalf("the journal: %v", err)
	}
	defer r.Close()
	var out []journal.Entry
	for {
		e, err := r.Next()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatalf("the journal: %v", err)
		}
		if e.Kind == journal.KindMsg && e.Lane == journal.LaneClient {
			out = append(out, e)
		}
	}
}

// answeredVersion is the protocolVersion of the agent's initialize
// response in the journal, "" when there is none.
func answeredVersion(entries []journal.Entry) string {
	for _, e := range entries {
		var m struct {
			Result *struct {
				ProtocolVersion json.RawMessage `json:"protocolVersion"`
			} `json:"result"`
		}
		if e.Dir == journal.DirAgent && e.Method == "initialize" && json.Unmarshal(e.Msg, &m) == nil && m.Result != nil {
			return string(m.Result.ProtocolVersion)
		}
	}
	return ""
}

// sent lists the methods of the requests and notifications dir sent.
func sent(entries []journal.Entry, dir journal.Dir) []string {
	var out []string
	for _, e := range entries {
		var m struct {
			Method string `json:"method"`
		}
		if e.Dir == dir && json.Unmarshal(e.Msg, &m) == nil && m.Method != "" {
			out = append(out, m.Method)
		}
	}
	return out
}

func TestSDKv2Client(t *testing.T) {
	tp := needThirdParty(t)
	p, err := deps.Paths()
	if err != nil {
		t.Fatal(err)
	}
	ref, err := p.RequireReferenceAdapter()
	if err != nil {
		deps.Unavailable(t, "%v", err)
	}
	t.Run("reference", func(t *testing.T) { keptV2Session(t, tp, tp.runV2(t, []string{tp.node, ref})) })
	t.Run("airwire-agent", func(t *testing.T) { keptV2Session(t, tp, tp.runV2(t, []string{tp.airwire, "agent"})) })
}

// keptV2Session checks a session the SDK's v2 client played to its end:
// protocol 2, three turns ended by idle state_updates with end_turn,
// end_turn and cancelled, one permission request answered with an allow
// option, and a journal that validate finds nothing in.
func keptV2Session(t *testing.T, tp thirdParty, r v2Run) {
	t.Helper()
	s := r.session
	entries := clientLane(t, r.journal)
	if v := answeredVersion(entries); v != "2" {
		t.Fatalf("the agent answered initialize with protocolVersion %q, want 2: it does not serve ACP v2\n%s", v, r)
	}
	if r.code != 0 || s.Error != "" {
		t.Errorf("the client exited %d (error %q), want 0", r.code, s.Error)
	}
	if s.ProtocolVersion == nil || *s.ProtocolVersion != 2 {
		t.Errorf("the client negotiated protocolVersion %v, want 2", s.ProtocolVersion)
	}
	if want := []string{"end_turn", "end_turn", "cancelled"}; !slices.Equal(s.Stops, want) {
		t.Errorf("the turns' idle stop reasons are %q, want %q", s.Stops, want)
	}
	if len(s.Permissions) != 1 || !strings.HasPrefix(s.Permissions[0].OptionID, "allow") {
		t.Errorf("permission requests %+v, want one, answered with an allow option", s.Permissions)
	}
	if s.Updates["agent_message_chunk"] == 0 || s.Updates["user_message"] != 3 {
		t.Errorf("updates %v: want agent_message_chunk and one user_message per prompt", s.Updates)
	}
	if m := sent(entries, journal.DirAgent); !slices.Contains(m, "session/request_permission") {
		t.Errorf("the journal has no session/request_permission from the agent (agent sent %v)", m)
	}
	if m := sent(entries, journal.DirEditor); !slices.Contains(m, "session/cancel") {
		t.Errorf("the journal has no session/cancel from the client (client sent %v)", m)
	}
	validateV2(t, tp, r.journal)
	if t.Failed() {
		t.Log(r)
	}
}

// validateV2 runs airwire validate on a v2 journal: it checks the v2
// messages by the pinned v2 schema and must find nothing.
func validateV2(t *testing.T, tp thirdParty, file string) {
	t.Helper()
	out, err := exec.Command(tp.airwire, "validate", file, "--acp-schema", tp.schema).CombinedOutput()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		t.Errorf("airwire validate exited %d on the v2 journal:\n%s", exit.ExitCode(), tail(string(out)))
	case err != nil:
		t.Fatalf("airwire validate: %v", err)
	}
}
