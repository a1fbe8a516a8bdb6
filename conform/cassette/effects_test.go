package cassette

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The real CLI 2.1.318 stores the title it generates for a
// generate_session_title request with persist: true as an ai-title row of
// the session transcript (seen in the run recorded as
// goldens/exit-plan-clear-context; the reference reads it back at a turn's
// end). The player stores the same row, and none for a title not persisted
// or not generated.
func TestPlayedTitleIsStoredOnlyWhenPersisted(t *testing.T) {
	dir := t.TempDir()
	const session = "bbbbbbbb-5555-6666-7777-888888888888"
	fx := newEffects([]string{"--session-id=" + session}, map[string]string{
		PlaceholderCwd: filepath.Join(dir, "work"), PlaceholderConfigDir: dir, PlaceholderProjectDir: "-work",
	})
	answer := func(id, title string) []byte {
		return []byte(`{"type":"control_response","response":{"subtype":"success","request_id":"` + id + `","response":{"title":` + title + `}}}`)
	}
	fx.agentFrame([]byte(`{"request_id":"t1","type":"control_request","request":{"subtype":"generate_session_title","description":"Plan a fix","persist":true}}`))
	fx.agentFrame([]byte(`{"request_id":"t2","type":"control_request","request":{"subtype":"generate_session_title","description":"Other","persist":false}}`))
	fx.agentFrame([]byte(`{"request_id":"t3","type":"control_request","request":{"subtype":"generate_session_title","description":"hi","persist":true}}`))
	fx.cliFrame(answer("t2", `"Not stored"`))
	fx.cliFrame(answer("t3", `null`))
	fx.cliFrame(answer("t1", `"Scripted session title"`))
	fx.cliFrame(answer("t1", `"Answered twice"`))

	b, err := os.ReadFile(filepath.Join(dir, "projects", "-work", session+".jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	rows := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(rows) != 1 || !strings.Contains(rows[0], `"type":"ai-title"`) || !strings.Contains(rows[0], `"aiTitle":"Scripted session title"`) ||
		!strings.Contains(rows[0], `"sessionId":"`+session+`"`) {
		t.Errorf("transcript rows %q: want one ai-title row with the persisted title", rows)
	}
}

// The real CLI 2.1.318 reads a file for an Edit with its CRLF pairs turned
// into LF (the originalFile of its tool result) and writes the edited text
// back with CRLF when more CRLF than lone LF end its lines (seen in the
// run recorded as goldens/edit-crlf-file: the reference then reads the CR
// bytes and sends the standard diff). A replay writes the same bytes.
func TestPlayedEditKeepsLineEndings(t *testing.T) {
	for _, c := range []struct {
		name, disk, orig, old, repl string
		all                         bool
		want                        string
	}{
		{"crlf file", "# Notes\r\nold line\r\n", "# Notes\nold line\n", "old line", "new line", false, "# Notes\r\nnew line\r\n"},
		{"crlf file, new lines in the edit", "a\r\nb\r\nc", "a\nb\nc", "b", "b1\nb2", false, "a\r\nb1\r\nb2\r\nc"},
		{"crlf file, replace all", "x\r\nx\r\n", "x\nx\n", "x", "y", true, "y\r\ny\r\n"},
		{"lf file", "# Notes\nold line\n", "# Notes\nold line\n", "old line", "new line", false, "# Notes\nnew line\n"},
		{"more lone LF than CRLF", "a\r\nb\nc\n", "a\nb\nc\n", "b", "B", false, "a\nB\nc\n"},
		{"CRLF only past 4096 units", "a\n" + strings.Repeat("x", 4100) + "\r\nb\r\nb\r\n", "a\n" + strings.Repeat("x", 4100) + "\nb\nb\n", "a", "A", false,
			"A\n" + strings.Repeat("x", 4100) + "\nb\nb\n"},
		{"4096 units, not bytes", strings.Repeat("é", 3000) + "a\r\n" + strings.Repeat("é", 1100) + "\nb\nb\n",
			strings.Repeat("é", 3000) + "a\n" + strings.Repeat("é", 1100) + "\nb\nb\n", "a", "A", false,
			strings.Repeat("é", 3000) + "A\r\n" + strings.Repeat("é", 1100) + "\r\nb\r\nb\r\n"},
		{"disk is not what the CLI read", "other\r\n", "a\nold\n", "old", "new", false, "a\nnew\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			cwd := t.TempDir()
			path := filepath.Join(cwd, "f.txt")
			if err := os.WriteFile(path, []byte(c.disk), 0o644); err != nil {
				t.Fatal(err)
			}
			fx := newEffects(nil, map[string]string{PlaceholderCwd: cwd})
			fx.cliFrame(mustJSON(map[string]any{"type": "control_request", "request": map[string]any{"subtype": "hook_callback",
				"input": map[string]any{"hook_event_name": "PostToolUse", "tool_response": map[string]any{"filePath": path,
					"oldString": c.old, "newString": c.repl, "originalFile": c.orig, "replaceAll": c.all}}}}))
			got, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != c.want {
				t.Errorf("file %q, want %q", got, c.want)
			}
		})
	}
}

// The real CLI 2.1.318 stores a prompt once, with the permission mode it
// runs in (its --permission-mode, then each set_permission_mode), though
// under --replay-user-messages it echoes the prompt back (isReplay); a
// resumed session's rows go on from its last row (seen in the run recorded
// as goldens/session-load-live, whose fork the reference starts in the mode
// of the last prompt and whose load replays the whole chain). The player
// stores the same chain.
func TestPlayedTranscriptChainsPromptsWithTheirMode(t *testing.T) {
	dir := t.TempDir()
	const session = "cccccccc-5555-6666-7777-888888888888"
	live := map[string]string{PlaceholderCwd: filepath.Join(dir, "work"), PlaceholderConfigDir: dir, PlaceholderProjectDir: "-work"}
	prompt := func(uuid, text string) []byte {
		return []byte(`{"type":"user","message":{"role":"user","content":[{"type":"text","text":"` + text + `"}]},"uuid":"` + uuid +
			`","session_id":"` + session + `","parent_tool_use_id":null}`)
	}
	echo := func(uuid string) []byte {
		return []byte(`{"type":"user","message":{"role":"user","content":"x"},"uuid":"` + uuid + `","isReplay":true,"parent_tool_use_id":null}`)
	}
	answer := func(uuid string) []byte {
		return []byte(`{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"OK."}]},"uuid":"` + uuid + `","parent_tool_use_id":null}`)
	}
	fx := newEffects([]string{"--permission-mode", "auto", "--session-id=" + session}, live)
	fx.agentFrame(prompt("u1", "one"))
	fx.cliFrame(echo("u1"))
	fx.cliFrame(answer("a1"))
	fx.agentFrame([]byte(`{"type":"control_request","request_id":"r1","request":{"subtype":"set_permission_mode","mode":"acceptEdits"}}`))
	fx.agentFrame(prompt("u2", "two"))
	fx.cliFrame(echo("u2"))
	fx.cliFrame([]byte(`{"type":"system","subtype":"status","permissionMode":"plan"}`))
	fx.cliFrame(answer("a2"))
	resumed := newEffects([]string{"--resume=" + session}, live)
	resumed.agentFrame(prompt("u3", "three"))

	b, err := os.ReadFile(filepath.Join(dir, "projects", "-work", session+".jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var r struct{ Type, UUID, ParentUUID, PermissionMode string }
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatal(err)
		}
		got = append(got, r.Type+" "+r.UUID+"<-"+r.ParentUUID+" "+r.PermissionMode)
	}
	want := []string{"user u1<- auto", "assistant a1<-u1 ", "user u2<-a1 acceptEdits", "assistant a2<-u2 ", "user u3<-a2 "}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("transcript rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if resumed.mode != "" || fx.mode != "plan" {
		t.Errorf("modes %q and %q: want none for a CLI started without one, plan as the CLI reported it", resumed.mode, fx.mode)
	}
}

// A Write outside the workspace (as in goldens/file-change-report-outside,
// a file in HOME) is on disk after the real CLI ran it, and the reference
// reads it for its patch; the player writes it too, inside the run's cwd
// or HOME, and nowhere else.
func TestPlayedWriteStaysInTheRunsDirectories(t *testing.T) {
	run, elsewhere := t.TempDir(), t.TempDir()
	cwd, home := filepath.Join(run, "work"), filepath.Join(run, "home")
	fx := newEffects(nil, map[string]string{PlaceholderCwd: cwd, PlaceholderHome: home})
	for _, p := range []string{filepath.Join(cwd, "in.txt"), filepath.Join(home, "note.md"), filepath.Join(elsewhere, "x.txt"), filepath.Join(run, "work2", "y.txt")} {
		fx.cliFrame(mustJSON(map[string]any{"type": "user", "tool_use_result": map[string]any{"filePath": p, "content": "text\n"}}))
	}
	for p, want := range map[string]bool{filepath.Join(cwd, "in.txt"): true, filepath.Join(home, "note.md"): true,
		filepath.Join(elsewhere, "x.txt"): false, filepath.Join(run, "work2", "y.txt"): false} {
		if _, err := os.Stat(p); (err == nil) != want {
			t.Errorf("%s written: %v, want %v", p, err == nil, want)
		}
	}
}
