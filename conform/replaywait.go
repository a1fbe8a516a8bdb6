package conform

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/airwire/airwire/conform/cassette"
	"github.com/airwire/airwire/internal/journal"
)

// ReplayQuiet is how long the journal of a replayed run must have been
// still before a post-turn wait ends early (replayView).
const ReplayQuiet = 100 * time.Millisecond

// replayView tells a replayed run's post-turn wait what its CLI can still
// send. The player writes each process's CLI frames in recorded order
// (docs/cassette.md, "Play one"), so the N-th stream-json spawn of the
// journal is the cassette's N-th process, and the frames it has not written
// yet are its recorded CLI frames past the ones the journal shows. A frame
// that is not among those never comes: waiting for it would only spend
// PostTurnWait. When the journal does not line up with the cassette
// (another spawn order, a frame of another type), every frame counts as
// coming, as in a live run.
type replayView struct {
	procs map[string]*replayProc
	// runs holds the kinds (arguments) of one-document runs the journal
	// shows; recorded, those of the cassette.
	runs, recorded map[string]bool
	cassetteProcs  int
}

// followReplay lines the journal's CLI processes up with the cassette's.
func followReplay(c *cassette.Cassette, entries []journal.Entry) *replayView {
	v := &replayView{procs: map[string]*replayProc{}, runs: map[string]bool{},
		recorded: map[string]bool{}, cassetteProcs: len(c.Processes)}
	for _, r := range c.Runs {
		v.recorded[runKind(r.Argv)] = true
	}
	for i := range entries {
		e := &entries[i]
		if e.Lane != journal.LaneCLI {
			continue
		}
		if e.Kind == journal.KindSpawn {
			switch {
			case cassette.IsStreamJSON(e.Argv):
				v.procs[e.Proc] = newReplayProc(c, len(v.procs))
			case len(e.Argv) > 0:
				v.runs[runKind(e.Argv[1:])] = true
			}
			continue
		}
		p := v.procs[e.Proc]
		switch {
		case p == nil || (e.Kind != journal.KindMsg && e.Kind != journal.KindNonJSON):
		case e.Dir == journal.DirCLI:
			p.played(e)
		case e.Dir == journal.DirAgent && !isInterrupt(e.Msg):
			p.sent++
		}
	}
	return v
}

// coming reports whether process proc may still send a frame that ends
// the wait a.
func (v *replayView) coming(proc string, a awaited) bool {
	p := v.procs[proc]
	return p == nil || p.lost || p.holds(a)
}

// agentOwed reports whether a process's recording has the adapter send
// more frames than the journal shows, interrupts aside (the recording ends
// with the one the adapter sends once its stdin closes): a title request
// after the turn, say, whose answer the transcript shows.
func (v *replayView) agentOwed() bool {
	for _, p := range v.procs {
		if p.lost || p.sent < p.agent {
			return true
		}
	}
	return false
}

// spawnsOwed reports whether the cassette holds CLI starts the journal
// does not show yet: more stream-json processes, or more kinds of
// one-document run (the `auth status` probe with a session's new settings)
// than the journal's. Runs count by their arguments, not one by one: the
// reference probes `auth status` more often than the agent has to.
func (v *replayView) spawnsOwed() bool {
	return len(v.procs) < v.cassetteProcs || len(v.runs) < len(v.recorded)
}

// runKind is a run's arguments, the program left out, as one key.
func runKind(argv []string) string { return strings.Join(argv, "\x00") }

// isInterrupt reports whether an adapter frame is an interrupt request.
func isInterrupt(m json.RawMessage) bool {
	var f struct {
		Type    string `json:"type"`
		Request struct {
			Subtype string `json:"subtype"`
		} `json:"request"`
	}
	return json.Unmarshal(m, &f) == nil && f.Type == "control_request" && f.Request.Subtype == "interrupt"
}

// replayProc follows one played process through its recorded CLI frames.
type replayProc struct {
	// frames are the recorded CLI frames (nil Msg for a non-JSON one);
	// next is the first not played yet.
	frames []json.RawMessage
	next   int
	// agent counts the recorded adapter frames, interrupts aside; sent
	// those the journal shows.
	agent, sent int
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
		switch {
		case e.Dir == cassette.DirCLI:
			p.frames = append(p.frames, e.Msg)
		case e.Dir == cassette.DirAgent && !isInterrupt(e.Msg):
			p.agent++
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
// session_state_changed, a control_response, a tool's Post* hook callback.
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
		case a == awaitToolHook:
			if _, _, post := f.toolHook(); post {
				return true
			}
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
