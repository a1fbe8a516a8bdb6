package permission

import (
	"encoding/json"

	"github.com/airwire/airwire/adapter/caps"
)

// ACP methods a Prompt is sent with.
const (
	MethodRequestPermission = "session/request_permission"
	MethodCreateElicitation = "elicitation/create"
)

// Session is the session state a prompt reads. The zero value is a root
// session request with no known modes.
type Session struct {
	// ID is the ACP session the request goes to (a subagent's child session,
	// else the session itself).
	ID string
	// Cwd is the session's working directory; Home the user's home directory
	// (for the ~/.claude edit grant).
	Cwd, Home string
	// Client is the editor's capabilities.
	Client caps.Client
	// Modes are the available permission mode ids of the session.
	Modes []string
	// PrePlanMode is the mode the session had before it entered plan mode.
	PrePlanMode string
	// NoContextReset hides the ExitPlanMode clear-context choice (no turn to
	// continue).
	NoContextReset bool
	// ContextUsed and ContextWindow give the "(N% used)" of the clear-context
	// label; a ContextWindow <= 0 leaves it out.
	ContextUsed, ContextWindow int
	// AutoUnavailable says the current model cannot run auto mode: a chosen
	// auto becomes acceptEdits.
	AutoUnavailable bool
	// Background says the request is of a subagent that does not block the
	// foreground turn: a cancelled outcome then denies instead of aborting.
	Background bool
	// ParentToolUseID is the parent tool use of a subagent's request.
	ParentToolUseID string
	// ReportUnanswered is the CLI's ask_user_question_unanswered_v1
	// capability (system/init): unanswered questions get annotations.
	ReportUnanswered bool
}

// promptKind tells what a Prompt asks.
type promptKind int

const (
	// kindPermission is a session/request_permission for a can_use_tool.
	kindPermission promptKind = iota
	// kindQuestion is an AskUserQuestion form elicitation.
	kindQuestion
	// kindMCP is an MCP server's elicitation.
	kindMCP
	// kindDialog is a CLI dialog (request_user_dialog) as a form
	// elicitation.
	kindDialog
)

// Prompt is one request to the editor, open until its answer (Answer),
// its failure (Fail) or its cancellation (Aborted).
type Prompt struct {
	// Method is the ACP method: MethodRequestPermission or
	// MethodCreateElicitation.
	Method string
	// Params are the request params, ready to send.
	Params json.RawMessage
	// Options are the offered permission options, in order (permission
	// prompts only).
	Options []Option

	kind      promptKind
	req       Request
	session   Session
	durable   *changeSet
	questions []question
}

// Ask turns a can_use_tool request into the prompt the editor gets, or into
// an immediate decision when nothing can be asked. toolCall is the request's
// tool call as adapter/toolcall renders it for a permission request; Ask adds
// only what the permission presentation owns (see permissionToolCall).
// AskUserQuestion goes to a form elicitation when the editor supports it
// (Question custom answers).
func Ask(req Request, toolCall json.RawMessage, s Session) (*Prompt, *Decision) {
	if req.ToolName == "AskUserQuestion" && s.Client.FormElicit {
		return askQuestion(req, s)
	}
	if req.ToolName == "AskUserQuestion" {
		return nil, &Decision{Error: "AskUserQuestion must be handled by ACP elicitation, not permission options"}
	}
	durable := durableChangeSet(req.Suggestions, req.forcedAsk())
	options := buildOptions(optionContext{req: req, session: s, durable: durable, persistent: !req.forcedAsk()})
	tc := permissionToolCall(req, toolCall, s)
	params := newObject()
	params.set("toolCall", tc)
	if rec := airPermissionMeta(req, tc, s.Client); rec != nil {
		params.set("_meta", rec)
	}
	params.set("options", marshal(options))
	params.set("sessionId", marshal(s.ID))
	if s.Client.V2 {
		title, description := promptHeading(req, tc)
		params.set("title", marshal(title))
		if description != "" {
			params.set("description", marshal(description))
		}
	}
	return &Prompt{
		Method: MethodRequestPermission, Params: marshal(params), Options: options,
		kind: kindPermission, req: req, session: s, durable: durable,
	}, nil
}

// DisallowedTools are the Claude tools the session must disable for this
// editor, for the CLI's `--disallowedTools=<comma list>` argument: without
// form elicitation AskUserQuestion cannot be asked (Question custom answers).
func DisallowedTools(c caps.Client) []string {
	if c.FormElicit {
		return nil
	}
	return []string{"AskUserQuestion"}
}
