package fakecli

import (
	"fmt"
	"strings"

	"github.com/airwire/airwire/internal/lookup"
)

// Mode is what an argv asks the CLI to do.
type Mode int

const (
	// ModeStream is the headless stream-json session the SDK starts.
	ModeStream Mode = iota
	// ModeVersion prints the version (--version, -v).
	ModeVersion
	// ModeHelp prints usage (--help, -h).
	ModeHelp
	// ModeAuthStatus prints the auth state (auth status [--json|--text]).
	ModeAuthStatus
	// ModeAuthLogin is auth login.
	ModeAuthLogin
	// ModeAuthLogout is auth logout.
	ModeAuthLogout
)

// String names the mode in logs.
func (m Mode) String() string {
	switch m {
	case ModeStream:
		return "stream"
	case ModeVersion:
		return "version"
	case ModeHelp:
		return "help"
	case ModeAuthStatus:
		return "auth-status"
	case ModeAuthLogin:
		return "auth-login"
	case ModeAuthLogout:
		return "auth-logout"
	}
	return fmt.Sprintf("Mode(%d)", int(m))
}

// Args is a parsed CLI argv. Only the options the fake acts on get fields;
// every other known option is kept in Options.
type Args struct {
	Mode Mode

	OutputFormat           string
	InputFormat            string
	Verbose                bool
	PermissionPromptTool   string
	PermissionMode         string
	Model                  string
	SessionID              string
	Resume                 string
	ForkSession            bool
	Continue               bool
	ReplayUserMessages     bool
	IncludePartialMessages bool
	NoSessionPersistence   bool
	JSON                   bool
	// MCPConfig holds each --mcp-config value.
	MCPConfig []string
	// AddDirs holds each --add-dir value.
	AddDirs []string
	// Options maps every other option seen to its last value ("" for flags).
	Options map[string]string
	// Positional holds the non-option arguments (empty strings dropped).
	Positional []string
}

type optKind int

const (
	optBool optKind = iota
	optValue
)

// options lists every option the SDK (0.3.318) can put on the CLI's argv,
// plus the CLI's own short forms. Anything else is rejected the way the
// real CLI (commander) does: "error: unknown option '--x'".
var options = [...]struct {
	name string
	kind optKind
}{
	{"output-format", optValue}, {"input-format", optValue}, {"verbose", optBool}, {"debug", optBool},
	{"debug-file", optValue}, {"print", optBool}, {"version", optBool}, {"help", optBool}, {"json", optBool},
	{"text", optBool}, {"permission-prompt-tool", optValue}, {"permission-prompts", optValue},
	{"permission-mode", optValue}, {"allow-dangerously-skip-permissions", optBool},
	{"dangerously-skip-permissions", optBool}, {"model", optValue}, {"fallback-model", optValue},
	{"agent", optValue}, {"betas", optValue}, {"thinking", optValue}, {"max-thinking-tokens", optValue},
	{"thinking-display", optValue}, {"effort", optValue}, {"max-turns", optValue}, {"max-budget-usd", optValue},
	{"task-budget", optValue}, {"json-schema", optValue}, {"continue", optBool}, {"resume", optValue},
	{"fork-session", optBool}, {"resume-session-at", optValue}, {"resume-drops-turn", optValue},
	{"session-id", optValue}, {"no-session-persistence", optBool}, {"session-mirror", optBool},
	{"channels", optValue}, {"allowedTools", optValue}, {"disallowedTools", optValue}, {"tools", optValue},
	{"mcp-config", optValue}, {"strict-mcp-config", optBool}, {"setting-sources", optValue},
	{"settings", optValue}, {"managed-settings", optValue}, {"include-hook-events", optBool},
	{"include-partial-messages", optBool}, {"replay-user-messages", optBool}, {"project-config-root", optValue},
	{"add-dir", optValue}, {"plugin-dir", optValue}, {"plugin-dir-no-mcp", optValue},
	{"await-initialize", optBool}, {"system-prompt", optValue}, {"append-system-prompt", optValue},
	{"claudeai", optBool}, {"console", optBool},
}

// optionKind is the kind of the long option name, if the CLI has it. (A
// table, not a map literal: those are built by init code at every start of
// the binary.)
func optionKind(name string) (optKind, bool) {
	for _, o := range options {
		if o.name == name {
			return o.kind, true
		}
	}
	return 0, false
}

var shortOptions = lookup.Map{{"v", "version"}, {"h", "help"}, {"p", "print"}, {"c", "continue"}, {"d", "debug"}, {"r", "resume"}}

// ParseArgs parses argv (without the program name) like the real CLI:
// --k=v and --k v for options with values, bare flags otherwise.
func ParseArgs(argv []string) (*Args, error) {
	a := &Args{Options: map[string]string{}}
	for i := 0; i < len(argv); i++ {
		arg := argv[i]
		var name, value string
		hasValue := false
		switch {
		case arg == "--":
			for _, p := range argv[i+1:] {
				if p != "" {
					a.Positional = append(a.Positional, p)
				}
			}
			i = len(argv)
			continue
		case strings.HasPrefix(arg, "--"):
			name = arg[2:]
			if eq := strings.IndexByte(name, '='); eq >= 0 {
				name, value, hasValue = name[:eq], name[eq+1:], true
			}
		case strings.HasPrefix(arg, "-") && len(arg) == 2:
			long, ok := shortOptions.Get(arg[1:])
			if !ok {
				return nil, fmt.Errorf("error: unknown option '%s'", arg)
			}
			name = long
		default:
			if arg != "" {
				a.Positional = append(a.Positional, arg)
			}
			continue
		}
		kind, ok := optionKind(name)
		if !ok {
			return nil, fmt.Errorf("error: unknown option '--%s'", name)
		}
		if kind == optValue && !hasValue {
			if i+1 >= len(argv) {
				return nil, fmt.Errorf("error: option '--%s <value>' argument missing", name)
			}
			i++
			value = argv[i]
		} else if kind == optBool && hasValue {
			return nil, fmt.Errorf("error: option '--%s' does not take a value", name)
		}
		a.set(name, value)
	}
	switch {
	case a.Options["version"] == "set":
		a.Mode = ModeVersion
	case len(a.Positional) >= 2 && a.Positional[0] == "auth":
		switch a.Positional[1] {
		case "status":
			a.Mode = ModeAuthStatus
		case "login":
			a.Mode = ModeAuthLogin
		case "logout":
			a.Mode = ModeAuthLogout
		default:
			return nil, fmt.Errorf("error: unknown command 'auth %s'", a.Positional[1])
		}
	case a.Options["help"] == "set":
		a.Mode = ModeHelp
	case len(a.Positional) == 1 && a.Positional[0] == "auth":
		a.Mode = ModeHelp
	default:
		a.Mode = ModeStream
		if a.InputFormat != "stream-json" || a.OutputFormat != "stream-json" {
			return nil, fmt.Errorf("error: the fake CLI only runs headless with --input-format stream-json --output-format stream-json")
		}
		if a.OutputFormat == "stream-json" && !a.Verbose {
			return nil, fmt.Errorf("Error: When using --print, --output-format=stream-json requires --verbose")
		}
		if a.ForkSession && a.Resume == "" && !a.Continue {
			return nil, fmt.Errorf("Error: --fork-session requires --resume or --continue")
		}
	}
	return a, nil
}

func (a *Args) set(name, value string) {
	switch name {
	case "output-format":
		a.OutputFormat = value
	case "input-format":
		a.InputFormat = value
	case "verbose":
		a.Verbose = true
	case "permission-prompt-tool":
		a.PermissionPromptTool = value
	case "permission-mode":
		a.PermissionMode = value
	case "model":
		a.Model = value
	case "session-id":
		a.SessionID = value
	case "resume":
		a.Resume = value
	case "fork-session":
		a.ForkSession = true
	case "continue":
		a.Continue = true
	case "replay-user-messages":
		a.ReplayUserMessages = true
	case "include-partial-messages":
		a.IncludePartialMessages = true
	case "no-session-persistence":
		a.NoSessionPersistence = true
	case "json":
		a.JSON = true
	case "mcp-config":
		a.MCPConfig = append(a.MCPConfig, value)
	case "add-dir":
		a.AddDirs = append(a.AddDirs, value)
	}
	if kind, _ := optionKind(name); value == "" && kind == optBool {
		value = "set"
	}
	a.Options[name] = value
}
