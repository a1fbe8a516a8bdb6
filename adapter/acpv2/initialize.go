package acpv2

import (
	"encoding/json"
	"errors"
	"slices"
)

// InitializeParams is what the agent reads of an initialize request of
// either version: v1 names the client's capabilities clientCapabilities,
// v2 capabilities.
type InitializeParams struct {
	ProtocolVersion    json.RawMessage `json:"protocolVersion"`
	ClientCapabilities json.RawMessage `json:"clientCapabilities"`
	Capabilities       *v2Capabilities `json:"capabilities"`
	Meta               json.RawMessage `json:"_meta"`
}

type v2Capabilities struct {
	Auth *struct {
		Terminal json.RawMessage `json:"terminal"`
		Meta     json.RawMessage `json:"_meta"`
	} `json:"auth"`
	Elicitation json.RawMessage `json:"elicitation"`
	Meta        json.RawMessage `json:"_meta"`
}

// Requested is the protocol version the client asked for; ok is false when
// it is not one (not an integer from 0 to 65535).
func (p InitializeParams) Requested() (v int64, ok bool) {
	var f float64
	if json.Unmarshal(p.ProtocolVersion, &f) != nil || f != float64(int64(f)) || f < 0 || f > 0xffff {
		return 0, false
	}
	return int64(f), true
}

// V1ClientCapabilities is the v1 client declaration a v2 client means. v2
// has no client file system and no client terminals; every v2 client takes
// boolean config options and plans, and, when the agent serves it v2
// (served), notices, compaction updates and subagent sessions, which v1
// asks a marker for. A v2 client negotiated down to v1 gets what the SDK's
// router gives it.
func (p InitializeParams) V1ClientCapabilities(served bool) json.RawMessage {
	c := p.Capabilities
	if c == nil {
		c = &v2Capabilities{}
	}
	empty := map[string]any{}
	session := map[string]any{"configOptions": map[string]any{"boolean": empty}}
	out := map[string]any{
		"fs":       map[string]bool{"readTextFile": false, "writeTextFile": false},
		"terminal": false,
		"session":  session,
		"plan":     empty,
	}
	if served {
		session["notices"], session["compaction"] = empty, empty
		out["subagents"] = empty
	}
	auth := map[string]any{"terminal": c.Auth != nil && present(c.Auth.Terminal)}
	if c.Auth != nil && present(c.Auth.Meta) {
		auth["_meta"] = c.Auth.Meta
	}
	out["auth"] = auth
	if present(c.Elicitation) {
		out["elicitation"] = c.Elicitation
	}
	if present(c.Meta) {
		out["_meta"] = c.Meta
	}
	raw, _ := json.Marshal(out)
	return raw
}

// present: a JSON value that is there and not null.
func present(raw json.RawMessage) bool { return len(raw) > 0 && string(raw) != "null" }

// sessionCapabilities are the v2 session capabilities the agent serves.
func sessionCapabilities() map[string]any {
	empty := map[string]any{}
	return map[string]any{
		"prompt":                map[string]any{"image": empty, "embeddedContext": empty},
		"mcp":                   map[string]any{"stdio": empty, "http": empty},
		"delete":                empty,
		"fork":                  empty,
		"additionalDirectories": empty,
		"systemPrompt":          map[string]any{"mode": map[string]any{"override": empty}},
	}
}

// unservedMeta are the top-level `_meta` keys of the v1 answer whose
// extension v2 does not serve (`_session/steering`).
var unservedMeta = []string{"steering"}

// InitializeResponse is the v2 initialize answer for the agent's v1 one:
// agentInfo is info, the session capabilities are v2's, auth methods are
// tagged, and the extensions v2 does not serve are not advertised (the
// steering lane, AIR's goal and async tasks).
func InitializeResponse(v1 json.RawMessage) (json.RawMessage, error) {
	var r struct {
		AgentInfo         json.RawMessage `json:"agentInfo"`
		AgentCapabilities struct {
			Meta json.RawMessage `json:"_meta"`
		} `json:"agentCapabilities"`
		AuthMethods []map[string]any `json:"authMethods"`
		Meta        map[string]any   `json:"_meta"`
	}
	if err := json.Unmarshal(v1, &r); err != nil {
		return nil, err
	}
	if !present(r.AgentInfo) {
		return nil, errors.New("ACP v2 requires agentInfo, and the agent reported none")
	}
	capabilities := map[string]any{"session": sessionCapabilities(), "providers": map[string]any{}}
	if present(r.AgentCapabilities.Meta) {
		capabilities["_meta"] = r.AgentCapabilities.Meta
	}
	methods := make([]map[string]any, 0, len(r.AuthMethods))
	for _, m := range r.AuthMethods {
		methods = append(methods, authMethod(m))
	}
	out := map[string]any{"protocolVersion": 2, "info": r.AgentInfo, "capabilities": capabilities, "authMethods": methods}
	for _, k := range unservedMeta {
		delete(r.Meta, k)
	}
	withoutUnservedAIR(r.Meta)
	if len(r.Meta) > 0 {
		out["_meta"] = r.Meta
	}
	return json.Marshal(out)
}

// withoutUnservedAIR drops from `_meta.jetbrains.air` the goal entry and
// the asyncTasks capability, whose methods v2 does not register.
func withoutUnservedAIR(meta map[string]any) {
	jb, _ := meta["jetbrains"].(map[string]any)
	air, _ := jb["air"].(map[string]any)
	if air == nil {
		return
	}
	delete(air, "goal")
	if list, ok := air["capabilities"].([]any); ok {
		air["capabilities"] = slices.DeleteFunc(slices.Clone(list), func(c any) bool { return c == "asyncTasks" })
	}
}

// authMethod is a v1 auth method in v2: its id is methodId, a terminal
// method lists env as name and value pairs, any other is type agent.
func authMethod(m map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range m {
		out[k] = v
	}
	out["methodId"] = m["id"]
	delete(out, "id")
	if m["type"] != "terminal" {
		out["type"] = "agent"
		return out
	}
	if env, ok := m["env"].(map[string]any); ok {
		pairs := make([]map[string]any, 0, len(env))
		keys := make([]string, 0, len(env))
		for k := range env {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			pairs = append(pairs, map[string]any{"name": k, "value": env[k]})
		}
		out["env"] = pairs
	}
	return out
}
