package subagents

import (
	"encoding/json"

	"github.com/airwire/airwire/adapter/history"
)

// Contract "Native subagent sessions", AIR form, on `session/load`: the
// replay of a stored session with its child sessions rebuilt (see
// replaySubagents); another client gets the session's messages only.

// Loaded is what the replay of a `session/load` leaves for after the
// load's answer (PublishStates, PublishModels).
type Loaded struct {
	host   Host
	config hostConfig
	// air are the models the replay sent its AIR child sessions.
	air []replayedChildModel
	// rfd is the RFD replay, for its children's current states.
	rfd *rfdReplay
}

// Replay sends the stored messages msgs of the root session, whose
// transcript is at path, as updates (through rp, and swap for the
// session's own messages), before the load's answer.
func (r *Router) Replay(path string, msgs []history.Message, rp *history.Replayer, swap history.Swap) *Loaded {
	l := &Loaded{host: r.host, config: hostConfig{r.host}}
	switch Form(r.caps) {
	case "rfd":
		l.rfd = replayRfd(l, r.root, r.form.cwd, path, msgs, rp, swap, r.caps.Notices)
		return l
	case "":
		for _, m := range msgs {
			for _, u := range replayOne(rp, swap, m) {
				r.host.Notify(r.root, u)
			}
		}
		return l
	}
	rs := newReplaySubagents(r.root, msgs)
	if len(rs.children) > 0 {
		rs.agents = history.Subagents(path)
	}
	rs.transcript, rs.modelEntry = path, l.config.modelEntry
	x := &childReplay{host: r.host, r: rs, rp: rp, swap: swap}
	for _, m := range msgs {
		x.message(m)
	}
	x.send(rs.finish())
	l.air = rs.childModels()
	return l
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
	host Host
	r    *replaySubagents
	rp   *history.Replayer
	swap history.Swap
}

func (x *childReplay) send(out []replayed) {
	for _, o := range out {
		x.host.Notify(o.sessionID, o.update)
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

// PublishStates runs after the load's answer: the RFD form's first child
// state (publishRfdReplayStates); then, the CLI having given the session's
// model list by then, each AIR child whose model it maps to another entry
// than the one the replay sent gets that entry (the reference's
// publishReplayedChildModels).
func (l *Loaded) PublishStates() {
	if l == nil {
		return
	}
	l.publishRfdReplayStates()
	models := l.air
	l.air = nil
	for _, c := range models {
		e, ok := l.config.modelEntry(c.model)
		if !ok || e == c.sent {
			continue
		}
		l.host.Notify(c.sessionID, childModelUpdate(e))
	}
}
