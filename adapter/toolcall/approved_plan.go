package toolcall

import (
	"encoding/json"
	"strings"

	"github.com/airwire/airwire/adapter/caps"
)

// The approved plan (ACP draft plans, the `plan` client capability): for
// a client that declares `plan`, the plan a successful ExitPlanMode result
// of the main conversation approved becomes the session's markdown plan,
// in a `plan_update` right after the tool call's result. An AIR client
// keeps each approval (planId "plan-mode:<toolUseId>", which joins the
// plan to its approval card); any other client has one such plan per
// session ("plan-mode"). The TodoWrite checklist is a plan of its own.

// planModeID is the base id of an approved plan.
const planModeID = "plan-mode"

// MarkdownPlan is the `plan` of a markdown `plan_update`.
type MarkdownPlan struct {
	Type    string `json:"type"`
	PlanID  string `json:"planId"`
	Content string `json:"content"`
}

// PlanModeUpdate is the `plan_update` that shows plan, approved by the
// ExitPlanMode call toolUseID, to client c.
func PlanModeUpdate(c caps.Client, plan, toolUseID string) Update {
	id := planModeID
	if c.AIR.Client {
		id += ":" + toolUseID
	}
	return Update{SessionUpdate: kindPlanUpdate, Plan: &MarkdownPlan{Type: "markdown", PlanID: id, Content: plan}}
}

// ApprovedPlan is the `plan_update` that follows the result r of use, a
// tool use of the subagent parent ("" for the main conversation), whose
// structured output is structured (nil when unknown, as on replay). There
// is none for a client without `plan`, for a subagent's call, for an error
// result (an approval that clears the context ends that way, and the
// restart publishes the plan), and when no plan was approved.
func (r Renderer) ApprovedPlan(use ToolUse, res Result, structured json.RawMessage, parent string) (Update, bool) {
	if use.Name != "ExitPlanMode" || !r.Caps.Plan || parent != "" || res.IsError {
		return Update{}, false
	}
	plan := approvedPlan(use.Input, structured)
	if plan == "" {
		return Update{}, false
	}
	return PlanModeUpdate(r.Caps, plan, use.ID), true
}

// approvedPlan is the plan, trimmed, that an ExitPlanMode result approved:
// the `plan` of the structured output, which holds the user's edits, else
// the `plan` Claude Code adds to the input. There is none for a
// subagent's plan or one that waits for its team lead (both known only
// from the output), nor for a blank plan.
func approvedPlan(input, output json.RawMessage) string {
	out := parseInput(output)
	if string(out["isAgent"]) == "true" || string(out["awaitingLeaderApproval"]) == "true" {
		return ""
	}
	plan, ok := jsonString(out["plan"])
	if !ok {
		plan, _ = jsonString(parseInput(input)["plan"])
	}
	return strings.TrimSpace(plan)
}

// jsonString is raw as a string when it is a JSON string (not null, which
// the Input readers take for "").
func jsonString(raw json.RawMessage) (string, bool) {
	var s string
	if len(raw) == 0 || raw[0] != '"' || json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}
