// Package agent implements `airwire agent`: the ACP agent for Claude Code,
// speaking ACP on stdin/stdout. The behaviour lives in adapter/.
package agent

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/airwire/airwire/adapter"
	"github.com/airwire/airwire/adapter/acpv2"
	"github.com/airwire/airwire/adapter/claude"
	"github.com/airwire/airwire/cmd/cmdutil"
	"github.com/airwire/airwire/cmd/factory"
)

// AgentOptions are the inputs of `airwire agent`.
type AgentOptions struct {
	IO      factory.IOStreams
	Getenv  func(string) string
	Environ func() []string
	Version string
	// Argv is how the editor started this binary (os.Args), for the
	// terminal login methods that tell it what to launch again.
	Argv []string
	// OpenLog opens --log for appending.
	OpenLog func(string) (io.WriteCloser, error)

	ClaudePath string
	LogFile    string
	LogLevel   string
	// CLI runs the Claude CLI with Args on this terminal instead of serving
	// ACP (the terminal login methods: `airwire agent --cli auth login`).
	CLI  bool
	Args []string
}

// NewCmdAgent builds `airwire agent`. runF replaces the behaviour in tests.
func NewCmdAgent(f *factory.Factory, runF func(*AgentOptions) error) *cobra.Command {
	opts := &AgentOptions{IO: f.IO, Getenv: f.Getenv, Environ: f.Environ, Version: f.Version,
		Argv: os.Args, OpenLog: openLog}
	cmd := &cobra.Command{
		Use:   "agent [--claude-path PATH] [--log FILE] [--log-level LEVEL] [--cli CLAUDE-ARGS...]",
		Short: "Run the ACP agent for Claude Code on stdin/stdout (what an editor launches)",
		Long: `agent speaks the Agent Client Protocol (JSON-RPC 2.0, one JSON object per
line) on stdin and stdout, and drives one Claude Code CLI process per live
session. An editor launches it; you normally do not run it by hand.

stdout carries only protocol. Logs go to stderr, or to --log FILE: the
agent writes its first line there as it starts and stops if it cannot; a
later failed write is reported once on stderr.

The Claude CLI is --claude-path, else $CLAUDE_CODE_EXECUTABLE, else claude
on PATH (claude.exe or claude.cmd on Windows), else where the Claude Code
installers put it: ~/.local/bin, ~/.claude/local, /opt/homebrew/bin (macOS),
/usr/local/bin, or npm's global prefix ($npm_config_prefix or $PREFIX, and
%APPDATA%\npm on Windows). A relative path is taken from the directory the
agent starts in. Every CLI it starts is stopped when the editor closes the
connection or the agent gets SIGINT or SIGTERM.

The agent speaks ACP v1, and the draft ACP v2 to a client whose initialize
asks for protocolVersion 2 or later. $AIRWIRE_ACP_PROTOCOL picks the versions
served: auto (the default, also when unset or empty) serves both; v1 serves
v1 alone, a v2 client being negotiated down to v1; v2 serves v2 alone, the
initialize of a v1 client being refused as an unsupported protocol version.
Any other value stops the agent at its start.

A session whose last answer wrote a one-hour prompt cache over a context of
at least 200,000 tokens ($CLAUDE_CODE_IDLE_COMPACT_MIN_TOKENS, at least
100,000) compacts itself when it has been idle for 54 minutes, shortly
before the cache expires, so that the next prompt does not write the whole
context to the cache again. $CLAUDE_AGENT_ACP_IDLE_COMPACT_DELAY_MS in the
CLI's environment (the agent's, or the session's
_meta.claudeCode.options.env) sets that delay in milliseconds. The settings
"idleCompaction": false or "autoCompactEnabled": false, and $DISABLE_COMPACT
or $DISABLE_AUTO_COMPACT, turn it off.

A new session runs the model and starts in the permission mode that Claude
Code's settings give: $ANTHROPIC_MODEL, else "model", and
"permissions.defaultMode", each from the highest of the managed settings,
the project's .claude/settings.local.json and .claude/settings.json, and the
user's settings.json ($CLAUDE_CONFIG_DIR, else ~/.claude) that sets it. A
model may be named loosely ("claude-sonnet-5-5", "sonnet 5.5"). As in Claude
Code, a project file may not start sessions in acceptEdits, auto or
bypassPermissions, nor a local file in auto or bypassPermissions. Without a
default mode a session starts in Auto, or in Manual where the model cannot
run Auto. "disableAutoMode" and "permissions.disableBypassPermissionsMode"
set to "disable" take Auto and Bypass permissions off the session's modes.
A loaded or resumed session continues on the model and in the mode its
stored conversation ended with (a preferred model wins); Auto chosen there
on a model that cannot run it becomes Accept edits, with a warning.

"availableModels" (the lists of all the files together) restricts the model
picker to Default and the models it names, each by its spelling or by the
model id "modelOverrides" maps it to, which is what the CLI is asked for;
the managed settings' "deniedModels" take a model off the picker.
$ANTHROPIC_CUSTOM_MODEL_OPTION stays listed. The effort selector shows the
level the CLI runs a model at: "modelSettings.<model>.effortLevel", else
"effortLevel", from the files and the session's own settings, unless the
session request names an effort.

With --cli, the rest of the command line goes to the Claude CLI, run on this
terminal: that is what the "terminal" login methods tell an editor such as Zed
to launch (airwire agent --cli auth login --claudeai).`,
		Example: `  # Zed: settings.json
  "agent_servers": {
    "Claude Code (airwire)": {
      "command": "airwire",
      "args": ["agent"]
    }
  }

  # try it by hand: initialize, then Ctrl-D
  echo '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1}}' | airwire agent`,
		// Every argument after --cli is the Claude CLI's, flags included
		// (--cli --version): parseArgs parses only those before it.
		DisableFlagParsing: true,
		RunE: func(cmd *cobra.Command, raw []string) error {
			args, err := parseArgs(cmd, raw)
			if err != nil {
				return err
			}
			if help, _ := cmd.Flags().GetBool("help"); help {
				return cmd.Help()
			}
			if !opts.CLI && len(args) > 0 {
				return cmdutil.FlagErrorf("unexpected argument %q (arguments go to the Claude CLI only after --cli)", args[0])
			}
			opts.Args = args
			if runF != nil {
				return runF(opts)
			}
			if opts.CLI {
				return cliRun(cmd.Context(), opts)
			}
			return agentRun(cmd.Context(), opts)
		},
	}
	// Flags stop at the first argument, and parseArgs ends them at --cli.
	cmd.Flags().SetInterspersed(false)
	cmd.Flags().BoolVar(&opts.CLI, "cli", false, "run the Claude CLI with the remaining arguments on this terminal")
	cmd.Flags().StringVar(&opts.ClaudePath, "claude-path", "", "the Claude Code CLI executable")
	cmd.Flags().StringVar(&opts.LogFile, "log", "", "append logs to `FILE` instead of stderr")
	cmd.Flags().StringVar(&opts.LogLevel, "log-level", "info", "log level: debug, info, warn or error")
	return cmd
}

// parseArgs parses the agent's flags in raw and returns its arguments:
// the first --cli ends the flags, as "--" would, so that every argument
// after it (--version, -p, --model) is handed to the Claude CLI as given.
func parseArgs(cmd *cobra.Command, raw []string) ([]string, error) {
	argv := raw
	for i, a := range raw {
		if a == "--" {
			break
		}
		if a == "--cli" {
			argv = append(append(slices.Clip(raw[:i+1]), "--"), raw[i+1:]...)
			break
		}
	}
	if err := cmd.Flags().Parse(argv); err != nil {
		return nil, &cmdutil.FlagError{Err: err}
	}
	return cmd.Flags().Args(), nil
}

func openLog(path string) (io.WriteCloser, error) {
	return os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
}

// openCheckedLog opens --log and writes its first line, so that a log
// that takes no lines (/dev/full, a file of /proc) fails the start with
// the reason instead of losing every line. A later failed write is
// reported once on stderr.
func openCheckedLog(opts *AgentOptions) (io.WriteCloser, error) {
	f, err := opts.OpenLog(opts.LogFile)
	if err != nil {
		return nil, fmt.Errorf("--log: %w", err)
	}
	first := slog.NewRecord(time.Now(), slog.LevelInfo, "airwire agent started", 0)
	first.AddAttrs(slog.String("version", opts.Version), slog.Int("pid", os.Getpid()))
	if err := slog.NewTextHandler(f, nil).Handle(context.Background(), first); err != nil {
		f.Close()
		return nil, fmt.Errorf("--log %s: cannot write to it: %w", opts.LogFile, err)
	}
	return &logWriter{w: f, name: opts.LogFile, errOut: opts.IO.ErrOut}, nil
}

// logWriter is the --log file: the first failed write is reported on
// stderr, once (the agent goes on; its protocol stream is unaffected).
type logWriter struct {
	w        io.WriteCloser
	name     string
	errOut   io.Writer
	reported atomic.Bool
}

func (l *logWriter) Write(p []byte) (int, error) {
	n, err := l.w.Write(p)
	if err != nil && l.reported.CompareAndSwap(false, true) {
		fmt.Fprintf(l.errOut, "airwire agent: cannot write to the log %s: %v; later log lines may be lost\n", l.name, err)
	}
	return n, err
}

func (l *logWriter) Close() error { return l.w.Close() }

func parseLevel(s string) (slog.Level, error) {
	var l slog.Level
	if err := l.UnmarshalText([]byte(strings.ToUpper(s))); err != nil {
		return 0, cmdutil.FlagErrorf("--log-level: %q is not one of debug, info, warn, error", s)
	}
	return l, nil
}

// cliRun runs the Claude CLI on this terminal and exits with its status.
func cliRun(ctx context.Context, opts *AgentOptions) error {
	path, err := claude.ResolveExecutable(claude.Locator{Flag: opts.ClaudePath, Getenv: opts.Getenv})
	if err != nil {
		return err
	}
	if ctx == nil {
		ctx = context.Background()
	}
	cmd := exec.CommandContext(ctx, path, opts.Args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = opts.IO.In, opts.IO.Out, opts.IO.ErrOut
	cmd.Env = opts.Environ()
	err = cmd.Run()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return &cmdutil.ExitError{Code: exit.ExitCode()}
	}
	return err
}

// startClaudePath is --claude-path resolved once, as the agent starts: a
// relative path or ~ names a file from the directory the agent was started
// in, while each CLI runs in its session's cwd and a terminal login in the
// editor's directory. A path that names nothing is kept as given; the
// session that needs it reports it.
func startClaudePath(opts *AgentOptions) string {
	if opts.ClaudePath == "" {
		return ""
	}
	p, err := claude.ResolveExecutable(claude.Locator{Flag: opts.ClaudePath, Getenv: opts.Getenv})
	if err != nil {
		return opts.ClaudePath
	}
	return p
}

func agentRun(ctx context.Context, opts *AgentOptions) error {
	level, err := parseLevel(opts.LogLevel)
	if err != nil {
		return err
	}
	logOut := opts.IO.ErrOut
	if opts.LogFile != "" {
		f, err := openCheckedLog(opts)
		if err != nil {
			return err
		}
		defer f.Close()
		logOut = f
	}
	if ctx == nil {
		ctx = context.Background()
	}
	protocols, err := acpv2.ProtocolsFromEnv(opts.Getenv(acpv2.EnvProtocol))
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	a := adapter.NewAgent(adapter.Options{
		Protocols:  protocols,
		ClaudePath: startClaudePath(opts),
		Argv:       opts.Argv,
		Version:    opts.Version,
		Getenv:     opts.Getenv,
		Environ:    opts.Environ(),
		Log:        slog.New(slog.NewTextHandler(logOut, &slog.HandlerOptions{Level: level})),
	})
	// The agent waits on pipes nearly all the time: one P spares the
	// scheduler's cross-thread wake-ups as each CLI line goes from the
	// reading goroutine to the handling one (10-15% less CPU per streamed
	// chunk in conform/agentbench). $GOMAXPROCS still wins.
	if opts.Getenv("GOMAXPROCS") == "" {
		runtime.GOMAXPROCS(1)
	}
	// A smaller heap target: the agent's live heap is small and its
	// garbage short-lived, so collecting at +50% instead of +100% keeps RSS
	// after session/new about 0.6 MiB lower (conform/agentbench) for no
	// measurable CPU per chunk. $GOGC still wins.
	if opts.Getenv("GOGC") == "" {
		debug.SetGCPercent(50)
	}
	in, restoreIn := pollableIn(opts.IO.In)
	defer restoreIn()
	out, restoreOut := pollableOut(opts.IO.Out, opts.IO.ErrOut)
	defer restoreOut()
	return a.Serve(ctx, in, out)
}
