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
	"github.com/airwire/airwire/conform/cassette"
	"github.com/airwire/airwire/internal/testroot"
)

// TestSubagentHoldSettlesWhereTheReferenceAnswers replays the CLI frames of
// recorded runs through the hold and checks that the prompt is answered at
// the result the reference answered it at: the golden's response follows
// the usage_update of that result, whose _claude/origin names it. Runs
// whose background tasks are shells (no subagent_type) are never held.
func TestSubagentHoldSettlesWhereTheReferenceAnswers(t *testing.T) {
	root := testroot.Root(t)
	for _, name := range []string{"subagent-task-legacy", "subagent-agent-async", "subagent-late-child-update",
		"subagent-native-sessions", "subagent-nested", "bash-background", "async-task-held-until-tool-id"} {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join(root, "goldens", name)
			want := answeringOrigin(t, filepath.Join(dir, "zed.golden"))
			got := replayHold(t, filepath.Join(dir, "zed.cassette"))
			if got != want {
				t.Errorf("the hold answers the prompt at the %q result, the reference at the %q one", got, want)
			}
		})
	}
}

// replayHold feeds a cassette's CLI frames to a hold as the translator
// does, and returns the origin kind of the result that answers the first
// prompt ("idle" when an idle does).
func replayHold(t *testing.T, path string) string {
	t.Helper()
	c, err := cassette.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	b := newBackground(caps.Client{})
	open := true
	for _, ev := range c.Processes[0].Events {
		if ev.Dir != cassette.DirCLI || ev.Msg == nil {
			continue
		}
		head := claudetest.Frame(ev.Msg)
		kind := "human"
		if head.Origin != nil {
			kind = head.Origin.Kind
		}
		autonomous := slices.Contains(autonomousOrigins, kind)
		switch {
		case head.Type == "system":
			var f taskFrame
			_ = json.Unmarshal(ev.Msg, &f)
			if _, idle := b.observe(f, open || b.hold.held != ""); idle {
				if _, ok := b.hold.ready(false, b.tasks); ok {
					return "idle"
				}
			}
		case head.Type == "result" && !autonomous:
			open = false
			if !b.hold.result("end_turn", b.tasks) {
				return kind
			}
		case head.Type == "result" && cycleRan(head):
			if _, ok := b.hold.ready(false, b.tasks); ok {
				return kind
			}
		}
	}
	return "never"
}

// answeringOrigin is the _claude/origin kind of the last usage_update
// before the golden's answer to its first session/prompt.
func answeringOrigin(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 64<<20)
	var promptID json.RawMessage
	var last string
	for sc.Scan() {
		var m goldenRPC
		if line, ok := strings.CutPrefix(sc.Text(), "client editor->agent "); ok {
			_ = json.Unmarshal([]byte(line), &m)
			if m.Method == "session/prompt" && promptID == nil {
				promptID = m.ID
			}
			continue
		}
		line, ok := strings.CutPrefix(sc.Text(), "client agent->editor ")
		if !ok {
			continue
		}
		_ = json.Unmarshal([]byte(line), &m)
		if promptID != nil && bytes.Equal(m.ID, promptID) && m.Method == "" {
			return last
		}
		if k := m.Params.Update.Meta.Origin.Kind; k != "" {
			last = k
		}
	}
	t.Fatal("no answer to a session/prompt in " + path)
	return ""
}

// goldenRPC is the part of a golden's JSON-RPC line the hold test reads.
type goldenRPC struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params struct {
		Update struct {
			Meta struct {
				Origin struct {
					Kind string `json:"kind"`
				} `json:"_claude/origin"`
			} `json:"_meta"`
		} `json:"update"`
	} `json:"params"`
}

// TestSubagentHoldOffForBackgroundSubagentsClients: a client that declared
// backgroundSubagents gets its answer at the turn's result.
func TestSubagentHoldOffForBackgroundSubagentsClients(t *testing.T) {
	b := newBackground(caps.Client{AIR: caps.AIR{Client: true, Capabilities: []string{backgroundSubagents}}})
	b.observe(taskFrame{Subtype: "task_started", TaskID: "a1", SubagentType: "general-purpose"}, true)
	if b.hold.result("end_turn", b.tasks) {
		t.Fatal("held a turn for a client that ends turns at their result")
	}
}

// TestSubagentHoldKeptOnV2: on ACP v2, which answers a prompt at its
// insertion, the hold stays for a client that declared backgroundSubagents
// (the agent does not offer it there).
func TestSubagentHoldKeptOnV2(t *testing.T) {
	b := newBackground(caps.Client{V2: true, AIR: caps.AIR{Client: true, Capabilities: []string{backgroundSubagents}}})
	b.observe(taskFrame{Subtype: "task_started", TaskID: "a1", SubagentType: "general-purpose"}, true)
	if !b.hold.result("end_turn", b.tasks) {
		t.Fatal("a v2 turn was not held for its live subagent")
	}
}

// TestSubagentHoldLevelSignal: a subagent that the level signal no longer
// lists stops holding, as one that ended does; a shell task never holds.
func TestSubagentHoldLevelSignal(t *testing.T) {
	b := newBackground(caps.Client{})
	b.observe(taskFrame{Subtype: "task_started", TaskID: "b1"}, true)
	b.observe(taskFrame{Subtype: "task_started", TaskID: "a1", SubagentType: "general-purpose"}, true)
	if !b.hold.result("end_turn", b.tasks) {
		t.Fatal("a live subagent did not hold the turn")
	}
	if _, ok := b.hold.ready(false, b.tasks); ok {
		t.Fatal("released while the subagent runs")
	}
	b.observe(taskFrame{Subtype: "background_tasks_changed", Tasks: []taskRef{{TaskID: "b1"}}}, false)
	if reason, ok := b.hold.ready(false, b.tasks); !ok || reason != "end_turn" {
		t.Fatalf("ready = %q, %v after the level signal dropped the subagent", reason, ok)
	}
	if b.tasks["b1"] == nil || b.tasks["a1"] == nil {
		t.Fatal("the level signal dropped a listed task or forgot a subagent")
	}
}
