package journal_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airwire/airwire/cmd/cmdutil"
	"github.com/airwire/airwire/cmd/factory"
	cmdjournal "github.com/airwire/airwire/cmd/journal"
	"github.com/airwire/airwire/internal/journal"
)

func writeJournal(t *testing.T) string { return writeJournalTB(t) }

// writeJournalTB writes a journal with an entry of every kind on every lane.
func writeJournalTB(t testing.TB) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "j.jsonl")
	w, err := journal.Create(path, journal.Header{Airwire: "test", AgentCmd: []string{"agent"}})
	if err != nil {
		t.Fatal(err)
	}
	text, done := "log line", "complete: 60 response body bytes"
	for _, e := range []journal.Entry{
		{Kind: journal.KindSpawn, Lane: journal.LaneClient, Proc: "agent", Argv: []string{"agent"}, Pid: 10},
		{Kind: journal.KindMsg, Lane: journal.LaneClient, Dir: journal.DirEditor, Proc: "agent", Method: "initialize", ID: json.RawMessage("0"), Msg: json.RawMessage(`{"id":0,"method":"initialize"}`), Bytes: 31},
		{Kind: journal.KindMsg, Lane: journal.LaneClient, Dir: journal.DirAgent, Proc: "agent", Method: "initialize", ID: json.RawMessage("0"), Msg: json.RawMessage(`{"id":0,"result":{}}`), Bytes: 21},
		{Kind: journal.KindMsg, Lane: journal.LaneClient, Dir: journal.DirEditor, Proc: "agent", Session: "S1", Method: "session/prompt", ID: json.RawMessage("1"), Msg: json.RawMessage(`{"id":1,"method":"session/prompt","params":{"sessionId":"S1"}}`), Bytes: 60},
		{Kind: journal.KindSpawn, Lane: journal.LaneCLI, Proc: "cli-1", Argv: []string{"claude", "--output-format", "stream-json"}},
		{Kind: journal.KindMsg, Lane: journal.LaneCLI, Dir: journal.DirAgent, Proc: "cli-1", Method: "control_request/initialize", Msg: json.RawMessage(`{"type":"control_request"}`), Bytes: 27},
		{Kind: journal.KindMsg, Lane: journal.LaneModel, Dir: journal.DirCLI, Proc: "cli-1", Method: "POST /v1/messages", ID: json.RawMessage("1"), Msg: json.RawMessage(`{"method":"POST","path":"/v1/messages","headers":{}}`)},
		{Kind: journal.KindMsg, Lane: journal.LaneModel, Dir: journal.DirModel, Proc: "cli-1", Method: "POST /v1/messages message_start", ID: json.RawMessage("1"), Msg: json.RawMessage(`{"type":"message_start"}`), Bytes: 60},
		{Kind: journal.KindNote, Lane: journal.LaneModel, Dir: journal.DirModel, Proc: "cli-1", Method: "POST /v1/messages", ID: json.RawMessage("1"), Reason: journal.ReasonComplete, Text: &done, Bytes: 60},
		{Kind: journal.KindStderr, Lane: journal.LaneCLI, Proc: "cli-1", Text: &text},
		{Kind: journal.KindExit, Lane: journal.LaneCLI, Proc: "cli-1", Exit: &journal.Exit{Code: -1, Signal: "SIGKILL"}},
		{Kind: journal.KindExit, Lane: journal.LaneClient, Proc: "agent", Exit: &journal.Exit{Code: 0}},
	} {
		if err := w.Append(&e); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

func run(t *testing.T, args ...string) (string, error) {
	t.Helper()
	var out, errOut bytes.Buffer
	f := factory.New("test", factory.WithIO(strings.NewReader(""), &out, &errOut))
	cmd := cmdjournal.NewCmdJournal(f)
	cmd.SetArgs(args)
	cmd.SetOut(&out)
	cmd.SetErr(&errOut)
	err := cmd.Execute()
	return out.String(), err
}

func TestCat(t *testing.T) {
	path := writeJournal(t)
	tests := []struct {
		name     string
		args     []string
		contains []string
		lines    int // listing lines after the header comment
	}{
		{name: "all", args: nil, lines: 12, contains: []string{"editor→agent", "agent→editor", "SPAWN pid 10", "EXIT by SIGKILL", "stderr  log line", "initialize [0]"}},
		{name: "lane cli", args: []string{"--lane", "cli"}, lines: 4, contains: []string{"control_request/initialize"}},
		{name: "lane model", args: []string{"--lane", "model"}, lines: 3, contains: []string{"cli→model", "model→cli", "POST /v1/messages message_start [1]", "NOTE  complete"}},
		{name: "dir model", args: []string{"--dir", "model"}, lines: 2},
		{name: "method prefix", args: []string{"--method", "session/"}, lines: 1, contains: []string{`"sessionId":"S1"`}},
		{name: "session", args: []string{"--session", "S1"}, lines: 1},
		{name: "dir agent", args: []string{"--dir", "agent"}, lines: 2},
		{name: "kind exit", args: []string{"--kind", "exit"}, lines: 2},
		{name: "width cuts", args: []string{"--method", "session/", "--width", "10"}, lines: 1, contains: []string{"… (+"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := run(t, append([]string{"cat", path}, tt.args...)...)
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(strings.TrimSpace(out), "\n")
			if !strings.HasPrefix(lines[0], "# airwire test journal") || len(lines)-1 != tt.lines {
				t.Fatalf("%d lines:\n%s", len(lines)-1, out)
			}
			for _, c := range tt.contains {
				if !strings.Contains(out, c) {
					t.Errorf("missing %q in\n%s", c, out)
				}
			}
		})
	}
}

func TestCatRawIsJSON(t *testing.T) {
	out, err := run(t, "cat", writeJournal(t), "--raw", "--lane", "client", "--kind", "msg")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 4 || !strings.HasPrefix(lines[0], `{"journal":"airwire"`) {
		t.Fatalf("%d raw lines, want the header and 3 entries", len(lines))
	}
	for _, l := range lines[1:] {
		var e journal.Entry
		if err := json.Unmarshal([]byte(l), &e); err != nil || e.Lane != journal.LaneClient {
			t.Fatalf("raw line %q: %v", l, err)
		}
	}
}

func TestCatRejectsBadFlagsAndFiles(t *testing.T) {
	if _, err := run(t, "cat", writeJournal(t), "--lane", "editor"); err == nil || !strings.Contains(err.Error(), "--lane must be one of") {
		t.Fatalf("bad lane: %v", err)
	}
	if _, err := run(t, "cat", filepath.Join(t.TempDir(), "missing")); err == nil {
		t.Fatal("missing file accepted")
	}
	var fe *cmdutil.FlagError
	if _, err := run(t, "cat", writeJournal(t), "--width", "-5"); !errors.As(err, &fe) || !strings.Contains(err.Error(), "--width") {
		t.Fatalf("--width -5: want a FlagError, got %v", err)
	}
}

func TestStats(t *testing.T) {
	path := writeJournal(t)
	out, err := run(t, "stats", path, "--json")
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Entries int
		Lanes   map[string]struct {
			Messages int
			Bytes    int64
		}
		Methods   map[string]map[string]struct{ Messages int }
		Processes []struct {
			Proc string
			Exit *journal.Exit
		}
		StderrLines int `json:"stderr_lines"`
	}
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatal(err)
	}
	if s.Entries != 12 || s.Lanes["model"].Messages != 2 || s.Methods["model"]["POST /v1/messages message_start"].Messages != 1 || s.Lanes["client"].Messages != 3 || s.Lanes["client"].Bytes != 112 || s.Lanes["cli"].Messages != 1 ||
		s.Methods["client"]["initialize"].Messages != 2 || s.StderrLines != 1 || len(s.Processes) != 2 || s.Processes[1].Exit.Signal != "SIGKILL" {
		t.Fatalf("stats %+v", s)
	}
	text, err := run(t, "stats", path)
	if err != nil || !strings.Contains(text, "cli-1: claude --output-format stream-json  killed by SIGKILL") || !strings.Contains(text, "lane client") {
		t.Fatalf("text stats:\n%s %v", text, err)
	}
}
