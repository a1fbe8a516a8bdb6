package permission

import "encoding/json"

// ErrToolUseAborted is the error the CLI gets when a tool use stops without
// an answer (Cancellation and failures).
const ErrToolUseAborted = "Tool use aborted"

// Decision is the answer to one CLI control request (can_use_tool or
// elicitation), plus what the caller must do besides sending it.
type Decision struct {
	// Response is the `response` object of a success control_response; nil
	// when Error is set.
	Response json.RawMessage
	// Error is the error of an error control_response.
	Error string
	// Allow says the tool may run (behavior allow); the caller settles a
	// SandboxNetworkAccess call with it.
	Allow bool
	// Mode is the session mode an approved ExitPlanMode moved to: the caller
	// publishes current_mode_update and the mode config option.
	Mode string
	// ClearContextMode is the mode of an exit-plan-clear-* choice: the caller
	// continues the plan in a fresh Claude query with that mode, and hides
	// the interruption of the old one.
	ClearContextMode string
	// Plan is the plan a clear-context choice continues with (the input's
	// plan, trimmed); set with ClearContextMode.
	Plan string
	// AutoFallback says a chosen auto mode became acceptEdits because the
	// model cannot run auto: the caller publishes the fallback notice.
	AutoFallback bool
	// Interrupt says the answer denies with interrupt (ExitPlanMode "keep
	// planning" or clear context): the turn's interruption is intended.
	Interrupt bool
}

// aborted is the decision for a tool use that stopped.
func aborted() Decision { return Decision{Error: ErrToolUseAborted} }

// ControlResponse is the control_response frame that answers the CLI's
// control request requestID with d.
func (d Decision) ControlResponse(requestID string) json.RawMessage {
	body := newObject()
	if d.Error != "" || d.Response == nil {
		body.set("subtype", marshal("error"))
		body.set("request_id", marshal(requestID))
		body.set("error", marshal(d.Error))
	} else {
		body.set("subtype", marshal("success"))
		body.set("request_id", marshal(requestID))
		body.set("response", d.Response)
	}
	frame := newObject()
	frame.set("type", marshal("control_response"))
	frame.set("response", marshal(body))
	return marshal(frame)
}

// result is a Claude SDK PermissionResult as the SDK writes it to the CLI
// (with the toolUseID it adds), fields in the SDK's order.
type result struct {
	Behavior               string            `json:"behavior"`
	UpdatedInput           json.RawMessage   `json:"updatedInput,omitempty"`
	UpdatedPermissions     []json.RawMessage `json:"updatedPermissions,omitempty"`
	Message                string            `json:"message,omitempty"`
	Interrupt              bool              `json:"interrupt,omitempty"`
	ToolUseID              string            `json:"toolUseID,omitempty"`
	DecisionClassification string            `json:"decisionClassification,omitempty"`
}

// Default refusal messages.
const (
	msgRefused      = "User refused permission to run tool"
	msgKeepPlanning = "User chose to keep planning"
	msgFreshContext = "User accepted the plan and requested a fresh context"
)

// allowResult allows the call with the original input and optional durable
// updates; permanent marks a durable choice.
func (p *Prompt) allowResult(updates []json.RawMessage, permanent bool) result {
	class := "user_temporary"
	if permanent {
		class = "user_permanent"
	}
	return result{Behavior: "allow", UpdatedInput: p.req.Input, UpdatedPermissions: updates,
		ToolUseID: p.req.ToolUseID, DecisionClassification: class}
}

// denyResult denies the call as the user's rejection.
func (p *Prompt) denyResult(message string, interrupt bool) result {
	return result{Behavior: "deny", Message: message, Interrupt: interrupt,
		ToolUseID: p.req.ToolUseID, DecisionClassification: "user_reject"}
}

// Deny is the decision that denies a can_use_tool request with message and
// no user classification, for the caller's own refusals (an unknown session:
// "Session not found"; work a cancel stopped: "The user cancelled this
// prompt.").
func Deny(req Request, message string) Decision {
	return Decision{Response: marshal(result{Behavior: "deny", Message: message, ToolUseID: req.ToolUseID})}
}
