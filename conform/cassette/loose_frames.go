package cassette

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/airwire/airwire/internal/uuid"
)

// answer is a success control_response to the live control request raw:
// the recorded answer to agent event i (i >= 0), else the most recent
// recorded answer to a request of the same subtype, else an empty one. For
// a set_* request, the fields of the answer that the request names too
// take the requested values (set_permission_mode answers the live mode).
func (p *player) answer(raw []byte, sub string, i int) []byte {
	var rec map[string]any
	if i >= 0 {
		rec = answerTo(p.proc, i)
	}
	if rec == nil {
		rec = p.latestAnswer(sub)
	}
	resp, _ := rec["response"].(map[string]any)
	if resp == nil {
		resp = map[string]any{"response": map[string]any{}}
	}
	live, _ := parseFrame(raw)
	resp["subtype"], resp["request_id"] = "success", live.RequestID
	delete(resp, "error")
	if body, ok := resp["response"].(map[string]any); ok && strings.HasPrefix(sub, "set_") {
		req, _ := decodeObj(raw)["request"].(map[string]any)
		for k := range body {
			if v, ok := req[k]; ok && k != "subtype" {
				body[k] = v
			}
		}
	}
	return encodeObj(map[string]any{"type": "control_response", "response": resp})
}

// answerTo returns the CLI's recorded success answer to the agent control
// request proc.Events[i], or nil.
func answerTo(proc *Process, i int) map[string]any {
	req, _ := parseFrame(proc.Events[i].Msg)
	for _, e := range proc.Events[i:] {
		if f, ok := parseFrame(e.Msg); ok && e.Dir == DirCLI && f.Type == "control_response" && f.Response.RequestID == req.RequestID {
			m := decodeObj(e.Msg)
			if r, _ := m["response"].(map[string]any); r != nil && r["subtype"] == "success" {
				return m
			}
			return nil
		}
	}
	return nil
}

// latestAnswer returns the recorded answer to the last agent control
// request of subtype sub before the played position (of the template
// process: the first one), or nil.
func (p *player) latestAnswer(sub string) map[string]any {
	var found map[string]any
	for i, e := range p.lo.tmpl.Events {
		if f, ok := parseFrame(e.Msg); !ok || e.Dir != DirAgent || f.Type != "control_request" || f.Request.Subtype != sub {
			continue
		}
		if found != nil && (p.lo.tmpl != p.proc || i >= p.next) {
			break
		}
		if a := answerTo(p.lo.tmpl, i); a != nil {
			found = a
		}
	}
	return found
}

// resultFrame is a result of subtype, shaped as a recorded result of the
// template process (one of the same subtype if it has one), saying text
// (none for an error), with the fields of set.
func (p *player) resultFrame(subtype, text string, set map[string]any) []byte {
	m := p.lo.template(DirCLI, func(m map[string]any) bool { return m["type"] == "result" && m["subtype"] == subtype })
	if m == nil {
		m = p.lo.template(DirCLI, func(m map[string]any) bool { return m["type"] == "result" })
	}
	if m == nil {
		m = map[string]any{"type": "result", "session_id": p.fx.session, "duration_ms": 0, "duration_api_ms": 0,
			"num_turns": 1, "total_cost_usd": 0, "usage": map[string]any{"input_tokens": 0, "output_tokens": 0}}
	}
	m["subtype"], m["is_error"], m["uuid"] = subtype, subtype != "success", uuid.New()
	delete(m, "result")
	if subtype == "success" {
		delete(m, "errors")
		m["result"] = text
	} else {
		m["stop_reason"] = nil
		if _, ok := m["terminal_reason"]; ok {
			m["terminal_reason"] = "aborted_streaming"
		}
		if _, ok := m["errors"]; !ok {
			m["errors"] = []any{}
		}
	}
	for k, v := range set {
		m[k] = v
	}
	return encodeObj(m)
}

// template returns a copy of the first frame of the template process in
// direction dir that pred accepts, or nil.
func (lo *loose) template(dir string, pred func(map[string]any) bool) map[string]any {
	for _, e := range lo.tmpl.Events {
		if e.Dir != dir || e.Msg == nil {
			continue
		}
		if m := decodeObj(e.Msg); m != nil && pred(m) {
			return m
		}
	}
	return nil
}

// decodeObj decodes a JSON object, keeping numbers as written.
func decodeObj(b []byte) map[string]any {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var m map[string]any
	if d.Decode(&m) != nil {
		return nil
	}
	return m
}

// encodeObj encodes v on one line without HTML escaping.
func encodeObj(v any) []byte {
	var b bytes.Buffer
	e := json.NewEncoder(&b)
	e.SetEscapeHTML(false)
	_ = e.Encode(v)
	return bytes.TrimRight(b.Bytes(), "\n")
}
