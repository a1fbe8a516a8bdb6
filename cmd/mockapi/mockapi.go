// Package mockapi implements `airwire mock-api --script FILE`: a loopback
// Anthropic Messages API that answers from a model script, so the real
// Claude Code CLI runs offline and deterministically. The behaviour lives in
// conform/mockapi.
package mockapi

import (
	"context"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/airwire/airwire/cmd/cmdutil"
	"github.com/airwire/airwire/cmd/factory"
	"github.com/airwire/airwire/conform/mockapi"
)

// MockAPIOptions are the inputs of `airwire mock-api`.
type MockAPIOptions struct {
	IO factory.IOStreams
	// ReadFile reads the script file.
	ReadFile func(string) ([]byte, error)

	Script string
	Addr   string
}

// NewCmdMockAPI builds `airwire mock-api`. runF replaces the behaviour in tests.
func NewCmdMockAPI(f *factory.Factory, runF func(*MockAPIOptions) error) *cobra.Command {
	opts := &MockAPIOptions{IO: f.IO, ReadFile: os.ReadFile}
	cmd := &cobra.Command{
		Use:   "mock-api --script FILE [--addr 127.0.0.1:PORT]",
		Short: "Serve a scripted Anthropic Messages API on loopback, for running the real Claude CLI offline",
		Long: `mock-api answers POST /v1/messages (streamed or not),
/v1/messages/count_tokens and GET /v1/models on 127.0.0.1 from a model script,
so the real Claude Code CLI runs offline and deterministically. It never listens
elsewhere.

FILE is a scenario (its top-level model: key is used, other keys are ignored)
or a bare model script, YAML or JSON; unknown keys are errors.

A main-loop request is answered by the first turn whose "when" holds for the
LAST user message: text is a substring of its text (system reminders removed),
toolResult a tool_use id it carries a result for. Requests are never counted:
session titles, prompt suggestions and the max_tokens:1 check are side requests,
answered from "side". A request no turn matches gets a 400 naming the message.

Turn fields: reply (text | thinking | toolUse{id,name,input} blocks),
stopReason, errors ({status: 400|401|403|404|413|429|500|529, type, message,
retryAfter}; consumed in order by the matching requests, e.g. the CLI's
retries), repeatErrors (fail forever with the last error), stream
({eventDelay: 200ms}, {dropAfter: N events}, {hangAfter: N events} or
{hang: true}), usage.

Script fields besides turns and side: models, the model ids GET /v1/models
lists (the Models API's pages: limit, after_id, has_more, last_id; without
models it answers 404, as a gateway with no listing), and modelsPage, a page
size below the caller's limit, so that a client must page.

The first stdout line is "mock-api listening on http://127.0.0.1:PORT"; one
line per request goes to stderr. SIGINT or SIGTERM stops it (exit 0).`,
		Example: `  # script.yaml
  turns:
    - when: {text: "List the files"}
      reply:
        - text: "I'll look."
        - toolUse: {id: toolu_ls, name: Bash, input: {command: "ls -la", description: "List files"}}
    - when: {toolResult: toolu_ls}
      reply: [{text: "There are two files."}]
    - when: {text: "Write the changelog"}
      errors: [{status: 529}]
      repeatErrors: true
  side:
    title: "Fix the build"
    default: "ok"

  airwire mock-api --script script.yaml --addr 127.0.0.1:18181 &

  # point the real Claude Code CLI at it
  HOME=$(mktemp -d) ANTHROPIC_BASE_URL=http://127.0.0.1:18181 ANTHROPIC_API_KEY=sk-test \
  DISABLE_TELEMETRY=1 CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 \
    claude -p "List the files"`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if opts.Script == "" {
				return cmdutil.FlagErrorf("--script is required")
			}
			if err := mockapi.CheckLoopback(opts.Addr); err != nil {
				return cmdutil.FlagErrorf("--addr: %v", err)
			}
			if runF != nil {
				return runF(opts)
			}
			return runMockAPI(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVar(&opts.Script, "script", "", "model script: a scenario file with a model: key, or a bare script (YAML or JSON)")
	cmd.Flags().StringVar(&opts.Addr, "addr", "127.0.0.1:0", "listen address; the host must be 127.0.0.1 (port 0 picks a free one)")
	return cmd
}

func runMockAPI(ctx context.Context, opts *MockAPIOptions) error {
	data, err := opts.ReadFile(opts.Script)
	if err != nil {
		return err
	}
	script, err := mockapi.ParseFile(data)
	if err != nil {
		return fmt.Errorf("%s: %w", opts.Script, err)
	}
	base, closeFn, err := mockapi.New(script, mockapi.WithLog(opts.IO.ErrOut)).Start(opts.Addr)
	if err != nil {
		return err
	}
	// One unbuffered write: a caller reading stdout gets the line at once.
	if _, err := fmt.Fprintf(opts.IO.Out, "mock-api listening on %s\n", base); err != nil {
		_ = closeFn()
		return err
	}
	<-ctx.Done()
	return closeFn()
}
