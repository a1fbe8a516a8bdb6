// Package fakecli implements `airwire fake-cli`: the scripted stand-in for
// the Claude Code CLI that the conformance suite puts behind an adapter
// through CLAUDE_CODE_EXECUTABLE. The behaviour lives in conform/fakecli.
package fakecli

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/airwire/airwire/cmd/cmdutil"
	"github.com/airwire/airwire/cmd/factory"
	"github.com/airwire/airwire/conform"
	"github.com/airwire/airwire/conform/cassette"
	"github.com/airwire/airwire/conform/fakecli"
)

// FakeCLIOptions are the inputs of `airwire fake-cli`.
type FakeCLIOptions struct {
	IO      factory.IOStreams
	Getenv  func(string) string
	Environ func() []string
	// Getwd returns the working directory (the session cwd the adapter set).
	Getwd func() (string, error)
	// Args is the CLI argv, passed through untouched (cobra parses nothing)
	// but for a leading --replay CASSETTE, which goes to Replay.
	Args []string
	// Replay is the cassette to play instead of the script (--replay, else
	// $AIRWIRE_FAKE_CLI_REPLAY).
	Replay string
}

// NewCmdFakeCLI builds `airwire fake-cli`. runF replaces the behaviour in tests.
func NewCmdFakeCLI(f *factory.Factory, runF func(*FakeCLIOptions) error) *cobra.Command {
	opts := &FakeCLIOptions{IO: f.IO, Getenv: f.Getenv, Environ: f.Environ, Getwd: os.Getwd}
	return &cobra.Command{
		Use:   "fake-cli [claude args…]",
		Short: "Run the scripted fake Claude Code CLI (for conformance tests)",
		Long: `fake-cli stands in for the Claude Code CLI. Point an adapter at it with
CLAUDE_CODE_EXECUTABLE (a script that execs "airwire fake-cli \"$@\"").

Every argument is passed through as the CLI's own argv. The script comes from
the file named by AIRWIRE_FAKE_CLI_SCRIPT (a scenario's cli section, JSON or
YAML); without one the fake behaves like an idle CLI. AIRWIRE_FAKE_CLI_LOG
names a JSONL file that records every frame read and written.

With a leading --replay CASSETTE (or AIRWIRE_FAKE_CLI_REPLAY=CASSETTE) it
plays a cassette recorded from the real CLI instead (docs/cassette.md);
AIRWIRE_FAKE_CLI_REPLAY_TIMEOUT (default 10s) bounds its wait for a frame
the recording needs; AIRWIRE_FAKE_CLI_REPLAY_PACE (default 10ms, 0 for
none) holds each frame until the adapter has been quiet that long.
AIRWIRE_FAKE_CLI_REPLAY_LOOSE=1 plays it for a human at an editor: prompts
match by order, whatever their text, what the recording lacks is answered
instead of failing, and it waits forever unless the timeout is set.`,
		Example: `  airwire fake-cli --version
  airwire fake-cli auth status --json
  AIRWIRE_FAKE_CLI_SCRIPT=cli.json airwire fake-cli --output-format stream-json \
      --verbose --input-format stream-json --permission-prompt-tool=stdio`,
		Hidden:             true,
		DisableFlagParsing: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Replay, opts.Args = replayArg(args)
			if runF != nil {
				return runF(opts)
			}
			return runFakeCLI(cmd.Context(), opts)
		},
	}
}

// replayArg takes a leading --replay FILE or --replay=FILE off argv.
func replayArg(args []string) (string, []string) {
	if len(args) >= 2 && args[0] == "--replay" {
		return args[1], args[2:]
	}
	if len(args) >= 1 {
		if v, ok := strings.CutPrefix(args[0], "--replay="); ok {
			return v, args[1:]
		}
	}
	return "", args
}

func runFakeCLI(ctx context.Context, opts *FakeCLIOptions) error {
	cwd, err := opts.Getwd()
	if err != nil {
		return err
	}
	if opts.Replay == "" {
		opts.Replay = opts.Getenv(cassette.EnvReplay)
	}
	if opts.Replay != "" {
		return runReplay(ctx, opts, cwd)
	}
	code := fakecli.Run(ctx, fakecli.Options{
		Args: opts.Args, In: opts.IO.In, Out: opts.IO.Out, ErrOut: opts.IO.ErrOut,
		Getenv: opts.Getenv, Environ: opts.Environ, Cwd: cwd,
	})
	if code != 0 {
		return &cmdutil.ExitError{Code: code}
	}
	return nil
}

// runReplay plays the cassette opts.Replay as this CLI spawn.
func runReplay(ctx context.Context, opts *FakeCLIOptions, cwd string) error {
	c, err := cassette.Load(opts.Replay)
	if err != nil {
		fmt.Fprintf(opts.IO.ErrOut, "fake-cli replay: %v\n", err)
		return &cmdutil.ExitError{Code: cassette.ExitBadCassette}
	}
	var timeout time.Duration
	if v := opts.Getenv(cassette.EnvReplayTimeout); v != "" {
		if timeout, err = time.ParseDuration(v); err != nil {
			fmt.Fprintf(opts.IO.ErrOut, "fake-cli replay: %s: %v\n", cassette.EnvReplayTimeout, err)
			return &cmdutil.ExitError{Code: cassette.ExitBadCassette}
		}
		if timeout == 0 {
			timeout = -1 // wait forever
		}
	}
	in, out := opts.IO.In, opts.IO.Out
	pace := conform.DefaultPace
	if v := opts.Getenv(cassette.EnvReplayPace); v != "" {
		if pace, err = time.ParseDuration(v); err != nil {
			fmt.Fprintf(opts.IO.ErrOut, "fake-cli replay: %s: %v\n", cassette.EnvReplayPace, err)
			return &cmdutil.ExitError{Code: cassette.ExitBadCassette}
		}
	}
	// Only a stream-json process is paced: a run that prints one document
	// (auth status --json, several lines) has no adapter to wait for, and a
	// paced one took a pause per line.
	if pace > 0 && cassette.IsStreamJSON(opts.Args) {
		p := conform.NewPacer(pace)
		in, out = p.Reader(in), p.StreamWriter(out)
	}
	state := cassette.StatePath(opts.Replay, opts.Getenv)
	code := cassette.Play(ctx, cassette.Options{
		Cassette: c, Args: opts.Args, In: in, Out: out, ErrOut: opts.IO.ErrOut,
		Getenv: opts.Getenv, Cwd: cwd, Timeout: timeout, Loose: opts.Getenv(cassette.EnvReplayLoose) == "1",
		Spawn: cassette.SpawnCounter(state), Runs: cassette.RunCounter(state),
	})
	if code != 0 {
		return &cmdutil.ExitError{Code: code}
	}
	return nil
}
