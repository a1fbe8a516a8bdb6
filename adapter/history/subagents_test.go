package history

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/airwire/airwire/adapter/toolcall"
	"github.com/airwire/airwire/conform"
	"github.com/airwire/airwire/conform/goldentest"
	"github.com/airwire/airwire/conform/scenario"
)

// TestGoldenSubagentTranscript reads the subagent transcript of
// subagent-load-replay (rows of a real CLI run, beside the session's) and
// replays it as the AIR child session: the updates are the golden's lines
// on the child session, but for the child's model option, which the
// adapter adds.
func TestGoldenSubagentTranscript(t *testing.T) {
	const name = "subagent-load-replay"
	r := materialise(t, name)
	if err := r.sc.WriteConfigFiles(r.configDir, scenario.ConfigFileVars(r.cwd, "", r.configDir, time.Now())); err != nil {
		t.Fatal(err)
	}
	path, ok := Find(r.configDir, r.sc.Transcript.SessionID)
	if !ok {
		t.Fatal("the stored transcript is not found")
	}
	agents := Subagents(path)
	a, ok := agents["toolu_agent"]
	if !ok || a.AgentID != "a9d369fae923f64f9" || !a.Background || a.AgentType != "Explore" || a.Description != "Explore layout" {
		t.Fatalf("subagents %+v", agents)
	}
	msgs := ReadSubagent(path, a.AgentID)
	for _, m := range msgs {
		if m.ParentToolUseID != "toolu_agent" {
			t.Errorf("message %s has parent %q", m.UUID, m.ParentToolUseID)
		}
	}
	lines := readGolden(t, r.root, name, "air")
	c := clientCaps(lines)
	rp := NewReplayer(toolcall.Renderer{Caps: c, Cwd: r.cwd, Replay: true}, toolcall.NewSession(c, r.cwd))
	n := conform.NewNormalizer(conform.Paths{Cwd: r.cwd, ConfigDir: r.configDir})
	ids := map[string]string{r.sc.Transcript.SessionID: "<session-1>"}
	// The golden numbers the root's prompt first.
	root, err := ReadMessages(path)
	if err != nil || len(root) == 0 {
		t.Fatal(root, err)
	}
	r.normalize(t, n, firstUpdate(root[0]), ids)
	var got []string
	for _, m := range msgs {
		for _, u := range rp.Message(m) {
			got = append(got, r.normalize(t, n, u, ids))
		}
	}
	goldentest.CompareLines(t, "child update", got, childLines(t, lines, "<session-1>:replay-subagent:toolu_agent"))
}

// firstUpdate is the first update of m, replayed alone.
func firstUpdate(m Message) json.RawMessage {
	return NewReplayer(toolcall.Renderer{}, nil).Message(m)[0]
}

// childLines are the updates the golden sends on session, before the
// load's response, without the config option updates.
func childLines(t *testing.T, lines []goldenLine, session string) []string {
	var out []string
	for _, l := range lines {
		if l.tag == "client agent->editor" && l.msg.Method == "" && l.msg.Result != nil && len(out) > 0 {
			break
		}
		var p struct {
			SessionID string `json:"sessionId"`
			Update    struct {
				SessionUpdate string `json:"sessionUpdate"`
			} `json:"update"`
		}
		var msg struct {
			Params json.RawMessage `json:"params"`
		}
		_ = json.Unmarshal([]byte(l.body), &msg)
		if json.Unmarshal(msg.Params, &p) != nil || p.SessionID != session || p.Update.SessionUpdate == "config_option_update" {
			continue
		}
		out = append(out, canonical(t, string(l.msg.Params.Update)))
	}
	if len(out) == 0 {
		t.Fatalf("the golden sends nothing on %s", session)
	}
	return out
}

// TestSubagentTranscriptShape: the chain ends at the last message (a row
// off it is left out), a meta row of another agent is hidden, and a fork
// child's inherited context is cut down to its directive.
func TestSubagentTranscriptShape(t *testing.T) {
	dir := t.TempDir()
	transcript := filepath.Join(dir, "s1.jsonl")
	sub := filepath.Join(dir, "s1", "subagents", "nested")
	if err := os.MkdirAll(sub, 0o700); err != nil {
		t.Fatal(err)
	}
	rows := []string{
		`{"type":"assistant","uuid":"u1","parentUuid":null,"message":{"role":"assistant","content":[{"type":"text","text":"inherited"}]}}`,
		`{"type":"user","uuid":"u2","parentUuid":"u1","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"x","content":"Fork started"},{"type":"text","text":"<fork-boilerplate>rules</fork-boilerplate>\nYour directive: Count the files."}]}}`,
		`{"type":"user","uuid":"u3","parentUuid":"u2","isMeta":true,"origin":{"kind":"peer"},"message":{"role":"user","content":"from a peer"}}`,
		`{"type":"attachment","uuid":"u4","parentUuid":"u3","attachment":{"type":"date"}}`,
		`{"type":"assistant","uuid":"off","parentUuid":"u4","message":{"role":"assistant","content":[{"type":"text","text":"a dropped branch"}]}}`,
		`{"type":"assistant","uuid":"u5","parentUuid":"u4","message":{"role":"assistant","content":[{"type":"text","text":"Two files."}]}}`,
	}
	if err := os.WriteFile(filepath.Join(sub, "agent-f1.jsonl"), []byte(strings.Join(rows, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(sub, "agent-f1.meta.json"), []byte(`{"toolUseId":"toolu_fork"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range ReadSubagent(transcript, "f1") {
		got = append(got, m.UUID+" "+m.ParentToolUseID+" "+string(m.Message))
	}
	want := []string{
		`u2 toolu_fork {"content":[{"text":"Count the files.","type":"text"}],"role":"user"}`,
		`u5 toolu_fork {"role":"assistant","content":[{"type":"text","text":"Two files."}]}`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("messages\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
	// Only the top folder's metadata names launches, as the reference reads it.
	if agents := Subagents(transcript); len(agents) != 0 {
		t.Errorf("subagents %v", agents)
	}
}
