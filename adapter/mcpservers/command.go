package mcpservers

import (
	"context"
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/airwire/airwire/adapter/jsstr"
	"github.com/airwire/airwire/adapter/mdtext"
	"github.com/airwire/airwire/internal/lazyre"
)

// Command is a parsed `/mcp` prompt.
type Command struct {
	Action string // status, reconnect, enable or disable
	All    bool   // `all`, or a reconnect that names no server
	Server string // the named server ("" for none)
}

const (
	statusTimeout = 5 * time.Second  // the status read of a `/mcp` command
	actionTimeout = 30 * time.Second // one reconnect, enable or disable
)

var (
	cliUnavailable = lazyre.New(`(?i)aren't available in this session`)
	cliNoSuchName  = lazyre.New(`(?i)no MCP server named`)
	inTheTerminal  = lazyre.New(`(?i)in the terminal`)
)

// Parse reads a prompt that is exactly `/mcp`, or `/mcp reconnect`,
// `/mcp enable` or `/mcp disable` with an optional server name or `all`.
// Any other text, or another `/mcp` argument, is not a Command.
func Parse(text string) (Command, bool) {
	if !strings.HasPrefix(strings.TrimLeftFunc(text, jsstr.IsSpace), "/mcp") {
		return Command{}, false
	}
	words := strings.FieldsFunc(text, jsstr.IsSpace)
	if len(words) == 0 || words[0] != "/mcp" {
		return Command{}, false
	}
	if len(words) == 1 {
		return Command{Action: "status"}, true
	}
	action := strings.ToLower(words[1])
	if action != "reconnect" && action != "enable" && action != "disable" {
		return Command{}, false
	}
	server := strings.Join(words[2:], " ")
	if server == "all" || (server == "" && action == "reconnect") {
		return Command{Action: action, All: true}, true
	}
	return Command{Action: action, Server: server}, true
}

// Outcome is what a `/mcp` command gives its turn: Markdown to show in
// place of Claude Code's text (ok false: keep that text), and the servers a
// reconnect tried.
type Outcome struct {
	Markdown    string
	OK          bool
	Reconnected []string
}

// Run runs cmd after Claude Code answered it with original, its own text.
// An action goes through the control API server by server (an error of
// one does not stop the others), and its results go above the list read
// after them. When the first status read fails or ctx ends, the turn keeps
// Claude Code's text.
func Run(ctx context.Context, c Control, cmd Command, original string) Outcome {
	before, ok := readStatus(ctx, c)
	if cmd.Action == "status" || !ok {
		return Outcome{Markdown: formatIf(before, ok), OK: ok}
	}
	var out Outcome
	var kept []string
	namesUnknown := false
	for _, s := range splitAfterPunct(strings.TrimSpace(original), true) {
		if s == "" || inTheTerminal.MatchString(s) || strings.Contains(s, "`/mcp reconnect all` here") {
			continue
		}
		namesUnknown = namesUnknown || cliNoSuchName.MatchString(s)
		if !cliUnavailable.MatchString(s) {
			kept = append(kept, s)
		}
	}
	results, aborted := act(ctx, c, cmd, before, namesUnknown, &out.Reconnected)
	if aborted {
		return Outcome{Reconnected: out.Reconnected}
	}
	var blocks []string
	if len(kept) > 0 {
		blocks = append(blocks, strings.Join(kept, " "))
	}
	if len(results) > 0 {
		blocks = append(blocks, strings.Join(results, "\n"))
	}
	after, ok := readStatus(ctx, c)
	if ctx.Err() != nil {
		return Outcome{Reconnected: out.Reconnected}
	}
	if ok {
		blocks = append(blocks, Format(after))
	}
	out.Markdown, out.OK = strings.Join(blocks, "\n\n"), true
	return out
}

// act runs the action on each target and returns a line per result;
// aborted when ctx ended under a call.
func act(ctx context.Context, c Control, cmd Command, before []Status, namesUnknown bool, reconnected *[]string) (results []string, aborted bool) {
	if !cmd.All && cmd.Server == "" {
		results = append(results, "Name a server or `all`, for example `/mcp "+cmd.Action+" <server>`.")
	}
	targets := actionTargets(cmd, before)
	if cmd.All && len(targets) == 0 {
		results = append(results, nothingToDo(cmd.Action))
	}
	for _, server := range targets {
		if !known(before, server) {
			if !namesUnknown { // else Claude Code's own sentence says it
				results = append(results, "There's no MCP server named "+codeSpan(server)+".")
			}
			continue
		}
		if cmd.Action == "reconnect" {
			*reconnected = append(*reconnected, server)
		}
		err := call(ctx, c, cmd.Action, server)
		switch {
		case ctx.Err() != nil:
			return nil, true
		case err == nil:
			results = append(results, "- "+actionDone(cmd.Action)+" "+codeSpan(server))
		default:
			line := "- Couldn't " + cmd.Action + " " + codeSpan(server)
			if e := CleanError(err.Error()); e != "" {
				line += ": " + mdtext.Escape(e)
			}
			results = append(results, line)
		}
	}
	return results, false
}

// call runs one action within actionTimeout.
func call(ctx context.Context, c Control, action, server string) error {
	ctx, cancel := context.WithTimeout(ctx, actionTimeout)
	defer cancel()
	var err error
	if action == "reconnect" {
		err = c.Reconnect(ctx, server)
	} else {
		err = c.Toggle(ctx, server, action == "enable")
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return errors.New("The request timed out.")
	}
	return err
}

// readStatus reads the servers within statusTimeout; false when the read
// failed, took too long or ctx ended.
func readStatus(ctx context.Context, c Control) ([]Status, bool) {
	if ctx.Err() != nil {
		return nil, false
	}
	ctx, cancel := context.WithTimeout(ctx, statusTimeout)
	defer cancel()
	s, err := c.Status(ctx)
	return s, err == nil
}

func formatIf(s []Status, ok bool) string {
	if !ok {
		return ""
	}
	return Format(s)
}

// actionTargets are the servers the action changes; a named server is
// always one, so the control API reports its own error.
func actionTargets(cmd Command, statuses []Status) []string {
	if !cmd.All {
		if cmd.Server == "" {
			return nil
		}
		return []string{cmd.Server}
	}
	var names []string
	for _, s := range statuses {
		var hit bool
		switch cmd.Action {
		case "reconnect":
			hit = needsReconnect(s)
		case "enable":
			hit = s.Status == "disabled"
		default:
			hit = s.Status != "disabled"
		}
		if hit && !slices.Contains(names, s.Name) {
			names = append(names, s.Name)
		}
	}
	return names
}

func known(statuses []Status, name string) bool {
	return slices.ContainsFunc(statuses, func(s Status) bool { return s.Name == name })
}

func nothingToDo(action string) string {
	switch action {
	case "enable":
		return "Every MCP server is already enabled."
	case "disable":
		return "Every MCP server is already disabled."
	}
	return "Every MCP server is connected or disabled. There is nothing to reconnect."
}

func actionDone(action string) string {
	switch action {
	case "reconnect":
		return "Reconnected"
	case "enable":
		return "Enabled"
	}
	return "Disabled"
}
