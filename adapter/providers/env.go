package providers

import (
	"fmt"
	"strings"
)

// resetRouting clears every variable that routes the CLI or gives it
// credentials, so that a route set here is the only one in effect
// whatever the agent's own environment holds.
var resetRouting = []string{
	"ANTHROPIC_BASE_URL", "",
	"ANTHROPIC_BEDROCK_BASE_URL", "",
	"ANTHROPIC_VERTEX_BASE_URL", "",
	"CLAUDE_CODE_USE_BEDROCK", "0",
	"CLAUDE_CODE_USE_VERTEX", "0",
	"ANTHROPIC_VERTEX_PROJECT_ID", "",
	"CLOUD_ML_REGION", "",
	"AWS_REGION", "",
	"ANTHROPIC_API_KEY", "",
	"ANTHROPIC_AUTH_TOKEN", "",
	"CLAUDE_CODE_OAUTH_TOKEN", "",
}

// Env is the environment that routes the CLI to c, as KEY=VALUE pairs in
// the reference's order: the reset variables first, an override in its
// reset variable's place, new variables after them. nil routes nothing.
func Env(c *Config) []string {
	if c == nil {
		return nil
	}
	env := envObject(c)
	pairs := make([]string, 0, len(env.keys))
	for _, k := range env.ordered() {
		pairs = append(pairs, k+"="+env.vals[k].(string))
	}
	return pairs
}

// envObject is Env as an object, for Settings.
func envObject(c *Config) *jsObject {
	env := &jsObject{}
	for i := 0; i < len(resetRouting); i += 2 {
		env.set(resetRouting[i], resetRouting[i+1])
	}
	switch c.APIType {
	case "bedrock":
		// The bearer token spares the CLI its local AWS credential checks.
		env.set("CLAUDE_CODE_USE_BEDROCK", "1")
		env.set("AWS_BEARER_TOKEN_BEDROCK", AuthPlaceholder)
		env.set("ANTHROPIC_BEDROCK_BASE_URL", c.BaseURL)
		env.set("ANTHROPIC_CUSTOM_HEADERS", customHeaders(c.Headers))
		if c.RegionPrefix != "" {
			env.set("ANTHROPIC_BEDROCK_REGION_PREFIX", c.RegionPrefix)
		}
	case "vertex":
		// Even the default host, given as a base URL, makes the CLI treat the
		// session as a custom Vertex deployment and hide models it serves.
		env.set("CLAUDE_CODE_USE_VERTEX", "1")
		if c.BaseURL != DefaultVertexURL {
			env.set("ANTHROPIC_VERTEX_BASE_URL", c.BaseURL)
		}
		env.set("ANTHROPIC_VERTEX_PROJECT_ID", c.VertexProject)
		env.set("CLOUD_ML_REGION", c.VertexRegion)
		env.set("ANTHROPIC_CUSTOM_HEADERS", customHeaders(c.Headers))
	default:
		// The token spares the CLI its local login checks.
		env.set("ANTHROPIC_BASE_URL", c.BaseURL)
		env.set("ANTHROPIC_CUSTOM_HEADERS", customHeaders(c.Headers))
		env.set("ANTHROPIC_AUTH_TOKEN", AuthPlaceholder)
	}
	return env
}

// customHeaders is ANTHROPIC_CUSTOM_HEADERS: one "name: value" line per
// header, in the client's order.
func customHeaders(hs []Header) string {
	lines := make([]string, len(hs))
	for i, h := range hs {
		lines[i] = h.Name + ": " + h.Value
	}
	return strings.Join(lines, "\n")
}

// Settings lays the routing of c over a session's flag settings (the
// `--settings` JSON, "" for none): Claude Code applies settings' env after
// the process's, so without this a user or project settings file could
// bring back another ANTHROPIC_BASE_URL. It empties apiKeyHelper, whose
// key would otherwise replace the gateway's auth, and merges Env into
// settings' env; existing keys keep their place. c nil leaves settings as
// they are.
func Settings(settings string, c *Config) (string, error) {
	if c == nil {
		return settings, nil
	}
	var base any
	if settings != "" {
		v, err := parseJS([]byte(settings))
		if err != nil {
			return "", fmt.Errorf("settings are not JSON: %w", err)
		}
		base = v
	}
	out := &jsObject{}
	spread(out, base)
	out.set("apiKeyHelper", "")
	env := &jsObject{}
	baseEnv, _ := field(base, "env")
	spread(env, baseEnv)
	spread(env, envObject(c))
	out.set("env", env)
	return stringify(out), nil
}
