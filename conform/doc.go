// Package conform is the client side of the conformance suite: it drives an
// ACP adapter through one scenario with one client profile, records both
// lanes, and renders the run as canonical text for a golden.
//
// It owns three things:
//
//   - the client profiles (conform/scenario/profiles.yaml, read by
//     scenario.ClientCapabilities): the clientCapabilities of plain, zed,
//     air and their variants, changed per scenario by
//     capabilities.merge/remove/withoutAir/addAir;
//   - the driver (run.go, client.go, answers.go): a newline-delimited
//     JSON-RPC client that sends initialize, opens the session, runs the
//     scenario's steps (prompts, requests with exact params, notifications,
//     waits) and answers every agent request the way the scenario says
//     (permission by option id or kind, elicitation, fs read/write inside the
//     run directory, terminal calls);
//   - the canonical form (canon.go): one message per line, tagged with lane
//     and direction, keys sorted, volatile values replaced by numbered
//     placeholders (Normalizer documents every rule), and messages placed by
//     deterministic rules rather than by arrival time. Only what varies
//     between two runs of the same adapter is replaced: a duration the
//     fake CLI's script or the cassette fixed is kept, and sessions are
//     numbered by where they were created (stored by the scenario, or
//     introduced by a response), so a reordered list shows.
//
// # Why the adapter runs behind `airwire record`
//
// The adapter under test is started as `airwire record --cli-lane
// --no-redact --journal J -- AGENT…`, a real subprocess, rather than behind
// an in-process proxy.Recorder. The suite then sees exactly what an editor
// sees (real pipes, real process boundaries, the recorder's byte-transparent
// forwarding), the CLI lane comes for free from record's shim (the adapter's
// CLAUDE_CODE_EXECUTABLE is a wrapper that execs `airwire fake-cli`, and
// record puts its shim in front of it), both lanes share one gapless
// sequence, and the driver owns one process group it can SIGTERM and
// SIGKILL on a timeout (record forwards the signal, and its children die
// with it through Pdeathsig). `airwire conform` re-enters its own binary
// the same way, so the Ginkgo suite and the command run the same code.
//
// Isolation: each run gets its own directory with HOME, CLAUDE_CONFIG_DIR
// (HOME/.claude), TMPDIR and the workspace (cwd), a minimal environment
// (PATH, IS_SANDBOX=1, TZ=UTC, LANG=C.UTF-8, CLAUDE_CODE_EXECUTABLE and the
// fake CLI's AIRWIRE_FAKE_CLI_SCRIPT/LOG), and nothing else of the host's.
// The fake CLI answers generate_session_title with DefaultTitle unless the
// scenario overrides that control.
//
// Model scenarios (a model: script) run the real Claude CLI instead: live
// against an in-process mock model API under `record --model-lane`, or by
// default replaying the run's recorded cassette (live.go says how).
//
// Pacing: CLAUDE_CODE_EXECUTABLE runs `airwire conform paced-cli`, the fake
// CLI of conform/fakecli behind a Pacer: each frame it writes waits until
// the adapter has been silent on the CLI's stdin, and the previous frame out,
// for Options.Pace (DefaultPace, or $AIRWIRE_CONFORM_PACE). A real CLI
// streams over seconds; a fake that writes a whole turn at once lets the
// adapter's reactions (control round trips, file reads) interleave with
// later frames by timing, and the transcript would change from run to run.
// A replayed CLI is paced the same way (Pacer.StreamWriter), except that a
// stream_event delta continuing a content block (nothing from the adapter
// in between) waits only StreamPace: the adapter handles those in order in
// its message loop, and they only add text. A
// replayed run's waits for the CLI's post-turn work end as soon as the
// cassette shows the awaited frame will not come (replaywait.go).
//
// # Placement
//
// Which of two concurrent frames arrives first is timing, not behaviour. The
// canonical form therefore never uses the arrival order between the
// editor's frames and the agent's:
//
//   - agent → editor frames keep the agent's own write order (its stdout);
//   - an editor frame the driver sends for a step goes right after the agent
//     frame that let the step start (the response or waited-for message
//     that completed the previous step), whatever arrived in between;
//   - an answer to an agent request goes right after that request;
//   - frames whose timing the adapter does not control at all move by
//     FloatRules (_auth/status_update after the initialize response, a
//     session_info_update after the response of its prompt);
//   - after initialize, an agent that declares authStatus gets up to
//     AuthStatusWait to push its first _auth/status_update, so that its
//     presence never depends on how long the run lasts;
//   - before every step the driver waits until the agent has been quiet for
//     Settle, so output the adapter defers lands before the next input (and
//     a permission answered with cancelTurn goes out only once the agent
//     withdrew it with $/cancel_request, or CancelWait passed; one answered
//     with cancelAtOnce goes out at once, followed by session/cancel);
//   - the CLI lane follows the client lane, one block per stream-json CLI
//     process in spawn order (argv, then the adapter → CLI frames written
//     before the driver closed the adapter's stdin: the shutdown interrupt
//     may or may not be read before the CLI is killed), then
//     the distinct argv of the other CLI runs (auth status), sorted. The
//     CLI → adapter direction is the fake's script or the cassette, and is
//     left out.
//
// # Time limits and broken adapters
//
// A run's context deadline is a hard cap that includes ending the agent
// (lifecycle.go): the steps stop early enough to leave time for the exit
// wait after stdin EOF, SIGTERM and SIGKILL. A run that failed waits only
// FailedExitTimeout for the exit. A RunError says whether the agent ever
// answered initialize (BeforeInitialize), how it exited, which of its
// stdout lines were not JSON-RPC and the tail of its stderr, so that
// `airwire conform` can tell a broken adapter from a failed scenario.
//
// # Declared deviations
//
// An adapter other than the reference may differ from the goldens on
// purpose. goldens/agent-deviations.json (DeviationsFile) lists
// each such difference as a Deviation: the adapter's initialize
// agentInfo.name, the line tag, the method (or the method whose response
// it is), the JSON paths ($.result.agentInfo.name, [*] for every array
// element, [="name"] for the element equal to a value, so that one element
// of a list is masked and not the list) and the goldens/DEVIATIONS.md entry
// it stands for.
// LoadDeviations reads the file strictly; Check applies it with
// ApplyDeviations, which gives the declared paths of the selected lines the
// golden's values (never for the goldens' own adapter) and returns every
// value it masked (Outcome.Deviations, counted by `airwire conform`). A
// declaration marked extra instead leaves out, in the runs it names, the
// selected lines the adapter sends beyond those of the golden: a message
// the reference does not send.
// Everything else must still match, and --update is refused for an adapter
// with declarations (ErrDeviatingUpdate): goldens come from the reference.
// A declaration may name its runs (Deviation.Runs, <scenario>/<profile>
// patterns) when only they show the difference: it then applies to those
// runs only (ForRun). A declaration with a When path applies only where that
// path selects a line (Equals: holds that value there). A declaration that
// is Absent names golden lines the adapter does not send: in each run it
// names, Check leaves them out of the golden before the comparison
// (LeaveOut, Outcome.LeftOut), with the lines its With paths tie to them
// and the answers to the requests among them, and numbers the placeholders
// of the rest again as a run without them numbers them. Every declaration
// that applies to a run and masks or leaves out nothing there fails it
// (GoneDeviations, ErrDeviationGone), so a declaration masks only where
// its difference is, and a difference that disappears does not leave a
// stale declaration behind.
//
// It never compares (conform/golden does), never validates
// (schemas/validate does) and never edits a scenario file.
package conform
