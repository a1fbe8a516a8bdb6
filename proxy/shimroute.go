package proxy

import (
	"bytes"
	"encoding/json"
	"io"
	"maps"
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
	// settings are the CLI's flag settings, which routed rewrites.
	settings flagSettings
}

// routeOf is the route of a CLI started with env and args.
func routeOf(env, args []string) cliRoute {
	r := cliRoute{settings: flagSettingsOf(args)}
	r.Upstream = r.settings.env(EnvAnthropicBaseURL)
	if r.Upstream == "" {
		r.Upstream, _ = envlist.Lookup(env, EnvAnthropicBaseURL)
	}
	custom, _ := envlist.Lookup(env, envCustomHeaders)
	if h := r.settings.env(envCustomHeaders); h != "" {
		custom += "\n" + h
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

// flagSettings is the last --settings option of a CLI's arguments
// ("--settings X" or "--settings=X").
type flagSettings struct {
	// at is the index in the arguments of the one that holds the value;
	// -1 for none.
	at int
	// doc is the value when it is one JSON object (numbers as written);
	// nil for a settings file's path.
	doc map[string]any
}

// flagSettingsOf finds and reads the flag settings of args.
func flagSettingsOf(args []string) flagSettings {
	fs, val := flagSettings{at: -1}, ""
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == settingsFlag && i+1 < len(args):
			fs.at, val = i+1, args[i+1]
			i++
		case strings.HasPrefix(a, settingsFlag+"="):
			fs.at, val = i, strings.TrimPrefix(a, settingsFlag+"=")
		}
	}
	if !strings.HasPrefix(strings.TrimSpace(val), "{") {
		return fs
	}
	dec := json.NewDecoder(strings.NewReader(val))
	dec.UseNumber()
	if dec.Decode(&fs.doc) != nil {
		fs.doc = nil
	} else if _, err := dec.Token(); err != io.EOF {
		fs.doc = nil // more after the object: not JSON to Claude Code either
	}
	return fs
}

// env is the string member name of the settings' env object, or "".
func (fs flagSettings) env(name string) string {
	e, _ := fs.doc["env"].(map[string]any)
	v, _ := e[name].(string)
	return v
}

// routed returns args with the settings' env ANTHROPIC_BASE_URL set to
// modelURL, when the settings are JSON that set it; else args itself. The
// rest of the settings keep their values, and args is not changed.
func (fs flagSettings) routed(args []string, modelURL string) []string {
	if fs.env(EnvAnthropicBaseURL) == "" {
		return args
	}
	doc, env := maps.Clone(fs.doc), maps.Clone(fs.doc["env"].(map[string]any))
	env[EnvAnthropicBaseURL], doc["env"] = modelURL, env
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if enc.Encode(doc) != nil {
		return args
	}
	out := append([]string(nil), args...)
	routed := strings.TrimSuffix(b.String(), "\n")
	if strings.HasPrefix(out[fs.at], settingsFlag+"=") {
		routed = settingsFlag + "=" + routed
	}
	out[fs.at] = routed
	return out
}
