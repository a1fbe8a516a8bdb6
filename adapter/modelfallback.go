package adapter

import (
	"context"

	"github.com/airwire/airwire/adapter/claude"
	"github.com/airwire/airwire/adapter/notices"
	"github.com/airwire/airwire/adapter/sessionconfig"
	"github.com/airwire/airwire/adapter/usage"
)

// A refused turn that the CLI retried on a fallback model
// (system/model_refusal_fallback) is an advisory: a `notice` for a client
// with session notices, an AIR advisory record for a sessionFailure client
// (session_failure.go), else one "**Model fallback:**" transcript line.
// A session-level swap (direction other than "revert", scope other
// than "local") also moves the model picker to the fallback model, as an
// external model switch: no set_model (the CLI already runs it), a
// config_option_update, the new model's guessed context window, and a
// get_context_usage in the background to learn the real one.

type refusalFallbackLine struct {
	OriginalModel string
	FallbackModel string
	Direction     string
	Scope         string
	Category      string
	Explanation   string
}

// modelRefusalFallback handles a model_refusal_fallback frame.
func (t *translator) modelRefusalFallback(f *claude.Frame) {
	m := refusalFallbackLine{f.OriginalModel, f.FallbackModel, f.Direction, f.Scope,
		f.APIRefusalCategory, f.APIRefusalExplanation}
	t.fallbackNotice(m)
	if m.persistent() {
		t.s.followModelSwitch(m.FallbackModel)
	}
}

func (m refusalFallbackLine) persistent() bool { return m.Direction != "revert" && m.Scope != "local" }

// notice is the fallback's summary, then its explanation after a blank
// line.
func (m refusalFallbackLine) notice() string {
	if m.Explanation != "" {
		return m.summary() + "\n\n" + m.Explanation
	}
	return m.summary()
}

// sessionNotice is the fallback as a `notice`: the summary as the title
// and the explanation as the description, or, for a summary too long to
// be a title, a generic title over the whole text.
func (m refusalFallbackLine) sessionNotice() notices.Notice {
	if notices.TextLen(m.summary()) > notices.TitleLimit {
		return notices.Notice{Severity: "warning", Title: "Model fallback", Description: m.notice()}
	}
	return notices.Notice{Severity: "warning", Title: m.summary(), Description: m.Explanation}
}

// summary says which model declined and where the session goes on.
func (m refusalFallbackLine) summary() string {
	category := ""
	if m.Category != "" {
		category = " (" + m.Category + ")"
	}
	var outcome string
	switch {
	case m.persistent():
		outcome = "The session will continue on " + m.FallbackModel + "."
	case m.Scope == "local":
		outcome = "Only that response came from " + m.FallbackModel + "; the session stays on " + m.OriginalModel + "."
	default:
		outcome = "The session stays on " + m.OriginalModel + "."
	}
	return m.OriginalModel + " declined this request" + category + "; retried with " + m.FallbackModel + ". " + outcome
}

// followModelSwitch moves the picker to a model the CLI switched to by
// itself (a session-level refusal fallback, a /model command) as the
// reference's syncModelAfterExternalSwitch does: no set_model, the new
// model's options and guessed context window, then config_option_update.
// With recommended values the new model's shown effort is applied first,
// and the update follows its answer; get_context_usage follows in the
// background to learn the real window. The caller holds the translator's
// lock (the CLI's dispatch goroutine).
func (s *Session) followModelSwitch(model string) {
	plan, ok := s.cfg.FollowModel(model)
	if !ok {
		return
	}
	if plan.ModelChange {
		s.idle.Disarm("model change")
	}
	window := func() { // an id the CLI's list does not know is guessed from itself
		m := s.cfg.CurrentModel()
		s.tr.usage.SetWindow(usage.GuessWindow(s.cfg.Model(), m.ResolvedModel, m.DisplayName, m.Description))
	}
	publish := func(out sessionconfig.Outcome, window func()) {
		window()
		for _, u := range out.Updates {
			s.notify(u)
		}
		s.notify(s.cfg.ConfigOptionUpdate())
		for _, body := range out.After {
			s.configChanges.afterRequest(context.Background(), body)
		}
	}
	if plan.Sync == nil {
		publish(plan.Commit(), window)
		return
	}
	go func() {
		var paused pausedReader
		defer paused.resume()
		publish(s.configChanges.commitSynced(context.Background(), plan, &paused), func() {
			s.tr.mu.Lock()
			defer s.tr.mu.Unlock()
			window()
		})
	}()
}

// cliModelSwitch is the model a main-session PostModelSwitch hook reports
// the CLI switched to by itself: not the agent's own set_model (source
// "sdk") nor a resumed transcript's model ("resume"), which the picker
// has already.
func cliModelSwitch(in claude.HookInput) (model string, ok bool) {
	if in.HookEventName != "PostModelSwitch" || in.AgentID != "" || in.ToModel == "" || in.Source == "sdk" || in.Source == "resume" {
		return "", false
	}
	return in.ToModel, true
}
