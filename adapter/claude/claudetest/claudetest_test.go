package claudetest

import "testing"

func TestFrame(t *testing.T) {
	if f := Frame(`{"subtype":"task_started","task_id":"a"}`); f.Type != "system" || f.TaskID != "a" {
		t.Errorf("a line without type: %+v", f)
	}
	if f := Frame([]byte(`{"type":"user","message":{"content":[{"type":"text","text":"hi"}]}}`)); f.Type != "user" ||
		len(f.Message.Content) != 1 || f.Message.Content[0].Text != "hi" {
		t.Errorf("a user line: %+v", f)
	}
	defer func() {
		if recover() == nil {
			t.Error("a line that is not JSON did not panic")
		}
	}()
	Frame("not json")
}
