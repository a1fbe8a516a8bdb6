package claude

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/airwire/airwire/conform/goldentest"
	"testing"
)

// typedField returns one field of a decoded message and the JSON path it
// came from, so a test can compare it with the raw line.
func typedField(m Message) (got any, path []string) {
	switch v := m.(type) {
	case *Assistant:
		return v.Message.ID, []string{"message", "id"}
	case *User:
		return v.IsReplay, []string{"isReplay"}
	case *StreamEvent:
		return v.Event.Type, []string{"event", "type"}
	case *Result:
		return v.IsError, []string{"is_error"}
	case *SystemInit:
		return v.Model, []string{"model"}
	case *SessionStateChanged:
		return v.State, []string{"state"}
	case *Status:
		return v.Status, []string{"status"}
	case *APIRetry:
		return v.Attempt, []string{"attempt"}
	case *TaskStarted:
		return v.TaskID, []string{"task_id"}
	case *TaskProgress:
		return v.TaskID, []string{"task_id"}
	case *TaskUpdated:
		return v.TaskID, []string{"task_id"}
	case *TaskNotification:
		return v.Status, []string{"status"}
	case *Informational:
		return v.Content, []string{"content"}
	case *PermissionDenied:
		return v.ToolUseID, []string{"tool_use_id"}
	case *SessionTitleChanged:
		return v.Title, []string{"title"}
	case *ThinkingTokens:
		return v.EstimatedTokens, []string{"estimated_tokens"}
	case *PromptSuggestion:
		return v.Suggestion, []string{"suggestion"}
	case *CommandLifecycle:
		return v.State, []string{"state"}
	}
	return m.Head().UUID, []string{"uuid"}
}

// rawField reads path from a JSON object, re-encoded.
func rawField(t *testing.T, raw json.RawMessage, path []string) string {
	t.Helper()
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	for _, k := range path {
		obj, _ := v.(map[string]any)
		v = obj[k]
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// TestDecodeCassetteLines decodes every line every recorded CLI printed
// (control frames aside): each known type and subtype gets its own Go
// type, the line is kept whole, and a typed field agrees with the line.
func TestDecodeCassetteLines(t *testing.T) {
	types := map[string]int{}
	for path, c := range goldentest.Cassettes(t) {
		for _, p := range c.Processes {
			for _, ev := range p.Events {
				if ev.Dir != "cli" {
					continue
				}
				var h Header
				if err := json.Unmarshal(ev.Msg, &h); err != nil {
					t.Fatalf("%s: %v", path, err)
				}
				if h.Type == "control_request" || h.Type == "control_response" || h.Type == "control_cancel_request" {
					continue
				}
				m, err := Decode(ev.Msg)
				if err != nil {
					t.Fatalf("%s: %v in %s", path, err, ev.Msg)
				}
				key := h.Type + "/" + h.Subtype
				types[fmt.Sprintf("%s %T", key, m)]++
				if _, unknown := m.(*Unknown); unknown {
					t.Errorf("%s: %s decodes as Unknown", path, key)
				}
				if !bytes.Equal(m.Head().Raw, ev.Msg) || m.Head().SessionID != h.SessionID {
					t.Errorf("%s: %s lost its raw line or session", path, key)
				}
				got, fp := typedField(m)
				gj, _ := json.Marshal(got)
				if want := rawField(t, ev.Msg, fp); want != string(gj) && !(want == "null" && string(gj) == "false") {
					t.Errorf("%s: %s %v = %s, line has %s", path, key, fp, gj, want)
				}
			}
		}
	}
	if len(types) < 20 {
		t.Errorf("only %d kinds of line checked: %v", len(types), types)
	}
}

// TestDecodeScriptedLines covers lines only the scripted scenarios emit.
func TestDecodeScriptedLines(t *testing.T) {
	tests := []struct {
		line string
		want string
	}{
		{`{"type":"rate_limit_event","rate_limit_info":{"status":"allowed_warning","utilization":0.92},"uuid":"u","session_id":"s"}`, "*claude.RateLimitEvent"},
		{`{"type":"tool_progress","tool_use_id":"t","tool_name":"Bash","parent_tool_use_id":null,"elapsed_time_seconds":5}`, "*claude.ToolProgress"},
		{`{"type":"active_goal","value":null}`, "*claude.ActiveGoal"},
		{`{"type":"system","subtype":"memory_recall","mode":"select","memories":[]}`, "*claude.MemoryRecall"},
		{`{"type":"system","subtype":"model_refusal_fallback","original_model":"a","fallback_model":"b"}`, "*claude.ModelRefusalFallback"},
		{`{"type":"system","subtype":"worker_shutting_down","reason":"update available"}`, "*claude.WorkerShuttingDown"},
		{`{"type":"system","subtype":"hook_started","hook_id":"h"}`, "*claude.Unknown"},
		{`{"type":"transcript_mirror","entries":[]}`, "*claude.Unknown"},
	}
	for _, tt := range tests {
		m, err := Decode([]byte(tt.line))
		if err != nil {
			t.Fatalf("%s: %v", tt.line, err)
		}
		if got := fmt.Sprintf("%T", m); got != tt.want {
			t.Errorf("%s: %s, want %s", tt.line, got, tt.want)
		}
		if string(m.Head().Raw) != tt.line {
			t.Errorf("%s: raw not kept", tt.line)
		}
	}
	if _, err := Decode([]byte(`{"subtype":"x"}`)); !errors.Is(err, ErrNoType) {
		t.Errorf("a line without type: %v", err)
	}
	if _, err := Decode([]byte(`not json`)); err == nil {
		t.Error("garbage decoded")
	}
}
