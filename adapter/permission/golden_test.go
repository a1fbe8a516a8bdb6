package permission

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airwire/airwire/conform/goldentest"

	"go.yaml.in/yaml/v3"

	"github.com/airwire/airwire/adapter/caps"
)

// Test paths stand for the recorded run's placeholders: the suite runs with
// the workspace at <root>/work and HOME at <root>/home (conform).
const (
	testCwd  = "/tmp/run/work"
	testHome = "/tmp/run/home"
)

// cliRequests are the CLI → host control requests of a run with subtype
// (can_use_tool or elicitation): from the cassette of a recorded run, else
// from the scenario's scripted CLI. Each is {request_id, request}.
func cliRequests(t *testing.T, root, scenario, profile, subtype string) []controlFrame {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, "goldens", scenario, profile+".cassette"))
	if os.IsNotExist(err) {
		return scriptedRequests(t, root, scenario, subtype)
	}
	if err != nil {
		t.Fatal(err)
	}
	data = bytes.ReplaceAll(data, []byte("{{cwd}}"), []byte(testCwd))
	data = bytes.ReplaceAll(data, []byte("{{config_dir}}"), []byte(testHome+"/.claude"))
	data = bytes.ReplaceAll(data, []byte("{{home}}"), []byte(testHome))
	var out []controlFrame
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var row struct {
			Dir string       `json:"dir"`
			Msg controlFrame `json:"msg"`
		}
		if json.Unmarshal(sc.Bytes(), &row) != nil || row.Dir != "cli" || row.Msg.Type != "control_request" {
			continue
		}
		if row.Msg.subtype() == subtype {
			out = append(out, row.Msg)
		}
	}
	return out
}

// controlFrame is a control request frame.
type controlFrame struct {
	Type      string          `json:"type"`
	RequestID string          `json:"request_id"`
	Request   json.RawMessage `json:"request"`
}

func (f controlFrame) subtype() string {
	var s struct {
		Subtype string `json:"subtype"`
	}
	_ = json.Unmarshal(f.Request, &s)
	return s.Subtype
}

// scriptedRequests reads the `control:` (can_use_tool) and `elicitation:`
// steps of scenarios/<scenario>.yaml, as conform/scenario builds them.
func scriptedRequests(t *testing.T, root, scenario, subtype string) []controlFrame {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, "scenarios", scenario+".yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var sc struct {
		CLI struct {
			Turns []struct {
				Steps []struct {
					Control     map[string]any `yaml:"control"`
					Elicitation map[string]any `yaml:"elicitation"`
				} `yaml:"steps"`
			} `yaml:"turns"`
		} `yaml:"cli"`
	}
	if err := yaml.Unmarshal(data, &sc); err != nil {
		t.Fatal(err)
	}
	var out []controlFrame
	for _, turn := range sc.CLI.Turns {
		for _, st := range turn.Steps {
			req := st.Control
			if st.Elicitation != nil {
				req = st.Elicitation
				req["subtype"] = "elicitation"
			}
			if req != nil && req["subtype"] == subtype {
				out = append(out, controlFrame{Type: "control_request", RequestID: "scripted", Request: marshal(req)})
			}
		}
	}
	return out
}

// rpc is a JSON-RPC message of the client lane.
type rpc struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
}

// exchange is one editor request of a golden, its answer and the
// control_response that settled the CLI's request.
type exchange struct {
	Method string
	Params json.RawMessage
	Answer json.RawMessage
	// ModeUpdate is the currentModeId of a current_mode_update that the
	// adapter sent right after the answer, "" when none.
	ModeUpdate string
}

// goldenExchanges finds the editor requests of method and the CLI answers
// (control_responses carrying behavior or action, or an error), in order.
func goldenExchanges(lines []goldentest.Line, method string) (reqs []exchange, responses []json.RawMessage) {
	for i, l := range lines {
		var m rpc
		_ = json.Unmarshal(l.Msg, &m)
		if l.Tag == "client agent->editor" && m.Method == method {
			ex := exchange{Method: method, Params: m.Params}
			for j := i + 1; j < len(lines); j++ {
				var r rpc
				_ = json.Unmarshal(lines[j].Msg, &r)
				if lines[j].Tag == "client editor->agent" && r.Method == "" && string(r.ID) == string(m.ID) {
					ex.Answer = r.Result
					ex.ModeUpdate = modeUpdateAfter(lines[j+1:])
					break
				}
			}
			reqs = append(reqs, ex)
		}
		if strings.HasSuffix(l.Tag, "agent->cli") && isDecisionResponse(l.Msg) {
			responses = append(responses, l.Msg)
		}
	}
	return reqs, responses
}

// modeUpdateAfter is the mode of a current_mode_update that is the first
// agent->editor line of rest (the lines after the editor's answer).
func modeUpdateAfter(rest []goldentest.Line) string {
	for _, l := range rest {
		if l.Tag != "client agent->editor" {
			continue
		}
		var m struct {
			Params struct {
				Update struct {
					SessionUpdate string `json:"sessionUpdate"`
					CurrentModeID string `json:"currentModeId"`
				} `json:"update"`
			} `json:"params"`
		}
		_ = json.Unmarshal(l.Msg, &m)
		if m.Params.Update.SessionUpdate == "current_mode_update" {
			return m.Params.Update.CurrentModeID
		}
		return ""
	}
	return ""
}

// cassetteAnswer is the control_response the reference wrote for the CLI's
// request requestID in the cassette of a recorded run (nil for a scripted
// run), with the cassette's paths replaced by the test paths.
func cassetteAnswer(t *testing.T, root, scenario, profile, requestID string) json.RawMessage {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, "goldens", scenario, profile+".cassette"))
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	data = bytes.ReplaceAll(data, []byte("{{cwd}}"), []byte(testCwd))
	data = bytes.ReplaceAll(data, []byte("{{config_dir}}"), []byte(testHome+"/.claude"))
	data = bytes.ReplaceAll(data, []byte("{{home}}"), []byte(testHome))
	for _, line := range bytes.Split(data, []byte("\n")) {
		var row struct {
			Dir string          `json:"dir"`
			Msg json.RawMessage `json:"msg"`
		}
		if json.Unmarshal(line, &row) != nil || row.Dir != "agent" || !isDecisionResponse(row.Msg) {
			continue
		}
		if requestIDOf(t, row.Msg) == requestID {
			return row.Msg
		}
	}
	t.Fatalf("no answer to %s in the cassette", requestID)
	return nil
}

// isDecisionResponse reports a control_response that answers a permission
// or elicitation request (not a hook or a host request).
func isDecisionResponse(msg json.RawMessage) bool {
	var f struct {
		Type     string `json:"type"`
		Response struct {
			Subtype  string                     `json:"subtype"`
			Response map[string]json.RawMessage `json:"response"`
		} `json:"response"`
	}
	if json.Unmarshal(msg, &f) != nil || f.Type != "control_response" {
		return false
	}
	_, behavior := f.Response.Response["behavior"]
	_, action := f.Response.Response["action"]
	return f.Response.Subtype == "error" || behavior || action
}

// goldenSession is the session state the golden run had.
func goldenSession(t *testing.T, lines []goldentest.Line) Session {
	t.Helper()
	s := Session{ID: "<session-1>", Cwd: testCwd, Home: testHome, ReportUnanswered: true}
	for _, l := range lines {
		var m rpc
		_ = json.Unmarshal(l.Msg, &m)
		if m.Method == "initialize" {
			var p struct {
				ClientCapabilities json.RawMessage `json:"clientCapabilities"`
			}
			_ = json.Unmarshal(m.Params, &p)
			s.Client = caps.Parse(p.ClientCapabilities)
		}
		var res struct {
			Modes struct {
				AvailableModes []struct {
					ID string `json:"id"`
				} `json:"availableModes"`
			} `json:"modes"`
		}
		if l.Tag == "client agent->editor" && json.Unmarshal(m.Result, &res) == nil && s.Modes == nil {
			for _, mode := range res.Modes.AvailableModes {
				s.Modes = append(s.Modes, mode.ID)
			}
		}
	}
	return s
}

// toLive and toGolden swap the golden's path placeholders and the test
// paths.
func toLive(raw json.RawMessage) json.RawMessage {
	return json.RawMessage(strings.NewReplacer("<cwd>", testCwd, "<config>", testHome+"/.claude", "<home>", testHome).Replace(string(raw)))
}

func toGolden(raw json.RawMessage) json.RawMessage {
	// the CLI's config directory first: the golden writes it <config>
	return json.RawMessage(strings.NewReplacer(testCwd, "<cwd>", testHome+"/.claude", "<config>", testHome, "<home>").Replace(string(raw)))
}

// canonical re-encodes raw with sorted keys, as the goldens are written.
func canonical(t *testing.T, raw json.RawMessage) string {
	t.Helper()
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("bad JSON %s: %v", raw, err)
	}
	return string(marshal(v))
}

// assertJSON compares two JSON values canonically.
func assertJSON(t *testing.T, what string, got, want json.RawMessage) {
	t.Helper()
	if g, w := canonical(t, got), canonical(t, want); g != w {
		t.Errorf("%s:\n got %s\nwant %s", what, g, w)
	}
}

// requestIDOf is the request id of a control_response frame: pairing ids is
// the caller's job, so the tests answer with the golden's id.
func requestIDOf(t *testing.T, frame json.RawMessage) string {
	t.Helper()
	var f struct {
		Response struct {
			RequestID string `json:"request_id"`
		} `json:"response"`
	}
	if err := json.Unmarshal(frame, &f); err != nil {
		t.Fatal(err)
	}
	return f.Response.RequestID
}

var permissionScenarios = []string{
	"permission-allow-always", "permission-denied", "permission-blocked-path",
	"permission-answer-cancelled", "edit-with-permission", "edit-rejected",
	"network-permission", "exit-plan-approve", "exit-plan-reject",
	"cancel-mid-permission", "bash-foreground", "ask-user-question",
	"ask-user-question-multiselect", "permission-skill-exact", "permission-read-outside",
	"permission-bash-outside-paths", "permission-claude-settings-edit",
}

// checkExchange runs one request through the package and returns the
// decision on the golden's answer.
func checkExchange(t *testing.T, f controlFrame, ex exchange, response json.RawMessage, s Session) Decision {
	t.Helper()
	req, err := ParseRequest(f.Request)
	if err != nil {
		t.Fatal(err)
	}
	var params struct {
		ToolCall json.RawMessage `json:"toolCall"`
	}
	_ = json.Unmarshal(ex.Params, &params)
	prompt, now := Ask(req, toLive(params.ToolCall), s)
	if now != nil {
		t.Fatalf("immediate decision %s %s", now.Response, now.Error)
	}
	if prompt.Method != ex.Method {
		t.Fatalf("method %s, want %s", prompt.Method, ex.Method)
	}
	assertJSON(t, "request params", toGolden(prompt.Params), ex.Params)
	d := prompt.Answer(ex.Answer)
	assertJSON(t, "control_response", toGolden(d.ControlResponse(requestIDOf(t, response))), response)
	return d
}
