package usage

import (
	"encoding/json"

	"github.com/airwire/airwire/internal/lazyre"
)

// DefaultWindow is the context window assumed until a better one is known.
const DefaultWindow = 200000

// Window is a context window size and whether it is known for sure (from
// the CLI) rather than guessed from the model's name.
type Window struct {
	Size          int
	Authoritative bool
}

var oneMillionRE = lazyre.New(`(?i)\b1m\b`)

// GuessWindow guesses the window of a model from its id, resolved id,
// display name and description: 1,000,000 when one names "1m", else
// DefaultWindow. A guess is refined by ContextUsage and by each result.
func GuessWindow(texts ...string) Window {
	for _, s := range texts {
		if oneMillionRE.MatchString(s) {
			return Window{Size: 1_000_000}
		}
	}
	return Window{Size: DefaultWindow}
}

// Update is one `session/update` update object (the value of
// params.update).
type Update = json.RawMessage

// Tracker follows one session's usage. The zero value is not ready; use
// NewTracker.
type Tracker struct {
	window Window
	// Turn scratch (reset at StartTurn): the last top-level usage snapshot,
	// its total once known, and the model that produced it.
	last  *counts
	total *int
	model string
	// The turn's tally, and the running modelUsage reading of the CLI
	// process (nil after a resume: the first result only seeds it).
	turn    Tally
	byModel modelTally
	reading modelTally
	seeded  bool
	// cycle is what the last autonomous result added, by model.
	cycle modelTally
	// onWindow learns each window a result confirms (OnWindow).
	onWindow func(model string, size int)
}

// OnWindow sets f to learn each context window a result's modelUsage
// confirms, under each spelling of its model (the modelUsage key, the
// assistant message's model), so that a later CLI of the same model can
// start with it.
func (t *Tracker) OnWindow(f func(model string, size int)) { t.onWindow = f }

// NewTracker starts a session's tracker on window w. resumed is true for a
// session/load or session/resume, whose first result's modelUsage holds
// the whole pre-resume history.
func NewTracker(w Window, resumed bool) *Tracker {
	return &Tracker{window: w, seeded: !resumed}
}

// Window returns the current context window.
func (t *Tracker) Window() Window { return t.window }

// ContextUsed returns the last known context occupancy.
func (t *Tracker) ContextUsed() (int, bool) {
	if t.total == nil {
		return 0, false
	}
	return *t.total, true
}

// SetWindow replaces the window after a model switch (the new model's
// guess, or a window the caller already knows for it).
func (t *Tracker) SetWindow(w Window) { t.window = w }

// ContextUsage takes the answer of a `get_context_usage` control request
// (the `response` object): its rawMaxTokens becomes the window unless the
// window is already authoritative.
func (t *Tracker) ContextUsage(resp json.RawMessage) {
	var r struct {
		RawMaxTokens float64 `json:"rawMaxTokens"`
	}
	if t.window.Authoritative || json.Unmarshal(resp, &r) != nil || !(r.RawMaxTokens > 0) {
		return
	}
	t.window = Window{Size: int(r.RawMaxTokens), Authoritative: true}
}

// StartTurn marks the activation of a user turn: its tally and scratch
// start fresh.
func (t *Tracker) StartTurn() {
	t.last, t.total, t.model = nil, nil, ""
	t.turn = Tally{}
	t.byModel = modelTally{}
}

// FreshContext starts the count of a fresh Claude context (an ExitPlanMode
// clear-context restart): nothing is in it yet, and its CLI's modelUsage
// reading starts at zero; the turn's tally goes on. It returns the
// usage_update that says so, which names no model.
func (t *Tracker) FreshContext() Update {
	used := 0
	t.last, t.total = nil, &used
	t.reading = modelTally{}
	out, _ := json.Marshal(map[string]any{"sessionUpdate": "usage_update", "used": used, "size": t.window.Size})
	return out
}

// update builds a usage_update with the model of the turn attached.
func (t *Tracker) update(used int, extra map[string]any, meta map[string]any) Update {
	u := map[string]any{"sessionUpdate": "usage_update", "used": used, "size": t.window.Size}
	for k, v := range extra {
		u[k] = v
	}
	if t.model != "" {
		if meta == nil {
			meta = map[string]any{}
		}
		meta["_claude/model"] = t.model
	}
	if meta != nil {
		u["_meta"] = meta
	}
	out, _ := json.Marshal(u)
	return out
}
