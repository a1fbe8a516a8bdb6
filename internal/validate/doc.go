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
//   - the contract rules that a schema cannot express, over the whole
//     conversation, knowing what the client declared: "Compatibility rule",
//     "Agent declaration", "Removed keys", "Permission presentation",
//     "Diff patch", "Session failure", "Native subagent sessions",
//     "Session index", "Question custom answers", "Recommended config
//     values".
//
// It never reads the cli lane, never changes a message and never decides
// what is a known reference deviation: it reports findings, the caller
// gates on them.
package validate
