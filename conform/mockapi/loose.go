package mockapi

// NoMoreTurns is what a loose server (WithLoosePrompts) answers a prompt
// past the script's last turn with; `airwire play`'s loose cassette player
// says the same.
const NoMoreTurns = "This scenario has no more turns; airwire play answers every further prompt with this message."

// WithLoosePrompts makes the script's turns answer main-loop requests in
// order, whatever prompt text they were scripted for (a human at an editor
// types their own): a turn whose When.Text is set answers the next prompt
// (a last user message with no tool result) and is then done; the other
// conditions (ToolResult, Reminder) still hold. A turn's Capture that finds
// nothing is ignored. A request no remaining turn answers gets a text
// reply saying NoMoreTurns instead of a 400.
func WithLoosePrompts() Option {
	return func(s *Server) { s.loose = true }
}

// pickLoose is pick in loose mode: the first turn not yet done whose When
// holds, text aside. A turn is done once it answered with its Reply.
func (s *Server) pickLoose(u lastUser) (turn, attempt int, apiErr *APIError, matched bool) {
	if s.done == nil {
		s.done = make([]bool, len(s.script.Turns))
	}
	for i, t := range s.script.Turns {
		if s.done[i] || !t.When.matchesLoose(u) {
			continue
		}
		n := s.attempts[i]
		s.attempts[i]++
		switch {
		case n < len(t.Errors):
			return i, n + 1, &t.Errors[n], true
		case t.RepeatErrors:
			return i, n + 1, &t.Errors[len(t.Errors)-1], true
		}
		s.done[i] = true
		return i, n + 1, nil, true
	}
	return -1, 0, nil, false
}

// matchesLoose reports whether w holds for u when its text is not
// compared: a When with Text needs a prompt (no tool result).
func (w When) matchesLoose(u lastUser) bool {
	if w.Text != "" && len(u.ToolResults) > 0 {
		return false
	}
	w.Text = ""
	return w.matches(u)
}
