// Package cassette stores the CLI side of a recorded run (a cassette) and
// plays it back as `airwire fake-cli --replay CASSETTE`, so an adapter
// under test can run against what the real Claude Code CLI did, fast,
// deterministic and without a model. docs/cassette.md is the user's guide.
//
// It owns the cassette format, FromJournal (journal → cassette) and the
// player. It never records (proxy/ does), never decides what a golden holds
// (conform does) and never reaches the network.
//
// # Format, version 1
//
// JSON Lines. Line 1 is the header, then each stream-json CLI process in
// spawn order (its start, its events in recorded seq order, its end), then
// the non-stream-json runs:
//
//	{"cassette":"airwire","version":1,"source":"airwire v0.1.0 journal of 2026-12-01T04:26:01Z"}
//	{"proc":1,"argv":["--output-format","stream-json",…,"--session-id={{session_id_1}}"]}
//	{"proc":1,"dir":"agent","msg":{"type":"control_request","request_id":"…","request":{"subtype":"initialize",…}}}
//	{"proc":1,"dir":"stderr","text":"…"}
//	{"proc":1,"dir":"cli","msg":{"type":"control_response",…}}
//	{"proc":1,"exit":{"code":143}}
//	{"run":1,"argv":["auth","status","--json"],"stdout":"{\n  \"loggedIn\": true,…}\n","exit":{"code":0}}
//
// argv leaves out the program. dir is agent (agent → CLI stdin), cli (CLI
// stdout), stderr, or file (task_output.go: a background command's output
// file, with file its path and text its content); msg is the frame as
// recorded, text a stderr line or a frame that was not JSON. Read rejects another version
// (ErrUnsupportedVersion).
//
// # Placeholders
//
// FromJournal replaces, in argv, frames, stderr and run output: the run's
// cwd ({{cwd}}), HOME ({{home}}), CLAUDE_CONFIG_DIR ({{config_dir}}),
// TMPDIR ({{tmpdir}}) — each also in its symlink-free form —, the CLI's
// encoded project directory of the cwd ({{project_dir}}), and each session
// id passed as --session-id or --resume ({{session_id_N}}, by first
// appearance). Everything else stays verbatim, the real CLI's own uuids
// included. The player puts its own values back: its working directory,
// $HOME, $CLAUDE_CONFIG_DIR (else $HOME/.claude), $TMPDIR (else the
// system's), and the session ids of its own argv, flag by flag.
//
// # Playing a process
//
// A stream-json spawn plays the cassette's N-th process when it is the N-th
// stream-json spawn of the run (SpawnCounter, StatePath) and its argv holds
// the recorded options; another run plays the recorded run with the same
// argv. Anything else — and a control request the recorded process never
// got — is refused: the cassette does not apply (NotApplicable,
// ExitNotApplicable).
//
// The player emits the recorded CLI frames and stderr lines in order, each
// once every agent frame recorded before it has arrived. An arriving agent
// frame is matched to the first unmatched recorded agent frame with the
// same key: type[/subtype]; control_request/<subtype> (preferring the same
// request body); control_response/<request_id answered>;
// control_cancel_request/<request_id>; user:<text>. The order between agent
// frames is free; a frame with no unmatched recorded frame of its key is an
// error (ExitUnexpected; a control request: ExitNotApplicable), as is a
// needed agent frame that does not arrive
// within the timeout (ExitTimeout). The agent's own ids — the request_id of
// its control requests and the uuid of its user messages — are learned from
// the match and replace the recorded ones in every later CLI frame, so a
// control_response answers the live request and command_lifecycle names the
// live prompt. Ids the CLI made up (its control requests' request_id) are
// kept: the agent answers them as recorded.
//
// The player also leaves on disk what the real CLI left there (effects):
// the session transcript, the files of Write and Edit results inside the
// cwd, and each recorded output file inside TMPDIR. Recorded timing is not
// replayed; stdin EOF and SIGTERM end the process with the recorded exit
// code.
//
// # Loose play
//
// With Options.Loose (EnvReplayLoose), for airwire play's human at an
// editor, nothing is refused (loose.go): prompts match by order, the
// player never times out, a recorded control request not sent yet holds
// the frames after it for HoldGrace, unrecorded control requests are
// answered with success, an interrupt ends the recorded turn, and a prompt
// past the recording gets a synthesized text turn (NoMoreTurns).
package cassette
