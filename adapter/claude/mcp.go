package claude

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// MCPServer is one entry of the SDK's mcpServers option: a name and its
// Claude Code server config, kept as JSON.
type MCPServer struct {
	Name   string
	Config json.RawMessage
}

// MCPServers is the SDK's mcpServers option in insertion order (JavaScript
// object order: a later entry with a known name replaces the value in place).
type MCPServers []MCPServer

// Set adds or replaces the server name.
func (m *MCPServers) Set(name string, config json.RawMessage) {
	for i := range *m {
		if (*m)[i].Name == name {
			(*m)[i].Config = config
			return
		}
	}
	*m = append(*m, MCPServer{Name: name, Config: config})
}

// ConfigJSON is the --mcp-config value: {"mcpServers":{name: config, …}}.
func (m MCPServers) ConfigJSON() string {
	var b bytes.Buffer
	b.WriteString(`{"mcpServers":{`)
	for i, s := range m {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(marshalPlain(s.Name))
		b.WriteByte(':')
		if err := json.Compact(&b, s.Config); err != nil {
			b.WriteString("null")
		}
	}
	b.WriteString("}}")
	return b.String()
}

// acpServer is one entry of an ACP session's mcpServers array.
type acpServer struct {
	Type    *string         `json:"type"`
	Name    string          `json:"name"`
	Command string          `json:"command"`
	Args    json.RawMessage `json:"args"`
	Env     []nameValue     `json:"env"`
	URL     string          `json:"url"`
	Headers []nameValue     `json:"headers"`
}

type nameValue struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// stdioConfig and remoteConfig keep the reference's key order.
type stdioConfig struct {
	Type    string          `json:"type"`
	Command string          `json:"command"`
	Args    json.RawMessage `json:"args,omitempty"`
	Env     *orderedStrings `json:"env,omitempty"`
}

type remoteConfig struct {
	Type    string          `json:"type"`
	URL     string          `json:"url"`
	Headers *orderedStrings `json:"headers,omitempty"`
}

// orderedStrings is a JSON object of strings in list order.
type orderedStrings []nameValue

// MarshalJSON implements json.Marshaler.
func (o orderedStrings) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, kv := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(marshalPlain(kv.Name))
		b.WriteByte(':')
		b.Write(marshalPlain(kv.Value))
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// AddACPServers adds the servers of an ACP mcpServers array as the
// reference does: http and sse servers keep their type, url and headers
// (an object); a server without a type, or typed "stdio" as v2 types it
// (the reference's SDK drops the key from a v1 stdio server), is stdio
// (command, args, env as an object); any other entry is skipped. Later
// names replace earlier ones.
func (m *MCPServers) AddACPServers(raw json.RawMessage) error {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	var list []acpServer
	if err := json.Unmarshal(raw, &list); err != nil {
		return fmt.Errorf("mcpServers: %w", err)
	}
	for _, s := range list {
		var cfg any
		switch {
		case s.Type != nil && (*s.Type == "http" || *s.Type == "sse"):
			cfg = remoteConfig{Type: *s.Type, URL: s.URL, Headers: objectOf(s.Headers)}
		case s.Type == nil || *s.Type == "stdio":
			cfg = stdioConfig{Type: "stdio", Command: s.Command, Args: s.Args, Env: objectOf(s.Env)}
		default:
			continue
		}
		m.Set(s.Name, marshalPlain(cfg))
	}
	return nil
}

// objectOf is nil for an absent list (the key is then left out).
func objectOf(l []nameValue) *orderedStrings {
	if l == nil {
		return nil
	}
	o := orderedStrings(l)
	return &o
}

// marshalPlain is v as JSON.stringify writes it: <, > and & stay as they
// are (a command under <home> reaches the CLI as the reference passes it).
// The configs it encodes are strings and raw JSON, which always encode.
func marshalPlain(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return []byte("null")
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}
