package adapter

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/airwire/airwire/adapter/claude"
	"github.com/airwire/airwire/conform/goldentest"
)

// goldenUpdate is the first update of a golden whose JSON contains marker,
// decoded.
func goldenUpdate(t *testing.T, scenario, profile, marker string) any {
	t.Helper()
	for _, l := range goldentest.Tagged(t, scenario, profile, "client agent->editor") {
		if !strings.Contains(l, marker) {
			continue
		}
		var m struct {
			Params struct {
				Update any `json:"update"`
			} `json:"params"`
		}
		_ = json.Unmarshal([]byte(l), &m)
		return m.Params.Update
	}
	t.Fatalf("%s/%s has no update with %s", scenario, profile, marker)
	return nil
}

func decoded(v any) any {
	b, _ := json.Marshal(v)
	var out any
	_ = json.Unmarshal(b, &out)
	return out
}

func TestMemoryRecallMatchesTheGolden(t *testing.T) {
	line := json.RawMessage(`{"type":"system","subtype":"memory_recall","mode":"select","uuid":"<uuid-1>",
		"memories":[{"path":"<cwd>/CLAUDE.md","scope":"project","content":"Run tests with make test."}]}`)
	want := goldenUpdate(t, "memory-recall", "zed", `"memory_recall"`)
	if got := decoded(memoryRecallUpdate(resultFrame(t, line))); !reflect.DeepEqual(got, want) {
		t.Errorf("got %v\nwant %v", got, want)
	}
	synth := memoryRecallUpdate(resultFrame(t, json.RawMessage(`{"type":"system","subtype":"memory_recall","mode":"synthesize","uuid":"u","memories":[{"path":"a","content":"A"},{"path":"b"}]}`)))
	if synth["title"] != "Recalled synthesized memory" || synth["locations"] != nil || len(synth["content"].([]map[string]any)) != 1 {
		t.Errorf("synthesis: %v", synth)
	}
	two := memoryRecallUpdate(resultFrame(t, json.RawMessage(`{"type":"system","subtype":"memory_recall","mode":"select","uuid":"u","memories":[{"path":"a"},{"path":"b"}]}`)))
	if two["title"] != "Recalled 2 memories" {
		t.Errorf("two: %v", two["title"])
	}
}

func TestRefusalFallbackNotice(t *testing.T) {
	m := refusalFallbackLine{OriginalModel: "claude-opus-5-5", FallbackModel: "claude-sonnet-5-5"}
	want := goldenUpdate(t, "model-refusal-fallback", "zed", "Model fallback")
	if got := decoded(textUpdate("agent_message_chunk", "**Model fallback:** "+m.notice(), "")); !reflect.DeepEqual(got, want) {
		t.Errorf("got %v\nwant %v", got, want)
	}
	if got, want := decoded(m.sessionNotice().Update()), goldenUpdate(t, "model-refusal-fallback", "zed-notices", `"notice"`); !reflect.DeepEqual(got, want) {
		t.Errorf("notice: got %v\nwant %v", got, want)
	}
	long := refusalFallbackLine{OriginalModel: strings.Repeat("o", 250), FallbackModel: "f", Explanation: "Why."}
	if n := long.sessionNotice(); n.Title != "Model fallback" || n.Description != long.notice() {
		t.Errorf("a summary too long for a title: %+v", n)
	}
	local := refusalFallbackLine{OriginalModel: "o", FallbackModel: "f", Scope: "local", Category: "cyber", Explanation: "Why."}
	if local.persistent() || local.notice() != "o declined this request (cyber); retried with f. Only that response came from f; the session stays on o.\n\nWhy." {
		t.Errorf("local: %q", local.notice())
	}
	if revert := (refusalFallbackLine{OriginalModel: "o", FallbackModel: "f", Direction: "revert"}); revert.persistent() ||
		!strings.HasSuffix(revert.notice(), "The session stays on o.") {
		t.Errorf("revert: %q", revert.notice())
	}
}

func TestLocalOnlyCommand(t *testing.T) {
	for text, want := range map[string]bool{"/context": true, "/context extra": true, "/heapdump": true,
		"/extra-usage": true, "/contexts": false, "context": false, "/compact": false} {
		if got := isLocalOnlyCommand(blocks(`{"type":"text","text":` + strings.TrimSpace(string(mustJSON(text))) + `}`)); got != want {
			t.Errorf("%q: %v", text, got)
		}
	}
	if isLocalOnlyCommand(blocks(`{"type":"image","data":"AA"}`, `{"type":"text","text":"/context"}`)) {
		t.Error("only the first block counts")
	}
}

func mustJSON(v any) []byte { b, _ := json.Marshal(v); return b }

// The title context keeps the session's last 1000 UTF-16 units, and stops
// collecting once a title settled.
func TestTitleContext(t *testing.T) {
	s := &Session{}
	s.titles.prompt("/context")
	s.titles.answer(strings.Repeat("x", 995) + "é")
	got := string(utf16Decode(s.titles.context))
	if len(s.titles.context) != maxTitleContext || !strings.HasSuffix(got, "xé") || !strings.HasPrefix(got, "ext\n") {
		t.Errorf("context %d units, starts %q", len(s.titles.context), got[:5])
	}
	s.titles.settled = true
	s.titles.answer("more")
	if strings.HasSuffix(string(utf16Decode(s.titles.context)), "more") {
		t.Error("a settled title collects no more text")
	}
}

func utf16Decode(u []uint16) []rune { return utf16.Decode(u) }

// A main-session PostModelSwitch hook is a switch the CLI made by itself
// unless the agent asked for it (source "sdk") or it restores a resumed
// transcript's model ("resume"); a subagent's switch is its own.
func TestCLIModelSwitch(t *testing.T) {
	hook := func(raw string) claude.HookInput {
		var in claude.HookInput
		if err := json.Unmarshal([]byte(raw), &in); err != nil {
			t.Fatal(err)
		}
		return in
	}
	for raw, want := range map[string]string{
		`{"hook_event_name":"PostModelSwitch","to_model":"claude-haiku-5-5","source":"command"}`:                 "claude-haiku-5-5",
		`{"hook_event_name":"PostModelSwitch","to_model":"claude-haiku-5-5","source":"fallback"}`:                "claude-haiku-5-5",
		`{"hook_event_name":"PostModelSwitch","to_model":"claude-haiku-5-5","source":"sdk"}`:                     "",
		`{"hook_event_name":"PostModelSwitch","to_model":"claude-haiku-5-5","source":"resume"}`:                  "",
		`{"hook_event_name":"PostModelSwitch","to_model":"claude-haiku-5-5","source":"command","agent_id":"a1"}`: "",
		`{"hook_event_name":"PostToolUse","to_model":"claude-haiku-5-5","source":"command"}`:                     "",
		`{"hook_event_name":"PostModelSwitch","source":"command"}`:                                               "",
	} {
		got, ok := cliModelSwitch(hook(raw))
		if got != want || ok != (want != "") {
			t.Errorf("cliModelSwitch(%s) = %q, %v; want %q", raw, got, ok, want)
		}
	}
}
