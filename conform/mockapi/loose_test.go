package mockapi

import (
	"net/http"
	"testing"
)

const looseScript = `
turns:
  - when: {text: "List the files"}
    reply:
      - toolUse: {id: toolu_ls, name: Bash, input: {command: "ls"}}
  - when: {toolResult: toolu_ls}
    reply: [{text: "There are two files."}]
  - when: {text: "Count them"}
    errors: [{status: 529}]
    reply: [{text: "Two."}]
`

// startLoose runs script with WithLoosePrompts on a loopback port.
func startLoose(t *testing.T, script string) string {
	t.Helper()
	s, err := ParseYAML([]byte(script))
	if err != nil {
		t.Fatal(err)
	}
	base, closeFn, err := New(s, WithLoosePrompts()).Start("")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = closeFn() })
	return base
}

func TestLoosePromptsAnswerTurnsInOrderWhateverTheText(t *testing.T) {
	base := startLoose(t, looseScript)
	steps := []struct {
		name, content string
		status        int
		wantText      string
		wantID        string
	}{
		{"first prompt, other text", userText("What is here?"), 200, "", "msg_mock_t1_1"},
		{"a tool result no turn waits for takes no prompt's turn", toolResult("toolu_other"), 200, NoMoreTurns, "msg_mock_nomore"},
		{"its tool result", toolResult("toolu_ls"), 200, "There are two files.", "msg_mock_t2_1"},
		{"second prompt: the scripted error first", userText("How many?"), 529, "", ""},
		{"its retry", userText("How many?"), 200, "Two.", "msg_mock_t3_2"},
		{"a prompt past the script", userText("And now?"), 200, NoMoreTurns, "msg_mock_nomore"},
		{"and another", userText("Hello?"), 200, NoMoreTurns, "msg_mock_nomore"},
	}
	for _, st := range steps {
		status, out, _ := ask(t, base, mainBody(false, st.content))
		if status != st.status {
			t.Fatalf("%s: status %d, want %d: %v", st.name, status, st.status, out)
		}
		if status != http.StatusOK {
			continue
		}
		if got := firstText(out); got != st.wantText {
			t.Errorf("%s: text %q, want %q", st.name, got, st.wantText)
		}
		if out["id"] != st.wantID {
			t.Errorf("%s: id %v, want %s", st.name, out["id"], st.wantID)
		}
	}
}

func TestStrictPromptsStillMatchByText(t *testing.T) {
	base, _ := startServer(t, looseScript)
	status, out, _ := ask(t, base, mainBody(false, userText("What is here?")))
	if status != http.StatusBadRequest {
		t.Fatalf("status %d, want 400 (no turn matches): %v", status, out)
	}
}
