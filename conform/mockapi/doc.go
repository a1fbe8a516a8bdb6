// Package mockapi is a loopback stand-in for the Anthropic Messages API,
// driven by a model script (Script). It lets the real Claude Code CLI run
// offline and deterministically: point ANTHROPIC_BASE_URL at a Server and the
// CLI's model calls get the scripted text, thinking and tool uses, or the
// scripted HTTP errors, dropped connections and slow or hanging streams.
//
// It owns the script format (script.go), routing a request to a scripted
// turn or side answer (route.go), and the HTTP and SSE wire form of answers
// (server.go, sse.go). The conformance driver embeds a Script as a
// scenario's model: section and starts one Server per run.
//
// A turn is chosen by what the last user message holds (its text and its
// tool results), never by counting requests: the CLI makes side requests
// (session titles, prompt suggestions, a max_tokens:1 check) in between.
//
// It must never listen on anything but 127.0.0.1, never hang on a request
// the script does not cover (that is a 400 naming the message), and never
// reach the network.
package mockapi
