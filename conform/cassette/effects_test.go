package cassette

import (
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
