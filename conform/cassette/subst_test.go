package cassette

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/airwire/airwire/conform/scenario"
)

// TestDocumentKeepsAWindowsPathEscaped: a recorded JSON document (auth
// status --json) replayed on Windows gets its placeholders replaced by
// paths with backslashes; they must stay escaped, or the agent reads no
// document at all. Text that is not JSON is replaced as text.
func TestDocumentKeepsAWindowsPathEscaped(t *testing.T) {
	r := newReplacer(map[string]string{PlaceholderConfigDir: `C:\Users\u1\.claude`})
	out := r.document("{\n  \"loggedIn\": true,\n  \"configDirectory\": \"{{config_dir}}\"\n}\n")
	var doc struct {
		ConfigDirectory string `json:"configDirectory"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("the replayed document is not JSON (%v):\n%s", err, out)
	}
	if doc.ConfigDirectory != `C:\Users\u1\.claude` {
		t.Errorf("configDirectory = %q", doc.ConfigDirectory)
	}
	rec := newReplacer(map[string]string{`C:\Users\u1\.claude`: PlaceholderConfigDir})
	if got := rec.document(out); got != "{\n  \"loggedIn\": true,\n  \"configDirectory\": \"{{config_dir}}\"\n}\n" {
		t.Errorf("recorded back: %q", got)
	}
	if got := r.document("2.1.318 (Claude Code) {{config_dir}}\n"); got != "2.1.318 (Claude Code) C:\\Users\\u1\\.claude\n" {
		t.Errorf("plain text: %q", got)
	}
}

// TestWindowsArgvMatchesTheRecordedOne: on Windows the agent passes the
// stand-in MCP server in --mcp-config as an escaped path with .exe; it is
// the recorded spawn all the same. Elsewhere it is not.
func TestWindowsArgvMatchesTheRecordedOne(t *testing.T) {
	toCas := newReplacer(map[string]string{`C:\Users\u1\run\home`: PlaceholderHome})
	live := toCas.strs([]string{`--mcp-config={"mcpServers":{"github":{"command":"C:\\Users\\u1\\run\\home\\bin\\mcp-server.exe"}}}`, "--verbose"})
	recorded := []string{"--verbose", `--mcp-config={"mcpServers":{"github":{"command":"{{home}}/bin/mcp-server"}}}`}
	defer func(w bool) { OnWindows = w }(OnWindows)
	OnWindows = true
	if d := argvDiff(live, recorded); d != "" {
		t.Errorf("on Windows: %s", d)
	}
	OnWindows = false
	if d := argvDiff(live, recorded); d == "" {
		t.Error("elsewhere, a backslashed path with .exe passed for the recorded one")
	}
}

// TestStreamedToolInputKeepsAWindowsPathEscaped: a streamed tool input's
// fragment is JSON text inside a JSON string, so a Windows path replayed
// into it is escaped twice; the agent parses the fragments as they come.
// Recording takes it back to the placeholder.
func TestStreamedToolInputKeepsAWindowsPathEscaped(t *testing.T) {
	const recorded = `{"type":"stream_event","event":{"delta":{"partial_json":"\"file_path\":\"{{cwd}}/big.txt\"","type":"input_json_delta"}},"cwd":"{{cwd}}"}`
	toLive := newReplacer(map[string]string{PlaceholderCwd: `C:\u\work`})
	live := toLive.json([]byte(recorded))
	var frame struct {
		Event struct {
			Delta struct {
				PartialJSON string `json:"partial_json"`
			} `json:"delta"`
		} `json:"event"`
		Cwd string `json:"cwd"`
	}
	if err := json.Unmarshal(live, &frame); err != nil {
		t.Fatalf("%v: %s", err, live)
	}
	var input struct {
		FilePath string `json:"file_path"`
	}
	if err := json.Unmarshal([]byte("{"+frame.Event.Delta.PartialJSON+"}"), &input); err != nil || input.FilePath != `C:\u\work/big.txt` || frame.Cwd != `C:\u\work` {
		t.Errorf("fragment %q (%v), file_path %q, cwd %q", frame.Event.Delta.PartialJSON, err, input.FilePath, frame.Cwd)
	}
	if back := newReplacer(map[string]string{`C:\u\work`: PlaceholderCwd}).json(live); string(back) != recorded {
		t.Errorf("recorded back:\n%s\nwant\n%s", back, recorded)
	}
}

// TestJSONTextREIsTheKey: the expression spells out the member that
// scenario.JSONTextKey names.
func TestJSONTextREIsTheKey(t *testing.T) {
	if !strings.HasPrefix(jsonTextRE.String(), `"`+scenario.JSONTextKey+`":"`) {
		t.Errorf("jsonTextRE %s is not of the member %s", jsonTextRE, scenario.JSONTextKey)
	}
}
