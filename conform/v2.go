package conform

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/airwire/airwire/conform/scenario"
)

// The driver as an ACP v2 (draft) client, for a profile whose
// protocolVersion is 2 (conform/scenario/profiles.yaml). Scenarios are
// written once, in v1 terms; the driver speaks each step the way a v2
// client would:
//
//   - initialize sends info and capabilities (v1: clientInfo and
//     clientCapabilities), and the agent must answer protocolVersion 2;
//   - a prompt step ends with its turn, not with the prompt's answer: v2
//     answers session/prompt when the prompt is taken in (a messageId) and
//     reports the turn's end as an idle state_update carrying the stop
//     reason (or stopReason "error" with the JSON-RPC error v1 would answer);
//   - session/load is session/resume with replayFrom {type: start}, and
//     authenticate is auth/login (its params are the same methodId);
//   - session/set_mode and session/set_model are session/set_config_option
//     of the option whose category is mode or model (in the configOptions
//     of the session's setup answer; "mode" and "model" when it has none),
//     and a select value is typed "id", as v2 asks.
//
// A scenario that needs a v1-only method without a v2 counterpart
// (the client's fs/* and terminal/*, which v2 agents do themselves) does
// not list the v2 profiles.

// v2 reports whether the run's profile speaks the ACP v2 draft.
func (d *driver) v2() bool { return scenario.ProtocolVersion(d.o.Profile) == 2 }

// initializeParams is the initialize request of the run's profile.
func (d *driver) initializeParams(caps map[string]any) map[string]any {
	info := map[string]any{"name": ClientName, "version": "1.0.0"}
	if d.v2() {
		return map[string]any{"protocolVersion": 2, "capabilities": caps, "info": info}
	}
	return map[string]any{"protocolVersion": 1, "clientCapabilities": caps, "clientInfo": info}
}

// checkProtocol fails a v2 run whose agent did not agree to protocolVersion
// 2 in its initialize answer: the run would otherwise drive a v1 agent with
// v2 steps and fail later, at a step that says less.
func (d *driver) checkProtocol(m *agentMsg) error {
	if !d.v2() {
		return nil
	}
	var r struct {
		ProtocolVersion json.RawMessage `json:"protocolVersion"`
	}
	_ = json.Unmarshal(m.result, &r)
	if string(r.ProtocolVersion) == "2" {
		return nil
	}
	got := string(r.ProtocolVersion)
	if got == "" {
		got = "no protocolVersion"
	} else {
		got = "protocolVersion " + got
	}
	return fmt.Errorf("the agent answered initialize with %s; the profile %s needs 2 (the ACP v2 draft)", got, d.o.Profile)
}

// agentMeta is the _meta of the agent's capabilities in its initialize
// answer: agentCapabilities._meta in v1, capabilities._meta in v2.
func agentMeta(init *agentMsg) map[string]json.RawMessage {
	var r struct {
		V1 struct {
			Meta map[string]json.RawMessage `json:"_meta"`
		} `json:"agentCapabilities"`
		V2 struct {
			Meta map[string]json.RawMessage `json:"_meta"`
		} `json:"capabilities"`
	}
	if json.Unmarshal(init.result, &r) != nil {
		return nil
	}
	if r.V1.Meta != nil {
		return r.V1.Meta
	}
	return r.V2.Meta
}

// v2Method is the request a v2 client sends for a scenario's v1 request
// (see above). Every other method is its own.
func (d *driver) v2Method(method string, params map[string]any) (string, map[string]any) {
	if !d.v2() {
		return method, params
	}
	out := make(map[string]any, len(params)+2)
	for k, v := range params {
		out[k] = v
	}
	switch method {
	case "session/load":
		out["replayFrom"] = map[string]any{"type": "start"}
		return "session/resume", out
	case "authenticate":
		return "auth/login", params
	case "logout":
		return "auth/logout", params
	case "session/set_mode", "session/set_model":
		category, key := "mode", "modeId"
		if method == "session/set_model" {
			category, key = "model", "modelId"
		}
		out["configId"], out["value"] = d.configID(category), out[key]
		delete(out, key)
		method = "session/set_config_option"
	}
	if _, typed := out["type"]; method == "session/set_config_option" && !typed {
		out["type"] = "id"
	}
	return method, out
}

// configID is the configId of the session's config option of category, as
// its setup answer listed it (category itself when it did not).
func (d *driver) configID(category string) string {
	for _, o := range d.configOptions {
		m, _ := o.(map[string]any)
		if id, ok := m["configId"].(string); ok && m["category"] == category {
			return id
		}
	}
	return category
}

// noteConfigOptions keeps the configOptions of a session setup answer.
func (d *driver) noteConfigOptions(m *agentMsg) {
	var r struct {
		ConfigOptions []any `json:"configOptions"`
	}
	if m != nil && json.Unmarshal(m.result, &r) == nil && r.ConfigOptions != nil {
		d.configOptions = r.ConfigOptions
	}
}

// awaitTurnEnd waits, in a v2 run, for the end of the turn of the prompt
// that answer (a result with the prompt's messageId) took in: the first
// idle state_update with a stop reason of session sid after the answer
// that no earlier prompt step ended with. It returns that frame as the
// answer a v1 prompt would have had: a result with the stopReason, or the
// JSON-RPC error of a turn that ended with stopReason "error".
func (d *driver) awaitTurnEnd(ctx context.Context, answer *agentMsg, sid string) (*agentMsg, error) {
	var end *agentMsg
	what := fmt.Sprintf("the end of the turn in session %s (an idle state_update with its stopReason)", sid)
	err := d.wait(ctx, what, func(msgs []*agentMsg) bool {
		for _, x := range msgs[answer.index+1:] {
			if !d.turnEnds[x.index] && isTurnEnd(x, sid) {
				end = x
				return true
			}
		}
		return false
	})
	if err != nil {
		return nil, err
	}
	if d.turnEnds == nil {
		d.turnEnds = map[int]bool{}
	}
	d.turnEnds[end.index] = true
	d.trigger = max(d.trigger, end.index)
	return turnOutcome(end), nil
}

// isTurnEnd reports whether m is the idle state_update of session sid that
// ends a turn: one with a stop reason (an idle without one repeats the
// state for a changed background list).
func isTurnEnd(m *agentMsg, sid string) bool {
	if !m.isNotification() || m.method != "session/update" || m.params["sessionId"] != sid {
		return false
	}
	u, _ := m.params["update"].(map[string]any)
	reason, _ := u["stopReason"].(string)
	return u["sessionUpdate"] == "state_update" && u["state"] == "idle" && reason != ""
}

// turnOutcome is the v1 prompt answer that the turn end end stands for.
func turnOutcome(end *agentMsg) *agentMsg {
	u, _ := end.params["update"].(map[string]any)
	out := &agentMsg{index: end.index, at: end.at, hasID: true}
	if u["stopReason"] == "error" {
		out.err = &rpcError{Code: -32603, Message: "the turn ended with stopReason error"}
		if b, err := json.Marshal(u["error"]); err == nil {
			_ = json.Unmarshal(b, out.err)
		}
		return out
	}
	out.result, _ = json.Marshal(map[string]any{"stopReason": u["stopReason"]})
	return out
}

// isV2 reports whether a canonical transcript is of a v2 connection: its
// first client line, the editor's initialize, asks protocolVersion 2.
func isV2(canon []byte) bool {
	const tag = "client editor->agent "
	i := bytes.Index(canon, []byte(tag))
	if i < 0 {
		return false
	}
	line, _, _ := bytes.Cut(canon[i+len(tag):], []byte("\n"))
	var m struct {
		Method string `json:"method"`
		Params struct {
			ProtocolVersion json.RawMessage `json:"protocolVersion"`
		} `json:"params"`
	}
	return json.Unmarshal(line, &m) == nil && m.Method == "initialize" && string(m.Params.ProtocolVersion) == "2"
}

// MaskSessionTimes replaces, in a canonical v2 transcript, the updatedAt of
// every session_info_update with "<updated-at>". A v2 agent reports the
// session's updatedAt when it resumes a session, before it answers, as the
// stored session then reads: the real Claude CLI of a live run has written
// to it by then, at the run's time, where the CLI a replay plays has not,
// and the time stays the stored one. Both sides of a v2 comparison are
// masked so.
func MaskSessionTimes(canon []byte) []byte {
	var out bytes.Buffer
	for _, l := range bytes.SplitAfter(canon, []byte("\n")) {
		i := bytes.IndexByte(l, '{')
		if i < 0 || !bytes.Contains(l, []byte(`"session_info_update"`)) {
			out.Write(l)
			continue
		}
		var v map[string]any
		dec := json.NewDecoder(bytes.NewReader(bytes.TrimRight(l[i:], "\n")))
		dec.UseNumber()
		if dec.Decode(&v) != nil {
			out.Write(l)
			continue
		}
		p, _ := v["params"].(map[string]any)
		u, _ := p["update"].(map[string]any)
		if _, ok := u["updatedAt"]; !ok || u["sessionUpdate"] != "session_info_update" {
			out.Write(l)
			continue
		}
		u["updatedAt"] = "<updated-at>"
		b, err := encodeJSON(v)
		if err != nil {
			out.Write(l)
			continue
		}
		out.Write(l[:i])
		out.Write(b)
		if bytes.HasSuffix(l, []byte("\n")) {
			out.WriteByte('\n')
		}
	}
	return out.Bytes()
}
