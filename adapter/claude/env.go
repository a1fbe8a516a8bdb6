package claude

import (
	"os"
	"slices"
	"strings"
)

var osGetenv = os.Getenv

// SDKVersion is the Agent SDK version the reference ships (it bundles CLI
// GoldenCLIVersion); the CLI reads it from CLAUDE_AGENT_SDK_VERSION (user
// agent, transcripts). It is sent while the CLI's version is unknown.
const SDKVersion = "0.3.318"

// EnvOptions are the inputs to the CLI's environment beyond the agent's own.
type EnvOptions struct {
	// Session holds KEY=VALUE entries laid over the base in order: the
	// session's `_meta.claudeCode.options.env`, then provider routing.
	Session []string
	// FileCheckpointing is the SDK's enableFileCheckpointing (set by the
	// reference for clients that negotiated file-change reports).
	FileCheckpointing bool
	// CLIVersion is the version of the CLI being started, when the agent
	// knows it ("": unknown); it picks CLAUDE_AGENT_SDK_VERSION
	// (SDKVersionFor).
	CLIVersion string
}

// Env returns the CLI's environment as the reference and its SDK build it:
// base (the agent's environment) with o.Session over it, then the
// reference's CLAUDE_CODE_EMIT_SESSION_STATE_EVENTS=1 and
// CLAUDE_CODE_STARTUP_FAILURE_RESULTS=1, then the SDK's defaults
// (CLAUDE_CODE_ENTRYPOINT=sdk-ts, CLAUDE_AGENT_SDK_VERSION for
// o.CLIVersion and
// CLAUDE_CODE_SDK_READS_SESSION_STATE=1 unless set), without NODE_OPTIONS,
// and with DEBUG only as DEBUG=1 when DEBUG_CLAUDE_AGENT_SDK is on.
func Env(base []string, o EnvOptions) []string {
	e := envOf(base)
	for _, kv := range o.Session {
		k, v, _ := strings.Cut(kv, "=")
		e.set(k, v)
	}
	e.set("CLAUDE_CODE_EMIT_SESSION_STATE_EVENTS", "1")
	e.set("CLAUDE_CODE_STARTUP_FAILURE_RESULTS", "1")
	e.setUnlessTruthy("CLAUDE_CODE_ENTRYPOINT", "sdk-ts")
	e.setUnlessTruthy("CLAUDE_AGENT_SDK_VERSION", SDKVersionFor(o.CLIVersion))
	if o.FileCheckpointing {
		e.set("CLAUDE_CODE_ENABLE_SDK_FILE_CHECKPOINTING", "true")
	}
	if !e.hasFold("CLAUDE_CODE_SDK_READS_SESSION_STATE") {
		e.set("CLAUDE_CODE_SDK_READS_SESSION_STATE", "1")
	}
	e.del("NODE_OPTIONS")
	if v, _ := e.get("DEBUG_CLAUDE_AGENT_SDK"); Truthy(v) {
		e.set("DEBUG", "1")
	} else {
		e.del("DEBUG")
	}
	return e.list()
}

// env is an environment with insertion order kept (the last value of a
// repeated key wins, as in a JavaScript object built from it).
type env struct {
	keys []string
	vals map[string]string
}

func envOf(list []string) *env {
	e := &env{vals: map[string]string{}}
	for _, kv := range list {
		k, v, _ := strings.Cut(kv, "=")
		e.set(k, v)
	}
	return e
}

func (e *env) set(k, v string) {
	if _, ok := e.vals[k]; !ok {
		e.keys = append(e.keys, k)
	}
	e.vals[k] = v
}

func (e *env) get(k string) (string, bool) { v, ok := e.vals[k]; return v, ok }

// setUnlessTruthy sets k unless it holds a non-empty value (`if (!env.k)`).
func (e *env) setUnlessTruthy(k, v string) {
	if e.vals[k] == "" {
		e.set(k, v)
	}
}

func (e *env) hasFold(k string) bool {
	return slices.ContainsFunc(e.keys, func(x string) bool { return strings.EqualFold(x, k) })
}

func (e *env) del(k string) {
	if _, ok := e.vals[k]; ok {
		delete(e.vals, k)
		e.keys = slices.DeleteFunc(e.keys, func(x string) bool { return x == k })
	}
}

func (e *env) list() []string {
	out := make([]string, 0, len(e.keys))
	for _, k := range e.keys {
		out = append(out, k+"="+e.vals[k])
	}
	return out
}

// Truthy is how the SDK and Claude Code read a flag variable: 1, true,
// yes or on, case and surrounding space aside.
func Truthy(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "1", "true", "yes", "on":
		return true
	}
	return false
}
