package validate

// RuleInfo names one rule id of Finding.Rule and the contract section its
// findings carry ("ACP schema" for the JSON-RPC and ACP rules; "" when
// the section is the one of the payload, place or method at hand).
type RuleInfo struct {
	ID, Section string
}

// Rules lists every rule id the validator reports, besides the schema ids
// (an AIR schema $id, "acp:#/$defs/<Def>"). TestRulesListEveryRule keeps it
// complete; the rule table of make reach (conform/reach) cites these ids.
// (An array of constants: static data, no init code.)
var Rules = [...]RuleInfo{
	{"jsonrpc-envelope", SectionACP}, {"jsonrpc-unmatched-response", SectionACP}, {"jsonrpc-response-id-type", SectionACP},
	{"jsonrpc-duplicate-id", SectionACP}, {"jsonrpc-answered-twice", SectionACP}, {RuleJournal, SectionJournal},
	{"acp-unknown-method", SectionACP}, {"acp-method-side", SectionACP}, {"acp-method-kind", SectionACP}, {"acp-internal", SectionACP}, {"acp-v2-schema", SectionACP},
	{"acp-capability-gate", SectionACP}, {"session-update-after-close", SectionACP}, {"session-update-before-session", SectionACP},
	{"client-request-unanswered", SectionACP}, {"prompt-unknown-session", SectionACP},
	{"air-not-declared", SectionCompatibility}, {"air-unknown-place", SectionKeys}, {"air-unknown-key", SectionKeys},
	{"air-direction", ""}, {"air-shape", SectionKeys}, {"air-version", SectionKeys}, {"air-gate", ""}, {"air-method-kind", ""},
	{"jetbrains-unknown-key", SectionKeys}, {"air-capability-unknown", ""}, {RuleMalformedDeclaration, SectionClientDecl},
	{"agent-declaration-missing", SectionAgentDecl}, {"session-index-advertised", SectionAgentDecl},
	{"removed-key", SectionRemoved}, {"shared-air-only", SectionShared},
	{"permission-option-id", SectionPermission}, {"permission-option-order", SectionPermission},
	{"permission-answer-offered", SectionPermission}, {"permission-after-tool-call", SectionPermission},
	{"permission-cancelled-after-cancel", SectionPermission}, {RulePermissionAskRule, SectionPermission},
	{"diff-patch-text", SectionDiffPatch}, {"diff-patch-placeholders", SectionDiffPatch},
	{"session-failure-revision", SectionFailure}, {"session-failure-turn-identity", SectionFailure}, {RuleFailureTitleLeak, SectionFailure},
	{"session-list-cursor", SectionSessionIndex}, {RuleListPageSize, ""}, {RuleListEmptyPage, SectionSessionIndex},
	{RuleListRepeatedRow, SectionSessionIndex},
	{RuleFileChangeRepeated, SectionFileChange}, {RuleFileChangeUnrequested, SectionFileChange}, {RuleFileChangeMissing, SectionFileChange},
	{RuleFileChangePath, SectionFileChange}, {RuleFileChangeSize, SectionFileChange},
	{"goal-action-not-advertised", SectionGoal},
	{"recommended-value-option", SectionRecommended}, {"skill-path-with-kind", SectionKeys},
	{"custom-answer-question", SectionQuestions}, {"elicitation-answer-fields", SectionQuestions},
}

// IsRule reports whether id is one of Rules.
func IsRule(id string) bool {
	for _, r := range Rules {
		if r.ID == id {
			return true
		}
	}
	return false
}
