package usage

import (
	"encoding/json"

	"github.com/airwire/airwire/adapter/claude"
)

// Stop reasons of a prompt response.
const (
	EndTurn         = "end_turn"
	MaxTokens       = "max_tokens"
	MaxTurnRequests = "max_turn_requests"
	Refusal         = "refusal"
	Cancelled       = "cancelled"
)

// StopReason reads how a user turn's `result` frame ends it: a stop
// reason, or failed when the turn must end with an error instead (the
// error itself is the caller's: see the reference's session failures). A
// cancel is the caller's to know; it ends the turn Cancelled.
func StopReason(r *claude.Frame) (reason string, failed bool) {
	if r.StopReason == "refusal" {
		return Refusal, false
	}
	switch r.Subtype {
	case "success", "error_during_execution":
		if r.StopReason == "max_tokens" {
			return MaxTokens, false
		}
		return EndTurn, r.IsError
	case "error_max_budget_usd", "error_max_turns", "error_max_structured_output_retries":
		return MaxTurnRequests, r.IsError
	}
	return EndTurn, false
}

type tokenCount struct {
	TotalTokens           int `json:"totalTokens"`
	InputTokens           int `json:"inputTokens"`
	CachedInputTokens     int `json:"cachedInputTokens"`
	CachedWriteTokens     int `json:"cachedWriteTokens"`
	OutputTokens          int `json:"outputTokens"`
	ReasoningOutputTokens int `json:"reasoningOutputTokens"`
}

func tokenCountOf(t Tally) tokenCount {
	return tokenCount{TotalTokens: t.Total(), InputTokens: t.InputTokens, CachedInputTokens: t.CachedReadTokens,
		CachedWriteTokens: t.CachedWriteTokens, OutputTokens: t.OutputTokens}
}

type modelRow struct {
	Model      string     `json:"model"`
	TokenCount tokenCount `json:"token_count"`
}

// Quota returns the prompt response's `_meta` (`{"quota":…}`): the turn's
// tally as `token_count` and the per-model rows from the results'
// modelUsage (which also count subagents, so they may total more).
func (t *Tracker) Quota() map[string]any { return quota(t.turn, t.byModel) }

// quota is a `_meta.quota` of work that spent tally in its main agent loop
// and models by model.
func quota(tally Tally, models modelTally) map[string]any {
	rows := []modelRow{}
	for _, k := range models.keys {
		rows = append(rows, modelRow{Model: k, TokenCount: tokenCountOf(models.by[k])})
	}
	return map[string]any{"quota": map[string]any{"token_count": tokenCountOf(tally), "model_usage": rows}}
}

// PromptResponse returns the `session/prompt` result ending the current
// turn with stopReason: the turn's usage and `_meta.quota`.
func (t *Tracker) PromptResponse(stopReason string) json.RawMessage {
	type usage struct {
		Tally
		TotalTokens int `json:"totalTokens"`
	}
	out, _ := json.Marshal(map[string]any{
		"stopReason": stopReason,
		"usage":      usage{t.turn, t.turn.Total()},
		"_meta":      t.Quota(),
	})
	return out
}

// CycleResponse is a PromptResponse read from the result r of a model
// cycle Claude Code started on its own, which no turn tallies: its stop
// reason, the result's usage, and a `_meta.quota` of that usage and of
// what the result added by model (autonomous results stay out of the turn
// tally).
func (t *Tracker) CycleResponse(r *claude.Frame, stopReason string) json.RawMessage {
	var tally Tally
	if u := r.Usage; u != nil {
		n := func(p *float64) int {
			if p == nil {
				return 0
			}
			return int(*p)
		}
		tally = Tally{n(u.InputTokens), n(u.OutputTokens), n(u.CacheReadInputTokens), n(u.CacheCreationInputTokens)}
	}
	type usage struct {
		Tally
		TotalTokens int `json:"totalTokens"`
	}
	out, _ := json.Marshal(map[string]any{"stopReason": stopReason, "usage": usage{tally, tally.Total()},
		"_meta": quota(tally, t.cycle)})
	return out
}
