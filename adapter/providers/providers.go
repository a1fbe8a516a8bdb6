// Package providers is the home of ACP's client-managed model routing
// (`providers/list`, `providers/set`, `providers/disable`) and of the
// legacy gateway `authenticate` payload: what a client may ask for, the
// routing Claude Code uses without it, the environment and settings that
// route the CLI to a client's gateway, and the gateway's model listing that
// narrows the session's model picker to the models the gateway serves.
//
// Payloads are read the way the reference adapter reads them with
// JavaScript (jsvalue.go): the order of a header object reaches the CLI,
// and an error names a value as a template string prints it.
package providers

import (
	"encoding/json"
	"os"
	"slices"
)

// ID is the one provider the agent routes: Claude Code has a single
// backend slot.
const ID = "main"

// Supported are the apiTypes Claude Code can talk to.
var Supported = []string{"anthropic", "bedrock", "vertex"}

// The endpoints Claude Code uses when no base URL is configured.
const (
	DefaultAnthropicURL = "https://api.anthropic.com"
	DefaultVertexURL    = "https://aiplatform.googleapis.com"
	DefaultBedrockURL   = "https://bedrock-runtime.amazonaws.com"
)

// AuthPlaceholder is the token the environment gives the CLI in place of a
// login (ANTHROPIC_AUTH_TOKEN, AWS_BEARER_TOKEN_BEDROCK): the CLI then
// skips its own credential checks and sends `Authorization: Bearer
// acp-proxy`, unless the provider headers replace it. The model listing
// sends the same, so the gateway sees the same auth as on chat requests.
const AuthPlaceholder = "acp-proxy"

// Header is one provider header, as the client named it.
type Header struct{ Name, Value string }

// Config is one routing of the "main" provider.
type Config struct {
	APIType, BaseURL string
	// Headers are in the order the client sent them: they are joined into
	// ANTHROPIC_CUSTOM_HEADERS in that order.
	Headers []Header
	// VertexProject and VertexRegion are set for the vertex apiType only.
	VertexProject, VertexRegion string
	// Listed are the model ids the gateway listed, meaningful when Narrow
	// is true: a listing happened and answered, possibly with no model.
	Listed []string
	Narrow bool
	// RegionPrefix is the Bedrock cross-region prefix picked from the
	// listing ("" for none).
	RegionPrefix string
}

// Current is the providers/list entry's `current`.
func (c Config) Current() map[string]string {
	return map[string]string{"apiType": c.APIType, "baseUrl": c.BaseURL}
}

// ParamError is an invalid-params answer: Message is what follows
// "Invalid params: " in the JSON-RPC error, Data its data (nil for none).
type ParamError struct {
	Message string
	Data    any
}

func (e *ParamError) Error() string { return e.Message }

// valueData is the error data {key: v}, the value written back as the
// client sent it; an absent value leaves the key out, as JSON.stringify
// drops undefined.
func valueData(key string, v any, present bool, extra map[string]any) map[string]any {
	data := map[string]any{}
	if present {
		data[key] = json.RawMessage(stringify(v))
	}
	for k, x := range extra {
		data[k] = x
	}
	return data
}

// paramsObject reads a request's params, which must be a JSON object;
// absent params count as an empty one.
func paramsObject(params json.RawMessage, method string) (*jsObject, error) {
	if len(params) == 0 {
		return &jsObject{}, nil
	}
	v, err := parseJS(params)
	if err == nil && v == nil {
		return &jsObject{}, nil
	}
	o, ok := v.(*jsObject)
	if err != nil || !ok {
		return nil, &ParamError{Message: method + " params must be a JSON object."}
	}
	return o, nil
}

// meta is the request's `_meta` when it is an object: the ACP schema
// reads any other `_meta` as absent.
func meta(p *jsObject) any {
	m, _ := field(p, "_meta")
	if _, ok := m.(*jsObject); !ok {
		return nil
	}
	return m
}

// SameListing reports whether b may reuse a's listing: the same gateway
// with the very same headers, so a rotated token lists again. The caller
// then copies a's Listed, Narrow and RegionPrefix.
func SameListing(a, b Config) bool {
	return a.Narrow && a.APIType == b.APIType && a.BaseURL == b.BaseURL &&
		sameHeaders(a.Headers, b.Headers)
}

// sameHeaders compares two header sets by exact name, in any order.
func sameHeaders(a, b []Header) bool {
	ma, mb := headerMap(a), headerMap(b)
	if len(ma) != len(mb) {
		return false
	}
	for k, v := range ma {
		if w, ok := mb[k]; !ok || w != v {
			return false
		}
	}
	return true
}

func headerMap(hs []Header) map[string]string {
	m := make(map[string]string, len(hs))
	for _, h := range hs {
		m[h.Name] = h.Value
	}
	return m
}

// Default is the routing Claude Code uses by itself, read from the agent's
// environment (lookup; nil reads the process's): Bedrock or Vertex when
// their switch is set to anything, else the Anthropic API. A base URL
// variable that is set wins even when empty, as the reference's `??`
// has it.
func Default(lookup func(string) (string, bool)) Config {
	if lookup == nil {
		lookup = os.LookupEnv
	}
	orDefault := func(key, def string) string {
		if v, ok := lookup(key); ok {
			return v
		}
		return def
	}
	if v, _ := lookup("CLAUDE_CODE_USE_BEDROCK"); v != "" {
		return Config{APIType: "bedrock", BaseURL: orDefault("ANTHROPIC_BEDROCK_BASE_URL", DefaultBedrockURL)}
	}
	if v, _ := lookup("CLAUDE_CODE_USE_VERTEX"); v != "" {
		return Config{APIType: "vertex", BaseURL: orDefault("ANTHROPIC_VERTEX_BASE_URL", DefaultVertexURL)}
	}
	return Config{APIType: "anthropic", BaseURL: orDefault("ANTHROPIC_BASE_URL", DefaultAnthropicURL)}
}

// isSupported reports whether v is one of the Supported apiTypes.
func isSupported(v any) bool {
	s, ok := v.(string)
	return ok && slices.Contains(Supported, s)
}
