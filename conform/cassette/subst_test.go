package cassette

import (
	"encoding/json"
	"testing"
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
