package adapter

import (
	"context"
	"encoding/json"
	"strings"

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

// followModelSwitch moves the session's model option to a model the CLI
// switched to by itself. It runs on the CLI's dispatch goroutine with the
// translator locked; the context usage request goes out in the background.
func (s *Session) followModelSwitch(model string) {
	value := model
	if m, ok := resolveModel(s.models, model); ok {
		value = m.Value
	}
	if value == s.cfg.Model() {
		return
	}
	raw, _ := json.Marshal(value)
	plan, err := s.cfg.SetConfigOption("model", raw)
	if err != nil {
		s.agent.opts.Log.Warn("could not follow the CLI's model switch", "session", s.ID, "model", model, "err", err)
		return
	}
	out := plan.Commit()
	m := s.cfg.CurrentModel()
	s.tr.usage.SetWindow(usage.GuessWindow(m.Value, m.ResolvedModel, m.DisplayName, m.Description))
	for _, u := range out.Updates {
		s.notify(u)
	}
	s.notify(s.cfg.ConfigOptionUpdate())
	// Recommended config values: the new model's shown effort is applied
	// before the context usage refresh.
	go func() {
		var paused pausedReader
		defer paused.resume()
		if plan.Sync != nil {
			if err := s.configChanges.controlBody(context.Background(), plan.Sync, &paused); err != nil {
				s.agent.opts.Log.Warn("effort sync after the CLI's model switch failed", "session", s.ID, "err", err)
			}
		}
		for _, body := range out.After {
			s.configChanges.afterRequest(context.Background(), body)
		}
	}()
}

// resolveModel finds the picker entry of a model id the CLI reports: an
// exact value, a case-insensitive display name, or (preferring entries
// other than "default") the entry whose resolved model it is. The
// reference's fuzzier matches (substrings, token scores) are not made.
func resolveModel(models []sessionconfig.Model, id string) (sessionconfig.Model, bool) {
	id = strings.TrimSpace(id)
	for _, m := range models {
		if m.Value == id || strings.EqualFold(m.Value, id) || strings.EqualFold(m.DisplayName, id) {
			return m, true
		}
	}
	for _, pass := range []bool{false, true} {
		for _, m := range models {
			if (m.Value != "default" || pass) && m.ResolvedModel != "" && strings.EqualFold(m.ResolvedModel, id) {
				return m, true
			}
		}
	}
	return sessionconfig.Model{}, false
}
