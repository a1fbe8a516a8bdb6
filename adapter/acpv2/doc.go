// Package acpv2 maps the agent to the draft ACP v2: which version a client
// gets (AIRWIRE_ACP_PROTOCOL, Protocols), the v1 requests a v2 client means
// (initialize, session setup, prompt, config changes), the v2 shapes of the
// agent's answers (initialize, setup responses, config options, commands,
// permission requests), the v2 session updates of its v1 updates (Updates,
// with the per-tool-call `_meta` a v2 client stores), and the
// `state_update`s of a session's foreground work.
//
// It is a pure mapping: it owns no connection and no session, and holds
// state only for what a v2 client remembers (a tool call's `_meta`, a
// message a replay cleared). The agent's behaviour stays in adapter; the
// turn it maps is adapter/turns.
package acpv2
