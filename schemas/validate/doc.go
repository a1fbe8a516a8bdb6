// Package validate checks the client lane (ACP, editor <-> agent) of a
// recorded conversation against the official ACP schema and the AIR contract
// (air-extensions.md), for the agent side, the editor side, or both.
//
// It owns three things:
//   - the ACP check by method: every request and notification against its
//     params $def, every result against the Response $def of the request it
//     answers (correlated by id), every error against Error (schemas/acp);
//   - the locator: every _meta.jetbrains.air object of a message is placed by
//     method, update kind and JSON path, each key is validated with its AIR
//     schema (schemas/air), and an unknown key or an unknown place is a
//     finding ("AIR metadata keys");
//   - the capability gates of the ACP schema itself (capgate.go): every
//     method, session update and field whose description says "Only
//     available if …", "MUST only send … when …" or "Requires the …
//     capability", in both directions, once the declaring side's
//     initialize message was seen;
//   - the contract rules that a schema cannot express, over the whole
//     conversation, knowing what the client declared: "Compatibility rule",
//     "Agent declaration", "Removed keys", "Permission presentation",
//     "Diff patch", "Session failure", "Native subagent sessions",
//     "Session index", "Agent file-change report", "Client declaration",
//     "Question custom answers", "Recommended config values".
//
// Rule ids (Finding.Rule; a schema failure carries the AIR schema $id or
// "acp:#/$defs/<Def>" instead; Rules lists them all):
//
//	jsonrpc-envelope, jsonrpc-unmatched-response    JSON-RPC shape, id pairing
//	jsonrpc-response-id-type  a response id of another JSON type ("0" for 0)
//	jsonrpc-duplicate-id    a request id its sender still waits on
//	journal-entry           (RuleJournal, any side) an entry the journal format
//	                        forbids: seq not rising, negative t_ns, unknown
//	                        kind, a client-lane frame of no known sender, a
//	                        msg entry without msg; that frame is not checked
//	acp-unknown-method, acp-method-side, acp-method-kind
//	acp-capability-gate     a method, update or field the ACP schema allows only
//	                        after the peer declared a capability (capgate.go)
//	session-update-after-close  a session/update after the close response
//	air-not-declared        Compatibility rule: no _meta.jetbrains for a non-AIR client
//	air-unknown-place, air-unknown-key, air-direction, air-shape, air-version
//	air-gate                a key, update or method without the client capability
//	air-capability-unknown  (warning) a capability name outside the contract
//	agent-declaration-missing, session-index-advertised
//	removed-key             Removed keys, for every client
//	shared-air-only         is_mcp_tool_call for a non-AIR client
//	permission-option-id, permission-option-order, permission-answer-offered,
//	permission-after-tool-call
//	diff-patch-text, diff-patch-placeholders
//	session-failure-revision, session-failure-turn-identity
//	session-failure-title-leak  Title and details: a URL, an IP address or
//	                        host:port, a token or a filesystem path in a title
//	session-list-page-size, session-list-empty-page, session-list-repeated-row
//	                        Session index paging across one listing (a
//	                        cursor chain); 1000 rows for any other client
//	file-change-report-repeated, file-change-report-unrequested,
//	file-change-report-missing, file-change-report-path, file-change-report-size
//	                        Agent file-change report (filechange.go)
//	client-declaration-malformed  a capability's payload after a malformed
//	                        client declaration, which enables none
//	permission-ask-rule-persistent  a persistent choice for a tool call that
//	                        an ask rule forced (the cli lane's matched_ask_rule)
//	session-update-before-session
//	recommended-value-option, skill-path-with-kind, custom-answer-question,
//	elicitation-answer-fields
//
// The editor's obligations (client.go; End adds those left undone when the
// conversation is over):
//
//	client-request-unanswered   an agent request never answered
//	jsonrpc-answered-twice      a second response to one request (either side)
//	permission-cancelled-after-cancel  a permission request pending at
//	                            session/cancel answered with another outcome
//	prompt-unknown-session      session/prompt to a session not opened, or closed
//	goal-action-not-advertised  a goal action the agent did not advertise
//	session-list-cursor         a cursor never issued, or for another cwd
//
// An ACP failure under a field marked x-deserialize-default-on-error is a
// warning: the reference SDKs drop such a value. A client-sent AIR object
// without version: 1 next to its payload is a warning too, because the
// contract's own client examples (agentFileChangeReportRequest, fork) omit it.
//
// Of the cli lane it reads only the CLI's can_use_tool requests, for the
// matched_ask_rule of Permission presentation. It never changes a message
// and never decides what is a known reference deviation: it reports
// findings, the caller gates on them.
package validate
