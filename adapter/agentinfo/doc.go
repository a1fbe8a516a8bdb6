// Package agentinfo shapes what the agent says about itself: the
// `initialize` result (capabilities, auth methods, agentInfo) and the
// `_auth/status_update` push built from `claude auth status --json` and
// from the account a session's CLI reports in its initialize answer.
//
// It owns no I/O: the caller passes the client's capabilities (caps.Client),
// its own launcher (how an editor starts this agent again) and the probe's
// stdout, and writes what comes back. It never decides when to probe or
// push; the agent does (the first push follows the `initialize` response,
// later ones only when the status changed: see Same).
//
// Shapes follow the reference adapter (claude-agent-acp 0.101.0) for plain
// and Zed clients (contract: "Compatibility rule", "Zed conventions"), with
// one intended difference: agentInfo.name is ours ("airwire"), and the
// terminal-auth launcher names our executable.
//
// Entry points:
//
//	Initialize(client, Options{Version, Launcher, Remote, HideClaudeAuth}) → the result object
//	FromCLIStatus(stdout, apiKeyHelper) → AuthStatus; AuthStatus.Notification() → params
//	FromInitialize(initResponse, apiKeyHelper) → AuthStatus (its `account`, FromAccount)
//	Merge, Same: folding reads and suppressing repeated pushes
package agentinfo
