package sessionconfig

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/airwire/airwire/conform/goldentest"
)

// TestChangesMatchGoldens replays the set_mode and set_config_option
// requests of the set-mode and set-config-option goldens on a session
// built from the cassette, and compares the updates published before each
// response, the response, and the control requests sent to the CLI.
func TestChangesMatchGoldens(t *testing.T) {
	for _, profile := range []string{"plain", "zed"} {
		for _, name := range []string{"set-mode", "set-config-option", "auto-mode-fallback", "settings-effort", "settings-available-models"} {
			t.Run(profile+"/"+name, func(t *testing.T) {
				path := goldentest.Profile(t, profile, true)[name]
				a := answersOf(t, goldentest.LoadCassette(t, path).Processes[0])
				in, o := a.openingOf(goldentest.LoadCassette(t, path).Processes[0].Argv, transcriptModel(t, name))
				s := New(in, a.settings, o)
				lines := goldentest.Read(t, path)
				var sent []string
				setModel, setMode := Opening(in, o)
				for _, r := range [][]byte{setModel, setMode} {
					if r != nil {
						sent = append(sent, goldentest.Canon(t, r))
					}
				}
				for i, l := range lines {
					var req struct {
						ID     json.RawMessage `json:"id"`
						Method string          `json:"method"`
						Params struct {
							ModeID   string          `json:"modeId"`
							ConfigID string          `json:"configId"`
							Value    json.RawMessage `json:"value"`
						} `json:"params"`
					}
					if l.Tag != "client editor->agent" || json.Unmarshal(l.Msg, &req) != nil {
						continue
					}
					var plan Plan
					var err error
					switch req.Method {
					case "session/set_mode":
						plan, err = s.SetMode(req.Params.ModeID)
					case "session/set_config_option":
						plan, err = s.SetConfigOption(req.Params.ConfigID, req.Params.Value)
					default:
						continue
					}
					wantUpdates, wantResp := answerOf(t, lines[i+1:], req.ID)
					var got []string
					var resp map[string]any
					if err != nil {
						var pe *ParamsError
						if !errors.As(err, &pe) {
							t.Fatalf("error %v is not a ParamsError", err)
						}
						resp = map[string]any{"error": map[string]any{"code": pe.Code(), "message": pe.Error()}, "id": req.ID, "jsonrpc": "2.0"}
					} else {
						for _, r := range plan.Requests {
							sent = append(sent, goldentest.Canon(t, r))
						}
						out := plan.Commit()
						for _, u := range out.Updates {
							got = append(got, goldentest.Canon(t, u))
						}
						for _, r := range out.After {
							sent = append(sent, goldentest.Canon(t, r))
						}
						resp = map[string]any{"id": req.ID, "jsonrpc": "2.0", "result": out.Result}
					}
					if !slices.Equal(got, wantUpdates) {
						t.Errorf("%s %s: updates\n got %v\nwant %v", req.Method, req.ID, got, wantUpdates)
					}
					if r := goldentest.Canon(t, marshal(resp)); r != wantResp {
						t.Errorf("%s %s: response\n got %s\nwant %s", req.Method, req.ID, r, wantResp)
					}
				}
				if want := cliRequests(t, lines); !slices.Equal(sent, want) {
					t.Errorf("control requests\n got %v\nwant %v", sent, want)
				}
			})
		}
	}
}

// answerOf returns the mode and config updates, and the advisories, the agent sent before its
// response to id, and that response.
func answerOf(t *testing.T, lines []goldentest.Line, id json.RawMessage) ([]string, string) {
	var updates []string
	for _, l := range lines {
		if l.Tag != "client agent->editor" {
			continue
		}
		var m struct {
			ID     json.RawMessage `json:"id"`
			Params struct {
				Update json.RawMessage `json:"update"`
			} `json:"params"`
		}
		_ = json.Unmarshal(l.Msg, &m)
		if string(m.ID) == string(id) {
			return updates, goldentest.Canon(t, l.Msg)
		}
		var u struct {
			SessionUpdate string `json:"sessionUpdate"`
		}
		_ = json.Unmarshal(m.Params.Update, &u)
		switch u.SessionUpdate {
		case "current_mode_update", "config_option_update", "notice", "agent_message_chunk": // the last two: advisories

			updates = append(updates, goldentest.Canon(t, m.Params.Update))
		}
	}
	t.Fatalf("no response to %s", id)
	return nil, ""
}

// cliRequests lists the golden's control requests that a change sends.
func cliRequests(t *testing.T, lines []goldentest.Line) []string {
	changes := []string{"set_permission_mode", "set_model", "apply_flag_settings", "get_context_usage"}
	var out []string
	seenContext := false
	for _, l := range lines {
		if !strings.HasSuffix(l.Tag, "agent->cli") {
			continue
		}
		var m struct {
			Type    string          `json:"type"`
			Request json.RawMessage `json:"request"`
		}
		var sub struct {
			Subtype string `json:"subtype"`
		}
		if json.Unmarshal(l.Msg, &m) != nil || m.Type != "control_request" || json.Unmarshal(m.Request, &sub) != nil {
			continue
		}
		if sub.Subtype == "get_context_usage" && !seenContext {
			seenContext = true // the session's own refresh at setup
			continue
		}
		if slices.Contains(changes, sub.Subtype) {
			out = append(out, goldentest.Canon(t, m.Request))
		}
	}
	return out
}
