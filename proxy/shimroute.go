package proxy

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/airwire/airwire/internal/envlist"
)

// A CLI's model API: where the agent meant the CLI's model requests to go,
// which the model lane forwards them to. The agent says it in the CLI's
// ANTHROPIC_BASE_URL and, for a model gateway, again in the env of the
// flag settings (--settings JSON), which Claude Code applies over the
// process's environment. The shim points both at the model lane, under the
// CLI's process name, and tells the recorder (frameName, a cliRoute) the
// URL they held, so a gateway's traffic is recorded and still reaches the
// gateway, and the headers ANTHROPIC_CUSTOM_HEADERS adds (a gateway's key,
// say): the model lane never journals their values. Their values also go
// in the shim's hello (shimHello.Secrets), with or without the model lane:
// a recording that redacts treats them as secrets from the CLI's spawn
// entry on (its --settings argument holds them).

// envCustomHeaders is the Claude CLI's extra model API headers, one
// "Name: value" per line.
const envCustomHeaders = "ANTHROPIC_CUSTOM_HEADERS"

// cliRoute is what the shim tells the recorder of its CLI's model API.
type cliRoute struct {
	// Upstream is the base URL the agent gave the CLI ("" for the
	// recorder's own).
	Upstream string `json:"upstream,omitempty"`
	// Secret are the header names ANTHROPIC_CUSTOM_HEADERS sets, in the
	// environment or the flag settings.
	Secret []string `json:"secret_headers,omitempty"`
	// values are those headers' values, for shimHello.Secrets.
	values []string
}

// routeOf is the route of a CLI started with env and args.
func routeOf(env, args []string) cliRoute {
	r := cliRoute{Upstream: cliUpstream(env, args)}
	custom, _ := envlist.Lookup(env, envCustomHeaders)
	if _, val := settingsArg(args); val != "" {
		custom += "\n" + settingsEnv(val)[envCustomHeaders]
	}
	for _, line := range strings.Split(custom, "\n") {
		if name, val, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(name) != "" {
			r.Secret = append(r.Secret, strings.TrimSpace(name))
			r.values = append(r.values, strings.TrimSpace(val))
		}
	}
	return r
}

// settingsFlag is the Claude CLI's option for its flag settings.
const settingsFlag = "--settings"

// cliUpstream is the model API base URL the agent gave the CLI: the flag
// settings' env ANTHROPIC_BASE_URL, else the environment's; "" for none
// (the recorder's own upstream).
func cliUpstream(env, args []string) string {
	if i, val := settingsArg(args); i >= 0 {
		if u := settingsEnv(val)[EnvAnthropicBaseURL]; u != "" {
			return u
		}
	}
	u, _ := envlist.Lookup(env, EnvAnthropicBaseURL)
	return u
}

// settingsArg finds the value of the last --settings option of args
// ("--settings X" or "--settings=X"): its index in args, or -1.
func settingsArg(args []string) (int, string) {
	at, val := -1, ""
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == settingsFlag && i+1 < len(args):
			at, val = i+1, args[i+1]
			i++
		case strings.HasPrefix(a, settingsFlag+"="):
			at, val = i, strings.TrimPrefix(a, settingsFlag+"=")
		}
	}
	return at, val
}

// settingsEnv is the string members of the env object of settings given
// as JSON (nil for a settings file's path, or JSON without env).
func settingsEnv(settings string) map[string]string {
	var s struct {
		Env map[string]any `json:"env"`
	}
	if !strings.HasPrefix(strings.TrimSpace(settings), "{") || json.Unmarshal([]byte(settings), &s) != nil {
		return nil
	}
	out := map[string]string{}
	for k, v := range s.Env {
		if str, ok := v.(string); ok {
			out[k] = str
		}
	}
	return out
}

// routeSettings returns args with the flag settings' env
// ANTHROPIC_BASE_URL set to modelURL, when the settings are JSON that set
// it; else args itself. The rest of the settings keep their values.
func routeSettings(args []string, modelURL string) []string {
	i, val := settingsArg(args)
	if i < 0 || settingsEnv(val)[EnvAnthropicBaseURL] == "" {
		return args
	}
	var s map[string]any
	dec := json.NewDecoder(strings.NewReader(val))
	dec.UseNumber() // numbers as written
	if dec.Decode(&s) != nil {
		return args
	}
	s["env"].(map[string]any)[EnvAnthropicBaseURL] = modelURL
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if enc.Encode(s) != nil {
		return args
	}
	out := append([]string(nil), args...)
	routed := strings.TrimSuffix(b.String(), "\n")
	if strings.HasPrefix(out[i], settingsFlag+"=") {
		routed = settingsFlag + "=" + routed
	}
	out[i] = routed
	return out
}
