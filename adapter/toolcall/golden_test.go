package toolcall

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/airwire/airwire/conform/goldentest"

	"github.com/airwire/airwire/adapter/caps"
	"github.com/airwire/airwire/conform"
	"github.com/airwire/airwire/conform/scenario"

	"github.com/airwire/airwire/internal/testroot"
)

// The fake run directories put in place of the cassette placeholders; the
// golden normalizer turns them into <cwd>, <home>, <config> and <tmp>. The
// recorded TMPDIR was the run directory's tmp.
const (
	fakeRoot   = "/fake-run-0"
	fakeCwd    = fakeRoot + "/cwd"
	fakeHome   = fakeRoot + "/home"
	fakeConfig = fakeRoot + "/config"
)

var placeholders = strings.NewReplacer(
	"{{cwd}}", fakeCwd, "{{home}}", fakeHome, "{{config_dir}}", fakeConfig, "{{tmpdir}}", fakeRoot+"/tmp",
	"{{project_dir}}", "<project-dir>", "{{session_id_1}}", "<session-1>", "{{session_id_2}}", "<session-2>",
)

// madeIDs are the ids the real CLI makes up (subagents, background
// tasks); the golden names them <agent-N> and <task-N> by first appearance.
var madeIDs = []struct {
	re   *regexp.Regexp
	kind string
}{
	{regexp.MustCompile(`"agentId":"(a[0-9a-f]{16})"`), "agent"},
	{regexp.MustCompile(`"(?:backgroundTaskId|task_id|taskId)":"([a-z][0-9a-z]{8})"`), "task"},
}

// canonical is JSON with sorted keys, numbers as written, no HTML escaping.
func canonical(t *testing.T, raw []byte) string {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		t.Fatalf("bad JSON %s: %v", raw, err)
	}
	return string(encode(v))
}

// goldenTool reads a golden: the client capabilities, the tool related
// session updates in order, and the tool calls of the permission requests.
func goldenTool(t *testing.T, path string) (caps.Client, []string, []string) {
	t.Helper()
	var c caps.Client
	var updates, permissions []string
	for _, line := range goldentest.Read(t, path) {
		tag := line.Tag
		var msg struct {
			Method string `json:"method"`
			Params struct {
				ClientCapabilities json.RawMessage `json:"clientCapabilities"`
				Update             json.RawMessage `json:"update"`
				ToolCall           json.RawMessage `json:"toolCall"`
			} `json:"params"`
		}
		if json.Unmarshal(line.Msg, &msg) != nil {
			continue
		}
		switch {
		case tag == "client editor->agent" && msg.Method == "initialize":
			c = caps.Parse(msg.Params.ClientCapabilities)
		case tag == "client agent->editor" && msg.Method == "session/update":
			var u struct {
				SessionUpdate string `json:"sessionUpdate"`
			}
			_ = json.Unmarshal(msg.Params.Update, &u)
			switch u.SessionUpdate {
			case kindToolCall, kindToolCallUpdate, kindPlan:
				updates = append(updates, canonical(t, msg.Params.Update))
			}
		case tag == "client agent->editor" && msg.Method == "session/request_permission":
			permissions = append(permissions, canonical(t, msg.Params.ToolCall))
		}
	}
	return c, updates, permissions
}

// feeder feeds CLI frames to a Session and keeps its updates and
// permission tool calls, normalized as the golden is.
type feeder struct {
	t                    *testing.T
	s                    *Session
	nz                   *conform.Normalizer
	made                 map[string]string
	count                map[string]int
	updates, permissions []string
	// onFrame, when set, sees each frame after the session (the AIR test's
	// disk follows the writes).
	onFrame func(json.RawMessage)
}

func newFeeder(t *testing.T, c caps.Client) *feeder {
	return &feeder{t: t, s: NewSession(c, fakeCwd), made: map[string]string{}, count: map[string]int{},
		nz: conform.NewNormalizer(conform.Paths{Root: fakeRoot, Cwd: fakeCwd, Home: fakeHome, ConfigDir: fakeConfig})}
}

func (f *feeder) norm(v any) string {
	text := string(encode(v))
	for id, p := range f.made {
		text = strings.ReplaceAll(text, id, p)
	}
	line, err := f.nz.Line(json.RawMessage(text))
	if err != nil {
		f.t.Fatal(err)
	}
	return string(line)
}

// feed takes one CLI frame, placeholders already replaced. The durations
// the frame carries are the CLI side's, which the golden keeps.
func (f *feeder) feed(msg json.RawMessage) {
	f.nz.FixDurations([]json.RawMessage{msg})
	for _, made := range madeIDs {
		for _, m := range made.re.FindAllSubmatch(msg, -1) {
			if _, ok := f.made[string(m[1])]; !ok {
				f.count[made.kind]++
				f.made[string(m[1])] = fmt.Sprintf("<%s-%d>", made.kind, f.count[made.kind])
			}
		}
	}
	if p, ok := permissionOf(msg); ok {
		before, call := f.s.Permission(p)
		for _, u := range before {
			f.updates = append(f.updates, f.norm(u))
		}
		// The questions of AskUserQuestion go to form elicitation, not to a
		// permission request.
		if p.ToolName != "AskUserQuestion" {
			f.permissions = append(f.permissions, f.norm(call))
		}
		return
	}
	if f.onFrame != nil {
		f.onFrame(msg)
	}
	for _, u := range f.s.Frame(msg) {
		f.updates = append(f.updates, f.norm(u))
	}
}

// replayCassette feeds the CLI frames of a cassette.
func (f *feeder) replayCassette(path string) {
	file, err := os.Open(path)
	if err != nil {
		f.t.Fatal(err)
	}
	defer file.Close()
	sc := bufio.NewScanner(file)
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var entry struct {
			Dir string          `json:"dir"`
			Msg json.RawMessage `json:"msg"`
		}
		if json.Unmarshal([]byte(placeholders.Replace(sc.Text())), &entry) == nil && entry.Dir == "cli" {
			f.feed(entry.Msg)
		}
	}
	if err := sc.Err(); err != nil {
		f.t.Fatal(err)
	}
}

// replayScript feeds the frames the scripted fake CLI writes for a
// scenario's turns, allowing every permission request.
func (f *feeder) replayScript(sc *scenario.Scenario) {
	b := scenario.NewBuilder(sc.CLI.Model)
	for _, turn := range sc.CLI.Turns {
		f.actions(b.Turn(turn))
	}
}

func (f *feeder) actions(actions []scenario.Action) {
	for _, a := range actions {
		switch a.Kind {
		case scenario.ActEmit:
			f.feed(json.RawMessage(placeholders.Replace(string(encode(a.Frame)))))
		case scenario.ActRequest:
			req := map[string]any{"type": "control_request", "request": a.Frame}
			f.feed(json.RawMessage(placeholders.Replace(string(encode(req)))))
			f.actions(a.Allow)
		case scenario.ActHook:
			in := map[string]any{"hook_event_name": a.Hook.Event}
			for k, v := range a.Hook.Input {
				in[k] = v
			}
			req := map[string]any{"type": "control_request", "request": map[string]any{
				"subtype": "hook_callback", "tool_use_id": a.Hook.ToolUseID, "input": in}}
			f.feed(json.RawMessage(placeholders.Replace(string(encode(req)))))
		}
	}
}

// permissionOf reads a `can_use_tool` control request.
func permissionOf(msg json.RawMessage) (PermissionRequest, bool) {
	var f struct {
		Type    string `json:"type"`
		Request struct {
			Subtype     string          `json:"subtype"`
			ToolName    string          `json:"tool_name"`
			Input       json.RawMessage `json:"input"`
			ToolUseID   string          `json:"tool_use_id"`
			BlockedPath string          `json:"blocked_path"`
		} `json:"request"`
	}
	if json.Unmarshal(msg, &f) != nil || f.Type != "control_request" || f.Request.Subtype != "can_use_tool" {
		return PermissionRequest{}, false
	}
	r := f.Request
	return PermissionRequest{ToolUseID: r.ToolUseID, ToolName: r.ToolName, Input: r.Input, BlockedPath: r.BlockedPath}, true
}

// goldenScenarios are the recorded scenarios whose tool calls this
// package reproduces exactly, with the profiles that match. In the Zed runs
// of bash-background and async-task-held-until-tool-id the turn loop keeps
// a backgrounded command's terminal open (no terminal_exit), and in the Zed
// run of cancel-mid-permission the cancel path closes the tool call; both
// are outside this package.
var goldenScenarios = []struct {
	name     string
	profiles []string
}{
	{"read", both}, {"bash-foreground", both}, {"bash-error", both}, {"edit-with-permission", both},
	{"edit-rejected", both}, {"write-new", both}, {"write-existing", both}, {"grep-and-glob", both},
	{"web-fetch-and-search", both}, {"notebook-edit", both}, {"todo-write", both},
	{"task-create-update", both}, {"task-output-and-stop", both}, {"skill", both}, {"mcp-tool", both},
	{"mcp-elicitation", both}, {"subagent-task-legacy", both}, {"subagent-agent-async", both},
	{"subagent-late-child-update", both}, {"subagent-native-sessions", both}, {"subagent-nested", both},
	{"exit-plan-approve", both}, {"exit-plan-reject", both}, {"ask-user-question", both},
	{"permission-allow-always", both}, {"permission-answer-cancelled", both},
	{"permission-blocked-path", both}, {"commands-changed", both}, {"prompt-suggestion", both},
	{"set-mode", both}, {"tool-progress", both}, {"permission-denied", both},
	{"auto-mode-classifier-blocked", both}, {"bash-background", plainOnly}, {"async-task-held-until-tool-id", plainOnly},
	{"cancel-mid-permission", plainOnly},
}

var (
	both      = []string{"plain", "zed"}
	plainOnly = []string{"plain"}
)

func TestGoldenToolCalls(t *testing.T) {
	root := testroot.Root(t)
	for _, sc := range goldenScenarios {
		name := sc.name
		for _, profile := range sc.profiles {
			t.Run(name+"/"+profile, func(t *testing.T) {
				dir := filepath.Join(root, "goldens", name)
				c, wantUpdates, wantPermissions := goldenTool(t, filepath.Join(dir, profile+".golden"))
				if len(wantUpdates) == 0 {
					t.Fatal("the golden has no tool call")
				}
				f := newFeeder(t, c)
				sc, err := scenario.Load(filepath.Join(root, "scenarios", name+".yaml"))
				if err != nil {
					t.Fatal(err)
				}
				if sc.Live() {
					f.replayCassette(filepath.Join(dir, profile+".cassette"))
				} else {
					f.replayScript(sc)
				}
				goldentest.CompareLines(t, "update", f.updates, wantUpdates)
				goldentest.CompareLines(t, "permission tool call", f.permissions, wantPermissions)
			})
		}
	}
}
