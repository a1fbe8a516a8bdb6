package adapter

import (
	"context"

	"github.com/airwire/airwire/adapter/claude"
)

// filePreview is the PreToolUse hook of an ACP v2 client, for Edit and
// Write (subagents.HookFuncs.Preview): the tool call shows the exact patch
// of the change before the tool runs, also when no permission request
// shows it, since a v2 diff cannot hold the input's snippet. The CLI runs
// the tool only after the hook answers, so the file is as it was.
type filePreview struct{ s *Session }

// hook makes no decision and always lets the CLI go on. The work a cancel
// stopped (the hook's request withdrawn, or the turn cancelled) shows
// nothing, and a patch that cannot be made is left out.
func (p filePreview) hook(ctx context.Context, cb *claude.HookCallback, reply claude.Reply) {
	if cb.Input.HookEventName == "PreToolUse" && cb.ToolUseID != "" && ctx.Err() == nil && !p.s.activeCancelled() {
		p.send(cb.ToolUseID, cb.Input)
	}
	reply(claude.HookContinue, nil)
}

// send sends the preview of the tool use toolUseID that the hook input in
// tells of, attributed to the subagent tool call that made it.
func (p filePreview) send(toolUseID string, in claude.HookInput) {
	t := p.s.tr
	parent, _ := t.toolUseOwner(in.AgentID, "")
	t.mu.Lock()
	defer t.mu.Unlock()
	t.sendAll(t.tools.Preview(toolUseID, in.ToolName, in.ToolInput, parent))
}
