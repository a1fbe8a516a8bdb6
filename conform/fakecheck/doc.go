// Package fakecheck keeps the scripted fake CLI (conform/fakecli) honest:
// its test drives the real Claude Code CLI bundled with the reference
// adapter and the fake through the same turns over stream-json, and
// compares what they write — per message type and subtype, the field sets
// (top-level keys, and the keys of the nested message, event, request and
// response objects) and the order of message types. Values that
// legitimately vary (ids, timestamps, costs, durations) are never compared.
//
// The real CLI talks to airwire's mock of the Anthropic Messages API
// (conform/mockapi) on loopback. The test skips when the reference CLI is
// not installed.
package fakecheck
