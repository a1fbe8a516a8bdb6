package adapter

import (
	"slices"
	"strings"

	"github.com/airwire/airwire/adapter/claude"
	"github.com/airwire/airwire/adapter/notices"
)

// Local slash commands: Claude Code answers some commands itself, without
// the model. Their output reaches the editor as the reference sends it:
// system/local_command_output frames as a message chunk (id the frame's
// uuid), and for a local-only command (which is never echoed, so its
// result activates the turn) the result's text as a message chunk (id the
// result's uuid). The same result rule covers a turn that answered on its
// result alone (no streamed or consolidated text, no output tokens, no
// compaction output). Not modelled: the reference's structured
// replacements of `/usage` and `/mcp` output.

// localOnlyCommands are the slash commands the CLI answers locally
// without echoing the prompt or calling the model.
var localOnlyCommands = []string{"/context", "/heapdump", "/extra-usage"}

// isLocalOnlyCommand reports whether a prompt's first block is a text
// starting with a local-only command.
func isLocalOnlyCommand(blocks []promptBlock) bool {
	if len(blocks) == 0 {
		return false
	}
	b := blocks[0]
	if !b.decoded || b.Type != "text" || !strings.HasPrefix(b.Text, "/") {
		return false
	}
	name, _, _ := strings.Cut(b.Text, " ")
	return slices.Contains(localOnlyCommands, name)
}

// localCommandOutput shows a system/local_command_output frame, unless it
// repeats a failed compaction's error that the compaction already showed.
func (t *rootText) localCommandOutput(m *claude.Frame) {
	if t.compaction.ConsumeDuplicateError(m.Content) {
		return
	}
	t.say(textUpdate("agent_message_chunk", m.Content, m.UUID))
}

// forwardResult sends a successful result's text when the turn showed
// nothing else of it: a local-only command, or a turn with no text, no
// compaction output and no output tokens. shown and compacted are what
// the turn delivered before its result.
func (t *rootText) forwardResult(r *claude.Frame, shown, compacted bool) {
	if r.Subtype != "success" || r.IsError || r.Result == "" {
		return
	}
	silent := !shown && !compacted && (r.Usage == nil || r.Usage.OutputTokens == nil || *r.Usage.OutputTokens == 0) &&
		!slices.Contains(t.noticed, notices.Normalize(r.Result))
	if !t.s.activeLocalOnly() && !silent {
		return
	}
	t.say(textUpdate("agent_message_chunk", r.Result, r.UUID))
}

// say sends a message chunk of the root conversation: a failed
// compaction's duplicate error is dropped; the text counts as delivered
// for the stretch up to the next result and goes into the title context.
func (t *rootText) say(u map[string]any) {
	if u["sessionUpdate"] == "agent_message_chunk" {
		text, _ := u["content"].(map[string]any)["text"].(string)
		if !t.showing(text) {
			return
		}
	}
	t.s.notify(u)
}

// showing is say's bookkeeping for message text about to be sent (the
// streamed chunks of chunks.go too); false means drop it.
func (t *rootText) showing(text string) bool {
	if t.compaction.ConsumeDuplicateError(text) {
		return false
	}
	t.shown = true
	t.s.titles.answer(text)
	return true
}
