package conform

import (
	"encoding/json"

	"github.com/airwire/airwire/internal/cassette"
	"github.com/airwire/airwire/internal/journal"
)

// replayComing tells a replayed run's post-turn wait which awaited frames
// its CLI can still send. The player writes each process's CLI frames in
// recorded order (docs/cassette.md, "Play one"), so the N-th stream-json
// spawn of the journal is the cassette's N-th process, and the frames it
// has not written yet are its recorded CLI frames past the ones the journal
// shows. A frame that is not among those never comes: waiting for it would
// only spend PostTurnWait. When the journal does not line up with the
// cassette (another spawn order, a frame of another type), every frame
// counts as coming, as in a live run.
func replayComing(c *cassette.Cassette, entries []journal.Entry) func(string, awaited) bool {
	procs := map[string]*replayProc{}
	for i := range entries {
		e := &entries[i]
		if e.Lane != journal.LaneCLI {
			continue
		}
		if e.Kind == journal.KindSpawn {
			if cassette.IsStreamJSON(e.Argv) {
				procs[e.Proc] = newReplayProc(c, len(procs))
			}
			continue
		}
		if p := procs[e.Proc]; p != nil && e.Dir == journal.DirCLI && (e.Kind == journal.KindMsg || e.Kind == journal.KindNonJSON) {
			p.played(e)
		}
	}
	return func(proc string, a awaited) bool {
		p := procs[proc]
		return p == nil || p.lost || p.holds(a)
	}
}

// replayProc follows one played process through its recorded CLI frames.
type replayProc struct {
	// frames are the recorded CLI frames (nil Msg for a non-JSON one);
	// next is the first not played yet.
	frames []json.RawMessage
	next   int
	// lost is set when the journal and the recording disagree.
	lost bool
}

// newReplayProc follows the cassette's process i (0-based).
func newReplayProc(c *cassette.Cassette, i int) *replayProc {
	if i >= len(c.Processes) {
		return &replayProc{lost: true}
	}
	p := &replayProc{}
	for _, e := range c.Processes[i].Events {
		if e.Dir == cassette.DirCLI {
			p.frames = append(p.frames, e.Msg)
		}
	}
	return p
}

// played moves past the CLI frame e, checking it is the recorded one's type.
func (p *replayProc) played(e *journal.Entry) {
	if p.lost {
		return
	}
	if p.next >= len(p.frames) || frameType(p.frames[p.next]) != frameType(e.Msg) {
		p.lost = true
		return
	}
	p.next++
}

// holds reports whether the frames not played yet hold a frame that ends
// the wait a: a prompt_suggestion before the next result, an idle
// session_state_changed, a control_response.
func (p *replayProc) holds(a awaited) bool {
	for _, m := range p.frames[p.next:] {
		var f cliFrame
		if m == nil || json.Unmarshal(m, &f) != nil {
			continue
		}
		switch {
		case a == awaitSuggestion && f.Type == "result":
			return false
		case a == awaitSuggestion && f.Type == "prompt_suggestion",
			a == awaitIdle && f.Type == "system" && f.Subtype == "session_state_changed" && f.State == "idle",
			a == awaitAnswer && f.Type == "control_response":
			return true
		}
	}
	return false
}

// frameType is a frame's type and subtype ("" for one that is not JSON).
func frameType(m json.RawMessage) string {
	var f cliFrame
	if m == nil || json.Unmarshal(m, &f) != nil {
		return ""
	}
	return f.Type + "/" + f.Subtype
}
