package adapter

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/airwire/airwire/adapter/claude"
	"github.com/airwire/airwire/adapter/mcpservers"
	"github.com/airwire/airwire/adapter/notices"
	"github.com/airwire/airwire/adapter/usage"
)

// Local slash commands: Claude Code answers some commands itself, without
// the model. Their output reaches the editor as the reference sends it:
// system/local_command_output frames as a message chunk (id the frame's
// uuid), and for a local-only command (which is never echoed, so its
// result activates the turn) the result's text as a message chunk (id the
// result's uuid). The same result rule covers a turn that answered on its
// result alone (no streamed or consolidated text, no output tokens, no
// compaction output). A prompt that is exactly a `/mcp` command gets its
// output replaced by the agent's list of the servers (adapter/mcpservers),
// and one that is exactly `/usage` by the structured usage Claude Code
// gives get_usage (adapter/usage): in whichever frame Claude Code sends
// the output (a synthetic assistant message, local_command_output, or the
// result), once. The reference asks for the usage as the turn starts, ours
// at its output: a turn has nothing to show before that.

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
	if text, show := localReplacement(t.s, m.Content); show != dropOutput {
		t.say(textUpdate("agent_message_chunk", text, m.UUID))
	}
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
	if text, show := localReplacement(t.s, r.Result); show != dropOutput {
		t.say(textUpdate("agent_message_chunk", text, r.UUID))
	}
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

// localCommand is a turn's `/mcp` or `/usage` command: Claude Code's
// output for it is replaced once by what produce makes of it.
type localCommand struct {
	produce func(ctx context.Context, p *claude.Process, original string) localOutcome

	mu        sync.Mutex
	ran       bool               // run ran (once, from the CLI's message loop)
	out       localOutcome       // what it made
	aborted   bool               // the turn was cancelled or ended
	cancel    context.CancelFunc // of the run under way
	delivered bool               // the replacement was shown
	original  string             // the output it replaced
}

// localOutcome is a replacement: ok false keeps Claude Code's output;
// reconnected are the MCP servers a `/mcp reconnect` tried.
type localOutcome struct {
	markdown    string
	ok          bool
	reconnected []string
}

// usageTimeout bounds the `/usage` command's get_usage.
const usageTimeout = 5 * time.Second

// newLocalCommand is the command of a prompt that is one text block and
// exactly `/usage` or a `/mcp` command; nil for any other prompt.
func newLocalCommand(blocks []promptBlock) *localCommand {
	if len(blocks) != 1 || !blocks[0].decoded || blocks[0].Type != "text" {
		return nil
	}
	if usage.IsCommand(blocks[0].Text) {
		return &localCommand{produce: usageMarkdown}
	}
	cmd, ok := mcpservers.Parse(blocks[0].Text)
	if !ok {
		return nil
	}
	return &localCommand{produce: func(ctx context.Context, p *claude.Process, original string) localOutcome {
		out := mcpservers.Run(ctx, mcpservers.CLI(p), cmd, original)
		return localOutcome{out.Markdown, out.OK, out.Reconnected}
	}}
}

// usageMarkdown asks Claude Code for the structured usage and shows it.
func usageMarkdown(ctx context.Context, p *claude.Process, _ string) localOutcome {
	ctx, cancel := context.WithTimeout(ctx, usageTimeout)
	defer cancel()
	var raw json.RawMessage
	if err := p.Request(ctx, claude.GetUsage{}, &raw); err != nil {
		return localOutcome{}
	}
	md, ok := usage.CommandMarkdown(raw, time.Local)
	return localOutcome{markdown: md, ok: ok}
}

// abort stops the command's run and any later one.
func (l *localCommand) abort() {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.aborted = true
	if l.cancel != nil {
		l.cancel()
	}
}

// settled aborts the command of a turn that ended, and returns the servers
// its shown output reconnected.
func (l *localCommand) settled() []string {
	if l == nil {
		return nil
	}
	l.abort()
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.delivered {
		return nil
	}
	return l.out.reconnected
}

// run makes the replacement for the output original, once.
func (l *localCommand) run(p *claude.Process, original string) localOutcome {
	l.mu.Lock()
	if l.ran || l.aborted || p == nil {
		l.ran = true
		defer l.mu.Unlock()
		return l.out
	}
	l.ran = true
	ctx, cancel := context.WithCancel(context.Background())
	l.cancel = cancel
	l.mu.Unlock()
	defer cancel()
	out := l.produce(ctx, p, original)
	l.mu.Lock()
	l.out = out // settled may read it from another goroutine
	l.mu.Unlock()
	return out
}

// outputShown says how a local command's output is shown.
type outputShown int

const (
	keepOutput    outputShown = iota // as Claude Code sent it
	replaceOutput                    // by the agent's replacement
	dropOutput                       // not at all
)

// localReplacement is what shows the output original of the turn under
// way (or the first queued one): the output itself for a turn without a
// `/mcp` command or whose list could not be read; the replacement the
// first time; nothing for the same output mirrored by another frame, or
// when the turn was cancelled.
func localReplacement(s *Session, original string) (string, outputShown) {
	s.mu.Lock()
	var t *turn
	if len(s.turns) > 0 {
		t = s.turns[0]
	}
	s.mu.Unlock()
	if t == nil || t.local == nil {
		return original, keepOutput
	}
	out := t.local.run(s.cli(), original)
	if s.activeCancelled() {
		return "", dropOutput
	}
	if !out.ok {
		return original, keepOutput
	}
	l := t.local
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.delivered {
		if l.original == original {
			return "", dropOutput
		}
		return original, keepOutput
	}
	l.delivered, l.original = true, original
	return out.markdown, replaceOutput
}
