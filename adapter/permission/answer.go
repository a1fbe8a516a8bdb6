package permission

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/airwire/airwire/adapter/jsstr"
)

// Answer maps the editor's result of the prompt's request to the decision
// for the CLI: the RequestPermissionResponse of a permission prompt, the
// CreateElicitationResponse of an elicitation.
func (p *Prompt) Answer(editorResult json.RawMessage) Decision {
	switch p.kind {
	case kindQuestion:
		return p.answerQuestion(editorResult)
	case kindMCP:
		return mcpAnswer(editorResult)
	case kindDialog:
		return dialogAnswer(editorResult)
	}
	return p.answerPermission(editorResult)
}

// Aborted is the decision when the request's signal fires before the editor
// answers: the CLI cancelled the control request, the session closed, or
// the turn was cancelled (Cancellation and failures). The caller also sends
// the editor `$/cancel_request`.
func (p *Prompt) Aborted() Decision {
	switch p.kind {
	case kindMCP:
		return mcpCancel()
	case kindDialog:
		return dialogCancel()
	}
	return aborted()
}

// Fail is the decision when the editor answers the request with an error
// (message is its text) and the request was not aborted.
func (p *Prompt) Fail(message string) Decision {
	switch p.kind {
	case kindQuestion:
		return Deny(p.req, "Could not present the question to the user.")
	case kindMCP:
		return mcpCancel()
	case kindDialog:
		return dialogCancel()
	}
	return Decision{Error: message}
}

// answerPermission checks that the selected option was offered in this
// request and applies it (Request lifecycle, steps 6 and 7). A cancelled
// outcome aborts the tool use, except for a background subagent, which
// reads it as a refusal and goes on.
func (p *Prompt) answerPermission(editorResult json.RawMessage) Decision {
	var resp struct {
		Outcome struct {
			Outcome  string `json:"outcome"`
			OptionID string `json:"optionId"`
		} `json:"outcome"`
	}
	_ = json.Unmarshal(editorResult, &resp)
	if resp.Outcome.Outcome == "cancelled" && p.session.Background {
		return Decision{Response: marshal(p.denyResult(msgRefused, false))}
	}
	if resp.Outcome.Outcome != "selected" {
		return aborted()
	}
	id := resp.Outcome.OptionID
	if !slices.ContainsFunc(p.Options, func(o Option) bool { return o.OptionID == id }) {
		return Decision{Error: "Permission option was not offered: " + id}
	}
	d, err := p.apply(id)
	if err != nil {
		return Decision{Error: err.Error()}
	}
	return d
}

// apply maps a selected option to the PermissionResult by the semantics of
// the tool family (Choices per tool).
func (p *Prompt) apply(id string) (Decision, error) {
	switch name := p.req.ToolName; {
	case name == "Skill":
		return p.applySkill(id)
	case name == "WebFetch":
		return p.applyGenerated(id, p.webFetchUpdate)
	case name == "ExitPlanMode":
		return p.applyExitPlan(id)
	case strings.HasPrefix(name, "mcp__") || slices.Contains(suggestionTools, name):
		return p.applyCommon(id)
	default:
		return p.applyGenerated(id, func() ([]json.RawMessage, error) { return localAllowRule(name, nil), nil })
	}
}

// suggestionTools apply only SDK suggestions as durable effects.
var suggestionTools = []string{"EnterPlanMode", "Read", "Bash", "PowerShell", "Glob", "Grep",
	"Edit", "Write", "NotebookEdit", "SandboxNetworkAccess"}

// applyCommon handles allow-once, allow-with-updates (the SDK snapshot) and
// reject.
func (p *Prompt) applyCommon(id string) (Decision, error) {
	switch id {
	case OptionAllowOnce:
		return p.allow(nil, false), nil
	case OptionAllowWithUpdates:
		if p.durable == nil {
			return Decision{}, fmt.Errorf("Invalid durable permission selection")
		}
		return p.allow(p.durable.raws(), true), nil
	case OptionReject:
		return Decision{Response: marshal(p.denyResult(msgRefused, false))}, nil
	}
	return Decision{}, fmt.Errorf("Unknown permission option: %s", id)
}

// applyGenerated applies allow-with-updates with an effect the adapter
// generates.
func (p *Prompt) applyGenerated(id string, updates func() ([]json.RawMessage, error)) (Decision, error) {
	if id != OptionAllowWithUpdates {
		return p.applyCommon(id)
	}
	u, err := updates()
	if err != nil {
		return Decision{}, err
	}
	return p.allow(u, true), nil
}

// allow builds an allow decision, with the auto mode fallback applied.
func (p *Prompt) allow(updates []json.RawMessage, permanent bool) Decision {
	fellBack := false
	if p.session.AutoUnavailable {
		updates, fellBack = autoFallback(updates)
	}
	return Decision{Response: marshal(p.allowResult(updates, permanent)), Allow: true, AutoFallback: fellBack}
}

// localAllowRule is one localSettings allow rule for toolName, with content
// when given.
func localAllowRule(toolName string, content *string) []json.RawMessage {
	r := newObject()
	r.set("toolName", marshal(toolName))
	if content != nil {
		r.set("ruleContent", marshal(*content))
	}
	u := newObject()
	u.set("type", marshal("addRules"))
	u.set("rules", marshal([]json.RawMessage{marshal(r)}))
	u.set("behavior", marshal("allow"))
	u.set("destination", marshal("localSettings"))
	return []json.RawMessage{marshal(u)}
}

// webFetchUpdate is the generated domain:<hostname> rule.
func (p *Prompt) webFetchUpdate() ([]json.RawMessage, error) {
	url, ok := stringOf(p.req.input().get("url"))
	host := ""
	if ok {
		host = urlHostname(url)
	}
	if host == "" {
		return nil, fmt.Errorf("Invalid WebFetch permission input")
	}
	content := "domain:" + host
	return localAllowRule("WebFetch", &content), nil
}

// applySkill handles the exact and prefix Skill rules.
func (p *Prompt) applySkill(id string) (Decision, error) {
	if id != OptionAllowSkillExact && id != OptionAllowSkillPrefix {
		return p.applyCommon(id)
	}
	skill := ""
	if s, ok := stringOf(p.req.input().get("skill")); ok {
		skill = jsstr.Trim(s)
	}
	if skill == "" || jsLen(skill) > 1_000 {
		return Decision{}, fmt.Errorf("Invalid Skill permission input")
	}
	if id == OptionAllowSkillPrefix {
		prefix, ok := skillPrefix(skill)
		if !ok {
			return Decision{}, fmt.Errorf("Skill prefix permission requires arguments")
		}
		skill = prefix
	}
	return p.allow(localAllowRule("Skill", &skill), true), nil
}
