package adapter

// toolCallsCancelled: a session/cancel drops the state of each tool call
// (the fields the client holds, the hooks still awaited), as the reference
// does for a client without native subagent sessions; later reports of
// those calls go out whole.
func (t *translator) toolCallsCancelled() {
	t.mu.Lock()
	t.tools.Cancelled()
	t.sub.ParentCancelled()
	t.mu.Unlock()
}
