package sessionconfig

import (
	"encoding/json"
	"slices"
	"strings"
	"unicode"
)

// AvailableCommand is one entry of `available_commands_update`.
type AvailableCommand struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	Input       *Input `json:"input"`
}

// Input is a command's argument hint.
type Input struct {
	Hint string `json:"hint"`
}

// unsupportedCommands need the CLI's terminal and are never offered.
var unsupportedCommands = []string{"clear", "cost", "keybindings-help", "login", "logout", "output-style:new", "release-notes", "todos"}

// The commands the adapter adds: `/mcp` (it renders the MCP status
// itself) and `/remote-control`.
var (
	mcpCommand           = AvailableCommand{"mcp", "Show the MCP servers and their status, or reconnect, enable, or disable a server", &Input{"[reconnect|enable|disable [<server>|all]]"}}
	remoteControlCommand = AvailableCommand{"remote-control", "Continue this session from claude.ai/code or the Claude mobile app; `off` disconnects", &Input{"[session name | off]"}}
)

// Commands lists the slash commands as `available_commands_update` does:
// the CLI's commands without `/mcp`, the terminal-bound ones (terminal:
// `system/init`'s terminal_slash_commands, nil before it arrives) and the
// unsupported ones, an MCP prompt `x (MCP)` as `mcp:x`, then `/mcp` and
// `/remote-control`; names with whitespace and repeats are dropped.
func Commands(cmds []Command, terminal []string) []AvailableCommand {
	var out []AvailableCommand
	for _, c := range cmds {
		if c.Name == "mcp" || slices.Contains(terminal, c.Name) {
			continue
		}
		name := c.Name
		if strings.HasSuffix(name, " (MCP)") {
			name = "mcp:" + strings.Replace(name, " (MCP)", "", 1)
		}
		if slices.Contains(unsupportedCommands, name) {
			continue
		}
		out = append(out, AvailableCommand{Name: name, Description: c.Description, Input: hint(c.ArgumentHint)})
	}
	out = append(out, mcpCommand)
	offered := slices.ContainsFunc(cmds, func(c Command) bool {
		return c.Name == remoteControlCommand.Name && !slices.Contains(terminal, c.Name)
	})
	if !offered {
		out = append(out, remoteControlCommand)
	}
	seen := map[string]bool{}
	return slices.DeleteFunc(out, func(c AvailableCommand) bool {
		drop := strings.IndexFunc(c.Name, unicode.IsSpace) >= 0 || seen[c.Name]
		seen[c.Name] = true
		return drop
	})
}

// hint reads an argumentHint: a string, or a list joined by spaces; empty
// means no input.
func hint(raw json.RawMessage) *Input {
	var s string
	if json.Unmarshal(raw, &s) != nil {
		var list []string
		if json.Unmarshal(raw, &list) != nil {
			return nil
		}
		s = strings.Join(list, " ")
	}
	if s == "" {
		return nil
	}
	return &Input{Hint: s}
}

// CommandsUpdate is the `available_commands_update` update object.
func CommandsUpdate(cmds []AvailableCommand) json.RawMessage {
	if cmds == nil {
		cmds = []AvailableCommand{}
	}
	out, _ := json.Marshal(map[string]any{"sessionUpdate": "available_commands_update", "availableCommands": cmds})
	return out
}
