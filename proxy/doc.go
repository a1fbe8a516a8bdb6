// Package proxy is airwire's recording man-in-the-middle. It pumps bytes
// between two peers unchanged and tees a copy of each chunk to a Recorder,
// which cuts the copies into frames and appends them to a journal.
//
// The split follows go-vcr: proxy/ captures (pumps and the Recorder),
// internal/journal stores, proxy/redact is the before-save hook. Forwarding
// never waits on parsing: a pump hands its chunk to the Recorder's single
// journal goroutine and writes it on at once; backpressure comes only from a
// small fixed pool of chunk buffers per stream, so memory stays bounded when
// one side stops reading.
//
// Order: every chunk is queued to the Recorder before it is written to its
// destination, so a reply can never be journaled before the request that
// caused it, across lanes and processes (the CLI shim waits for the
// Recorder's acknowledgement before it forwards).
//
// Lanes: client is editor ↔ agent; cli is agent ↔ Claude Code CLI, recorded
// by the CLI shim (shim.go) that `airwire record --cli-lane` installs through
// CLAUDE_CODE_EXECUTABLE; model is CLI ↔ model API (HTTP), recorded by the
// loopback reverse proxy of `airwire record --model-lane` (model.go), which
// each CLI reaches through the ANTHROPIC_BASE_URL its shim sets.
package proxy
