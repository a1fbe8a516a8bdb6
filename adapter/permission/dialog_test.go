package permission

import (
	"encoding/json"
	"testing"

	"github.com/airwire/airwire/conform/goldentest"
	"github.com/airwire/airwire/internal/testroot"

	"github.com/airwire/airwire/adapter/caps"
)

// TestGoldenRefusalFallbackDialog replays the scripted refusal-fallback
// dialog of refusal-fallback-dialog through AskDialog and Answer: the
// elicitation and the dialog's answer are the reference's.
func TestGoldenRefusalFallbackDialog(t *testing.T) {
	root := testroot.Root(t)
	for _, profile := range []string{"plain", "zed", "air"} {
		t.Run(profile, func(t *testing.T) {
			lines := goldentest.Read(t, goldentest.Path(t, "refusal-fallback-dialog", profile))
			s := goldenSession(t, lines)
			frames := cliRequests(t, root, "refusal-fallback-dialog", profile, "request_user_dialog")
			exchanges, _ := goldenExchanges(lines, MethodCreateElicitation)
			responses := dialogResponses(lines)
			if len(frames) != 1 || len(exchanges) != 1 || len(responses) != 1 {
				t.Fatalf("%d frames, %d requests, %d responses", len(frames), len(exchanges), len(responses))
			}
			d, err := ParseUserDialog(frames[0].Request)
			if err != nil {
				t.Fatal(err)
			}
			prompt, now, bad := AskDialog(d, s.ID, s.Client)
			if now != nil || bad {
				t.Fatalf("immediate decision %s (bad payload %v)", now.Response, bad)
			}
			assertJSON(t, "request params", prompt.Params, exchanges[0].Params)
			dec := prompt.Answer(exchanges[0].Answer)
			assertJSON(t, "control_response", dec.ControlResponse(requestIDOf(t, responses[0])), responses[0])
		})
	}
}

// dialogResponses are the control_responses of the golden that answer a
// dialog ({behavior: completed|cancelled}).
func dialogResponses(lines []goldentest.Line) []json.RawMessage {
	var out []json.RawMessage
	for _, l := range lines {
		var f struct {
			Response struct {
				Response struct {
					Behavior string `json:"behavior"`
				} `json:"response"`
			} `json:"response"`
		}
		_ = json.Unmarshal(l.Msg, &f)
		if b := f.Response.Response.Behavior; l.Tag == "cli:1 agent->cli" && (b == dialogCompleted || b == dialogCancelledBy) {
			out = append(out, l.Msg)
		}
	}
	return out
}

// TestDialogDefaults: only an accepted retry retries; every other answer,
// an undeclared kind, an unreadable payload, an editor without form
// elicitation, an editor error and a withdrawal keep the refusal.
func TestDialogDefaults(t *testing.T) {
	form := caps.Parse(json.RawMessage(`{"elicitation":{"form":{}}}`))
	none := caps.Parse(json.RawMessage(`{}`))
	payload := json.RawMessage(`{"originalModel":"a","fallbackModel":"b","apiRefusalCategory":null,"guidanceText":""}`)
	cancelled := `{"behavior":"cancelled"}`
	for _, tt := range []struct {
		name   string
		d      UserDialog
		client caps.Client
		bad    bool
	}{
		{"undeclared kind", UserDialog{Kind: "other", Payload: payload}, form, false},
		{"model missing", UserDialog{Kind: DialogRefusalFallback, Payload: json.RawMessage(`{"originalModel":"a"}`)}, form, true},
		{"model not a string", UserDialog{Kind: DialogRefusalFallback, Payload: json.RawMessage(`{"originalModel":"a","fallbackModel":1}`)}, form, true},
		{"no form elicitation", UserDialog{Kind: DialogRefusalFallback, Payload: payload}, none, false},
	} {
		p, now, bad := AskDialog(tt.d, "s", tt.client)
		if p != nil || now == nil || bad != tt.bad {
			t.Errorf("%s: prompt %v, bad %v", tt.name, p != nil, bad)
			continue
		}
		assertJSON(t, tt.name, now.Response, json.RawMessage(cancelled))
	}
	p, _, _ := AskDialog(UserDialog{Kind: DialogRefusalFallback, Payload: payload}, "s", form)
	var params struct {
		Message string `json:"message"`
	}
	_ = json.Unmarshal(p.Params, &params)
	if params.Message != "a declined this request. Retry with b?" {
		t.Errorf("message without category and guidance: %q", params.Message)
	}
	keep := `{"behavior":"completed","result":"cancelled"}`
	for answer, want := range map[string]string{
		`{"action":"accept","content":{"choice":"retry_fallback"}}`:  `{"behavior":"completed","result":"retry_fallback"}`,
		`{"action":"accept","content":{"choice":"cancelled"}}`:       keep,
		`{"action":"accept","content":{}}`:                           keep,
		`{"action":"accept","content":["retry_fallback"]}`:           keep,
		`{"action":"decline","content":{"choice":"retry_fallback"}}`: keep,
		`{"action":"cancel"}`:                                        keep,
	} {
		assertJSON(t, answer, p.Answer(json.RawMessage(answer)).Response, json.RawMessage(want))
	}
	assertJSON(t, "editor error", p.Fail("boom").Response, json.RawMessage(cancelled))
	assertJSON(t, "withdrawn", p.Aborted().Response, json.RawMessage(cancelled))
}
