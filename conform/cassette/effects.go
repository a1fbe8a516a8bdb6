package cassette

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode/utf16"

	"github.com/airwire/airwire/conform/scenario"
)

// effects re-creates on disk what the recorded CLI left there and an
// adapter may read during the run:
//
//   - the session transcript, CLAUDE_CONFIG_DIR/projects/<encoded
//     cwd>/<session id>.jsonl: a user row per prompt the agent sends, a
//     row per top-level assistant or user frame played, a last-prompt row
//     after each result (but for a slash command Claude Code answered
//     locally: it echoed the command and ran no model turn), an ai-title row for each title the CLI generated
//     with persist: true (as conform/fakecli writes them); not under
//     --no-session-persistence; a prompt's row records the permission mode
//     the CLI runs in (its --permission-mode, then each set_permission_mode
//     of the agent and each mode a system frame of the CLI reports), which
//     a resume or fork of the session reads back;
//   - the files the Write and Edit tools changed, from the tool_response of
//     a PostToolUse hook_callback or the tool_use_result of a user frame,
//     whichever is played first; only inside the live cwd or HOME (the
//     run's own directories).
type effects struct {
	cwd, home, configDir, projectDir, tmpDir string
	session                                  string
	persist                                  bool
	parent                                   any
	lastPrompt                               string
	localCommand                             bool   // the prompt was echoed as a local slash command
	mode                                     string // the CLI's permission mode ("" when unknown)
	written                                  map[string]bool
	// titleRequests are the ids of the agent's generate_session_title
	// requests with persist: true, whose answered title the CLI stores.
	titleRequests map[any]bool
}

func newEffects(args []string, live map[string]string) *effects {
	fx := &effects{cwd: live[PlaceholderCwd], home: live[PlaceholderHome], configDir: live[PlaceholderConfigDir], projectDir: live[PlaceholderProjectDir], tmpDir: live[PlaceholderTmpDir],
		persist: !slices.Contains(args, "--no-session-persistence"), written: map[string]bool{}, titleRequests: map[any]bool{}}
	for _, o := range options(args) {
		if mode, ok := strings.CutPrefix(o, "--permission-mode="); ok {
			fx.mode = mode
		}
	}
	if !slices.Contains(args, "--fork-session") {
		for _, kv := range argvSessions(args) {
			fx.session = kv[1]
		}
	}
	if fx.session != "" && fx.configDir != "" && fx.projectDir != "" {
		// A resumed session's rows go on from the last row it has.
		fx.parent = lastUUID(filepath.Join(fx.configDir, "projects", fx.projectDir, fx.session+".jsonl"))
	}
	return fx
}

// agentFrame records a prompt (a user message from the agent) and a
// rename (a rename_session control request).
func (fx *effects) agentFrame(raw []byte) {
	var m map[string]any
	if json.Unmarshal(raw, &m) != nil {
		return
	}
	if req, ok := m["request"].(map[string]any); ok && m["type"] == "control_request" && req["subtype"] == "rename_session" {
		// The CLI stores a rename as a custom-title row, which session
		// lists read.
		fx.append(map[string]any{"type": "custom-title", "customTitle": req["title"], "sessionId": fx.session})
		return
	}
	if req, ok := m["request"].(map[string]any); ok && m["type"] == "control_request" && req["subtype"] == "generate_session_title" && req["persist"] == true {
		fx.titleRequests[m["request_id"]] = true
		return
	}
	if req, ok := m["request"].(map[string]any); ok && m["type"] == "control_request" && req["subtype"] == "set_permission_mode" {
		fx.setMode(req["mode"])
		return
	}
	if m["type"] != "user" {
		return
	}
	if text, ok := m["message"].(map[string]any); ok {
		fx.lastPrompt = userText(mustJSON(text["content"]))
	}
	fx.localCommand = false
	row := map[string]any{"type": "user", "message": m["message"], "uuid": m["uuid"], "timestamp": now(), "promptSource": "sdk"}
	if fx.mode != "" {
		row["permissionMode"] = fx.mode
	}
	fx.row(row, m["session_id"])
}

// setMode takes a permission mode the agent set or the CLI reported.
func (fx *effects) setMode(mode any) {
	if s, ok := mode.(string); ok && s != "" {
		fx.mode = s
	}
}

// cliFrame records a played CLI frame and applies its file changes.
func (fx *effects) cliFrame(raw []byte) {
	var m map[string]any
	if json.Unmarshal(raw, &m) != nil {
		return
	}
	switch m["type"] {
	case "assistant", "user":
		if r, ok := m["tool_use_result"].(map[string]any); ok {
			fx.applyFile(r)
		}
		// A prompt the CLI echoes (isReplay, --replay-user-messages) has
		// its row from the agent's frame already.
		if m["parent_tool_use_id"] != nil || m["isReplay"] == true {
			fx.localCommand = fx.localCommand || isCommandEcho(m)
			return
		}
		row := map[string]any{"type": m["type"], "message": m["message"], "uuid": m["uuid"], "timestamp": m["timestamp"]}
		if row["timestamp"] == nil {
			row["timestamp"] = now()
		}
		if r, ok := m["tool_use_result"]; ok {
			row["toolUseResult"] = r
		}
		fx.row(row, m["session_id"])
	case "system":
		fx.setMode(m["permissionMode"])
	case "result":
		if n, _ := m["num_turns"].(float64); fx.localCommand && n == 0 {
			return // the real CLI keeps no last prompt for a local command
		}
		fx.append(map[string]any{"type": "last-prompt", "lastPrompt": fx.lastPrompt, "leafUuid": fx.parent, "sessionId": fx.session})
	case "control_response":
		fx.storedTitle(m)
	case "control_request":
		req, _ := m["request"].(map[string]any)
		in, _ := req["input"].(map[string]any)
		if req["subtype"] == "hook_callback" && in["hook_event_name"] == "PostToolUse" {
			if r, ok := in["tool_response"].(map[string]any); ok {
				fx.applyFile(r)
			}
		}
	}
}

// storedTitle appends the ai-title row the CLI stores when it answers a
// generate_session_title request with persist: true with a title (the
// session's title that session lists and the adapter's turn end read).
func (fx *effects) storedTitle(m map[string]any) {
	resp, _ := m["response"].(map[string]any)
	if resp == nil || !fx.titleRequests[resp["request_id"]] {
		return
	}
	delete(fx.titleRequests, resp["request_id"])
	body, _ := resp["response"].(map[string]any)
	if title, _ := body["title"].(string); title != "" {
		fx.append(map[string]any{"type": "ai-title", "aiTitle": title, "sessionId": fx.session})
	}
}

// applyFile writes the file a Write (content) or Edit (originalFile with
// oldString replaced, in the file's CRLF line endings where the CLI keeps
// them) produced, once, when it lies inside the cwd or HOME.
func (fx *effects) applyFile(r map[string]any) {
	path, _ := r["filePath"].(string)
	if path == "" || fx.written[path] || !within(path, fx.cwd) && !within(path, fx.home) {
		return
	}
	content, isWrite := r["content"].(string)
	if !isWrite {
		orig, ok1 := r["originalFile"].(string)
		old, ok2 := r["oldString"].(string)
		repl, ok3 := r["newString"].(string)
		if !ok1 || !ok2 || !ok3 {
			return
		}
		n := 1
		if all, _ := r["replaceAll"].(bool); all {
			n = -1
		}
		content = strings.Replace(orig, old, repl, n)
		if disk, err := os.ReadFile(path); err == nil && crlfFile(string(disk), orig) {
			content = strings.ReplaceAll(strings.ReplaceAll(content, "\r\n", "\n"), "\n", "\r\n")
		}
	}
	if os.MkdirAll(filepath.Dir(path), 0o755) == nil && os.WriteFile(path, []byte(content), 0o644) == nil {
		fx.written[path] = true
	}
}

// within reports whether path lies inside dir ("" holds nothing).
func within(path, dir string) bool {
	return dir != "" && strings.HasPrefix(filepath.Clean(path), dir+string(filepath.Separator))
}

// crlfFile reports whether the CLI writes an Edit of disk back with CRLF
// line endings, as Claude Code 2.1.318 does: it reads a file with its CRLF
// pairs turned into LF (the originalFile of the tool result, orig), and
// writes the edited text with every LF turned into CRLF when the file's
// first 4,096 characters (UTF-16 units) hold more CRLF than lone LF. The
// disk text must be the one orig was read from.
func crlfFile(disk, orig string) bool {
	if strings.ReplaceAll(disk, "\r\n", "\n") != orig {
		return false
	}
	crlf, lf, units := 0, 0, 0
	for i, c := range disk {
		if units >= 4096 {
			break
		}
		if c == '\n' {
			if i > 0 && disk[i-1] == '\r' {
				crlf++
			} else {
				lf++
			}
		}
		units += utf16.RuneLen(c)
	}
	return crlf > lf
}

// lastUUID is the uuid of the last row of the transcript at path that has
// one (nil when none, or no transcript).
func lastUUID(path string) any {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var last any
	for _, line := range bytes.Split(b, []byte("\n")) {
		var r struct {
			UUID string `json:"uuid"`
		}
		if json.Unmarshal(line, &r) == nil && r.UUID != "" {
			last = r.UUID
		}
	}
	return last
}

// row appends a transcript row linked to the previous one.
func (fx *effects) row(row map[string]any, session any) {
	if s, ok := session.(string); ok && fx.session == "" {
		fx.session = s
	}
	row["parentUuid"] = fx.parent
	row["isSidechain"] = false
	row["userType"] = "external"
	row["entrypoint"] = "sdk-ts"
	row["cwd"] = fx.cwd
	row["sessionId"] = fx.session
	fx.append(row)
	if row["uuid"] != nil {
		fx.parent = row["uuid"]
	}
}

func (fx *effects) append(row map[string]any) {
	if !fx.persist || fx.session == "" || fx.configDir == "" || fx.projectDir == "" {
		return
	}
	_ = scenario.AppendRow(filepath.Join(fx.configDir, "projects", fx.projectDir, fx.session+".jsonl"), row)
}

func mustJSON(v any) json.RawMessage {
	b, _ := json.Marshal(v)
	return b
}

func now() string { return time.Now().UTC().Format("2006-01-02T15:04:05.000Z") }

// isCommandEcho reports a user frame that echoes a slash command
// (`<command-name>…`).
func isCommandEcho(m map[string]any) bool {
	msg, _ := m["message"].(map[string]any)
	text, _ := msg["content"].(string)
	return m["type"] == "user" && strings.HasPrefix(text, "<command-name>")
}
