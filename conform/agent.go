package conform

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unicode"

	"github.com/airwire/airwire/conform/scenario"
	"github.com/airwire/airwire/internal/deps"
)

// EnvAgent names the adapter command for `go test ./scenarios/...` when no
// -agent flag is given (e.g. AIRWIRE_CONFORM_AGENT="bin/airwire agent").
const EnvAgent = "AIRWIRE_CONFORM_AGENT"

// ErrNoAgent means the reference adapter is not installed. It says the
// two ways that install it: the variables (anywhere) or make deps (in a
// checkout, which writes them to .deps/paths.env).
var ErrNoAgent = errors.New("the reference adapter is not installed: set " + deps.EnvNode + " to a Node.js 22 executable and " +
	deps.EnvReferenceAdapter + " to the dist/index.js of @agentclientprotocol/claude-agent-acp, or run make deps in an airwire checkout")

// DefaultAgent is the reference adapter from .deps: $AIRWIRE_NODE
// $AIRWIRE_REFERENCE_ADAPTER, found from dir upwards (deps.Lookup).
func DefaultAgent(getenv func(string) string, dir string) ([]string, error) {
	p, err := deps.Lookup(getenv, dir)
	if err != nil {
		return nil, err
	}
	if p.Node == "" || p.ReferenceAdapter == "" {
		return nil, ErrNoAgent
	}
	for _, f := range []string{p.Node, p.ReferenceAdapter} {
		if _, err := os.Stat(f); err != nil {
			return nil, fmt.Errorf("%w (%v)", ErrNoAgent, err)
		}
	}
	return []string{p.Node, p.ReferenceAdapter}, nil
}

// SplitCommand splits a command line into argv: words separated by white
// space, with '…' and "…" quoting and \ escapes outside single quotes. It
// runs nothing and expands nothing.
func SplitCommand(s string) ([]string, error) {
	var out []string
	var cur strings.Builder
	inWord := false
	quote := rune(0)
	esc := false
	for _, r := range s {
		switch {
		case esc:
			cur.WriteRune(r)
			esc = false
		case r == '\\' && quote != '\'':
			esc, inWord = true, true
		case quote != 0:
			if r == quote {
				quote = 0
			} else {
				cur.WriteRune(r)
			}
		case r == '\'' || r == '"':
			quote, inWord = r, true
		case unicode.IsSpace(r):
			if inWord {
				out = append(out, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if quote != 0 || esc {
		return nil, fmt.Errorf("unterminated quote or escape in %q", s)
	}
	if inWord {
		out = append(out, cur.String())
	}
	return out, nil
}

// Placeholders of an adapter command line (airwire conform --agent,
// Options.Agent), replaced in every argument by each run's own values
// (ExpandAgent), so that one command line can name the run it serves:
// `airwire play --scenario {scenario} --profile {profile}`.
const (
	// AgentScenario is the run's scenario name.
	AgentScenario = "{scenario}"
	// AgentProfile is the run's profile name (plain, zed, air, or a variant).
	AgentProfile = "{profile}"
	// AgentCwd is the run's workspace directory (Paths.Cwd), the cwd of
	// its session/new.
	AgentCwd = "{cwd}"
	// AgentRoot is the run's directory (Paths.Root): its HOME is
	// {root}/home, its TMPDIR {root}/tmp.
	AgentRoot = "{root}"
)

// ExpandAgent returns a copy of argv with AgentScenario, AgentProfile,
// AgentCwd and AgentRoot replaced, in every argument, by sc, p and the
// run's paths. Other braces are left as they are.
func ExpandAgent(argv []string, sc string, p scenario.Profile, paths Paths) []string {
	r := strings.NewReplacer(AgentScenario, sc, AgentProfile, string(p), AgentCwd, paths.Cwd, AgentRoot, paths.Root)
	out := make([]string, len(argv))
	for i, a := range argv {
		out[i] = r.Replace(a)
	}
	return out
}

// HasAgentPlaceholder reports whether a names a run's value (AgentScenario,
// AgentProfile, AgentCwd or AgentRoot): it is only known once the run starts.
func HasAgentPlaceholder(a string) bool {
	return strings.Contains(a, AgentScenario) || strings.Contains(a, AgentProfile) || strings.Contains(a, AgentCwd) ||
		strings.Contains(a, AgentRoot)
}

// ResolveAgent makes the relative paths of an adapter command line
// absolute against dir (the directory `airwire conform` was started in),
// because every run starts the adapter in its own workspace: argv[0] when
// it holds a slash, and each later argument that starts with ./ or ../,
// or that holds a slash, does not start with - and names an existing file
// below dir. A bare command name is left to PATH, and an argument with a
// placeholder ({cwd}/x: HasAgentPlaceholder) to the run (ExpandAgent).
func ResolveAgent(argv []string, dir string) []string {
	out := append([]string(nil), argv...)
	for i, a := range out {
		if filepath.IsAbs(a) || !strings.Contains(a, "/") || strings.HasPrefix(a, "-") || HasAgentPlaceholder(a) {
			continue
		}
		p := filepath.Join(dir, a)
		explicit := strings.HasPrefix(a, "./") || strings.HasPrefix(a, "../")
		if _, err := os.Stat(p); i == 0 || explicit || err == nil {
			out[i] = p
		}
	}
	return out
}

// ErrNoRealCLI means a live run was asked for and the real Claude CLI is
// not installed.
var ErrNoRealCLI = errors.New("no real Claude CLI for --live: run make deps (it installs the one the reference adapter bundles), or set " + deps.EnvReferenceCLI)

// RealCLI is the real Claude Code CLI from .deps ($AIRWIRE_REFERENCE_CLI),
// found from dir upwards (deps.Lookup).
func RealCLI(getenv func(string) string, dir string) (string, error) {
	p, err := deps.Lookup(getenv, dir)
	if err != nil {
		return "", err
	}
	if p.ReferenceCLI == "" {
		return "", ErrNoRealCLI
	}
	if _, err := os.Stat(p.ReferenceCLI); err != nil {
		return "", fmt.Errorf("%w (%v)", ErrNoRealCLI, err)
	}
	return p.ReferenceCLI, nil
}
