package scenario

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"time"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Transcript is a stored Claude session, written as
// <config dir>/projects/<encoded cwd>/<SessionID>.jsonl before the run, the
// way the real CLI persists sessions.
type Transcript struct {
	// SessionID must be a UUID (the SDK rejects other ids).
	SessionID string `yaml:"sessionId" json:"sessionId"`
	// Title appends a custom-title row (what a rename writes).
	Title string `yaml:"title,omitempty" json:"title,omitempty"`
	// Modified is the file's mtime and the time of its rows (RFC 3339):
	// rows are stamped from it onwards, one millisecond apart, and the
	// driver sets the file's mtime to the last row's time. Empty means
	// ClockBase.
	Modified string `yaml:"modified,omitempty" json:"modified,omitempty"`
	// Cwd is the project directory relative to the run's cwd ("" = cwd).
	Cwd string `yaml:"cwd,omitempty" json:"cwd,omitempty"`
	// Rows are the conversation, in order.
	Rows []TranscriptRow `yaml:"rows" json:"rows"`
}

// TranscriptRow is one conversation entry. Exactly one field is set.
type TranscriptRow struct {
	// User is a user prompt row.
	User *string `yaml:"user,omitempty" json:"user,omitempty"`
	// Assistant is an assistant text row.
	Assistant *string `yaml:"assistant,omitempty" json:"assistant,omitempty"`
	// Thinking is an assistant thinking row.
	Thinking *string `yaml:"thinking,omitempty" json:"thinking,omitempty"`
	// Tool is an assistant tool_use row followed by its user tool_result row.
	Tool *TranscriptTool `yaml:"tool,omitempty" json:"tool,omitempty"`
	// Raw is written as it is, after placeholder expansion; parentUuid,
	// uuid, sessionId and cwd are added when missing on user/assistant rows.
	Raw map[string]any `yaml:"raw,omitempty" json:"raw,omitempty"`
}

// TranscriptTool is a tool call stored in a transcript.
type TranscriptTool struct {
	ID      string         `yaml:"id,omitempty" json:"id,omitempty"`
	Name    string         `yaml:"name" json:"name"`
	Input   map[string]any `yaml:"input,omitempty" json:"input,omitempty"`
	Result  any            `yaml:"result,omitempty" json:"result,omitempty"`
	IsError bool           `yaml:"isError,omitempty" json:"isError,omitempty"`
	// ToolUseResult is the row's toolUseResult.
	ToolUseResult any `yaml:"toolUseResult,omitempty" json:"toolUseResult,omitempty"`
}

// TranscriptVersion is the CLI version written on transcript rows.
const TranscriptVersion = "2.1.318"

// ProjectDirName encodes a cwd the way the CLI names its project directory:
// the NFC form of the path with every character outside [A-Za-z0-9] turned
// into '-'; a result longer than 200 characters is cut to 200 and suffixed
// with '-' and the base-36 absolute Java string hash of the path.
// The caller resolves symlinks first (the CLI uses the realpath).
func ProjectDirName(cwd string) string {
	p := norm.NFC.String(cwd)
	var b []rune
	for _, r := range p {
		if (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (r >= '0' && r <= '9') {
			b = append(b, r)
		} else {
			b = append(b, '-')
		}
	}
	if len(b) <= 200 {
		return string(b)
	}
	return string(b[:200]) + "-" + strconv.FormatInt(absInt64(int64(javaStringHash(p))), 36)
}

// javaStringHash is Java's String.hashCode over UTF-16 code units.
func javaStringHash(s string) int32 {
	var h int32
	for _, r := range s {
		if r >= 0x10000 {
			r1, r2 := utf16Pair(r)
			h = 31*h + int32(r1)
			h = 31*h + int32(r2)
			continue
		}
		h = 31*h + int32(r)
	}
	return h
}

func utf16Pair(r rune) (rune, rune) {
	r -= 0x10000
	return 0xd800 + (r>>10)&0x3ff, 0xdc00 + r&0x3ff
}

func absInt64(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}

// SessionFile is the transcript path of session id for cwd under configDir
// (CLAUDE_CONFIG_DIR, or $HOME/.claude).
func SessionFile(configDir, cwd, id string) string {
	return filepath.Join(configDir, "projects", ProjectDirName(cwd), id+".jsonl")
}

// Render writes the transcript rows as JSONL for a session in cwd, with
// deterministic uuids (namespace NSTranscript) and timestamps.
func (t *Transcript) Render(cwd string, vars map[string]string) ([]byte, error) {
	ids := NewIDs(NSTranscript)
	clock := &Clock{}
	if t.Modified != "" {
		if at, err := time.Parse(time.RFC3339, t.Modified); err == nil {
			clock.Base = at
		}
	}
	var buf bytes.Buffer
	var parent any // nil → JSON null
	common := func(row map[string]any) {
		row["parentUuid"] = parent
		row["isSidechain"] = false
		row["userType"] = "external"
		row["entrypoint"] = "sdk-ts"
		row["cwd"] = cwd
		row["sessionId"] = t.SessionID
		row["version"] = TranscriptVersion
		row["gitBranch"] = "HEAD"
		row["timestamp"] = clock.Next()
	}
	write := func(row map[string]any) error {
		line, err := json.Marshal(row)
		if err != nil {
			return err
		}
		buf.Write(line)
		buf.WriteByte('\n')
		return nil
	}
	lastPrompt := ""
	for i, r := range t.Rows {
		switch {
		case r.User != nil:
			text := ExpandString(*r.User, vars)
			lastPrompt = text
			u := ids.UUID()
			row := map[string]any{"type": "user", "uuid": u, "promptSource": "sdk", "permissionMode": "default",
				"message": map[string]any{"role": "user", "content": []any{map[string]any{"type": "text", "text": text}}}}
			common(row)
			if err := write(row); err != nil {
				return nil, err
			}
			parent = u
		case r.Assistant != nil || r.Thinking != nil:
			var block map[string]any
			if r.Assistant != nil {
				block = map[string]any{"type": "text", "text": ExpandString(*r.Assistant, vars)}
			} else {
				block = map[string]any{"type": "thinking", "thinking": ExpandString(*r.Thinking, vars), "signature": "sig"}
			}
			u := ids.UUID()
			msgID := fmt.Sprintf("msg_stored_%d", i+1)
			row := map[string]any{"type": "assistant", "uuid": u, "requestId": "req_stored_" + strconv.Itoa(i+1),
				"message": assistantMessage(msgID, DefaultModel, []any{block}, "end_turn")}
			common(row)
			if err := write(row); err != nil {
				return nil, err
			}
			parent = u
		case r.Tool != nil:
			id := r.Tool.ID
			if id == "" {
				id = ToolID(r.Tool.Name)
			}
			input := Expand(orEmpty(r.Tool.Input), vars)
			u := ids.UUID()
			row := map[string]any{"type": "assistant", "uuid": u, "requestId": "req_" + id,
				"message": assistantMessage("msg_"+id, DefaultModel, []any{map[string]any{"type": "tool_use", "id": id, "name": r.Tool.Name, "input": input}}, "tool_use")}
			common(row)
			if err := write(row); err != nil {
				return nil, err
			}
			parent = u
			res := map[string]any{"type": "tool_result", "tool_use_id": id, "content": Expand(resultContent(r.Tool.Result), vars)}
			if r.Tool.IsError {
				res["is_error"] = true
			}
			u2 := ids.UUID()
			row2 := map[string]any{"type": "user", "uuid": u2, "sourceToolAssistantUUID": u,
				"message": map[string]any{"role": "user", "content": []any{res}}}
			if r.Tool.ToolUseResult != nil {
				row2["toolUseResult"] = Expand(r.Tool.ToolUseResult, vars)
			}
			common(row2)
			if err := write(row2); err != nil {
				return nil, err
			}
			parent = u2
		case r.Raw != nil:
			row := Expand(r.Raw, vars).(map[string]any)
			if typ, _ := row["type"].(string); typ == "user" || typ == "assistant" {
				if _, ok := row["uuid"]; !ok {
					row["uuid"] = ids.UUID()
				}
				for k, v := range map[string]any{"parentUuid": parent, "sessionId": t.SessionID, "cwd": cwd, "isSidechain": false, "timestamp": clock.Next()} {
					if _, ok := row[k]; !ok {
						row[k] = v
					}
				}
				parent = row["uuid"]
			}
			if err := write(row); err != nil {
				return nil, err
			}
		}
	}
	if lastPrompt != "" {
		if err := write(map[string]any{"type": "last-prompt", "lastPrompt": lastPrompt, "leafUuid": parent, "sessionId": t.SessionID}); err != nil {
			return nil, err
		}
	}
	if t.Title != "" {
		if err := write(map[string]any{"type": "custom-title", "customTitle": t.Title, "sessionId": t.SessionID}); err != nil {
			return nil, err
		}
	}
	return buf.Bytes(), nil
}

func orEmpty(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}

// resultContent turns a scripted tool result into tool_result content: a
// string stays a string, nil becomes "", a list stays a list.
func resultContent(v any) any {
	if v == nil {
		return ""
	}
	return v
}

// truncateRunes cuts s to n runes.
func truncateRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n])
}

// Path is where the transcript goes for a run whose cwd is runCwd (already
// resolved with filepath.EvalSymlinks, as the CLI resolves it).
func (t *Transcript) Path(configDir, runCwd string) string {
	return SessionFile(configDir, t.ProjectCwd(runCwd), t.SessionID)
}

// ProjectCwd is the session's own cwd for a run in runCwd.
func (t *Transcript) ProjectCwd(runCwd string) string {
	if t.Cwd == "" {
		return runCwd
	}
	return filepath.Join(runCwd, filepath.FromSlash(t.Cwd))
}

// WriteSessions writes Transcript and Sessions under configDir for a run in
// runCwd, each file with the mtime of its Modified time (or ClockBase) plus
// one millisecond per row, so listings order them deterministically.
func (s *Scenario) WriteSessions(configDir, runCwd string, vars map[string]string) error {
	var all []*Transcript
	if s.Transcript != nil {
		all = append(all, s.Transcript)
	}
	for i := range s.Sessions {
		all = append(all, &s.Sessions[i])
	}
	for _, t := range all {
		data, err := t.Render(t.ProjectCwd(runCwd), vars)
		if err != nil {
			return fmt.Errorf("transcript %s: %w", t.SessionID, err)
		}
		p := t.Path(configDir, runCwd)
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			return err
		}
		if err := os.WriteFile(p, data, 0o600); err != nil {
			return err
		}
		at := ClockBase
		if t.Modified != "" {
			at, _ = time.Parse(time.RFC3339, t.Modified)
		}
		at = at.Add(time.Duration(bytes.Count(data, []byte("\n"))) * time.Millisecond)
		if err := os.Chtimes(p, at, at); err != nil {
			return err
		}
	}
	return nil
}

// AppendRow appends row to the session transcript at path as one JSON
// line, as the CLI does (the directory and file are made when missing).
func AppendRow(path string, row map[string]any) error {
	b, err := json.Marshal(row)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = f.Write(append(b, '\n'))
	return err
}
