package permission

import (
	"encoding/json"
	"fmt"

	"github.com/airwire/airwire/adapter/caps"

	"github.com/airwire/airwire/internal/uuid"
)

// MCPElicitation is the body of the CLI's `elicitation` control request: an
// MCP server asks the user for input.
type MCPElicitation struct {
	ServerName      string          `json:"mcp_server_name"`
	Message         string          `json:"message"`
	Mode            string          `json:"mode,omitempty"`
	URL             string          `json:"url,omitempty"`
	ElicitationID   string          `json:"elicitation_id,omitempty"`
	RequestedSchema json.RawMessage `json:"requested_schema,omitempty"`
}

// ParseMCPElicitation decodes the `request` object of an elicitation control
// request.
func ParseMCPElicitation(raw json.RawMessage) (MCPElicitation, error) {
	var e MCPElicitation
	if err := json.Unmarshal(raw, &e); err != nil {
		return MCPElicitation{}, fmt.Errorf("permission: elicitation request: %w", err)
	}
	return e, nil
}

// AskMCP turns an MCP elicitation into an ACP elicitation/create for the
// session sessionID, or into an immediate decision: decline when the editor
// supports no elicitation at all (the CLI's own default), cancel when it
// lacks the request's mode or a url request has no url. Only the user's own
// decline reaches the server as decline.
func AskMCP(e MCPElicitation, sessionID string, c caps.Client) (*Prompt, *Decision) {
	form, url := c.FormElicit, urlElicitation(c)
	if !form && !url {
		d := Decision{Response: marshal(map[string]string{"action": "decline"})}
		return nil, &d
	}
	isURL := e.Mode == "url"
	if (isURL && (!url || e.URL == "")) || (!isURL && !form) {
		d := mcpCancel()
		return nil, &d
	}
	params := newObject()
	params.set("mode", marshal(map[bool]string{true: "url", false: "form"}[isURL]))
	params.set("sessionId", marshal(sessionID))
	params.set("message", marshal(e.Message))
	if isURL {
		params.set("url", marshal(e.URL))
		params.set("elicitationId", marshal(orDefault(e.ElicitationID, uuid.New())))
	} else {
		params.set("requestedSchema", formSchema(e.RequestedSchema))
	}
	return &Prompt{Method: MethodCreateElicitation, Params: marshal(params), kind: kindMCP}, nil
}

// urlElicitation reports `elicitation.url` in the client capabilities.
// (adapter/caps reads only the form mode.)
func urlElicitation(c caps.Client) bool {
	var w struct {
		Elicitation struct {
			URL json.RawMessage `json:"url"`
		} `json:"elicitation"`
	}
	_ = json.Unmarshal(c.Raw, &w)
	_, ok := parseObject(w.Elicitation.URL)
	return ok
}

// formSchema is the MCP requestedSchema as an ACP ElicitationSchema: its own
// keys, with `type: object` and a `properties` map guaranteed.
func formSchema(raw json.RawMessage) json.RawMessage {
	s, ok := parseObject(raw)
	if !ok {
		s = newObject()
	}
	s.set("type", marshal("object"))
	if s.get("properties") == nil || string(s.get("properties")) == "null" {
		s.set("properties", json.RawMessage(`{}`))
	}
	return marshal(s)
}

// mcpAnswer maps the editor's CreateElicitationResponse to the MCP
// ElicitResult: accept with its content object (else {}), decline, or cancel.
func mcpAnswer(editorResult json.RawMessage) Decision {
	var resp struct {
		Action  string          `json:"action"`
		Content json.RawMessage `json:"content"`
	}
	_ = json.Unmarshal(editorResult, &resp)
	switch resp.Action {
	case "accept":
		content := json.RawMessage(`{}`)
		if o, ok := parseObject(resp.Content); ok {
			content = marshal(o)
		}
		r := newObject()
		r.set("action", marshal("accept"))
		r.set("content", content)
		return Decision{Response: marshal(r)}
	case "decline":
		return Decision{Response: marshal(map[string]string{"action": "decline"})}
	}
	return mcpCancel()
}

// mcpCancel is the ElicitResult of a request the user made no choice on.
func mcpCancel() Decision {
	return Decision{Response: marshal(map[string]string{"action": "cancel"})}
}
