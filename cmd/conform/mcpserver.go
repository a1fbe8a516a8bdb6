package conform

import (
	"github.com/spf13/cobra"

	"github.com/airwire/airwire/cmd/cmdutil"
	"github.com/airwire/airwire/cmd/factory"
	"github.com/airwire/airwire/conform/mcpserver"
)

// NewCmdMCPServer builds the hidden `airwire conform mcp-server`: the stdio
// MCP server with one tool that a scenario names in its session's
// mcpServers (as {{mcpServer}}), for the real Claude CLI to call.
func NewCmdMCPServer(f *factory.Factory) *cobra.Command {
	var t mcpserver.Tool
	cmd := &cobra.Command{
		Use:   "mcp-server --tool NAME [--reply TEXT] [--delay DURATION] [--elicit form|url --message TEXT [--url URL]]",
		Short: "Serve one MCP tool over stdio (the user MCP server of a scenario)",
		Long: `Serve one MCP tool over stdio: newline-delimited JSON-RPC, the MCP
methods initialize, ping, tools/list and tools/call. Every call of the tool
answers --reply as text after --delay; a call the client cancels gets no
answer. The server ends when its input ends.

With --elicit, each call first asks the user through the client (MCP
elicitation/create): --elicit form asks for an environment (staging or
production), --elicit url sends the user to --url and, once they accept,
reports the elicitation complete. The call's text then ends with the
user's action, e.g. "Created. (accept)".

A scenario gives it to its session as a stdio MCP server whose command is
{{mcpServer}}, for example:

  mcpServers:
    - {name: github, command: "{{mcpServer}}", args: [--server, github, --tool, search_issues, --reply, "#12 Crash on start", --delay, 3s], env: []}`,
		Hidden: true,
		Args:   cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if t.Name == "" {
				return cmdutil.FlagErrorf("--tool is required: the name of the tool to serve")
			}
			switch {
			case t.Elicit != "" && t.Elicit != mcpserver.ElicitForm && t.Elicit != mcpserver.ElicitURL:
				return cmdutil.FlagErrorf("--elicit %q: want form or url", t.Elicit)
			case t.Elicit == mcpserver.ElicitURL && t.URL == "":
				return cmdutil.FlagErrorf("--elicit url needs --url: the page the user is sent to")
			case t.Elicit == "" && (t.Message != "" || t.URL != ""):
				return cmdutil.FlagErrorf("--message and --url go with --elicit")
			}
			if t.Delay < 0 {
				return cmdutil.FlagErrorf("--delay must not be negative, got %s", t.Delay)
			}
			return mcpserver.Serve(cmd.Context(), t, f.IO.In, f.IO.Out)
		},
	}
	cmd.Flags().StringVar(&t.Server, "server", "scenario", "the server's `NAME` in its initialize answer")
	cmd.Flags().StringVar(&t.Name, "tool", "", "the `NAME` of the one tool")
	cmd.Flags().StringVar(&t.Reply, "reply", "done", "the `TEXT` every call answers")
	cmd.Flags().DurationVar(&t.Delay, "delay", 0, "how long each call runs before it answers")
	cmd.Flags().StringVar(&t.Elicit, "elicit", "", "ask the user first, in `MODE` form or url")
	cmd.Flags().StringVar(&t.Message, "message", "", "the `TEXT` the elicitation shows")
	cmd.Flags().StringVar(&t.URL, "url", "", "the `URL` a url elicitation sends the user to")
	return cmd
}
