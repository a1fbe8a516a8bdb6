package claude

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"

	"github.com/airwire/airwire/conform/goldentest"
)

// frameFields are fields of a decoded frame with the JSON path each was
// read from, to compare with the line itself.
func frameFields(f *Frame) map[string]any {
	fields := map[string]any{
		"type": f.Type, "subtype": f.Subtype, "uuid": f.UUID, "session_id": f.SessionID,
		"message.id": f.Message.ID, "event.type": f.Event.Type, "is_error": f.IsError,
		"task_id": f.TaskID, "state": f.State, "tool_use_id": f.ToolUseID, "num_turns": f.NumTurns,
	}
	if f.Status != nil {
		fields["status"] = *f.Status
	}
	return fields
}

// rawPath reads a dotted path of a JSON object; ok is false when absent.
func rawPath(t *testing.T, line []byte, path string) (any, bool) {
	t.Helper()
	var v any
	if err := json.Unmarshal(line, &v); err != nil {
		t.Fatal(err)
	}
	for _, k := range bytes.Split([]byte(path), []byte(".")) {
		obj, ok := v.(map[string]any)
		if !ok {
			return nil, false
		}
		if v, ok = obj[string(k)]; !ok {
			return nil, false
		}
	}
	return v, true
}

// TestDecodeFrameCassetteLines decodes every line every recorded CLI
// printed (control frames aside): the frame keeps the line whole, and
// each field it reads agrees with the line (a field absent from the line
// is zero).
func TestDecodeFrameCassetteLines(t *testing.T) {
	kinds := map[string]bool{}
	for path, c := range goldentest.Cassettes(t) {
		for _, p := range c.Processes {
			for _, ev := range p.Events {
				if ev.Dir != "cli" || bytes.Contains(ev.Msg[:min(len(ev.Msg), 40)], []byte(`"control_`)) {
					continue
				}
				f, err := DecodeFrame(append([]byte(nil), ev.Msg...))
				if err != nil {
					t.Fatalf("%s: %v in %s", path, err, ev.Msg)
				}
				if !bytes.Equal(f.Raw, ev.Msg) {
					t.Fatalf("%s: %s/%s lost its raw line", path, f.Type, f.Subtype)
				}
				kinds[f.Type+"/"+f.Subtype] = true
				checkFrameFields(t, path, f, ev.Msg)
			}
		}
	}
	if len(kinds) < 20 {
		t.Errorf("only %d kinds of line checked: %v", len(kinds), kinds)
	}
}

func checkFrameFields(t *testing.T, path string, f *Frame, line []byte) {
	t.Helper()
	for key, got := range frameFields(f) {
		want, ok := rawPath(t, line, key)
		if _, isNum := want.(float64); isNum {
			want = int(want.(float64))
		}
		if !ok || want == nil {
			continue
		}
		if gj, wj := mustJSON(got), mustJSON(want); gj != wj {
			t.Errorf("%s: %s/%s %s = %s, line has %s", path, f.Type, f.Subtype, key, gj, wj)
		}
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestDecodeFrameEdges covers lines only scripted scenarios or a broken
// CLI write: a string message, a field of the wrong JSON type, a line
// without a type, and a line that is not JSON.
func TestDecodeFrameEdges(t *testing.T) {
	f, err := DecodeFrame([]byte(`{"type":"system","subtype":"local_command_output","message":"hi","num_turns":"x","uuid":"u"}`))
	if err != nil || f.Message.Text == nil || *f.Message.Text != "hi" || f.NumTurns != 0 || f.UUID != "u" {
		t.Errorf("string message / wrong type: %+v, %v", f, err)
	}
	f, err = DecodeFrame([]byte(`{"type":"active_goal","value":{"condition":"c","iterations":2}}`))
	if err != nil || f.Goal == nil || f.Goal.Condition != "c" || f.Goal.Iterations != 2 {
		t.Errorf("active goal: %+v, %v", f, err)
	}
	if _, err := DecodeFrame([]byte(`{"subtype":"x"}`)); !errors.Is(err, ErrNoType) {
		t.Errorf("a line without type: %v", err)
	}
	if _, err := DecodeFrame([]byte(`not json`)); err == nil {
		t.Error("garbage decoded")
	}
}
