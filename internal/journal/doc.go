// Package journal owns airwire's recording format: one JSON Lines file per
// recording, a versioned header line, then one entry per message, stderr
// line or process event, numbered gaplessly across every lane.
//
// It stores what it is given. It never decides what to redact (proxy/redact
// does, before an entry reaches Append) and never forwards traffic (proxy/
// does). Writes are buffered, flushed as soon as no further entry is
// waiting, fsynced at most every 200 ms while entries flow and on Close, so a
// crash of the recorded agent or CLI loses nothing already appended. The
// file is created private to its owner (0600; on Windows an owner-only
// DACL).
//
// Format, version 1:
//
//	{"journal":"airwire","version":1,"airwire":"…","start":"RFC 3339","agent_cmd":[…],"cli_cmd":[…],"env":["NAME",…]}
//	{"seq":1,"t_ns":1200,"kind":"msg","lane":"client","dir":"editor","proc":"agent","method":"initialize","id":0,"msg":{…}}
//
// msg is the frame embedded verbatim (after redaction). A frame that is not
// JSON is a non_json entry with reason and text (or b64 when it is not
// UTF-8). The header is padded so that cli_cmd can be filled in place once
// the first CLI spawn is known.
package journal
