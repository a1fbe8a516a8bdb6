package fakecli

import (
	"bufio"
	"encoding/json"
	"os"
	"sync"

	"github.com/airwire/airwire/conform/scenario"
)

// transcriptWriter appends session rows to
// <config dir>/projects/<encoded cwd>/<session id>.jsonl the way the CLI
// does: a user row per prompt, an assistant row per content block, a user
// row per tool result, last-prompt after each turn, custom-title on rename.
// Rows are linked by parentUuid. The file is created with its first row.
type transcriptWriter struct {
	c        *cli
	disabled bool
	mu       sync.Mutex
	parent   any
}

func newTranscriptWriter(c *cli, disabled bool) *transcriptWriter {
	return &transcriptWriter{c: c, disabled: disabled}
}

// resume continues an existing file: the next row links to its last uuid.
// It returns the number of rows found (the process generation).
func (t *transcriptWriter) resume() int {
	rows := readRows(t.c.transcriptPath)
	for _, r := range rows {
		if u, ok := r["uuid"].(string); ok {
			t.parent = u
		}
	}
	return len(rows)
}

// fork copies the source session's rows into the new session's file with
// the new sessionId and forkedFrom, as --resume X --fork-session does.
func (t *transcriptWriter) fork(source string) int {
	rows := readRows(source)
	for _, r := range rows {
		if _, ok := r["sessionId"]; ok {
			if old, _ := r["sessionId"].(string); old != "" {
				if u, ok := r["uuid"].(string); ok {
					r["forkedFrom"] = map[string]any{"sessionId": old, "messageUuid": u}
				}
			}
			r["sessionId"] = t.c.sessionID
		}
		if u, ok := r["uuid"].(string); ok {
			t.parent = u
		}
		t.append(r)
	}
	return len(rows)
}

func readRows(path string) []map[string]any {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	var rows []map[string]any
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var r map[string]any
		if json.Unmarshal(sc.Bytes(), &r) == nil {
			rows = append(rows, r)
		}
	}
	return rows
}

func (t *transcriptWriter) common(row map[string]any) map[string]any {
	row["parentUuid"] = t.parent
	row["isSidechain"] = false
	row["userType"] = "external"
	row["entrypoint"] = "sdk-ts"
	row["cwd"] = t.c.cwd
	row["sessionId"] = t.c.sessionID
	row["version"] = Version
	row["gitBranch"] = "HEAD"
	return row
}

// prompt records a user message from the host.
func (t *transcriptWriter) prompt(msg map[string]any, mode string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	u, _ := msg["uuid"].(string)
	if u == "" {
		u = t.c.uuid()
	}
	row := t.common(map[string]any{"type": "user", "message": msg["message"], "uuid": u, "timestamp": t.c.now(),
		"permissionMode": mode, "promptSource": "sdk"})
	t.append(row)
	t.parent = u
}

// frame records an emitted top-level assistant or user frame.
func (t *transcriptWriter) frame(f map[string]any) {
	typ, _ := f["type"].(string)
	if (typ != "assistant" && typ != "user") || f["parent_tool_use_id"] != nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	row := t.common(map[string]any{"type": typ, "message": f["message"], "uuid": f["uuid"], "timestamp": f["timestamp"]})
	if typ == "assistant" {
		row["requestId"] = f["request_id"]
	}
	if r, ok := f["tool_use_result"]; ok {
		row["toolUseResult"] = r
	}
	t.append(row)
	t.parent = f["uuid"]
}

func (t *transcriptWriter) lastPrompt(text string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.append(map[string]any{"type": "last-prompt", "lastPrompt": text, "leafUuid": t.parent, "sessionId": t.c.sessionID})
}

func (t *transcriptWriter) aiTitle(title string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.append(map[string]any{"type": "ai-title", "aiTitle": title, "sessionId": t.c.sessionID})
}

func (t *transcriptWriter) title(title string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.append(map[string]any{"type": "custom-title", "customTitle": title, "sessionId": t.c.sessionID})
}

// append writes one row; callers hold t.mu (or run before serving).
func (t *transcriptWriter) append(row map[string]any) {
	if t.disabled {
		return
	}
	_ = scenario.AppendRow(t.c.transcriptPath, row)
}
