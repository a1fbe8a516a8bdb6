package scenario

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"time"

	"github.com/airwire/airwire/internal/projectdir"
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
	// Model is the model the assistant rows ran on; "" is DefaultModel.
	Model string `yaml:"model,omitempty" json:"model,omitempty"`
	// PermissionMode is the mode the user rows were sent in; "" is
	// "default".
	PermissionMode string `yaml:"permissionMode,omitempty" json:"permissionMode,omitempty"`
	// Rows are the conversation, in order.
	Rows []TranscriptRow `yaml:"rows" json:"rows"`
}

// model is the model the assistant rows ran on.
func (t *Transcript) model() string {
	if t.Model == "" {
		return DefaultModel
	}
	return t.Model
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

// SessionFile is the transcript path of session id for cwd under configDir
// (CLAUDE_CONFIG_DIR, or $HOME/.claude).
func SessionFile(configDir, cwd, id string) string {
	return filepath.Join(configDir, "projects", projectdir.Name(cwd), id+".jsonl")
}

// Render writes the transcript rows as JSONL for a session in cwd, with
// deterministic uuids (namespace NSTranscript) and timestamps.
func (t *Transcript) Render(cwd string, vars map[string]string) ([]byte, error) {
	w := &rowWriter{t: t, cwd: cwd, vars: vars, ids: NewIDs(NSTranscript), clock: &Clock{}}
	if t.Modified != "" {
		if at, err := time.Parse(time.RFC3339, t.Modified); err == nil {
			w.clock.Base = at
		}
	}
	lastPrompt := ""
	for i, r := range t.Rows {
		var err error
		switch {
		case r.User != nil:
			lastPrompt = ExpandString(*r.User, w.vars)
			err = w.user(lastPrompt)
		case r.Assistant != nil || r.Thinking != nil:
			err = w.assistant(i, r)
		case r.Tool != nil:
			err = w.tool(r.Tool)
		case r.Raw != nil:
			err = w.raw(r.Raw)
		}
		if err != nil {
			return nil, err
		}
	}
	if lastPrompt != "" {
		if err := w.write(map[string]any{"type": "last-prompt", "lastPrompt": lastPrompt, "leafUuid": w.parent, "sessionId": t.SessionID}); err != nil {
			return nil, err
		}
	}
	if t.Title != "" {
		if err := w.write(map[string]any{"type": "custom-title", "customTitle": t.Title, "sessionId": t.SessionID}); err != nil {
			return nil, err
		}
	}
	return w.buf.Bytes(), nil
}

// rowWriter renders the rows of one transcript, each chained to the one
// before by parentUuid.
type rowWriter struct {
	t     *Transcript
	cwd   string
	vars  map[string]string
	ids   *IDs
	clock *Clock
	buf   bytes.Buffer
	// parent is the uuid of the last conversation row (nil: JSON null).
	parent any
}

// chained writes a conversation row with the fields every such row has,
// and makes it the parent of the next.
func (w *rowWriter) chained(row map[string]any) error {
	row["parentUuid"] = w.parent
	row["isSidechain"] = false
	row["userType"] = "external"
	row["entrypoint"] = "sdk-ts"
	row["cwd"] = w.cwd
	row["sessionId"] = w.t.SessionID
	row["version"] = TranscriptVersion
	row["gitBranch"] = "HEAD"
	row["timestamp"] = w.clock.Next()
	w.parent = row["uuid"]
	return w.write(row)
}

func (w *rowWriter) write(row map[string]any) error {
	line, err := json.Marshal(row)
	if err != nil {
		return err
	}
	w.buf.Write(line)
	w.buf.WriteByte('\n')
	return nil
}

func (w *rowWriter) user(text string) error {
	mode := w.t.PermissionMode
	if mode == "" {
		mode = "default"
	}
	return w.chained(map[string]any{"type": "user", "uuid": w.ids.UUID(), "promptSource": "sdk", "permissionMode": mode,
		"message": map[string]any{"role": "user", "content": []any{map[string]any{"type": "text", "text": text}}}})
}

// assistant renders the i-th row, a text or a thinking block.
func (w *rowWriter) assistant(i int, r TranscriptRow) error {
	var block map[string]any
	if r.Assistant != nil {
		block = map[string]any{"type": "text", "text": ExpandString(*r.Assistant, w.vars)}
	} else {
		block = map[string]any{"type": "thinking", "thinking": ExpandString(*r.Thinking, w.vars), "signature": "sig"}
	}
	msgID := fmt.Sprintf("msg_stored_%d", i+1)
	return w.chained(map[string]any{"type": "assistant", "uuid": w.ids.UUID(), "requestId": "req_stored_" + strconv.Itoa(i+1),
		"message": assistantMessage(msgID, w.t.model(), []any{block}, "end_turn")})
}

// tool renders a tool call: the assistant's tool_use row, then the user row
// with its tool_result.
func (w *rowWriter) tool(tr *TranscriptTool) error {
	id := tr.ID
	if id == "" {
		id = ToolID(tr.Name)
	}
	input := Expand(orEmpty(tr.Input), w.vars)
	u := w.ids.UUID()
	err := w.chained(map[string]any{"type": "assistant", "uuid": u, "requestId": "req_" + id,
		"message": assistantMessage("msg_"+id, w.t.model(), []any{map[string]any{"type": "tool_use", "id": id, "name": tr.Name, "input": input}}, "tool_use")})
	if err != nil {
		return err
	}
	res := map[string]any{"type": "tool_result", "tool_use_id": id, "content": Expand(resultContent(tr.Result), w.vars)}
	if tr.IsError {
		res["is_error"] = true
	}
	row := map[string]any{"type": "user", "uuid": w.ids.UUID(), "sourceToolAssistantUUID": u,
		"message": map[string]any{"role": "user", "content": []any{res}}}
	if tr.ToolUseResult != nil {
		row["toolUseResult"] = Expand(tr.ToolUseResult, w.vars)
	}
	return w.chained(row)
}

// raw writes a row as the scenario gives it; a user or assistant row gets
// the chaining fields it lacks.
func (w *rowWriter) raw(raw map[string]any) error {
	row := Expand(raw, w.vars).(map[string]any)
	if typ, _ := row["type"].(string); typ == "user" || typ == "assistant" {
		if _, ok := row["uuid"]; !ok {
			row["uuid"] = w.ids.UUID()
		}
		for k, v := range map[string]any{"parentUuid": w.parent, "sessionId": w.t.SessionID, "cwd": w.cwd, "isSidechain": false, "timestamp": w.clock.Next()} {
			if _, ok := row[k]; !ok {
				row[k] = v
			}
		}
		w.parent = row["uuid"]
	}
	return w.write(row)
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
		at := ClockBase()
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

// WriteConfigFiles writes ConfigFiles under configDir, their paths and
// contents expanded with vars (see ConfigFilePlaceholders); the contents
// of a .json or .jsonl file with the values JSON-escaped, as a Windows
// path's backslashes must be.
func (s *Scenario) WriteConfigFiles(configDir string, vars map[string]string) error {
	var escaped map[string]string
	for rel, content := range s.ConfigFiles {
		p := filepath.Join(configDir, filepath.FromSlash(ExpandString(rel, vars)))
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			return err
		}
		in := vars
		if ext := path.Ext(rel); ext == ".json" || ext == ".jsonl" {
			if escaped == nil {
				escaped = JSONEscaped(vars)
			}
			in = escaped
		}
		if err := os.WriteFile(p, []byte(ExpandString(content, in)), 0o600); err != nil {
			return err
		}
	}
	return nil
}

// ConfigFileVars are the values of ConfigFilePlaceholders for a run in
// cwd with home and configDir, written now by this process.
func ConfigFileVars(cwd, home, configDir string, now time.Time) map[string]string {
	return map[string]string{"cwd": cwd, "home": home, "config_dir": configDir,
		"pid": strconv.Itoa(os.Getpid()), "ppid": strconv.Itoa(os.Getppid()), "now_ms": strconv.FormatInt(now.UnixMilli(), 10),
		"project_dir": projectdir.Name(cwd)}
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
