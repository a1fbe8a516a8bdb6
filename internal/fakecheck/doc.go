// Package fakecheck keeps the scripted fake CLI (internal/fakecli) honest:
// its test drives the real Claude Code CLI bundled with the reference
// adapter and the fake through the same turns over stream-json, and
// compares what they write — per message type and subtype, the field sets
// (top-level keys, and the keys of the nested message, event, request and
// response objects) and the order of message types. Values that
// legitimately vary (ids, timestamps, costs, durations) are never compared.
//
// The real CLI talks to a loopback mock of the Anthropic Messages API. Until
// internal/mockapi lands, that is the research JS mock in
// testdata/mock-anthropic-api.mjs (a copy of
// research/cli-capture/mock-anthropic-api.mjs), run with the Node that
// `make deps` installs. The test skips when the reference CLI or Node is not
// installed.
package fakecheck
