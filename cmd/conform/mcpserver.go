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
		Use:   "mcp-server --tool NAME [--reply TEXT] [--delay DURATION]",
		Short: "Serve one MCP tool over stdio (the user MCP server of a scenario)",
		Long: `Serve one MCP tool over stdio: newline-delimited JSON-RPC, the MCP
methods initialize, ping, tools/list and tools/call. Every call of the tool
answers --reply as text after --delay; a call the client cancels gets no
answer. The server ends when its input ends.

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
	return cmd
}
