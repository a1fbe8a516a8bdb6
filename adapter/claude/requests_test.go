package claude

import (
	"bytes"
	"context"
	"encoding/json"
	"github.com/airwire/airwire/conform/goldentest"
	"testing"

	"github.com/airwire/airwire/internal/jsonrpc"
)

// recordedRequest is an agent control_request line of a cassette.
type recordedRequest struct {
	RequestID string          `json:"request_id"`
	Request   json.RawMessage `json:"request"`
}

// typedRequest decodes a recorded request body into this package's type
// for its subtype (initialize aside).
func typedRequest(t *testing.T, subtype string, body json.RawMessage) ControlRequest {
	t.Helper()
	var r ControlRequest
	switch subtype {
	case "get_settings":
		r = &GetSettings{}
	case "get_context_usage":
		r = &GetContextUsage{}
	case "generate_session_title":
		r = &GenerateSessionTitle{}
	case "interrupt":
		r = &Interrupt{}
	case "set_permission_mode":
		r = &SetPermissionMode{}
	case "set_model":
		r = &SetModel{}
	case "apply_flag_settings":
		r = &ApplyFlagSettings{}
	case "mcp_status":
		r = &MCPStatus{}
	case "get_usage":
		r = &GetUsage{}
	case "mcp_reconnect":
		r = &MCPReconnect{}
	case "mcp_toggle":
		r = &MCPToggle{}
	case "mcp_authenticate":
		r = &MCPAuthenticate{}
	case "rename_session":
		r = &RenameSession{}
	case "stop_task":
		r = &StopTask{}
	case "rewind_files":
		r = &RewindFiles{}
	case "cancel_async_message":
		r = &CancelAsyncMessage{}
	default:
		t.Fatalf("no type for the recorded subtype %s", subtype)
	}
	if err := json.Unmarshal(body, r); err != nil {
		t.Fatal(err)
	}
	return r
}

// initializeOf rebuilds an Initialize from a recorded one: its hook events
// in recorded order, one func per recorded callback id.
func initializeOf(t *testing.T, body json.RawMessage) Initialize {
	t.Helper()
	var rec struct {
		Hooks                 orderedRaw `json:"hooks"`
		PromptSuggestions     *bool      `json:"promptSuggestions"`
		ForwardSubagentText   *bool      `json:"forwardSubagentText"`
		SupportedDialogKinds  []string   `json:"supportedDialogKinds"`
		PerTaskStopAffordance *bool      `json:"perTaskStopAffordance"`
	}
	if err := json.Unmarshal(body, &rec); err != nil {
		t.Fatal(err)
	}
	init := Initialize{PromptSuggestions: rec.PromptSuggestions, ForwardSubagentText: rec.ForwardSubagentText,
		SupportedDialogKinds: rec.SupportedDialogKinds, PerTaskStopAffordance: rec.PerTaskStopAffordance}
	for _, ev := range rec.Hooks {
		var matchers []struct {
			Matcher         string   `json:"matcher"`
			HookCallbackIDs []string `json:"hookCallbackIds"`
		}
		if err := json.Unmarshal(ev.Value, &matchers); err != nil {
			t.Fatal(err)
		}
		e := HookEvent{Event: ev.Name}
		for _, m := range matchers {
			hm := HookMatcher{Matcher: m.Matcher}
			for range m.HookCallbackIDs {
				hm.Hooks = append(hm.Hooks, func(context.Context, *HookCallback, Reply) {})
			}
			e.Matchers = append(e.Matchers, hm)
		}
		init.Hooks = append(init.Hooks, e)
	}
	return init
}

// encodeRequest is the line the Conn writes for req under id.
func encodeRequest(t *testing.T, id string, req ControlRequest) []byte {
	t.Helper()
	params, err := json.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	idJSON, _ := json.Marshal(id)
	frame, err := jsonrpc.StreamJSON{}.EncodeRequest(idJSON, req.Subtype(), params)
	if err != nil {
		t.Fatal(err)
	}
	return frame
}

// TestRequestsReproduceCassettes: every control request the reference
// wrote to the CLI in every cassette, rebuilt from this package's types
// (initialize with its hooks renumbered by the registry), encodes to the
// same frame.
func TestRequestsReproduceCassettes(t *testing.T) {
	counts := map[string]int{}
	for path, c := range goldentest.Cassettes(t) {
		for _, p := range c.Processes {
			for _, ev := range p.Events {
				var head struct{ Type string }
				if ev.Dir != "agent" || json.Unmarshal(ev.Msg, &head) != nil || head.Type != "control_request" {
					continue
				}
				var rec recordedRequest
				if err := json.Unmarshal(ev.Msg, &rec); err != nil {
					t.Fatal(err)
				}
				var sub struct{ Subtype string }
				_ = json.Unmarshal(rec.Request, &sub)
				var req ControlRequest
				if sub.Subtype == "initialize" {
					req = initializeOf(t, rec.Request).body(&hookRegistry{})
				} else {
					req = typedRequest(t, sub.Subtype, rec.Request)
				}
				counts[sub.Subtype]++
				if got := encodeRequest(t, rec.RequestID, req); !sameJSON(t, got, ev.Msg) {
					t.Errorf("%s %s:\n got %s\nwant %s", path, sub.Subtype, got, ev.Msg)
				}
			}
		}
	}
	for _, st := range []string{"initialize", "get_settings", "get_context_usage", "generate_session_title", "interrupt",
		"set_permission_mode", "set_model", "apply_flag_settings", "rename_session", "stop_task", "rewind_files",
		"cancel_async_message"} {
		if counts[st] == 0 {
			t.Errorf("no recorded %s checked", st)
		}
	}
	t.Logf("checked %v", counts)
}

// TestHookIDsFollowRegistration: ids run across events, matchers and funcs
// in order, and go on from where an earlier registration stopped.
func TestHookIDsFollowRegistration(t *testing.T) {
	f := func(context.Context, *HookCallback, Reply) {}
	var r hookRegistry
	p := r.register([]HookEvent{
		{Event: "PreToolUse", Matchers: []HookMatcher{{Matcher: "Edit|Write", Timeout: 30, Hooks: []HookFunc{f, f}}}},
		{Event: "Empty"},
		{Event: "PostToolUse", Matchers: []HookMatcher{{Hooks: []HookFunc{f}}, {Hooks: []HookFunc{f}}}},
	})
	got, _ := json.Marshal(p)
	want := `{"PreToolUse":[{"matcher":"Edit|Write","hookCallbackIds":["hook_0","hook_1"],"timeout":30}],` +
		`"PostToolUse":[{"hookCallbackIds":["hook_2"]},{"hookCallbackIds":["hook_3"]}]}`
	if string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	again, _ := json.Marshal(r.register([]HookEvent{{Event: "Stop", Matchers: []HookMatcher{{Hooks: []HookFunc{f}}}}}))
	if !bytes.Contains(again, []byte(`"hook_4"`)) {
		t.Errorf("second registration %s does not go on at hook_4", again)
	}
	if r.lookup("hook_3") == nil || r.lookup("hook_9") != nil {
		t.Error("lookup does not find exactly the registered ids")
	}
}

// TestUserInputReproducesCassettes: every user message the reference
// wrote decodes into UserInput and encodes back the same.
func TestUserInputReproducesCassettes(t *testing.T) {
	n := 0
	for path, c := range goldentest.Cassettes(t) {
		for _, p := range c.Processes {
			for _, ev := range p.Events {
				var u UserInput
				if ev.Dir != "agent" || json.Unmarshal(ev.Msg, &u) != nil || u.Type != "user" {
					continue
				}
				n++
				got, err := json.Marshal(u)
				if err != nil {
					t.Fatal(err)
				}
				if !sameJSON(t, got, ev.Msg) {
					t.Errorf("%s:\n got %s\nwant %s", path, got, ev.Msg)
				}
			}
		}
	}
	if n == 0 {
		t.Fatal("no user message checked")
	}
}

// TestNewUserInput is the reference's prompt frame.
func TestNewUserInput(t *testing.T) {
	u := NewUserInput("s-1", json.RawMessage(`[{"type":"text","text":"hi"}]`))
	if len(u.UUID) != 36 || u.UUID[14] != '4' {
		t.Errorf("uuid %q is not a v4 uuid", u.UUID)
	}
	got, _ := json.Marshal(u)
	want := `{"type":"user","message":{"role":"user","content":[{"type":"text","text":"hi"}]},"session_id":"s-1",` +
		`"parent_tool_use_id":null,"origin":{"kind":"human"},"uuid":"` + u.UUID + `"}`
	if string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// TestResponsesReproduceCassettes: every permission and elicitation answer
// the reference wrote decodes into PermissionResult / ElicitResult and
// encodes back the same.
func TestResponsesReproduceCassettes(t *testing.T) {
	kinds := map[string]int{}
	for path, c := range goldentest.Cassettes(t) {
		for _, p := range c.Processes {
			for _, ev := range p.Events {
				var rec struct {
					Type     string
					Response struct {
						Subtype  string
						Response json.RawMessage
					}
				}
				if ev.Dir != "agent" || json.Unmarshal(ev.Msg, &rec) != nil || rec.Type != "control_response" || rec.Response.Subtype != "success" {
					continue
				}
				var probe map[string]json.RawMessage
				_ = json.Unmarshal(rec.Response.Response, &probe)
				var v any
				switch {
				case probe["behavior"] != nil:
					v = &PermissionResult{}
				case probe["action"] != nil:
					v = &ElicitResult{}
				default:
					if !sameJSON(t, rec.Response.Response, HookContinue) {
						t.Errorf("%s: a hook output other than HookContinue: %s", path, rec.Response.Response)
					}
					kinds["hook"]++
					continue
				}
				kinds[string(probe["behavior"])+string(probe["action"])]++
				if err := json.Unmarshal(rec.Response.Response, v); err != nil {
					t.Fatal(err)
				}
				if got, _ := json.Marshal(v); !sameJSON(t, got, rec.Response.Response) {
					t.Errorf("%s:\n got %s\nwant %s", path, got, rec.Response.Response)
				}
			}
		}
	}
	if kinds[`"allow"`] == 0 || kinds[`"deny"`] == 0 || kinds["hook"] == 0 {
		t.Errorf("too few answers checked: %v", kinds)
	}
}

// sameJSON reports whether a and b hold the same JSON value.
func sameJSON(t *testing.T, a, b []byte) bool {
	t.Helper()
	var x, y any
	if err := json.Unmarshal(a, &x); err != nil {
		t.Fatalf("%s: %v", a, err)
	}
	if err := json.Unmarshal(b, &y); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	xa, _ := json.Marshal(x)
	ya, _ := json.Marshal(y)
	return string(xa) == string(ya)
}
