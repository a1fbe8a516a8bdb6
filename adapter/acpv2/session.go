package acpv2

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"

	"github.com/airwire/airwire/internal/jsonrpc"
)

// object is a JSON object read for a mapping; numbers stay as written.
type object = map[string]any

func decodeObject(raw json.RawMessage) (object, error) {
	var o object
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	if err := d.Decode(&o); err != nil || o == nil {
		return nil, invalidParams("")
	}
	return o, nil
}

func invalidParams(detail string, data ...any) *jsonrpc.WireError {
	msg := "Invalid params"
	if detail != "" {
		msg += ": " + detail
	}
	e := &jsonrpc.WireError{Code: jsonrpc.ErrInvalidParams.Code, Message: msg}
	if len(data) > 0 {
		e.Data, _ = json.Marshal(data[0])
	}
	return e
}

// SetupParams is the v1 session/new, session/resume or session/fork request
// a v2 one means: v2 may leave out the MCP server list (v1 requires it for
// a new session) and tags each server with its transport, which v1 leaves
// out for stdio; a transport the agent does not serve fails with -32602.
func SetupParams(v2 json.RawMessage, requireServers bool) (json.RawMessage, error) {
	p, err := decodeObject(v2)
	if err != nil {
		return nil, err
	}
	servers, _ := p["mcpServers"].([]any)
	if servers == nil && !requireServers {
		return json.Marshal(p)
	}
	v1 := make([]any, 0, len(servers))
	seen := map[any]bool{}
	for _, s := range servers {
		m, _ := s.(object)
		if seen[m["name"]] {
			return nil, invalidParams(fmt.Sprintf("two MCP servers are named %v", m["name"]))
		}
		seen[m["name"]] = true
		server, err := v1Server(m)
		if err != nil {
			return nil, err
		}
		v1 = append(v1, server)
	}
	p["mcpServers"] = v1
	delete(p, "replayFrom")
	return json.Marshal(p)
}

func v1Server(m object) (object, error) {
	out := maps.Clone(m)
	switch m["type"] {
	case "stdio", nil:
		delete(out, "type")
		for _, k := range []string{"args", "env"} {
			if out[k] == nil {
				out[k] = []any{}
			}
		}
	case "http":
		if out["headers"] == nil {
			out["headers"] = []any{}
		}
	default:
		return nil, invalidParams(fmt.Sprintf("MCP servers of type %v are not supported", m["type"]))
	}
	return out, nil
}

// Replays reports whether a v2 session/resume asks for the history
// (replayFrom {type: start}, v1's session/load); a cursor that starts
// elsewhere fails with -32602.
func Replays(v2 json.RawMessage) (bool, error) {
	var p struct {
		ReplayFrom *struct {
			Type string `json:"type"`
		} `json:"replayFrom"`
	}
	if json.Unmarshal(v2, &p) != nil || p.ReplayFrom == nil {
		return false, nil
	}
	if p.ReplayFrom.Type != "start" {
		return false, invalidParams(fmt.Sprintf("Replaying from a %s cursor is not supported", p.ReplayFrom.Type),
			map[string]any{"replayFrom": p.ReplayFrom})
	}
	return true, nil
}

// SetupResponse is the v2 answer of a session setup for the agent's v1 one:
// v2 has no modes (the mode is the `mode` config option), names option ids
// configId, and carries the session's commands (commands, v1 shape; left
// out when empty). withID keeps sessionId (session/new, session/fork).
func SetupResponse(v1 json.RawMessage, commands []any, withID bool) (json.RawMessage, error) {
	r, err := decodeObject(v1)
	if err != nil {
		return nil, err
	}
	out := object{}
	if withID {
		out["sessionId"] = r["sessionId"]
	}
	if opts, ok := r["configOptions"].([]any); ok {
		out["configOptions"] = ConfigOptions(opts)
	}
	if r["_meta"] != nil {
		out["_meta"] = r["_meta"]
	}
	if len(commands) > 0 {
		out["availableCommands"] = AvailableCommands(commands)
	}
	return json.Marshal(out)
}

// ConfigOptions are v1 config options in v2: an option's id is configId,
// a select group's id groupId. Options already in v2 stay as they are.
func ConfigOptions(options []any) []any {
	out := make([]any, 0, len(options))
	for _, o := range options {
		m, ok := o.(object)
		if !ok {
			continue
		}
		c := maps.Clone(m)
		if id, ok := m["id"]; ok {
			c["configId"] = id
			delete(c, "id")
		}
		if sel, ok := m["options"].([]any); ok && m["type"] == "select" {
			c["options"] = selectOptions(sel)
		}
		out = append(out, c)
	}
	return out
}

func selectOptions(options []any) []any {
	out := make([]any, 0, len(options))
	for _, o := range options {
		m, ok := o.(object)
		if !ok || m["group"] == nil {
			out = append(out, o)
			continue
		}
		g := maps.Clone(m)
		g["groupId"] = m["group"]
		delete(g, "group")
		out = append(out, g)
	}
	return out
}

// AvailableCommands are v1 commands in v2: each is tagged command, its
// free-text input text.
func AvailableCommands(commands []any) []any {
	out := make([]any, 0, len(commands))
	for _, c := range commands {
		m, ok := c.(object)
		if !ok {
			continue
		}
		v := maps.Clone(m)
		v["type"] = "command"
		if in, ok := m["input"].(object); ok {
			in = maps.Clone(in)
			in["type"] = "text"
			v["input"] = in
		} else {
			delete(v, "input")
		}
		out = append(out, v)
	}
	return out
}

// SetConfigOptionParams is the v1 session/set_config_option a v2 one means:
// v2 tags a select value `type: "id"`, which v1 leaves untagged; a boolean
// stays tagged; any other type fails with -32602.
func SetConfigOptionParams(v2 json.RawMessage) (json.RawMessage, error) {
	p, err := decodeObject(v2)
	if err != nil {
		return nil, err
	}
	switch p["type"] {
	case "id", nil:
		delete(p, "type")
	case "boolean":
	default:
		return nil, invalidParams(fmt.Sprintf("Config option values of type %v are not supported", p["type"]),
			map[string]any{"type": p["type"]})
	}
	return json.Marshal(p)
}

// ConfigOptionsResponse is the v2 answer of a config change, and the
// config_option_update v2 sends before it (other attached clients see the
// change).
func ConfigOptionsResponse(v1 json.RawMessage) (response json.RawMessage, update object, err error) {
	r, err := decodeObject(v1)
	if err != nil {
		return nil, nil, err
	}
	opts, _ := r["configOptions"].([]any)
	r["configOptions"] = ConfigOptions(opts)
	response, err = json.Marshal(r)
	return response, object{"sessionUpdate": "config_option_update", "configOptions": r["configOptions"]}, err
}
