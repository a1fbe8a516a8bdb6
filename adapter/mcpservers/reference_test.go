package mcpservers

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/airwire/airwire/adapter/refjs"
)

// The `/mcp` command is the reference adapter's own (dist/mcp-command.js):
// these tests run its functions under Node on the same inputs and compare.

// referenceScript reads cases from stdin and prints, for each, what the
// reference's functions make of it.
const referenceScript = `
import { pathToFileURL } from "node:url";
const { parseMcpCommand, formatMcpStatus, cleanMcpError, runMcpCommand } = await import(pathToFileURL(process.argv[1]).href);
let input = "";
for await (const chunk of process.stdin) input += chunk;
const cases = JSON.parse(input);
const out = { parse: [], format: [], clean: [], run: [] };
for (const text of cases.parse ?? []) out.parse.push(parseMcpCommand(text));
for (const statuses of cases.format ?? []) out.format.push(formatMcpStatus(statuses));
for (const error of cases.clean ?? []) out.clean.push(cleanMcpError(error));
for (const c of cases.run ?? []) {
	let reads = 0;
	const query = {
		mcpServerStatus: async () => {
			const s = c.statuses[Math.min(reads++, c.statuses.length - 1)];
			if (s === null) throw new Error("closed");
			return s;
		},
		reconnectMcpServer: async (name) => { if (c.errors?.[name]) throw new Error(c.errors[name]); },
		toggleMcpServer: async (name) => { if (c.errors?.[name]) throw new Error(c.errors[name]); },
	};
	const signal = new AbortController().signal;
	out.run.push(await runMcpCommand(query, parseMcpCommand(c.text), c.original, signal, () => {}));
}
console.log(JSON.stringify(out));
`

type runCase struct {
	Text     string            `json:"text"`
	Original string            `json:"original"`
	Statuses [][]Status        `json:"statuses"` // one per read, the last repeats; nil: the read fails
	Errors   map[string]string `json:"errors"`
}

type referenceCases struct {
	Parse  []string   `json:"parse"`
	Format [][]Status `json:"format"`
	Clean  []string   `json:"clean"`
	Run    []runCase  `json:"run"`
}

type referenceOut struct {
	Parse  []json.RawMessage `json:"parse"`
	Format []string          `json:"format"`
	Clean  []string          `json:"clean"`
	Run    []struct {
		Markdown    *string  `json:"markdown"`
		Reconnected []string `json:"reconnected"`
	} `json:"run"`
}

func runReference(t *testing.T, cases referenceCases) referenceOut {
	t.Helper()
	in, _ := json.Marshal(cases)
	b := refjs.Run(t, referenceScript, "mcp-command.js", in)
	var out referenceOut
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	return out
}

func str(s string) *string { return &s }

func tools(n int) *[]json.RawMessage {
	t := make([]json.RawMessage, n)
	for i := range t {
		t[i] = json.RawMessage(`{"name":"t"}`)
	}
	return &t
}

var formatCases = [][]Status{
	{},
	{{Name: "deploy", Status: "connected", Tools: tools(1)}},
	{
		{Name: "broken", Status: "failed", Error: "MCP error -32000: Connection closed"},
		{Name: "gh", Status: "needs-auth"},
		{Name: "slow", Status: "pending", Tools: tools(0)},
		{Name: "fs", Status: "connected", Tools: tools(3)},
		{Name: "old", Status: "disabled"},
		{Name: "odd`name", Status: "hibernating"},
		{Name: "x", Status: "hibernating", Error: "McpError: MCP startup failed: spawn ENOENT. The file is missing. Check the path. Really."},
	},
	{
		{Name: "dup", Status: "connected", Scope: str("project")},
		{Name: "dup", Status: "failed", Source: str("user_*settings*"), Error: "a\nmultiline <error> | with [markdown]"},
		{Name: " pad ", Status: "needs-auth"},
		{Name: "ne1", Status: "needs-auth"},
	},
}

var cleanCases = []string{
	"", "   \n ",
	"MCP error -32001: Request timed out",
	"McpError: MCP error -32000: Connection closed",
	"rmcp::transport::worker: failed: connection refused. Retrying soon! Then giving up? Never.",
	"Startup failed: 42",
	"Error: -1: 2",
	strings.Repeat("word ", 50) + "end.",
	strings.Repeat("é😀", 100),
	"Server failed to start. It exited.  Twice.",
	"Tool error: the tool broke. See the log. Or not.",
}

// Format and CleanError give the reference's Markdown for every status
// mix, duplicate name, unknown status and error shape above.
func TestFormatIsTheReferences(t *testing.T) {
	out := runReference(t, referenceCases{Format: formatCases, Clean: cleanCases, Parse: parseCases})
	for i, statuses := range formatCases {
		if got := Format(statuses); got != out.Format[i] {
			t.Errorf("Format case %d:\n got %q\nwant %q", i, got, out.Format[i])
		}
	}
	for i, e := range cleanCases {
		if got := CleanError(e); got != out.Clean[i] {
			t.Errorf("CleanError(%q):\n got %q\nwant %q", e, got, out.Clean[i])
		}
	}
	for i, text := range parseCases {
		cmd, ok := Parse(text)
		var want *struct {
			Action string  `json:"action"`
			All    *bool   `json:"all"`
			Server *string `json:"server"`
		}
		_ = json.Unmarshal(out.Parse[i], &want)
		if ok != (want != nil) {
			t.Errorf("Parse(%q): ok %v, the reference: %s", text, ok, out.Parse[i])
			continue
		}
		if !ok {
			continue
		}
		wantAll, wantServer := want.All != nil && *want.All, ""
		if want.Server != nil {
			wantServer = *want.Server
		}
		if cmd.Action != want.Action || cmd.All != wantAll || cmd.Server != wantServer {
			t.Errorf("Parse(%q) = %+v, the reference: %s", text, cmd, out.Parse[i])
		}
	}
}

var parseCases = []string{
	"/mcp", "  /mcp  ", "/mcp reconnect", "/mcp RECONNECT gh", "/mcp enable", "/mcp disable all",
	"/mcp disable my  server", "/mcp restart gh", "/mcpx", "/mcp\u00a0enable\u2003gh", "say /mcp", "/mcp:gh:prompt", "",
}

// fakeControl serves a runCase as the reference test's query does.
type fakeControl struct {
	c     runCase
	reads int
}

func (f *fakeControl) Status(ctx context.Context) ([]Status, error) {
	s := f.c.Statuses[min(f.reads, len(f.c.Statuses)-1)]
	f.reads++
	if s == nil {
		return nil, errors.New("closed")
	}
	return s, nil
}

func (f *fakeControl) act(server string) error {
	if e := f.c.Errors[server]; e != "" {
		return errors.New(e)
	}
	return nil
}

func (f *fakeControl) Reconnect(ctx context.Context, server string) error { return f.act(server) }
func (f *fakeControl) Toggle(ctx context.Context, server string, _ bool) error {
	return f.act(server)
}
func (f *fakeControl) Authenticate(ctx context.Context, server string) (Login, error) {
	return Login{}, errors.New("unused")
}

// Run gives the reference's Markdown and reconnected servers for each
// action: Claude Code's sentences kept or dropped, unknown names, a failed
// action, nothing to do, a missing name and a failed status read.
func TestRunIsTheReferences(t *testing.T) {
	two := []Status{
		{Name: "deploy", Status: "connected", Tools: tools(1)},
		{Name: "broken", Status: "failed", Error: "ENOENT: no such file"},
		{Name: "old", Status: "disabled"},
	}
	unavailable := "Reconnect, enable, and disable aren't available in this session."
	cases := []runCase{
		{Text: "/mcp", Original: "3 MCP server(s). Use `/mcp` in the terminal for details.", Statuses: [][]Status{two}},
		{Text: "/mcp", Original: "x", Statuses: [][]Status{nil}},
		{Text: "/mcp disable deploy", Original: unavailable, Statuses: [][]Status{two, {two[1], {Name: "deploy", Status: "disabled"}}}},
		{Text: "/mcp reconnect", Original: unavailable, Statuses: [][]Status{two}, Errors: map[string]string{"broken": "MCP error -32000: ENOENT: gone. Really gone. Yes."}},
		{Text: "/mcp reconnect nosuch", Original: `There's no MCP server named "nosuch". Run ` + "`/mcp`" + ` in the terminal to see configured servers.`, Statuses: [][]Status{two}},
		{Text: "/mcp enable nosuch", Original: unavailable, Statuses: [][]Status{two}},
		{Text: "/mcp enable all", Original: unavailable + " Use `/mcp reconnect all` here.", Statuses: [][]Status{two}},
		{Text: "/mcp enable all", Original: "", Statuses: [][]Status{{two[0]}}},
		{Text: "/mcp disable", Original: "Something else happened! " + unavailable, Statuses: [][]Status{two}},
		{Text: "/mcp reconnect deploy", Original: unavailable, Statuses: [][]Status{two, nil}},
		{Text: "/mcp disable all", Original: unavailable, Statuses: [][]Status{nil}},
	}
	out := runReference(t, referenceCases{Run: cases})
	for i, c := range cases {
		cmd, _ := Parse(c.Text)
		got := Run(context.Background(), &fakeControl{c: c}, cmd, c.Original)
		want := out.Run[i]
		if got.OK != (want.Markdown != nil) || (got.OK && got.Markdown != *want.Markdown) {
			t.Errorf("case %d %q:\n got %v %q\nwant %s", i, c.Text, got.OK, got.Markdown, mustJSON(want.Markdown))
		}
		if strings.Join(got.Reconnected, ",") != strings.Join(want.Reconnected, ",") {
			t.Errorf("case %d %q: reconnected %q, want %q", i, c.Text, got.Reconnected, want.Reconnected)
		}
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
