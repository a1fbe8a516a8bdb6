package acpv2

import (
	"encoding/json"
	"errors"
)

// PermissionRequest is the v2 form of a v1 session/request_permission: the
// prompt has its own title and description (which the agent sets for a v2
// client) and asks about a subject, here always the tool call, as the patch
// a tool_call_update carries with the `_meta` the client stores.
func (u *Updates) PermissionRequest(v1 json.RawMessage) (json.RawMessage, error) {
	p, err := decodeObject(v1)
	if err != nil {
		return nil, err
	}
	title, ok := p["title"].(string)
	if !ok {
		return nil, errors.New("an ACP v2 permission request needs a title")
	}
	sessionID, _ := p["sessionId"].(string)
	tc, _ := p["toolCall"].(object)
	subject, err := u.Subject(sessionID, tc)
	if err != nil {
		return nil, err
	}
	out := object{"sessionId": sessionID, "title": title, "options": p["options"],
		"subject": object{"type": "tool_call", "toolCall": subject}}
	if d, _ := p["description"].(string); d != "" {
		out["description"] = d
	}
	if p["_meta"] != nil {
		out["_meta"] = p["_meta"]
	}
	return json.Marshal(out)
}

// PermissionResponse is the v1 answer a v2 one means: an outcome v1 does
// not know is no approval, so anything but selected is cancelled.
func PermissionResponse(v2 json.RawMessage) json.RawMessage {
	var r struct {
		Outcome json.RawMessage `json:"outcome"`
		Meta    json.RawMessage `json:"_meta"`
	}
	_ = json.Unmarshal(v2, &r)
	var o struct {
		Outcome string `json:"outcome"`
	}
	_ = json.Unmarshal(r.Outcome, &o)
	out := map[string]json.RawMessage{"outcome": r.Outcome}
	if o.Outcome != "selected" {
		out["outcome"] = json.RawMessage(`{"outcome":"cancelled"}`)
	}
	if present(r.Meta) {
		out["_meta"] = r.Meta
	}
	raw, _ := json.Marshal(out)
	return raw
}
