// Package record implements `airwire record`: run an ACP agent behind a
// byte-transparent recording proxy.
package record

import (
	"context"
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

// NewCmdRecord builds `airwire record`. runF replaces the behaviour in tests.
func NewCmdRecord(f *factory.Factory, runF func(context.Context, *RecordOptions) error) *cobra.Command {
	opts := &RecordOptions{IO: f.IO, Environ: f.Environ, Getenv: f.Getenv, Exe: f.Executable, Now: f.Now, Version: f.Version}
	cmd := &cobra.Command{
		Use:   "record [--journal FILE] [--cli-lane [--model-lane]] [--no-redact] -- AGENT_CMD [ARGS…]",
		Short: "Run an ACP agent behind a recording proxy",
		Long: `Run AGENT_CMD exactly as an editor would, and journal every message.

airwire record behaves like the agent itself: the editor gets the agent's
bytes unchanged both ways, stdin EOF is passed on, SIGINT/SIGTERM/SIGHUP are
forwarded, and airwire exits with the agent's exit status (128+N when a
signal N ended it).

Every frame goes into one JSON Lines journal (created 0600), numbered
gaplessly across lanes:
  client  editor <-> agent (ACP)
  cli     agent <-> Claude Code CLI, with --cli-lane
  model   Claude Code CLI <-> model API (HTTP), with --model-lane

--cli-lane sets CLAUDE_CODE_EXECUTABLE for the agent to airwire's CLI shim,
which starts the real CLI (the CLAUDE_CODE_EXECUTABLE airwire was started
with, else claude on PATH) and reports both directions of its stdio. Each
CLI spawn (auth status, one per session) is its own process in the journal.

--model-lane (needs --cli-lane) starts a reverse proxy on 127.0.0.1 and has
the shim point each real CLI's ANTHROPIC_BASE_URL at it, under the CLI's
process name (http://127.0.0.1:PORT/cli-2). The proxy forwards to the
ANTHROPIC_BASE_URL airwire was started with (default
https://api.anthropic.com), byte for byte, streaming SSE event by event, and
journals each request (head and body), response head, SSE event, response
body and how the exchange ended, attributed to its cli-N process. The agent's
own environment is not changed. x-api-key, authorization and cookie header
values are never written, even with --no-redact. A CLI configured to use
another endpoint (settings.json env, a cloud provider) bypasses the proxy.

Secrets are redacted before anything reaches disk: values of secret-looking
JSON members (apiKey, token, authorization, password, …), sk-ant-… keys,
Bearer credentials and the values of secret-looking environment variables
become <redacted:HASH8>; the same secret always gives the same token.
--no-redact keeps them (handle such journals as secrets).

Without --journal the journal goes to $XDG_STATE_HOME/airwire/journals/
(default ~/.local/state/airwire/journals/); its path is printed on stderr.`,
		Example: `  # in the editor's agent settings, instead of "npx @agentclientprotocol/claude-agent-acp":
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
	cmd.Flags().StringVar(&opts.Journal, "journal", "", "journal `FILE` to create (default: a new file under the state directory)")
	cmd.Flags().BoolVar(&opts.CLILane, "cli-lane", false, "also record agent <-> Claude CLI traffic through airwire's CLI shim")
	cmd.Flags().BoolVar(&opts.ModelLane, "model-lane", false, "with --cli-lane: also record Claude CLI <-> model API traffic through a loopback reverse proxy")
	cmd.Flags().BoolVar(&opts.NoRedact, "no-redact", false, "write secrets to the journal unredacted")
	cmd.Flags().DurationVar(&opts.CLIGrace, "cli-grace", 5*time.Second, "with --cli-lane: how long CLIs may run on after the agent exits before they are killed")
	cmd.Flags().BoolVarP(&opts.Quiet, "quiet", "q", false, "do not print the journal path on stderr")
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
	if !opts.Quiet {
		fmt.Fprintf(opts.IO.ErrOut, "airwire record: journal %s\n", path)
	}
	res, err := proxy.Record(ctx, proxy.RecordOptions{
		Argv: opts.Argv, Env: opts.Environ(),
		Stdin: opts.IO.In, Stdout: opts.IO.Out, Stderr: opts.IO.ErrOut,
		Journal: path, CLILane: opts.CLILane, ModelLane: opts.ModelLane, ShimArgv: shimArgv,
		Redact: !opts.NoRedact, Version: opts.Version, CLIGrace: opts.CLIGrace,
	})
	if err != nil {
		return err
	}
	if res.Code != 0 {
		return &cmdutil.ExitError{Code: res.Code}
	}
	return nil
}
