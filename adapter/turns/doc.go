// Package turns is the agent's own view of a prompt turn and of a
// session's foreground work, which each ACP version maps: v1 answers
// session/prompt when the turn ends or fails, v2 when Claude Code takes the
// prompt in, and reports the session's work as `state_update`s.
//
// A turn reports through Events: Inserted at most once and never after
// its end, then exactly one of Ended and Failed. The session's work is
// followed by Foreground, which reports through Reporter: Running when it
// starts (or works again after it awaited the user), AwaitingUser while a
// permission request or a question is open, then Ended or Failed. An
// Outcome is field for field a v1 prompt response, so the v1 prompt
// response only appears at the v1 boundary (V1Prompt).
//
// It owns no connection and no session: callers pass the answer's writer
// in. It never calls back into the agent.
package turns
