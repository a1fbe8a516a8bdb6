package toolcall

import "sort"

// unfinishedText is what a tool call says when its turn was cancelled (a
// session closed under it) before Claude Code returned its result.
const unfinishedText = "The turn was cancelled before this tool call returned a result."

// Unfinished ends each tool call the client holds open when the session
// closes under its turn: no result comes any more, so it is reported
// failed (ACP v1 has no cancelled status), saying the turn was cancelled
// before it returned one, and a command's display terminal ends with an
// unknown exit (null; AIR always gets a number and reads 1 for a command
// that did not succeed), as the reference's renderer does. The calls are
// forgotten. Calls go in tool use id order.
func (s *Session) Unfinished() []Update {
	ids := make([]string, 0, len(s.emitted))
	for id := range s.emitted {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	var out []Update
	for _, id := range ids {
		u := Update{SessionUpdate: kindToolCallUpdate, ToolCallID: id, Status: "failed", Content: list(textContent(unfinishedText))}
		tracked, known := s.uses[id]
		if known && s.render.hasTerminal(s.render.Facts(tracked.use)) {
			exit := &TerminalExit{TerminalID: id}
			if s.render.air() {
				one := 1
				exit.ExitCode = &one
			}
			u.Meta = &Meta{TerminalExit: exit}
		}
		out = s.send(out, u, tracked.parent)
		delete(s.emitted, id)
		delete(s.uses, id)
	}
	return out
}
