package validate

import (
	"strconv"

	"github.com/airwire/airwire/schemas/acp"
)

// RulePermissionAskRule is the rule of "Permission presentation > Durable
// SDK suggestions": "When matchedAskRule is present, the adapter offers no
// persistent choice. A configured ask rule must keep asking." The ask rule
// is known from the cli lane: the CLI's can_use_tool control request
// carries matched_ask_rule for the tool use, whose id is the ACP
// toolCallId. A session/request_permission of that tool call with an
// allow_always or reject_always option breaks it.
const RulePermissionAskRule = "permission-ask-rule-persistent"

// LaneCLI is the journal lane of the agent's Claude CLI. Check reads of it
// only the CLI's permission requests (can_use_tool), for the ask rule.
const LaneCLI = "cli"

// observeCLI keeps the tool use ids that a configured ask rule forced to a
// prompt. m is a cli-lane message sent by the CLI.
func (v *Validator) observeCLI(m Message) {
	if m.Dir != "cli" {
		return
	}
	raw, err := acp.Decode(m.Msg)
	if err != nil || field(raw, "type") != "control_request" {
		return
	}
	req := field(raw, "request")
	if field(req, "subtype") != "can_use_tool" {
		return
	}
	id, _ := field(req, "tool_use_id").(string)
	if rule, ok := req.(map[string]any)["matched_ask_rule"]; ok && rule != nil && id != "" {
		v.st.askRule[id] = true
	}
}

// permissionToolCallID is the tool call a permission request asks about:
// params.toolCall in v1, params.subject.toolCall in v2.
func permissionToolCallID(params any) string {
	if tc, ok := path(params, "toolCall", "toolCallId").(string); ok {
		return tc
	}
	tc, _ := path(params, "subject", "toolCall", "toolCallId").(string)
	return tc
}

// permissionAskRule checks the options of a permission request whose tool
// call a configured ask rule forced.
func (c *checker) permissionAskRule(params any) {
	tc := permissionToolCallID(params)
	if tc == "" || !c.v.st.askRule[tc] {
		return
	}
	opts, _ := field(params, "options").([]any)
	for i, o := range opts {
		if kind, _ := field(o, "kind").(string); kind == "allow_always" || kind == "reject_always" {
			c.add("/params/options/"+strconv.Itoa(i)+"/kind", RulePermissionAskRule, SectionPermission, SeverityError,
				"a configured ask rule (matchedAskRule) forced this prompt, so the agent offers no persistent choice; option %v is %s (Durable SDK suggestions)",
				field(o, "optionId"), kind)
		}
	}
}
