package cassette

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/airwire/airwire/conform/mockapi"
	"github.com/airwire/airwire/internal/uuid"
)

// NoMoreTurns is the text of the turn loose mode synthesizes for a prompt
// past the recording's last one (the mock API's loose prompts say the same).
const NoMoreTurns = mockapi.NoMoreTurns

// loose is the state of a player in loose mode (Options.Loose), for a
// human at an editor rather than a scenario: prompts match by order, the
// agent's control requests are answered at once, and what the recording
// lacks is answered by synthesized frames instead of failing.
type loose struct {
	// tmpl is the recorded process the synthesized frames copy their shape
	// from (the played one, or the first for a spawn past the recording).
	tmpl *Process
	// skipped marks the agent events a later match passed over.
	skipped []bool
	// reqOf maps the recorded request_id of each agent control request to
	// its event.
	reqOf map[string]int
	// queued are prompts past the recording's last one, waiting for the
	// recorded turn that is playing to end.
	queued []queuedPrompt
	// released marks the agent control requests the player stopped
	// holding for (HoldGrace ran out); answered those it answered at once
	// instead of in their recorded place.
	released, answered []bool
	// holdAt is the agent control request the player holds at, since
	// holdSince (-1: none).
	holdAt    int
	holdSince time.Time
	// gate is the result advance stops after while the recorded prompt
	// gateFor, queued during that turn, is unmatched (-1: none).
	gate, gateFor int
}

// HoldGrace is how long loose mode holds the recorded CLI frames at an
// agent control request the live agent has not sent yet (a session title,
// a task stop), so that its recorded answer plays in its recorded place.
// Past it the player goes on, and a late request is answered at once.
const HoldGrace = 2 * time.Second

type queuedPrompt struct {
	raw   []byte
	frame int
}

func newLoose(proc *Process) *loose {
	n := len(proc.Events)
	lo := &loose{tmpl: proc, skipped: make([]bool, n), released: make([]bool, n), answered: make([]bool, n),
		reqOf: map[string]int{}, holdAt: -1, gateFor: -1}
	for i, e := range proc.Events {
		if f, ok := parseFrame(e.Msg); ok && e.Dir == DirAgent && f.Type == "control_request" {
			lo.reqOf[f.RequestID] = i
		}
	}
	return lo
}

// deferredKey reports whether an agent control request with key k is
// answered at once in loose mode rather than in its recorded place: all
// but initialize (the first thing an agent sends) and interrupt (which
// changes the turn).
func deferredKey(k string) bool {
	return strings.HasPrefix(k, "control_request/") && k != "control_request/initialize" && k != "control_request/interrupt"
}

// passes reports whether advance may play past the unmatched agent event
// i: in loose mode, a control request once HoldGrace has passed holding
// at it (the first call starts the hold).
func (p *player) passes(i int) bool {
	if p.lo != nil && isPrompt(p.proc.Events[i].Msg) {
		return p.passPrompt(i)
	}
	if p.lo == nil || !deferredKey(p.keys[i]) {
		return false
	}
	if p.lo.released[i] {
		return true
	}
	if p.lo.holdAt != i {
		p.lo.holdAt, p.lo.holdSince = i, time.Now()
	}
	return false
}

// passPrompt reports whether advance may play past the unmatched recorded
// prompt i: when the recording queued it while a turn was playing (a CLI
// result follows it before the next prompt), the rest of that turn plays up
// to its result, and advance stops there (gated) until the live agent
// sends its next prompt; a human waits for the turn to end.
func (p *player) passPrompt(i int) bool {
	if !p.turnBefore(i) {
		return false
	}
	for j := i + 1; j < len(p.proc.Events); j++ {
		e := p.proc.Events[j]
		if e.Dir == DirAgent && isPrompt(e.Msg) {
			return false
		}
		if f, ok := parseFrame(e.Msg); ok && e.Dir == DirCLI && f.Type == "result" {
			p.lo.gate, p.lo.gateFor = j, i
			return true
		}
	}
	return false
}

// turnBefore reports whether a recorded turn is open at event i: a prompt
// comes before it with no CLI result in between.
func (p *player) turnBefore(i int) bool {
	for j := i - 1; j >= 0; j-- {
		e := p.proc.Events[j]
		if f, ok := parseFrame(e.Msg); ok && e.Dir == DirCLI && f.Type == "result" {
			return false
		}
		if e.Dir == DirAgent && isPrompt(e.Msg) {
			return true
		}
	}
	return false
}

// gated reports whether advance must stop after the result of the turn
// during which the recording queued a prompt the live agent has not sent.
func (p *player) gated() bool {
	return p.lo != nil && p.lo.gateFor >= 0 && !p.matched[p.lo.gateFor] && p.next > p.lo.gate
}

// holding returns when the hold at the next event ends (nil: no hold).
func (p *player) holding() <-chan time.Time {
	if p.lo == nil || p.next >= len(p.proc.Events) || p.lo.holdAt != p.next || p.matched[p.next] {
		return nil
	}
	return time.After(HoldGrace - time.Since(p.lo.holdSince))
}

// release ends the hold: the player goes on past the request.
func (p *player) release() {
	if p.lo != nil && p.lo.holdAt >= 0 {
		p.lo.released[p.lo.holdAt] = true
		p.lo.holdAt = -1
	}
}

// drops reports whether a recorded CLI frame is left out: in loose mode,
// the answer to an agent control request that was answered at once, was
// skipped, or was passed over unsent (released).
func (p *player) drops(msg []byte) bool {
	if p.lo == nil {
		return false
	}
	f, ok := parseFrame(msg)
	if !ok || f.Type != "control_response" {
		return false
	}
	j, ok := p.lo.reqOf[f.Response.RequestID]
	return ok && (p.lo.skipped[j] || p.lo.answered[j] || p.lo.released[j] && !p.matched[j])
}

// receiveLoose handles one agent frame in loose mode; it never fails.
func (p *player) receiveLoose(line []byte) int {
	raw, text := p.parseLine(line)
	k := key(raw, text, p.recordedID)
	switch {
	case isPrompt(raw):
		if i := p.nextPrompt(); i >= 0 {
			p.take(i, raw, line)
		} else {
			p.fx.agentFrame(line)
			p.lo.queued = append(p.lo.queued, queuedPrompt{raw: raw, frame: p.received})
		}
	case k == "control_request/interrupt":
		p.looseInterrupt(k, raw, line)
	case strings.HasPrefix(k, "control_request/"):
		p.looseRequest(k, raw, line)
	default:
		if i := p.find(k, raw, len(p.keys)); i >= 0 {
			p.take(i, raw, line)
		} else {
			fmt.Fprintf(p.errOut, "fake-cli replay: note: ignored agent→cli frame #%d %s, which the recording does not have\n", p.received, displayKey(k))
		}
	}
	return 0
}

// take matches the live frame to agent event i and skips the unmatched
// agent events before it but prompts: the live agent never sent them.
func (p *player) take(i int, raw, line []byte) {
	for j := 0; j < i; j++ {
		if p.proc.Events[j].Dir == DirAgent && !p.matched[j] && !isPrompt(p.proc.Events[j].Msg) {
			p.matched[j], p.lo.skipped[j] = true, true
		}
	}
	p.matched[i] = true
	p.learn(raw, p.proc.Events[i].Msg)
	p.fx.agentFrame(line)
}

// isPrompt reports whether raw is a user message that is no tool result
// (no parent_tool_use_id).
func isPrompt(raw []byte) bool {
	var f struct {
		Type   string          `json:"type"`
		Parent json.RawMessage `json:"parent_tool_use_id"`
	}
	if json.Unmarshal(raw, &f) != nil || f.Type != "user" {
		return false
	}
	return len(f.Parent) == 0 || string(f.Parent) == "null"
}

// nextPrompt returns the first recorded prompt not yet matched, or -1.
func (p *player) nextPrompt() int {
	for i, e := range p.proc.Events {
		if e.Dir == DirAgent && !p.matched[i] && isPrompt(e.Msg) {
			return i
		}
	}
	return -1
}

// promptBound is where the agent frames of the current turn end: the next
// unmatched recorded prompt, or the end.
func (p *player) promptBound() int {
	for i := p.next; i < len(p.proc.Events); i++ {
		if e := p.proc.Events[i]; e.Dir == DirAgent && !p.matched[i] && isPrompt(e.Msg) {
			return i
		}
	}
	return len(p.proc.Events)
}

// turnResult returns the CLI result that ends the recorded turn being
// played, or -1 when no turn is playing.
func (p *player) turnResult() int {
	for i := p.next; i < p.promptBound(); i++ {
		if f, ok := parseFrame(p.proc.Events[i].Msg); ok && p.proc.Events[i].Dir == DirCLI && f.Type == "result" {
			return i
		}
	}
	return -1
}

// looseRequest answers an agent control request at once: with the answer
// to the recorded request it matches in the current turn, else as
// synthesized by answer. initialize keeps its recorded place.
func (p *player) looseRequest(k string, raw, line []byte) {
	i := p.find(k, raw, p.promptBound())
	if i >= 0 && !deferredKey(k) {
		p.take(i, raw, line)
		return
	}
	p.fx.agentFrame(line)
	sub := strings.TrimPrefix(k, "control_request/")
	if i < 0 {
		fmt.Fprintf(p.errOut, "fake-cli replay: note: control request %s (agent frame #%d) is not in the recording here; answered with success\n", sub, p.received)
		p.emit(p.answer(raw, sub, -1))
		return
	}
	p.matched[i] = true
	p.learn(raw, p.proc.Events[i].Msg)
	if i >= p.next {
		return // not played past yet: its recorded answer plays in its place
	}
	p.lo.answered[i] = true
	p.emit(p.answer(raw, sub, i))
}

// looseInterrupt handles an interrupt: a recorded one of the current turn
// plays as recorded; else the turn being played ends as a real CLI ends an
// interrupted one (its pending requests withdrawn, the interrupt answered,
// a result error_during_execution), and with no turn playing the
// interrupt is just answered.
func (p *player) looseInterrupt(k string, raw, line []byte) {
	r := p.turnResult()
	limit := p.promptBound()
	if r >= 0 {
		limit = r
	}
	if i := p.find(k, raw, limit); i >= 0 {
		p.take(i, raw, line)
		return
	}
	p.fx.agentFrame(line)
	if r < 0 {
		p.emit(p.answer(raw, "interrupt", -1))
		return
	}
	p.cancelPending(r)
	p.emit(p.answer(raw, "interrupt", -1))
	for j := p.next; j <= r; j++ {
		if p.proc.Events[j].Dir == DirAgent && !p.matched[j] {
			p.matched[j], p.lo.skipped[j] = true, true
		}
	}
	p.next = r + 1
	p.emit(p.resultFrame("error_during_execution", "", nil))
}

// cancelPending withdraws the CLI's control requests already played whose
// recorded answer lies in the cut part of the turn (up to r).
func (p *player) cancelPending(r int) {
	played := map[string]bool{}
	for _, e := range p.proc.Events[:p.next] {
		if f, ok := parseFrame(e.Msg); ok && e.Dir == DirCLI && f.Type == "control_request" {
			played[f.RequestID] = true
		}
	}
	for j := p.next; j <= r; j++ {
		f, ok := parseFrame(p.proc.Events[j].Msg)
		if ok && p.proc.Events[j].Dir == DirAgent && !p.matched[j] && f.Type == "control_response" && played[f.Response.RequestID] {
			p.emit(encodeObj(map[string]any{"type": "control_cancel_request", "request_id": f.Response.RequestID}))
		}
	}
}

// flushQueued plays a synthesized turn for each prompt past the recording
// once no recorded turn is playing.
func (p *player) flushQueued() {
	for p.lo != nil && len(p.lo.queued) > 0 && p.turnResult() < 0 {
		q := p.lo.queued[0]
		p.lo.queued = p.lo.queued[1:]
		fmt.Fprintf(p.errOut, "fake-cli replay: note: prompt (agent frame #%d) is past the recording's last prompt; answered with a synthesized turn\n", q.frame)
		p.synthTurn(q.raw)
	}
}

// synthTurn answers a prompt past the recording: its echo, an assistant
// message saying NoMoreTurns, and a result, shaped as the recorded ones.
func (p *player) synthTurn(raw []byte) {
	live := decodeObj(raw)
	uuid, _ := live["uuid"].(string)
	echo := p.lo.template(DirCLI, func(m map[string]any) bool { return m["type"] == "user" && m["isReplay"] == true })
	if echo == nil {
		echo = live
	}
	echo["message"], echo["isReplay"] = live["message"], true
	if uuid != "" {
		echo["uuid"] = uuid
	}
	p.emit(encodeObj(echo))
	p.emit(p.assistantFrame(uuid))
	p.emit(p.resultFrame("success", NoMoreTurns, map[string]any{"num_turns": 1, "stop_reason": "end_turn"}))
}

// assistantFrame is an assistant message with one text block saying
// NoMoreTurns, answering the prompt uuid.
func (p *player) assistantFrame(promptUUID string) []byte {
	m := p.lo.template(DirCLI, func(m map[string]any) bool { return m["type"] == "assistant" && m["parent_tool_use_id"] == nil })
	if m == nil {
		m = map[string]any{"type": "assistant", "parent_tool_use_id": nil, "session_id": p.fx.session,
			"message": map[string]any{"type": "message", "role": "assistant", "model": "claude", "usage": map[string]any{"input_tokens": 0, "output_tokens": 0}}}
	}
	msg, _ := m["message"].(map[string]any)
	if msg == nil {
		msg = map[string]any{"type": "message", "role": "assistant"}
		m["message"] = msg
	}
	msg["id"], msg["stop_reason"] = "msg_airwire_play_"+uuid.New()[:8], "end_turn"
	msg["content"] = []any{map[string]any{"type": "text", "text": NoMoreTurns}}
	m["uuid"] = uuid.New()
	if _, ok := m["user_message_uuid"]; ok && promptUUID != "" {
		m["user_message_uuid"] = promptUUID
	}
	if _, ok := m["user_message_uuids"]; ok && promptUUID != "" {
		m["user_message_uuids"] = []any{promptUUID}
	}
	return encodeObj(m)
}
