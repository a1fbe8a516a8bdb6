package adapter

import (
	"encoding/json"

	"github.com/airwire/airwire/adapter/history"
	"github.com/airwire/airwire/adapter/toolcall"
)

// Contract "Native subagent sessions", AIR form, on `session/load`: the
// replay of a stored session with its child sessions rebuilt (see
// replaySubagents); another client gets the session's messages only.

// replayMessages sends the stored messages msgs of the session whose
// transcript is at path as updates, before the load's answer.
func (s *Session) replayMessages(path string, msgs []history.Message, render toolcall.Renderer) {
	rp := history.NewReplayer(render, s.tr.tools)
	swap := s.replaySwaps()
	switch subagentForm(s.agent.clientCaps()) {
	case "rfd":
		s.replayRfd(path, msgs, rp, swap)
		return
	case "":
		for _, m := range msgs {
			for _, u := range replayOne(rp, swap, m) {
				s.notify(u)
			}
		}
		return
	}
	r := newReplaySubagents(s.ID, msgs)
	if len(r.children) > 0 {
		r.agents = history.Subagents(path)
	}
	r.transcript, r.modelEntry = path, sessionChildConfig{s}.modelEntry
	x := &childReplay{s: s, r: r, rp: rp, swap: swap}
	for _, m := range msgs {
		x.message(m)
	}
	x.send(r.finish())
	s.replayedChildModels = r.childModels()
}

// replayOne is the updates of m: the swapped record of a message of the
// session itself, else its replay.
func replayOne(rp *history.Replayer, swap history.Swap, m history.Message) []json.RawMessage {
	if swap != nil && m.ParentToolUseID == "" {
		if u, ok := swap(m); ok {
			return []json.RawMessage{u}
		}
	}
	return rp.Message(m)
}

// childReplay is one AIR replay in progress.
type childReplay struct {
	s    *Session
	r    *replaySubagents
	rp   *history.Replayer
	swap history.Swap
}

func (x *childReplay) send(out []replayed) {
	for _, o := range out {
		_ = x.s.agent.conn.Notify("session/update", map[string]any{"sessionId": o.sessionID, "update": o.update})
	}
}

// message replays m on its session (the root's, or the child's of its
// launch), without the reports of a launch's own tool call; then each
// child m launched is announced and its own transcript replayed.
func (x *childReplay) message(m history.Message) {
	target, out := x.r.target(m.ParentToolUseID)
	x.send(out)
	if m.ParentToolUseID != "" {
		x.send(x.r.responseModel(m.ParentToolUseID, m))
	}
	for _, u := range replayOne(x.rp, x.swap, m) {
		if !x.r.launchReport(u) {
			x.send([]replayed{{target, u}})
		}
	}
	for _, launch := range launchesOf(m) {
		x.send(x.r.announce(launch, nil))
		a, ok := x.r.agents[launch]
		if !ok || x.r.replayed[a.AgentID] {
			continue
		}
		x.r.replayed[a.AgentID] = true
		child := history.ReadSubagent(x.r.transcript, a.AgentID)
		x.r.register(child)
		for _, cm := range child {
			x.message(cm)
		}
	}
}

// publishReplayedChildModels runs after the load's answer: the CLI has
// given the session's model list by then, and a replayed child whose
// model it maps to another entry than the one the replay sent gets that
// entry (the reference's publishReplayedChildModels).
func (s *Session) publishReplayedChildModels() {
	s.publishRfdReplayStates()
	models := s.replayedChildModels
	s.replayedChildModels = nil
	for _, c := range models {
		e, ok := sessionChildConfig{s}.modelEntry(c.model)
		if !ok || e == c.sent {
			continue
		}
		_ = s.agent.conn.Notify("session/update", map[string]any{"sessionId": c.sessionID, "update": childModelUpdate(e)})
	}
}
