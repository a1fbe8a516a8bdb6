package agentinfo

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/airwire/airwire/adapter/caps"
)

// Name and Title are what agentInfo reports. The reference reports its npm
// package name; we report ours (an intended difference on every
// `initialize` line of the goldens).
const (
	Name  = "airwire"
	Title = "Claude Agent"
)

// ProtocolVersion is the ACP version the agent answers with.
const ProtocolVersion = 1

// Launcher is how an editor starts this agent again in a terminal, for
// Zed's `_meta["terminal-auth"]`: the executable and the arguments that
// come before `--cli` (the reference: node's execPath and its script).
type Launcher struct {
	Command string
	Args    []string
}

// LauncherFromArgv builds the Launcher from the agent's own executable path
// and os.Args: the arguments it was started with are kept, so `airwire
// agent --claude-path X` logs in with `airwire agent --claude-path X --cli
// auth login …`. claudePath, when not "", is the CLI the agent resolved for
// --claude-path and replaces its value: the editor's terminal may start in
// another directory than the agent did, where a relative X names nothing.
func LauncherFromArgv(executable string, argv []string, claudePath string) Launcher {
	var args []string
	if len(argv) > 1 {
		args = slices.Clone(argv[1:])
	}
	if claudePath == "" {
		return Launcher{Command: executable, Args: args}
	}
	for i, a := range args {
		switch {
		case a == "--claude-path" && i+1 < len(args):
			args[i+1] = claudePath
		case strings.HasPrefix(a, "--claude-path="):
			args[i] = "--claude-path=" + claudePath
		}
	}
	return Launcher{Command: executable, Args: args}
}

// RemoteEnv lists the variables that mark a remote session, where a browser
// redirect to localhost cannot work; the reference then offers the CLI's
// own `/login` instead of `auth login`.
var RemoteEnv = []string{"NO_BROWSER", "SSH_CONNECTION", "SSH_CLIENT", "SSH_TTY", "CLAUDE_CODE_REMOTE"}

// IsRemote reports whether getenv sets any of RemoteEnv.
func IsRemote(getenv func(string) string) bool {
	return slices.ContainsFunc(RemoteEnv, func(k string) bool { return getenv(k) != "" })
}

// Options are the agent-side inputs of the initialize result.
type Options struct {
	Version  string   // agentInfo.version: our build's version
	Launcher Launcher // for terminal-auth (Zed)
	// Remote selects the single "claude-login" method (see IsRemote).
	Remote bool
	// HideClaudeAuth drops the claude.ai subscription login (the
	// reference's --hide-claude-auth).
	HideClaudeAuth bool
}

type authMethod struct {
	Meta        map[string]any `json:"_meta,omitempty"`
	Args        []string       `json:"args,omitempty"`
	Description string         `json:"description"`
	ID          string         `json:"id"`
	Name        string         `json:"name"`
	Type        string         `json:"type,omitempty"`
}

type loginSpec struct {
	id, name, description, label string
	args                         []string
	subscription                 bool // hidden by HideClaudeAuth
}

var (
	remoteLogin  = loginSpec{"claude-login", "Log in with Claude", "Run `claude /login` in the terminal", "Claude Login", []string{"--cli"}, true}
	claudeLogin  = loginSpec{"claude-ai-login", "Claude Subscription", "Use Claude subscription ", "Claude Login", []string{"--cli", "auth", "login", "--claudeai"}, true}
	consoleLogin = loginSpec{"console-login", "Anthropic Console", "Use Anthropic Console (API usage billing)", "Anthropic Console Login", []string{"--cli", "auth", "login", "--console"}, false}
)

// AuthMethods lists the terminal logins for a client that declared
// `auth.terminal` or `_meta["terminal-auth"]` (none otherwise), each with
// the Zed launcher when the latter was declared, then the gateway methods
// when the client declared `auth._meta.gateway`.
func AuthMethods(c caps.Client, o Options) []any {
	methods := []any{}
	if c.AuthTerminal || c.TerminalAuth {
		specs := []loginSpec{claudeLogin, consoleLogin}
		if o.Remote {
			specs = []loginSpec{remoteLogin}
		}
		for _, s := range specs {
			if s.subscription && o.HideClaudeAuth {
				continue
			}
			methods = append(methods, s.method(c, o.Launcher))
		}
	}
	if declaresGateway(c.Raw) {
		methods = append(methods, gatewayMethod("gateway", "anthropic"), gatewayMethod("gateway-bedrock", "bedrock"))
	}
	return methods
}

func (s loginSpec) method(c caps.Client, l Launcher) authMethod {
	m := authMethod{Args: s.args, Description: s.description, ID: s.id, Name: s.name, Type: "terminal"}
	if c.TerminalAuth {
		m.Meta = map[string]any{"terminal-auth": map[string]any{
			"command": l.Command,
			"args":    append(slices.Clone(l.Args), s.args...),
			"label":   s.label,
		}}
	}
	return m
}

func gatewayMethod(id, protocol string) authMethod {
	return authMethod{
		Meta:        map[string]any{"gateway": map[string]any{"protocol": protocol}},
		Description: "Use a custom gateway to authenticate and access models",
		ID:          id,
		Name:        "Custom model gateway",
	}
}

// declaresGateway reads clientCapabilities.auth._meta.gateway === true,
// which caps.Client does not model (only the gateway methods use it).
func declaresGateway(raw json.RawMessage) bool {
	var w struct {
		Auth struct {
			Meta struct {
				Gateway json.RawMessage `json:"gateway"`
			} `json:"_meta"`
		} `json:"auth"`
	}
	_ = json.Unmarshal(raw, &w)
	return string(w.Auth.Meta.Gateway) == "true"
}

// agentCapabilities is the capability set of the reference: fixed for
// plain and Zed clients, with the AIR session capabilities added for AIR.
func agentCapabilities(c caps.Client) map[string]any {
	empty := map[string]any{}
	sessionCaps := map[string]any{
		"additionalDirectories": empty,
		"close":                 empty,
		"delete":                empty,
		"fork":                  empty,
		"list":                  empty,
		"resume":                empty,
		"systemPrompt":          map[string]any{"mode": map[string]any{"override": empty}},
	}
	subagentSessionCapabilities(sessionCaps)
	return map[string]any{
		"_meta": map[string]any{
			"claudeCode": map[string]any{"promptQueueing": true},
			"authStatus": empty,
		},
		"promptCapabilities":  map[string]any{"image": true, "embeddedContext": true},
		"mcpCapabilities":     map[string]any{"http": true, "sse": true},
		"auth":                map[string]any{"logout": empty},
		"providers":           empty,
		"loadSession":         true,
		"sessionCapabilities": sessionCaps,
	}
}

// Initialize returns the `initialize` result for client c. It is the same
// for every plain and Zed client except authMethods; an AIR client also
// gets the agent declaration (negotiation.go).
func Initialize(c caps.Client, o Options) json.RawMessage {
	out, _ := json.Marshal(map[string]any{
		"protocolVersion":   ProtocolVersion,
		"agentCapabilities": agentCapabilities(c),
		"agentInfo":         map[string]any{"name": Name, "title": Title, "version": o.Version},
		"authMethods":       AuthMethods(c, o),
		"_meta":             resultMeta(c),
	})
	return out
}
