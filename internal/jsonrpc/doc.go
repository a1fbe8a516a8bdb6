// Package jsonrpc is airwire's raw JSON-RPC 2.0 wire layer.
//
// It owns three things and keeps them apart (the gopls jsonrpc2 layering):
//
//   - framing (framer.go): newline-delimited frames read as raw bytes, with a
//     typed error for a line over the size limit, and written exactly as given;
//   - the parsed view (message.go, scan.go): one pass over a frame that checks
//     it is JSON, finds the envelope (kind, id, method, params, result, error)
//     and the session it names, without copying or re-encoding anything;
//   - correlation (correlate.go): responses paired with their request by id,
//     per direction, so a response's method is known (the recorder's view);
//   - the connection (conn.go): a Conn reads frames, hands calls and
//     notifications to a Handler in arrival order, lets the handler call the
//     peer and wait (Call), answers in any order (Respond), writes through one
//     writer, and fails every pending call at once when the peer goes away;
//   - held writes (hold.go): while another Conn has a backlog (WithBacklog),
//     the frames written go out together, the same bytes in fewer writes;
//   - codecs (codec.go, streamjson.go): the Conn's wire, JSON-RPC 2.0 to an
//     editor, or the Claude CLI's stream-json control protocol, so one Conn
//     type serves both sides of the agent.
//
// It must never change a byte on a pass-through path: ids, params and results
// stay json.RawMessage slices of the frame, so 1, 1.0 and "1" stay distinct.
// Errors carry JSON-RPC codes (errors.go) and never a path, token or trace.
//
// The same scanner reads the Claude Code CLI's stream-json lines: for those it
// reports type, subtype, request_id and session_id instead of a JSON-RPC kind.
package jsonrpc
