package conform

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/airwire/airwire/conform/cassette"
	"github.com/airwire/airwire/conform/fakecli"
	"github.com/airwire/airwire/conform/golden"
	"github.com/airwire/airwire/conform/mockapi"
	"github.com/airwire/airwire/conform/scenario"
	"github.com/airwire/airwire/internal/execwrap"
	"github.com/airwire/airwire/internal/journal"
)

// A scenario with a model script (scenario.Scenario.Live) runs through the
// real Claude CLI. Its golden and its cassette are recorded together, live:
// the adapter → the real CLI (Options.RealCLI, from make deps) → an
// in-process mock model API (conform/mockapi) playing the scenario's
// model script, under `airwire record --cli-lane --model-lane`. The
// cassette is the CLI side of that run (conform/cassette). Every other run
// replays the cassette: CLAUDE_CODE_EXECUTABLE runs `airwire fake-cli` with
// EnvReplay, which plays the recorded CLI back to whatever adapter is under
// test (fast, deterministic, no model).
//
// Both modes give the CLI the same environment apart from the model API's
// address, which the transcript shows as <model-api>: an API key (so the
// CLI and `auth status` report an API-key login, as every real run here
// does), telemetry and non-essential traffic off.

// EnvReplay names the cassette the fake CLI plays (conform/cassette).
const EnvReplay = "AIRWIRE_FAKE_CLI_REPLAY"

// CassetteExt is the file extension of a run's cassette, stored next to its
// golden: goldens/<scenario>/<profile>.cassette.
const CassetteExt = ".cassette"

// ReplayModelAPI is the model API address a replayed CLI is given. Nothing
// listens there: the cassette answers instead of the model.
const ReplayModelAPI = "http://127.0.0.1:9"

// TestAPIKey is the API key of live and replayed runs; the mock model API
// accepts any key.
const TestAPIKey = "sk-test"

// CassetteFile is the cassette of a scenario's run with one profile under
// the goldens directory dir.
func CassetteFile(dir string, sc *scenario.Scenario, p scenario.Profile) string {
	return filepath.Join(dir, GoldenName(sc, p)+CassetteExt)
}

// ErrNoCassette means a model scenario has no cassette to replay yet.
var ErrNoCassette = errors.New("no cassette for this run: record it with `airwire conform --live --update` (or make rerecord)")

// ModelEnv is the environment every model-scenario run gives the adapter
// (and so the CLI), for the API at base.
func ModelEnv(base string) []string {
	return []string{
		"ANTHROPIC_BASE_URL=" + base,
		"ANTHROPIC_API_KEY=" + TestAPIKey,
		"DISABLE_TELEMETRY=1",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
	}
}

// layoutModel prepares the CLI of a model scenario: the real CLI and a
// mock model API for a live run, the replaying fake CLI otherwise.
func (d *driver) layoutModel() error {
	if d.o.Live {
		if d.o.RealCLI == "" {
			return errors.New("a live run needs the real Claude CLI (Options.RealCLI; make deps installs it)")
		}
		log, err := os.Create(filepath.Join(d.p.Root, "mock-api.log"))
		if err != nil {
			return err
		}
		opts := []mockapi.Option{mockapi.WithLog(log)}
		if d.standIn {
			opts = append(opts, mockapi.WithLoosePrompts())
		}
		d.model = mockapi.New(d.modelScript(), opts...)
		if err := d.startModel(d.model, log.Close); err != nil {
			log.Close()
			return err
		}
		d.p.CLI = d.o.RealCLI
		return nil
	}
	if _, err := os.Stat(d.o.Cassette); err != nil {
		return fmt.Errorf("%w (%s)", ErrNoCassette, filepath.Base(filepath.Dir(d.o.Cassette))+"/"+filepath.Base(d.o.Cassette))
	}
	c, err := cassette.Load(d.o.Cassette)
	if err != nil {
		return fmt.Errorf("the cassette %s: %w", filepath.Base(filepath.Dir(d.o.Cassette))+"/"+filepath.Base(d.o.Cassette), err)
	}
	d.replay = c
	d.modelBase = ReplayModelAPI
	// A stand-in serves no listing: the gateway an editor names is the
	// editor's, and the fake CLI takes its address from the agent's argv.
	if d.listsModels() && !d.standIn {
		if err := d.startModel(mockapi.New(d.modelScript()), func() error { return nil }); err != nil {
			return err
		}
	}
	return execwrap.Write(d.p.CLI, d.o.Airwire, "fake-cli")
}

// listsModels reports whether the scenario's model API lists models
// (mockapi.Script.Models). An editor may then name it as a gateway, which
// the agent asks for its models itself: a replay runs the model API too,
// for that listing (but for a stand-in), and the cassette holds its
// address as cassette.PlaceholderModelAPI (Paths.ModelAPI).
func (d *driver) listsModels() bool { return d.sc.Model != nil && len(d.sc.Model.Models) > 0 }

// startModel starts srv on a loopback port as the run's model API; closeLog
// runs after it stops.
func (d *driver) startModel(srv *mockapi.Server, closeLog func() error) error {
	base, stop, err := srv.Start("127.0.0.1:0")
	if err != nil {
		return fmt.Errorf("starting the mock model API: %w", err)
	}
	d.stopModel = func() error { defer closeLog(); return stop() }
	d.modelBase = base
	if d.listsModels() {
		d.p.ModelAPI = strings.TrimPrefix(base, "http://")
	}
	return nil
}

// modelScript is the scenario's model script with the session title the
// suite uses everywhere (unless the scenario names its own), and the run's
// {{cwd}} and {{home}} filled into every text and tool input, so that a
// model can name the files of the run's workspace.
func (d *driver) modelScript() *mockapi.Script {
	s := *d.sc.Model
	if s.Side.Title == "" {
		s.Side.Title = DefaultTitle
	}
	vars := map[string]string{"cwd": d.p.Cwd, "home": d.p.Home}
	s.Turns = make([]mockapi.Turn, len(d.sc.Model.Turns))
	for i, t := range d.sc.Model.Turns {
		t.Reply = append([]mockapi.Block(nil), t.Reply...)
		for j, b := range t.Reply {
			b.Text = scenario.ExpandString(b.Text, vars)
			if b.ToolUse != nil {
				tu := *b.ToolUse
				tu.Input, _ = scenario.Expand(tu.Input, vars).(map[string]any)
				b.ToolUse = &tu
			}
			t.Reply[j] = b
		}
		s.Turns[i] = t
	}
	return &s
}

// cliEnv is the CLI part of the adapter's environment.
func (d *driver) cliEnv() []string {
	env := []string{"CLAUDE_CODE_EXECUTABLE=" + d.p.CLI}
	switch {
	case !d.sc.Live():
		return append(env,
			fakecli.EnvScript+"="+filepath.Join(d.p.Root, "cli.json"),
			fakecli.EnvLog+"="+filepath.Join(d.p.Root, "fake-cli.log"),
			EnvPace+"="+max(d.o.Pace, 0).String())
	case d.o.Live:
		return append(env, ModelEnv(d.modelBase)...)
	}
	env = append(append(env, ModelEnv(d.modelBase)...), EnvReplay+"="+d.o.Cassette)
	if d.p.ModelAPI != "" {
		env = append(env, cassette.EnvModelAPI+"="+d.p.ModelAPI)
	}
	if d.standIn {
		// an editor's prompts answer in order, as slowly as it types
		env = append(env, cassette.EnvReplayLoose+"=1", cassette.EnvReplayTimeout+"=0")
	}
	return env
}

// WriteCassette stores the CLI side of a live run as file, with the run's
// paths and session ids replaced by placeholders (conform/cassette).
func WriteCassette(res *Result, file string) error {
	subs := cassette.Substitutions{Cwd: res.Paths.Cwd, Home: res.Paths.Home, ConfigDir: res.Paths.ConfigDir, TmpDir: filepath.Join(res.Paths.Root, "tmp"),
		ModelAPI: res.Paths.ModelAPI, TaskOutputs: true}
	c, err := cassette.FromJournal(res.Entries, subs)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(file), golden.DirPerms); err != nil {
		return err
	}
	return c.Save(file)
}

// modelProblems lists the model requests of a live run that the scenario's
// model script did not answer: the scenario is wrong, whatever the
// transcript shows.
func (d *driver) modelProblems() []string {
	if d.model == nil {
		return nil
	}
	var out []string
	for _, r := range d.model.Unmatched() {
		out = append(out, fmt.Sprintf("the model script has no turn for model request #%d (last user message: %q)", r.Seq, r.LastUser))
	}
	return out
}

// PostTurnWait bounds how long a model scenario's run waits for the CLI's
// work after a turn (awaitPostTurn).
const PostTurnWait = 5 * time.Second

// awaitPostTurn waits until every stream-json CLI has finished the work the
// real CLI does after a turn that succeeded: it runs its prompt-suggestion
// agent (a SubagentStop hook callback to the adapter) and sends
// prompt_suggestion, about 100 ms after the result. Whether the editor sees
// the suggestion, and before or after the next prompt, must not depend on
// timing. At the end of a run (final) it also waits for a turn the CLI
// started on its own (a background task's notification) to end. The
// journal is read as it grows (the recorder flushes whenever it is idle).
// The wait is bounded: a CLI that sends no suggestion only slows the run.
// A replayed run knows what its CLI will still send (replayView): a wait
// for a frame its cassette does not hold ends once the adapter sent every
// frame its recording has it send and the journal was still for
// ReplayQuiet, so a recording without a suggestion costs no PostTurnWait.
//
// The adapter then gets Settle from the last CLI frame the journal shows
// (settleFrom) before the driver goes on: the recorder journals a frame as
// it passes it on, and the adapter may not have handled it yet (the
// suggestion's session_info_update went missing under load when the
// driver closed stdin right after the prompt_suggestion).
func (d *driver) awaitPostTurn(ctx context.Context, final bool) {
	deadline := time.Now().Add(PostTurnWait)
	seen, changed := -1, time.Now()
	for time.Now().Before(deadline) && ctx.Err() == nil {
		hdr, entries := readJournal(d.jpath)
		if len(entries) != seen {
			seen, changed = len(entries), time.Now()
		}
		if !d.postTurnBusy(entries, final, time.Since(changed)) {
			d.settleFrom = lastCLIFrame(hdr, entries)
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// AnswerSettles is how many settles of silence the adapter gets after the
// fake CLI's last answer at the end of a scripted run (awaitAnswers).
const AnswerSettles = 3

// awaitAnswers waits, at the end of a scripted run, until the fake CLI has
// answered every control request of the adapter (a session title, asked
// for with the prompt, lands after the prompt's response), bounded by
// PostTurnWait; the final settle then counts from that answer, so what the
// adapter does with it is part of the run whatever the machine's load. The
// adapter gets AnswerSettles settles of silence after the last answer, not
// one: an answer is what it acts on next (the title update), and under
// load a node adapter takes longer than one settle to act.
func (d *driver) awaitAnswers(ctx context.Context) {
	deadline := time.Now().Add(PostTurnWait)
	for time.Now().Before(deadline) && ctx.Err() == nil {
		hdr, entries := readJournal(d.jpath)
		if !controlOwed(entries) {
			if last := lastCLIFrame(hdr, entries); !last.IsZero() {
				d.settleFrom = last.Add((AnswerSettles - 1) * d.o.Settle)
			}
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// controlOwed reports whether an adapter → CLI control request of the
// journal has no answer yet.
func controlOwed(entries []journal.Entry) bool { return len(readCLIState(entries).owed) > 0 }

// lastCLIFrame is when the journal's last CLI → adapter frame passed
// (zero when it has none).
func lastCLIFrame(hdr journal.Header, entries []journal.Entry) time.Time {
	for i := len(entries) - 1; i >= 0; i-- {
		if e := &entries[i]; e.Lane == journal.LaneCLI && e.Dir == journal.DirCLI {
			return hdr.Start.Add(time.Duration(e.TNs))
		}
	}
	return time.Time{}
}

// postTurnBusy is cliBusy; for a replayed run whose cassette shows that
// the awaited frames will not come, it is whether the adapter still owes
// frames its recording has it send (final) or the journal has been still
// for less than ReplayQuiet (quiet). At the end of a replayed run it is
// also busy while the cassette holds a CLI start the journal does not show
// yet (spawnsOwed): where starting a process is slow (Windows), the
// adapter's probe after a session/load may start after the last turn.
func (d *driver) postTurnBusy(entries []journal.Entry, final bool, quiet time.Duration) bool {
	if d.replay == nil {
		return cliBusy(entries, final, nil)
	}
	v := followReplay(d.replay, entries)
	if final && v.spawnsOwed() {
		return true
	}
	if !cliBusy(entries, final, nil) {
		return false
	}
	if cliBusy(entries, final, v.coming) {
		return true
	}
	return (final && v.agentOwed()) || quiet < ReplayQuiet
}

// readJournal reads the header and the entries of a journal that is still
// being written, up to its last whole entry.
func readJournal(path string) (journal.Header, []journal.Entry) {
	r, err := journal.Open(path)
	if err != nil {
		return journal.Header{}, nil
	}
	defer r.Close()
	var out []journal.Entry
	for {
		e, err := r.Next()
		if err != nil {
			return r.Header(), out
		}
		out = append(out, e)
	}
}

// awaited is a CLI frame a post-turn wait waits for.
type awaited int

const (
	// awaitSuggestion: the prompt_suggestion of a successful result.
	awaitSuggestion awaited = iota
	// awaitIdle: the session_state_changed that ends a turn (state idle).
	awaitIdle
	// awaitAnswer: the control_response to a control request of the adapter.
	awaitAnswer
	// awaitToolHook: the PostToolUse or PostToolUseFailure callback of a
	// tool whose PreToolUse callback came. The real CLI sends it when the
	// tool ends, after the idle state of a turn that a budget stopped
	// while the tool ran.
	awaitToolHook
)

// cliFrame is what the post-turn wait reads of a stream-json frame.
type cliFrame struct {
	Type      string `json:"type"`
	Subtype   string `json:"subtype"`
	State     string `json:"state"`
	IsError   bool   `json:"is_error"`
	RequestID string `json:"request_id"`
	Request   struct {
		Subtype string `json:"subtype"`
		Input   struct {
			Event     string `json:"hook_event_name"`
			ToolUseID string `json:"tool_use_id"`
		} `json:"input"`
	} `json:"request"`
	Response struct {
		RequestID string `json:"request_id"`
	} `json:"response"`
	Message struct {
		Content json.RawMessage `json:"content"`
	} `json:"message"`
}

// toolHook is the tool a hook callback frame reports on, and whether its
// event is the one before the tool runs (PreToolUse) or one after.
func (f *cliFrame) toolHook() (id string, pre, post bool) {
	if f.Type != "control_request" || f.Request.Subtype != "hook_callback" {
		return "", false, false
	}
	switch f.Request.Input.Event {
	case "PreToolUse":
		return f.Request.Input.ToolUseID, true, false
	case "PostToolUse", "PostToolUseFailure":
		return f.Request.Input.ToolUseID, false, true
	}
	return "", false, false
}

// toolResults are the tool ids of a user frame's tool_result blocks.
func (f *cliFrame) toolResults() []string {
	var blocks []struct {
		Type      string `json:"type"`
		ToolUseID string `json:"tool_use_id"`
	}
	if f.Type != "user" || json.Unmarshal(f.Message.Content, &blocks) != nil {
		return nil
	}
	var ids []string
	for _, b := range blocks {
		if b.Type == "tool_result" {
			ids = append(ids, b.ToolUseID)
		}
	}
	return ids
}

// cliState is what the journal shows of each CLI process, for cliBusy.
type cliState struct {
	suggestion, inTurn, exited map[string]bool
	owed                       map[string]string          // request id -> process
	tools                      map[string]map[string]bool // process -> tools whose Post* hook is due
}

// readCLIState reads the CLI lane of a journal. A tool's Post* hook is due
// from its PreToolUse callback until that Post* callback or its
// tool_result (a denied or cancelled tool gets no Post* hook).
func readCLIState(entries []journal.Entry) *cliState {
	s := &cliState{suggestion: map[string]bool{}, inTurn: map[string]bool{}, exited: map[string]bool{},
		owed: map[string]string{}, tools: map[string]map[string]bool{}}
	for i := range entries {
		e := &entries[i]
		if e.Lane == journal.LaneCLI && e.Kind == journal.KindExit {
			s.exited[e.Proc] = true
		}
		var f cliFrame
		if e.Lane != journal.LaneCLI || e.Kind != journal.KindMsg || json.Unmarshal(e.Msg, &f) != nil {
			continue
		}
		if e.Dir == journal.DirAgent {
			if f.Type == "control_request" {
				s.owed[f.RequestID] = e.Proc
			}
			continue
		}
		s.read(e.Proc, &f)
	}
	return s
}

// read takes in one CLI → adapter frame of process proc.
func (s *cliState) read(proc string, f *cliFrame) {
	switch {
	case f.Type == "control_response":
		delete(s.owed, f.Response.RequestID)
	case f.Type == "result":
		s.suggestion[proc] = f.Subtype == "success" && !f.IsError
	case f.Type == "prompt_suggestion":
		s.suggestion[proc] = false
	case f.Type == "system" && f.Subtype == "session_state_changed":
		s.inTurn[proc] = f.State != "idle"
	}
	if s.tools[proc] == nil {
		s.tools[proc] = map[string]bool{}
	}
	if id, pre, post := f.toolHook(); pre && id != "" {
		s.tools[proc][id] = true
	} else if post {
		delete(s.tools[proc], id)
	}
	for _, id := range f.toolResults() {
		delete(s.tools[proc], id)
	}
}

// cliBusy reports whether a CLI process's last result was a success that no
// prompt_suggestion has followed yet, or (with final) whether a process is
// in a turn (its last session_state_changed is not idle), owes the adapter
// the answer to a control request (get_context_usage, whose answer makes
// the reference publish the commands again) or owes it a tool's Post* hook
// callback. A process that exited owes nothing. coming, when not nil, says
// whether process proc may still send the awaited frame; a process that
// will not is not busy.
func cliBusy(entries []journal.Entry, final bool, coming func(proc string, a awaited) bool) bool {
	s := readCLIState(entries)
	waits := func(p string, a awaited) bool {
		return !s.exited[p] && (coming == nil || coming(p, a))
	}
	for p := range s.suggestion {
		if s.suggestion[p] && waits(p, awaitSuggestion) {
			return true
		}
	}
	if !final {
		return false
	}
	for p := range s.inTurn {
		if s.inTurn[p] && waits(p, awaitIdle) {
			return true
		}
	}
	for _, p := range s.owed {
		if waits(p, awaitAnswer) {
			return true
		}
	}
	for p, due := range s.tools {
		if len(due) > 0 && waits(p, awaitToolHook) {
			return true
		}
	}
	return false
}

// CLIVersion is the version the CLI at path prints for --version: "2.1.318"
// of "2.1.318 (Claude Code)". It waits at most 30 s.
func CLIVersion(ctx context.Context, path string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, path, "--version").Output()
	if err != nil {
		return "", fmt.Errorf("%s --version: %w", filepath.Base(path), err)
	}
	v, _, _ := strings.Cut(strings.TrimSpace(string(out)), " ")
	if v == "" {
		return "", fmt.Errorf("%s --version printed nothing", filepath.Base(path))
	}
	return v, nil
}
