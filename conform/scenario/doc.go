// Package scenario is the Go model of a conformance scenario file
// (scenarios/*.yaml): what the editor does, what the scripted Claude CLI
// does, and which contract sections the run exercises.
//
// It owns four things:
//
//   - the data model (scenario.go, client.go, cli.go, transcript.go): name,
//     description, covers, profiles, workspace files, stored sessions, the
//     client's steps and answers, and the fake CLI's script;
//   - the loader (load.go): strict YAML decoding (unknown keys are errors)
//     and validation, so a bad file is rejected with its path and the field
//     at fault before any spec runs;
//   - the builders (build.go): a script step such as a tool call expands
//     into the frames the real CLI writes (stream events, the consolidated
//     assistant message, hooks, the can_use_tool round trip, the tool
//     result), in the order observed on the wire;
//   - shared helpers for the fake CLI and the client driver: deterministic
//     ids and clock (ids.go), placeholders (placeholders.go), profile
//     capabilities (profiles.go) and the CLI's session file layout
//     (transcript.go).
//
// It never spawns a process, opens a socket or talks to an adapter: the fake
// CLI (conform/fakecli) plays a script, the suite drives a client. Labels in
// covers are section names of the AIR contract (air-extensions.md), checked
// against Sections, or "Section > Subsection" names of its level-3
// headings, checked against Subsections. Every subsection is covered by a
// scenario or listed in Uncovered with the reason none can reach it.
//
// # File format
//
// A scenario reads top to bottom as what happens:
//
//	name: bash-foreground                 # = file name; goldens/<name>/
//	description: A foreground Bash command asks permission and runs.
//	covers: [Tool call contract, Permission presentation > Options]
//	unix: "why"                           # optional: the recording holds only on Unix; not run on Windows
//	profiles: [plain, zed, air]           # optional; default the three default profiles
//	                                      # (conform/scenario/profiles.yaml; variants such as air-minimal too)
//	capabilities: {withoutAir: [diffPatch], addAir: [sessionIndex],
//	               merge: {session: {compaction: {}}}, remove: [_meta.terminal_output]}
//	files: {src/a.ts: "export {}\n"}      # workspace fixture
//	generatedFiles: {big.txt: {base64: "b2xkCg==", repeat: "x\n", times: 600000}}
//	                                      # bytes a string cannot hold (FileBytes)
//	transcript:                           # optional stored session (session/load)
//	  sessionId: 11111111-2222-4333-8444-555555555555
//	  rows: [{user: "Hi"}, {assistant: "Hello"}, {tool: {name: Read, ...}}, {raw: {...}}]
//	sessions: [...]                       # more stored sessions (list, archive)
//	client:
//	  session: {method: new|load|resume|none, meta: {...}}
//	  steps:
//	    - prompt: {text: "...", images: [...], resources: [...], links: [...],
//	               meta: {...}, async: true, stopReason: cancelled, expectError: -32603}
//	    - request: {method: session/fork, params: {...}, save: fork, expectError: -32602}
//	    - request: {method: _session/list/subscribe, params: {...}, repeat: 128}  # sent 128 times, each with its own id
//	    - notify: {method: session/cancel, params: {sessionId: "{{sessionId}}"}}
//	    - waitFor: {sessionUpdate: agent_message_chunk}   # or request:, notification:
//	    - waitFor: {sessionUpdate: session_info_update, count: 2, profiles: [air]}   # only in these profiles' runs
//	    - awaitAll: true
//	    - awaitPostTurn: true             # the CLI's post-turn work done before the next step
//	    - shutdown: true                  # close the agent's stdin; only waitFor steps follow
//	  answers:
//	    permission: [{optionId: allow-once}, {kind: reject_once}, {cancelled: true}, {cancelTurn: true},
//	                 {cancelAtOnce: true}]
//	    elicitation: [{action: accept, content: {...}}]
//	    fs: {read: {a.txt: "text"}, writeError: -32603}
//	    terminal: {output: "...", exitCode: 0}
//	cli:
//	  init: {...}                         # merged over the initialize response
//	  controls: {rewind_files: {response: {...}}, stop_task: {emit: [...]}}
//	  promptSuggestion: "..."               # run the prompt-suggestion agent after each turn
//	  turns:
//	    - match: "substring of the prompt"  # optional; process: new|resume|fork
//	      local: true                       # a local slash command (/compact): no init, echo after
//	      steps:
//	        - thinking: "..."
//	        - text: "..."
//	        - tool: {name: Bash, input: {...}, permission: ask, suggestions: [...],
//	                 blockedPath: ..., decisionReason: ..., hooks: [PreToolUse, PostToolUse],
//	                 writeFile: {path: a.txt, content: ...}, result: "...", toolUseResult: {...},
//	                 beforeResult: [steps], hookToolName: Agent}
//	        - assistant: {content: [{text: ...}, {toolUse: {...}}], parentToolUseId: ..., model: "<synthetic>"}
//	        - toolResult: {toolUseId: ..., result: ...}
//	        - system: {subtype: task_started, ...}
//	        - emit: {type: rate_limit_event, ...}
//	        - control: {subtype: can_use_tool, ...}   # any CLI → host request, waited on
//	        - elicitation: {mcp_server_name: ..., message: ..., requested_schema: {...}}
//	        - hook: {event: PostCompact, input: {...}}
//	        - pause: {until: interrupt|prompt|control:stop_task}
//	        - pause: {until: control:get_context_usage, next: true, atMost: 2s} # the host's answer to the step before
//	        - exit: {code: 1, stderr: "..."}
//	        - result: {is_error: true, ...}           # overrides; else a success result
//	        - apiError: {status: 529, error: server_error} # the CLI's terminal API error
//	      then: [{system: {subtype: task_notification, ...}}] # after the turn ended
//	    - autonomous: {kind: task-notification, runId: r1}  # a turn the CLI starts itself
//	      steps: [...]
//
// Every scripted turn is framed as the real CLI 2.1.318 frames it (see
// research/real-cli-vs-fake.md): command_lifecycle keyed by the prompt's
// uuid, user_message_uuids, the echo with the prompt's origin, api_retry
// before the echo, PreToolUse mid-stream and PostToolUse to every callback
// at once; scripts only say what differs.
//
// Placeholders: the client side may use {{sessionId}}, {{cwd}}, {{home}},
// {{mcpServer}} (the suite's one-tool stdio MCP server), {{modelApi}} (the
// run's model API, as a gateway) and {{saved.NAME.PATH}}; the cli side {{cwd}}, {{home}}, {{config_dir}},
// {{session_id}} and {{transcript_path}}. The loader rejects any other name.
// The model side may use {{cwd}}, {{home}} and the names its turns capture
// from the CLI's requests (mockapi.Turn.Capture).
package scenario
