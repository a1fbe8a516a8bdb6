package adapter

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/airwire/airwire/adapter/caps"
	"github.com/airwire/airwire/adapter/claude/claudetest"
	"github.com/airwire/airwire/adapter/toolcall"
	"github.com/airwire/airwire/conform/cassette"
	"github.com/airwire/airwire/internal/testroot"
)

// TestRunningTerminalExitsWhenItsTaskEnds replays recorded runs whose Bash
// command went to the background: the terminal_exit updates the session
// sends must be the golden's, in number and shape (none at the Bash
// result, one when the task ends, none when the run ends first).
func TestRunningTerminalExitsWhenItsTaskEnds(t *testing.T) {
	root := testroot.Root(t)
	for _, name := range []string{"bash-background", "async-task-held-until-tool-id", "bash-foreground"} {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join(root, "goldens", name)
			initCaps, want := goldenTerminalExits(t, filepath.Join(dir, "zed.golden"))
			got := replayTerminals(t, filepath.Join(dir, "zed.cassette"), caps.Parse(initCaps))
			if !slices.Equal(got, want) {
				t.Errorf("terminal_exit updates\n got %q\nwant %q", got, want)
			}
		})
	}
}

// replayTerminals feeds a cassette's CLI frames to a tool call session and
// the background tracker as the translator does, and returns the canonical
// JSON of each update that carries a terminal_exit.
func replayTerminals(t *testing.T, path string, c caps.Client) []string {
	t.Helper()
	cas, err := cassette.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	tools := toolcall.NewSession(c, "<cwd>")
	b := newBackground(c)
	var out []string
	keep := func(us []toolcall.Update) {
		for _, u := range us {
			if u.Meta != nil && u.Meta.TerminalExit != nil {
				out = append(out, canonical(t, u.JSON()))
			}
		}
	}
	for _, ev := range cas.Processes[0].Events {
		if ev.Dir == cassette.DirAgent && bytes.Contains(ev.Msg, []byte(`"subtype":"interrupt"`)) {
			break // these runs end with the session's close: its interrupt
		}
		if ev.Dir != cassette.DirCLI || ev.Msg == nil {
			continue
		}
		head := claudetest.Frame(ev.Msg)
		switch head.Type {
		case "user":
			keep(b.userFrame(claudetest.Frame(ev.Msg), tools))
		case "system":
			var f taskFrame
			_ = json.Unmarshal(ev.Msg, &f)
			us, _ := b.observe(f, true)
			keep(us)
		default:
			keep(tools.Frame(ev.Msg))
		}
	}
	return out
}

// goldenTerminalExits returns the client capabilities a golden's client
// declared and the canonical JSON of each update it got with a
// terminal_exit.
func goldenTerminalExits(t *testing.T, path string) (json.RawMessage, []string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 64<<20)
	var initCaps json.RawMessage
	var exits []string
	for sc.Scan() {
		var m struct {
			Method string `json:"method"`
			Params struct {
				ClientCapabilities json.RawMessage `json:"clientCapabilities"`
				Update             json.RawMessage `json:"update"`
			} `json:"params"`
		}
		if line, ok := strings.CutPrefix(sc.Text(), "client editor->agent "); ok {
			if json.Unmarshal([]byte(line), &m) == nil && m.Method == "initialize" {
				initCaps = m.Params.ClientCapabilities
			}
			continue
		}
		line, ok := strings.CutPrefix(sc.Text(), "client agent->editor ")
		if ok && json.Unmarshal([]byte(line), &m) == nil && bytes.Contains(m.Params.Update, []byte(`"terminal_exit"`)) {
			exits = append(exits, canonical(t, m.Params.Update))
		}
	}
	return initCaps, exits
}

// canonical re-encodes JSON with sorted keys.
func canonical(t *testing.T, raw json.RawMessage) string {
	t.Helper()
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("bad JSON %s: %v", raw, err)
	}
	out, _ := json.Marshal(v)
	return string(out)
}

// A command's terminal shows the command's whole output, read from its
// output file as its task ends, before its exit: only for a session whose
// client gets its background lists, and only from a file that is there.
func TestRunningTerminalShowsTheOutputFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "b1.output")
	if err := os.WriteFile(file, []byte("dev server stopped\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	end := func(read bool, term terminalOf) string {
		r := runningTerminals{enabled: true, byTask: map[string]terminalOf{}, readOutput: read}
		r.started("b1", term, nil)
		if got, ok := r.item("b1"); !ok || got.TerminalID != "toolu_bash" {
			t.Errorf("item = %v, %v", got, ok)
		}
		out := r.ended("b1")
		if _, ok := r.item("b1"); ok || r.ended("b1") != nil {
			t.Error("an ended task's terminal is still running")
		}
		raw, _ := json.Marshal(out)
		var v any
		_ = json.Unmarshal(raw, &v)
		raw, _ = json.Marshal(v) // keys sorted
		return string(raw)
	}
	exit := `{"_meta":{"terminal_exit":{"exit_code":null,"signal":null,"terminal_id":"toolu_bash"}},"sessionUpdate":"tool_call_update","toolCallId":"toolu_bash"}`
	output := `{"_meta":{"terminal_output":{"data":"dev server stopped\n","terminal_id":"toolu_bash"}},"sessionUpdate":"tool_call_update","toolCallId":"toolu_bash"}`
	if got, want := end(true, terminalOf{toolCallID: "toolu_bash", outputFile: file}), "["+output+","+exit+"]"; got != want {
		t.Errorf("with lists:\n got %s\nwant %s", got, want)
	}
	if got := end(false, terminalOf{toolCallID: "toolu_bash", outputFile: file}); got != "["+exit+"]" {
		t.Errorf("without lists: %s", got)
	}
	if got := end(true, terminalOf{toolCallID: "toolu_bash", outputFile: file + ".gone"}); got != "["+exit+"]" {
		t.Errorf("no file: %s", got)
	}
}
