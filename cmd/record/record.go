// Package record implements `airwire record`: run an ACP agent behind a
// byte-transparent recording proxy.
package record

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/airwire/airwire/cmd/cmdutil"
	"github.com/airwire/airwire/cmd/factory"
	"github.com/airwire/airwire/proxy"
)

// RecordOptions are the inputs of `airwire record`.
type RecordOptions struct {
	IO      factory.IOStreams
	Environ func() []string
	Getenv  func(string) string
	Exe     func() (string, error)
	Now     func() time.Time
	Version string
	Journal string
	CLILane bool
	// ModelLane also records CLI <-> model API traffic (needs CLILane).
	ModelLane bool
	NoRedact  bool
	Quiet     bool
	CLIGrace  time.Duration
	Argv      []string
}

// recordLong is the help text of `airwire record`.
const recordLong = `Run AGENT_CMD exactly as an editor would, and journal every message.

airwire record behaves like the agent itself: the editor gets the agent's
bytes unchanged both ways, EOF is passed on both ways at once (the agent
closing its stdout ends the editor's input even while the agent runs on),
SIGINT/SIGTERM/SIGHUP are forwarded, and airwire exits with the agent's exit
status (128+N when a signal N ended it; 127 when the agent command is not
found and 126 when it cannot be executed, as a shell does).

Every frame goes into one JSON Lines journal (created 0600), numbered
gaplessly across lanes:
  client  editor <-> agent (ACP)
  cli     agent <-> Claude Code CLI, with --cli-lane
  model   Claude Code CLI <-> model API (HTTP), with --model-lane

--cli-lane sets CLAUDE_CODE_EXECUTABLE for the agent to airwire's CLI shim,
which starts the real CLI (the CLAUDE_CODE_EXECUTABLE airwire was started
with, else claude on PATH or where the Claude Code installers put it, found
as airwire agent finds it) and reports both directions of its stdio. Each
CLI spawn (auth status, one per session) is its own process in the journal.
The shim reports to airwire over a unix socket in a private temporary
directory; where none can be bound (Windows before 10), over 127.0.0.1 with a
one-time token that only the agent's environment holds.
An agent given its CLI's path on its command line (airwire agent
--claude-path) does not go through the shim, and its CLI lane stays empty.

--model-lane (needs --cli-lane) starts a reverse proxy on 127.0.0.1 and has
the shim point each real CLI's ANTHROPIC_BASE_URL at it, under the CLI's
process name (http://127.0.0.1:PORT/cli-2), in its environment and, where
the agent routes the CLI to a model gateway, in the env of its --settings
JSON. The proxy forwards each CLI's requests to the model API the agent gave
that CLI (the gateway; else the ANTHROPIC_BASE_URL airwire was started with,
default https://api.anthropic.com), byte for byte, streaming SSE event by
event, and journals each request (head and body), response head, SSE event,
response body and how the exchange ended, attributed to its cli-N process.
The agent's own environment is not changed, and the journal keeps the CLI's
arguments as the agent gave them. x-api-key, authorization and cookie header
values, and those of the headers ANTHROPIC_CUSTOM_HEADERS adds (a gateway's
key), are never written, even with --no-redact; without --no-redact the
custom headers' values are redacted everywhere else too. A CLI configured to
use another endpoint in a settings file, or a cloud provider (Bedrock,
Vertex), bypasses the proxy.

Secrets are redacted before anything reaches disk: values of secret-looking
JSON members (apiKey, token, authorization, password, …), sk-ant-… keys,
Bearer credentials and the values of secret-looking environment variables
become <redacted:HASH8>, a keyed hash under a random key drawn for this
journal and never written: within the journal the same secret always gives
the same token, and no dictionary can reverse it. --no-redact keeps them
(handle such journals as secrets).

The journal is always a new file: an existing one is never overwritten.
When --journal FILE exists, the first free name next to it is taken
(acp.jsonl: acp-2.jsonl, acp-3.jsonl, …) and stderr says where the journal
went, even with --quiet; a symlink, a device or anything else that is not a
regular file is refused. Without --journal the journal goes to
$XDG_STATE_HOME/airwire/journals/ (default ~/.local/state/airwire/journals/);
its path is printed on stderr.

When the journal cannot be written (a full disk), stderr says so at once;
the agent and the editor's streams go on unaffected, airwire still exits
with the agent's status, and the journal ends with a note saying from which
entry on it is incomplete.`

// NewCmdRecord builds `airwire record`. runF replaces the behaviour in tests.
func NewCmdRecord(f *factory.Factory, runF func(context.Context, *RecordOptions) error) *cobra.Command {
	opts := &RecordOptions{IO: f.IO, Environ: f.Environ, Getenv: f.Getenv, Exe: f.Executable, Now: f.Now, Version: f.Version}
	cmd := &cobra.Command{
		Use:   "record [--journal FILE] [--cli-lane [--model-lane]] [--no-redact] -- AGENT_CMD [ARGS…]",
		Short: "Run an ACP agent behind a recording proxy",
		Long:  recordLong,
		Example: `  # in the editor's agent settings, instead of "airwire agent":
  airwire record --journal ~/acp.jsonl --cli-lane -- airwire agent

  # the same with a Claude CLI that is not on PATH (not the agent's --claude-path:
  # that would bypass the CLI lane)
  CLAUDE_CODE_EXECUTABLE=~/tools/claude airwire record --journal ~/acp.jsonl --cli-lane -- airwire agent

  # any other ACP agent, e.g. the reference adapter
  airwire record --journal ~/acp.jsonl --cli-lane -- npx @agentclientprotocol/claude-agent-acp

  # all three lanes, model API traffic included
  airwire record --journal ~/acp.jsonl --cli-lane --model-lane -- npx @agentclientprotocol/claude-agent-acp
  airwire journal cat ~/acp.jsonl --lane model --method "POST /v1/messages"

  # then
  airwire journal cat ~/acp.jsonl --lane client
  airwire journal stats ~/acp.jsonl`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := cmdutil.RequireArgsAfterDash("agent command", args); err != nil {
				return err
			}
			if cmd.ArgsLenAtDash() != 0 {
				return cmdutil.FlagErrorf("put the agent command after --, e.g. airwire record -- %s", args[0])
			}
			if opts.CLIGrace <= 0 {
				// proxy.RecordOptions takes 0 for its default: never let a
				// value the user typed mean something else silently.
				return cmdutil.FlagErrorf("--cli-grace must be positive, got %s", opts.CLIGrace)
			}
			if opts.ModelLane && !opts.CLILane {
				return cmdutil.FlagErrorf("--model-lane needs --cli-lane: the CLIs reach the model-lane proxy through the CLI shim")
			}
			opts.Argv = args
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return runRecord(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVar(&opts.Journal, "journal", "", "journal `FILE` to create; when it exists, a fresh name next to it (default: a new file under the state directory)")
	cmd.Flags().BoolVar(&opts.CLILane, "cli-lane", false, "also record agent <-> Claude CLI traffic through airwire's CLI shim")
	cmd.Flags().BoolVar(&opts.ModelLane, "model-lane", false, "with --cli-lane: also record Claude CLI <-> model API traffic through a loopback reverse proxy")
	cmd.Flags().BoolVar(&opts.NoRedact, "no-redact", false, "write secrets to the journal unredacted")
	cmd.Flags().DurationVar(&opts.CLIGrace, "cli-grace", 5*time.Second, "with --cli-lane: how long CLIs may run on after the agent exits before they are killed")
	cmd.Flags().BoolVarP(&opts.Quiet, "quiet", "q", false, "do not print the journal path on stderr (unless --journal existed and a fresh name was taken)")
	return cmd
}

func defaultJournal(opts *RecordOptions) (string, error) {
	base := opts.Getenv("XDG_STATE_HOME")
	if base == "" {
		home := opts.Getenv("HOME")
		if home == "" {
			return "", fmt.Errorf("no --journal given and no HOME to put one in")
		}
		base = filepath.Join(home, ".local", "state")
	}
	dir := filepath.Join(base, "airwire", "journals")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	return filepath.Join(dir, fmt.Sprintf("%s-%d.jsonl", opts.Now().UTC().Format("20060102T150405Z"), os.Getpid())), nil
}

func runRecord(ctx context.Context, opts *RecordOptions) error {
	path := opts.Journal
	if path == "" {
		var err error
		if path, err = defaultJournal(opts); err != nil {
			return err
		}
	}
	var shimArgv []string
	if opts.CLILane {
		exe, err := opts.Exe()
		if err != nil {
			return fmt.Errorf("--cli-lane: cannot find the airwire binary: %w", err)
		}
		shimArgv = []string{exe, "__cli-shim"}
	}
	res, err := proxy.Record(ctx, proxy.RecordOptions{
		Argv: opts.Argv, Env: opts.Environ(),
		Stdin: opts.IO.In, Stdout: opts.IO.Out, Stderr: opts.IO.ErrOut,
		Journal: path, Created: announce(opts, path),
		CLILane: opts.CLILane, ModelLane: opts.ModelLane, ShimArgv: shimArgv,
		Redact: !opts.NoRedact, Version: opts.Version, CLIGrace: opts.CLIGrace,
	})
	return exitStatus(opts, res, err)
}

// announce says on stderr where the journal went: always when the asked
// path existed and a fresh name was taken, else unless --quiet.
func announce(opts *RecordOptions, asked string) func(string, bool) {
	return func(path string, fresh bool) {
		switch {
		case fresh:
			fmt.Fprintf(opts.IO.ErrOut, "airwire record: %s exists; journal %s\n", asked, path)
		case !opts.Quiet:
			fmt.Fprintf(opts.IO.ErrOut, "airwire record: journal %s\n", path)
		}
	}
}

// exitStatus is the agent's status, as a shell would give it: 127 or 126
// when it could not start. A journal cut short (a full disk) is stated
// again but does not replace the agent's status.
func exitStatus(opts *RecordOptions, res proxy.RecordResult, err error) error {
	var se *proxy.StartError
	if errors.As(err, &se) {
		fmt.Fprintf(opts.IO.ErrOut, "airwire record: %v\n", err)
		return &cmdutil.ExitError{Code: se.Code}
	}
	if err != nil {
		return err
	}
	if res.JournalErr != nil {
		fmt.Fprintf(opts.IO.ErrOut, "airwire record: the journal is incomplete: %v (its last entry says from which seq on)\n", res.JournalErr)
	}
	if res.Code != 0 {
		return &cmdutil.ExitError{Code: res.Code}
	}
	return nil
}
