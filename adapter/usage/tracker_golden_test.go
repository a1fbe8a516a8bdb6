package usage

import (
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/airwire/airwire/conform/goldentest"

	"github.com/airwire/airwire/conform/cassette"
)

// wanted is what a golden says about usage: each usage_update (the update
// object) and each prompt result, in order.
type wanted struct {
	updates []string
	results []string
	// closesTurn: the editor closed the session while a prompt was still
	// unanswered (session/close under a turn).
	closesTurn bool
	// compacts counts the editor's /compact prompts: a /compact beyond
	// them is the agent's own (an idle compaction), which no one awaits.
	compacts int
}

func wantedOf(t *testing.T, path string) wanted {
	var w wanted
	w.closesTurn = closesTurn(t, path)
	for _, l := range goldentest.Read(t, path) {
		if l.Tag == "client editor->agent" && strings.Contains(string(l.Msg), `"method":"session/prompt"`) &&
			strings.Contains(string(l.Msg), `"text":"/compact"`) {
			w.compacts++
		}
	}
	for _, raw := range goldentest.AgentMessages(t, path) {
		var m struct {
			Method string `json:"method"`
			Params struct {
				Update json.RawMessage `json:"update"`
			} `json:"params"`
			Result struct {
				StopReason string `json:"stopReason"`
			} `json:"result"`
		}
		if json.Unmarshal(raw, &m) != nil {
			continue
		}
		var u struct {
			SessionUpdate string `json:"sessionUpdate"`
		}
		_ = json.Unmarshal(m.Params.Update, &u)
		if m.Method == "session/update" && u.SessionUpdate == "usage_update" {
			w.updates = append(w.updates, goldentest.Canon(t, m.Params.Update))
		}
		if m.Result.StopReason != "" {
			var full struct {
				Result json.RawMessage `json:"result"`
			}
			_ = json.Unmarshal(raw, &full)
			w.results = append(w.results, goldentest.Canon(t, full.Result))
		}
	}
	return w
}

// closesTurn reports whether the golden's editor closes the session while
// one of its prompts is unanswered.
func closesTurn(t *testing.T, path string) bool {
	open := map[string]bool{}
	for _, l := range goldentest.Read(t, path) {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if json.Unmarshal(l.Msg, &m) != nil {
			continue
		}
		switch {
		case l.Tag == "client editor->agent" && m.Method == "session/prompt":
			open[string(m.ID)] = true
		case l.Tag == "client editor->agent" && m.Method == "session/close" && len(open) > 0:
			return true
		case l.Tag == "client agent->editor" && m.Method == "":
			delete(open, string(m.ID))
		}
	}
	return false
}

// replay feeds a cassette's CLI frames, process by process, to one
// tracker per process, as the agent's reader would, and returns the
// updates and prompt results it produces.
// An ExitPlanMode clear-context restart hands the turn and its tracker on
// to the next process, which starts with FreshContext.
// closing: the editor closes the session under a turn (wanted.closesTurn).
func replay(t *testing.T, c *cassette.Cassette, closing bool, compacts int) wanted {
	var got wanted
	own := ownPrompts{editors: compacts}
	var handedOn *Tracker
	// the windows results confirmed, which a later process of the same
	// model starts with (the adapter's cross-session cache)
	learned := map[string]int{}
	for _, p := range c.Processes {
		r := newReplayer(t, p)
		r.learned, r.closing, r.own = learned, closing, &own
		r.tr.OnWindow(func(model string, size int) { learned[model] = size })
		if handedOn != nil {
			r.tr, r.active, r.windowSeeded, r.continuing = handedOn, true, true, true
			got.updates = append(got.updates, goldentest.Canon(t, handedOn.FreshContext()))
		}
		for _, e := range p.Events {
			r.event(e, &got)
		}
		handedOn = nil
		if r.restart {
			handedOn = r.tr
		}
	}
	return got
}

// freshContextAnswer is the message of the permission answer that picks
// ExitPlanMode's clear-context choice.
const freshContextAnswer = "User accepted the plan and requested a fresh context"

type replayer struct {
	t           *testing.T
	tr          *Tracker
	contextReqs map[string]bool
	pending     []string // prompts sent, not yet activated
	active      bool
	cancelled   bool
	// closing: the session is closed under the turn; closed: it was, and
	// the agent reads nothing more of this process.
	closing, closed bool
	resumed         bool
	windowSeeded    bool
	learned         map[string]int // windows earlier results confirmed, by model
	// clearing: a clear-context answer interrupted the cycle; restart: its
	// result came, the turn goes on in the next process; continuing: this
	// process is that fresh context, whose first prompt is the turn's.
	clearing, restart, continuing bool
	// own tells the agent's own prompts; activeOwn: the active turn is one.
	own       *ownPrompts
	activeOwn bool
}

// ownPrompts finds the prompts the agent sent by itself: the /compact
// messages beyond the editor's.
type ownPrompts struct {
	editors, seen int
	uuids         map[string]bool
}

func (o *ownPrompts) sent(uuid string, msg json.RawMessage) {
	if !strings.Contains(string(msg), `"text":"/compact"`) {
		return
	}
	if o.seen++; o.seen > o.editors {
		if o.uuids == nil {
			o.uuids = map[string]bool{}
		}
		o.uuids[uuid] = true
	}
}

func newReplayer(t *testing.T, p cassette.Process) *replayer {
	resumed := slices.ContainsFunc(p.Argv, func(a string) bool { return strings.HasPrefix(a, "--resume") })
	return &replayer{t: t, contextReqs: map[string]bool{}, resumed: resumed,
		tr: NewTracker(Window{Size: DefaultWindow}, resumed)}
}

type ctlFrame struct {
	Type      string  `json:"type"`
	Subtype   string  `json:"subtype"`
	UUID      string  `json:"uuid"`
	IsReplay  bool    `json:"isReplay"`
	Parent    *string `json:"parent_tool_use_id"`
	RequestID string  `json:"request_id"`
	Request   struct {
		Subtype string `json:"subtype"`
		Input   struct {
			Event   string  `json:"hook_event_name"`
			ToModel string  `json:"to_model"`
			Source  string  `json:"source"`
			AgentID *string `json:"agent_id"`
		} `json:"input"`
	} `json:"request"`
	Response struct {
		RequestID string          `json:"request_id"`
		Response  json.RawMessage `json:"response"`
	} `json:"response"`
	Origin *struct {
		Kind string `json:"kind"`
	} `json:"origin"`
}

// cliModelSwitch: a PostModelSwitch hook of the main session for a switch
// the agent did not ask for (adapter: cliModelSwitch).
func cliModelSwitch(f ctlFrame) bool {
	in := f.Request.Input
	return in.Event == "PostModelSwitch" && in.AgentID == nil && in.ToModel != "" && in.Source != "sdk" && in.Source != "resume"
}

var autonomousOrigins = []string{"task-notification", "peer", "coordinator", "observer", "observer-activity"}

func (r *replayer) event(e cassette.Event, got *wanted) {
	var f ctlFrame
	if r.closed || json.Unmarshal(e.Msg, &f) != nil {
		return
	}
	if e.Dir == cassette.DirAgent {
		r.agentEvent(e, f, got)
		return
	}
	if e.Dir != cassette.DirCLI {
		return
	}
	r.cliEvent(e, f, got)
}

// agentEvent is a frame the agent wrote to the CLI.
func (r *replayer) agentEvent(e cassette.Event, f ctlFrame, got *wanted) {
	if f.Type == "control_request" && f.Request.Subtype == "cancel_async_message" {
		// a prompt the CLI had not started yet, cancelled: it ends at once
		var req struct {
			Request struct {
				MessageUUID string `json:"message_uuid"`
			} `json:"request"`
		}
		_ = json.Unmarshal(e.Msg, &req)
		if i := slices.Index(r.pending, req.Request.MessageUUID); i >= 0 {
			r.pending = slices.Delete(r.pending, i, i+1)
			got.results = append(got.results, `{"stopReason":"cancelled"}`)
		}
		return
	}
	if f.Type == "control_request" && f.Request.Subtype == "interrupt" && r.active && r.closing {
		// session/close under the turn: the prompt is answered now, and
		// the agent stops reading the process
		got.results = append(got.results, goldentest.Canon(r.t, r.tr.PromptResponse(Cancelled)))
		r.closed, r.active = true, false
		return
	}
	if f.Type == "control_request" && f.Request.Subtype == "get_context_usage" {
		r.contextReqs[f.RequestID] = true
	}
	if f.Type == "control_request" && f.Request.Subtype == "interrupt" && r.active {
		r.cancelled = true // session/cancel
	}
	var answer struct {
		Interrupt bool   `json:"interrupt"`
		Message   string `json:"message"`
	}
	if f.Type == "control_response" && json.Unmarshal(f.Response.Response, &answer) == nil && answer.Interrupt {
		if answer.Message == freshContextAnswer {
			r.clearing = true // the turn goes on in a fresh context
		} else {
			r.cancelled = true // a permission answer that stops the turn (ExitPlanMode rejected)
		}
	}
	if f.Type == "user" && f.Parent == nil && f.UUID != "" && !r.continuing {
		r.pending = append(r.pending, f.UUID)
		if r.own != nil {
			r.own.sent(f.UUID, e.Msg)
		}
	}
	if f.Type == "user" {
		r.continuing = false
	}
}

// cliEvent is a frame the CLI wrote to the agent.
func (r *replayer) cliEvent(e cassette.Event, f ctlFrame, got *wanted) {
	switch {
	case f.Type == "control_response" && !r.windowSeeded && modelsOf(f.Response.Response) != nil:
		r.tr.SetWindow(seedWindow(modelsOf(f.Response.Response), r.learned))
		r.windowSeeded = true
	case f.Type == "control_response" && r.contextReqs[f.Response.RequestID]:
		r.tr.ContextUsage(f.Response.Response)
	case f.Type == "control_request" && f.Request.Subtype == "hook_callback" && cliModelSwitch(f):
		// The agent follows a switch the CLI made by itself with a
		// guessed window, until get_context_usage answers.
		r.tr.SetWindow(GuessWindow(f.Request.Input.ToModel))
	case f.Type == "user" && f.IsReplay && slices.Contains(r.pending, f.UUID):
		r.activate(f.UUID)
	}
	autonomous := f.Origin != nil && slices.Contains(autonomousOrigins, f.Origin.Kind)
	if f.Type == "result" && !autonomous && !r.active && len(r.pending) > 0 {
		r.activate(r.pending[0])
	}
	if u, ok := r.tr.frame(e.Msg, autonomous); ok {
		got.updates = append(got.updates, goldentest.Canon(r.t, u))
	}
	if f.Type == "result" && !autonomous && r.clearing {
		r.clearing, r.restart, r.active = false, true, false
		return
	}
	if f.Type == "result" && !autonomous {
		reason, failed := stopReason(e.Msg)
		if r.cancelled {
			reason, failed, r.cancelled = Cancelled, false, false
		}
		if !failed && r.active && !r.activeOwn {
			got.results = append(got.results, goldentest.Canon(r.t, r.tr.PromptResponse(reason)))
		}
		r.active = false
	}
}

// activate is the turn activation of the prompt uuid: the echo of a
// prompt, or the result of one that Claude Code never echoes (a local
// command such as /compact).
func (r *replayer) activate(uuid string) {
	r.pending = slices.DeleteFunc(r.pending, func(p string) bool { return p == uuid })
	r.active, r.activeOwn = true, r.own != nil && r.own.uuids[uuid]
	r.tr.StartTurn()
}

type modelInfo struct {
	Value, ResolvedModel, DisplayName, Description string
}

func modelsOf(resp json.RawMessage) []modelInfo {
	var r struct {
		Models []modelInfo `json:"models"`
	}
	_ = json.Unmarshal(resp, &r)
	return r.Models
}

func seedWindow(models []modelInfo, learned map[string]int) Window {
	m := models[0]
	if size, ok := learned[cmpOr(m.ResolvedModel, m.Value)]; ok {
		return Window{Size: size, Authoritative: true}
	}
	return GuessWindow(m.Value, m.ResolvedModel, m.DisplayName, m.Description)
}

// TestTrackerMatchesGoldens replays every cassette of a plain or zed run
// and compares the usage_updates and prompt results with the golden's.
func TestTrackerMatchesGoldens(t *testing.T) {
	for _, profile := range []string{"plain", "zed"} {
		for name, path := range goldentest.Profile(t, profile, true) {
			t.Run(profile+"/"+name, func(t *testing.T) {
				want := wantedOf(t, path)
				got := replay(t, goldentest.LoadCassette(t, path), want.closesTurn, want.compacts)
				normalize(got.updates)
				normalize(want.updates)
				if d := goldentest.LineDiff("usage_update", got.updates, want.updates); d != "" {
					t.Error(d)
				}
				if d := goldentest.LineDiff("prompt result", got.results, want.results); d != "" {
					t.Error(d)
				}
			})
		}
	}
}

var (
	agentIDRE = regexp.MustCompile(`\ba[0-9a-f]{16}\b|<agent-\d+>`)
	runIDRE   = regexp.MustCompile(`"runId":"[^"]*"`)
)

// normalize replaces the ids the real CLI makes up, which the golden
// numbers (<agent-N>, <run-N>) and the cassette keeps.
func normalize(lines []string) {
	for i, l := range lines {
		l = agentIDRE.ReplaceAllString(l, "<agent>")
		lines[i] = runIDRE.ReplaceAllString(l, `"runId":"<run>"`)
	}
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
