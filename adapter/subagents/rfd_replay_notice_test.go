package subagents

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airwire/airwire/adapter/history"
	"github.com/airwire/airwire/adapter/toolcall"
)

// replayHost records the updates of a replay.
type replayHost struct{ sent []string }

func (h *replayHost) Notify(sessionID string, update any) {
	raw, _ := json.Marshal(update)
	h.sent = append(h.sent, sessionID+" "+string(raw))
}
func (h *replayHost) Config() Config             { return nil }
func (h *replayHost) Transcript() (string, bool) { return "", false }

// launchMessage is a stored assistant message that launches each id.
func launchMessage(ids ...string) history.Message {
	var blocks []string
	for _, id := range ids {
		blocks = append(blocks, `{"type":"tool_use","id":"`+id+`","name":"Agent","input":{"description":"d","prompt":"p"}}`)
	}
	return history.Message{Type: "assistant", Message: json.RawMessage(`{"role":"assistant","content":[` + strings.Join(blocks, ",") + `]}`)}
}

// rfdReplayWith replays a root session whose launches are ids, beside
// metadata for each agent of meta (launch id → agent id) and a transcript
// for each agent of withHistory, and returns the updates as
// "session update" lines.
func rfdReplayWith(t *testing.T, notices bool, ids []string, meta map[string]string, withHistory ...string) []string {
	t.Helper()
	dir := t.TempDir()
	transcript := filepath.Join(dir, "s.jsonl")
	sub := filepath.Join(dir, "s", "subagents")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	for launch, agent := range meta {
		write(t, filepath.Join(sub, "agent-"+agent+".meta.json"), `{"toolUseId":"`+launch+`","agentType":"Explore"}`)
	}
	for _, agent := range withHistory {
		write(t, filepath.Join(sub, "agent-"+agent+".jsonl"),
			`{"type":"user","uuid":"u1","parentUuid":null,"isSidechain":true,"message":{"role":"user","content":"p"}}`+"\n"+
				`{"type":"assistant","uuid":"u2","parentUuid":"u1","isSidechain":true,"message":{"role":"assistant","id":"m","content":[{"type":"text","text":"done"}]}}`+"\n")
	}
	h := &replayHost{}
	l := &Loaded{host: h, config: hostConfig{h}}
	rp := history.NewReplayer(toolcall.Renderer{}, nil)
	swap := func(history.Message) (json.RawMessage, bool) {
		return json.RawMessage(`{"sessionUpdate":"root"}`), true
	}
	replayRfd(l, "root", dir, transcript, []history.Message{launchMessage(ids...)}, rp, swap, notices)
	return h.sent
}

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// notices are the notice updates among sent.
func noticesOf(sent []string) []string {
	var out []string
	for _, s := range sent {
		if strings.Contains(s, `"sessionUpdate":"notice"`) {
			out = append(out, s)
		}
	}
	return out
}

// A load replay (RFD form) tells a client with session notices, on the
// root session after the children's ends, how many subagent histories it
// could not restore: a launch without metadata and a child without a
// transcript each count, a child with its transcript does not; a client
// without notices hears nothing of it, as from the reference.
func TestRfdReplayMissingHistoryNotice(t *testing.T) {
	ids := []string{"L_ok", "L_nometa", "L_notranscript"}
	meta := map[string]string{"L_ok": "a1", "L_notranscript": "a2"}
	sent := rfdReplayWith(t, true, ids, meta, "a1")
	want := `root {"description":"The history of 2 subagents of this session could not be restored.","sessionUpdate":"notice","severity":"info","title":"Some subagent history is not available"}`
	if got := noticesOf(sent); len(got) != 1 || got[0] != want {
		t.Fatalf("notices %q, want %s", got, want)
	}
	if last := sent[len(sent)-1]; last != want {
		t.Errorf("the notice is not last: %s", last)
	}

	one := noticesOf(rfdReplayWith(t, true, []string{"L_nometa"}, nil))
	if len(one) != 1 || !strings.Contains(one[0], `"The history of 1 subagent of this session could not be restored."`) {
		t.Errorf("one missing history: %q", one)
	}
	if got := noticesOf(rfdReplayWith(t, true, []string{"L_ok"}, map[string]string{"L_ok": "a1"}, "a1")); len(got) != 0 {
		t.Errorf("every history restored, yet %q", got)
	}
	if got := noticesOf(rfdReplayWith(t, false, ids, meta, "a1")); len(got) != 0 {
		t.Errorf("a client without notices got %q", got)
	}
}
