package permission

import (
	"encoding/json"
	"fmt"

	"github.com/airwire/airwire/adapter/caps"
)

// DialogRefusalFallback is the one `request_user_dialog` kind the session
// declares (initialize `supportedDialogKinds`): a refused request may be
// retried on the fallback model with the user's consent.
const DialogRefusalFallback = "refusal_fallback_prompt"

// The refusal-fallback form: one field whose values are the dialog's own
// results, so the answer needs no translation. The CLI's third result,
// edit_prompt, is not offered: ACP has no composer to prefill.
const (
	refusalChoiceKey  = "choice"
	refusalRetry      = "retry_fallback"
	refusalKeep       = "cancelled"
	dialogCompleted   = "completed"
	dialogCancelledBy = "cancelled"
)

// UserDialog is the body of the CLI's `request_user_dialog` control request.
type UserDialog struct {
	Kind      string          `json:"dialog_kind"`
	Payload   json.RawMessage `json:"payload"`
	ToolUseID string          `json:"tool_use_id,omitempty"`
}

// ParseUserDialog decodes the `request` object of a request_user_dialog
// control request.
func ParseUserDialog(raw json.RawMessage) (UserDialog, error) {
	var d UserDialog
	if err := json.Unmarshal(raw, &d); err != nil {
		return UserDialog{}, fmt.Errorf("permission: request_user_dialog: %w", err)
	}
	return d, nil
}

// refusalPrompt is the payload of a refusal_fallback_prompt dialog.
type refusalPrompt struct {
	original, fallback, category, guidance string
}

// parseRefusalPrompt reads the payload; ok is false when a model name is
// missing or not a string (a newer CLI may reshape it).
func parseRefusalPrompt(payload json.RawMessage) (refusalPrompt, bool) {
	o, ok := parseObject(payload)
	if !ok {
		return refusalPrompt{}, false
	}
	var p refusalPrompt
	var ok1, ok2 bool
	p.original, ok1 = stringOf(o.get("originalModel"))
	p.fallback, ok2 = stringOf(o.get("fallbackModel"))
	p.category, _ = stringOf(o.get("apiRefusalCategory"))
	p.guidance, _ = stringOf(o.get("guidanceText"))
	return p, ok1 && ok2
}

// AskDialog turns a request_user_dialog into the elicitation the editor
// gets for the session sessionID, or into the immediate answer cancelled
// (the dialog's own default: keep the refusal) for a kind the session did
// not declare, a payload it cannot read, or an editor without form
// elicitation. bad says the payload was unreadable, for the caller's log.
func AskDialog(d UserDialog, sessionID string, c caps.Client) (p *Prompt, now *Decision, bad bool) {
	if d.Kind != DialogRefusalFallback {
		dec := dialogCancel()
		return nil, &dec, false
	}
	rp, ok := parseRefusalPrompt(d.Payload)
	if !ok || !c.FormElicit {
		dec := dialogCancel()
		return nil, &dec, !ok
	}
	params := newObject()
	params.set("mode", marshal("form"))
	params.set("sessionId", marshal(sessionID))
	params.set("message", marshal(rp.message()))
	params.set("requestedSchema", rp.schema())
	return &Prompt{Method: MethodCreateElicitation, Params: marshal(params), kind: kindDialog}, nil, false
}

// message is the question: who declined, the category when known, the
// retry offer and the CLI's guidance as a paragraph of its own.
func (rp refusalPrompt) message() string {
	m := rp.original + " declined this request"
	if rp.category != "" {
		m += " (" + rp.category + ")"
	}
	m += ". Retry with " + rp.fallback + "?"
	if rp.guidance != "" {
		m += "\n\n" + rp.guidance
	}
	return m
}

// schema is the single-select between the retry and keeping the refusal.
func (rp refusalPrompt) schema() json.RawMessage {
	choice := func(value, title, description string) json.RawMessage {
		o := newObject()
		o.set("const", marshal(value))
		o.set("title", marshal(title))
		o.set("description", marshal(description))
		return marshal(o)
	}
	field := newObject()
	field.set("type", marshal("string"))
	field.set("oneOf", marshal([]json.RawMessage{
		choice(refusalRetry, "Retry with "+rp.fallback, "The session continues on "+rp.fallback+"."),
		choice(refusalKeep, "Keep the refusal", "You can send a new message."),
	}))
	props := newObject()
	props.set(refusalChoiceKey, marshal(field))
	s := newObject()
	s.set("type", marshal("object"))
	s.set("properties", marshal(props))
	return marshal(s)
}

// dialogAnswer maps the editor's answer to the dialog's result: only an
// accepted form that chose the retry retries; anything else keeps the
// refusal, so no model switch happens without the user's consent.
func dialogAnswer(editorResult json.RawMessage) Decision {
	var resp struct {
		Action  string          `json:"action"`
		Content json.RawMessage `json:"content"`
	}
	_ = json.Unmarshal(editorResult, &resp)
	result := refusalKeep
	if o, ok := parseObject(resp.Content); ok && resp.Action == "accept" {
		if v, _ := stringOf(o.get(refusalChoiceKey)); v == refusalRetry {
			result = refusalRetry
		}
	}
	return Decision{Response: marshal(map[string]string{"behavior": dialogCompleted, "result": result})}
}

// dialogCancel answers a dialog with no choice: the CLI applies its
// default.
func dialogCancel() Decision {
	return Decision{Response: marshal(map[string]string{"behavior": dialogCancelledBy})}
}
