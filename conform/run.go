package conform

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/airwire/airwire/conform/cassette"
	"github.com/airwire/airwire/conform/mockapi"
	"github.com/airwire/airwire/conform/scenario"
	"github.com/airwire/airwire/internal/execwrap"
	"github.com/airwire/airwire/internal/journal"
	"github.com/airwire/airwire/internal/procgroup"
)

// Defaults of Options.
const (
	// DefaultWaitTimeout bounds one wait of the driver (a response, a waitFor).
	DefaultWaitTimeout = 30 * time.Second
	// DefaultSettle is how long the agent must stay silent before the driver
	// sends its next step, so that output the agent defers (a setTimeout
	// after a response) is written before the next input arrives.
	DefaultSettle = 40 * time.Millisecond
	// EditorLaneSettle is the settle of a run that compares the editor lane
	// only: the driver cannot see the CLI lane of an adapter that runs its
	// own CLI (airwire play), so it cannot wait for the CLI's post-turn
	// frames (awaitPostTurn) and waits for a longer quiet instead.
	EditorLaneSettle = 150 * time.Millisecond
	// DefaultExitTimeout is how long the agent may take to exit after stdin
	// EOF before it is sent SIGTERM, then SIGKILL.
	DefaultExitTimeout = 10 * time.Second
)

// TitleSubtype is the control request the reference adapter sends to have
// the CLI title a session, and DefaultTitle the title the driver has the
// fake CLI answer unless the scenario's cli.controls says otherwise.
const (
	TitleSubtype = "generate_session_title"
	DefaultTitle = "Scripted session title"
)

// ClientName is the clientInfo.name the driver sends in initialize.
const ClientName = "airwire-conform"

// Options are the inputs of one run: one scenario with one profile.
type Options struct {
	// Airwire is the airwire binary: it records (airwire record --cli-lane)
	// and plays the CLI (airwire fake-cli).
	Airwire string
	// Agent is the argv of the adapter under test. In each argument,
	// {scenario}, {profile}, {cwd} and {root} are replaced by the run's scenario
	// name, profile name and workspace directory (ExpandAgent).
	Agent []string
	// Scenario and Profile say what to run.
	Scenario *scenario.Scenario
	Profile  scenario.Profile
	// Dir is an empty directory that the run owns (keep its path short: the
	// recorder's unix socket lives below it).
	Dir string
	// PATH is the adapter's PATH (default: this process's).
	PATH string
	// Env holds extra KEY=VALUE pairs for the adapter and the processes it
	// starts (e.g. fakecli.EnvSkipHooks for a mutation run). They come after
	// the driver's own, so they win.
	Env []string
	// Stderr receives the adapter's and recorder's stderr (may be nil).
	Stderr io.Writer
	// Pace is the fake CLI's pause before each frame (see Pacer): 0 means
	// DefaultPace, a negative value runs the fake unpaced.
	Pace time.Duration
	// WaitTimeout, Settle and ExitTimeout default to the Default* constants.
	WaitTimeout time.Duration
	Settle      time.Duration
	ExitTimeout time.Duration

	// Live runs a model scenario (scenario.Scenario.Live) through RealCLI
	// against a mock model API instead of replaying Cassette (see live.go).
	// Scripted scenarios ignore Live, RealCLI and Cassette.
	Live bool
	// RealCLI is the real Claude CLI executable of a live run.
	RealCLI string
	// Cassette is the recorded CLI side that a replayed run plays
	// (CassetteFile); Check sets it.
	Cassette string

	// ACPSchemaDir is the pinned ACP schema (acp.Locator) that Check
	// validates the run's messages against; "" means the one `make deps`
	// installed in the checkout (validate.Load).
	ACPSchemaDir string
	// NoValidate makes Check compare without validating (airwire conform
	// --no-validate). Without it, a schema that cannot be loaded fails
	// Check before the run starts: validation is never skipped silently.
	NoValidate bool
	// EditorLane makes Check compare the editor lane only (airwire conform
	// --editor-lane): the golden's and the run's client lines, for an
	// adapter whose CLI side is not the run's to see (airwire play, which
	// plays the scenario's CLI itself). See EditorLane.
	EditorLane bool
}

// Paths are the run's volatile locations, replaced by placeholders when the
// transcript is normalized.
type Paths struct {
	Root, Cwd, Home, ConfigDir string
	Airwire                    string
	// Agent is the adapter's argv as the run started it (ExpandAgent).
	Agent []string
	// CLI is the executable the adapter was given as CLAUDE_CODE_EXECUTABLE
	// (after the recorder's shim, the fake CLI wrapper).
	CLI string
	// MCPServer is the stand-in for `airwire conform mcp-server` that a
	// scenario's session names as {{mcpServer}}. It is under Home, so that
	// goldens and cassettes hold it as <home>/… and {{home}}/….
	MCPServer string
	// ModelAPI is the host:port of the model API of a scenario whose model
	// lists models, which its cassette holds as {{model_api}} (empty for
	// any other scenario: see listsModels).
	ModelAPI string
}

// Result is what a run recorded.
type Result struct {
	Scenario *scenario.Scenario
	Profile  scenario.Profile
	Paths    Paths
	// Journal is the journal file; Entries its entries.
	Journal string
	Header  journal.Header
	Entries []journal.Entry
	// Anchors places the editor's frames: Anchors[k] is the index (in
	// arrival order) of the agent frame the k-th editor frame follows.
	Anchors []int
	// Scripted[k] is true when the k-th editor frame carries content the
	// scenario wrote (a step's prompt, request or notification).
	Scripted []bool
	// ExitCode is the recorder's (the agent's) exit status.
	ExitCode int
	// ClosedAt is when the driver closed the agent's stdin (wall clock).
	ClosedAt time.Time
}

// RunError is a run that could not be completed (a timeout, an unexpected
// error response, an agent that died). It carries what the agent left: how
// it exited, the lines of its stdout that were not JSON-RPC, and the tail
// of its stderr.
type RunError struct {
	Scenario string
	Profile  scenario.Profile
	Err      error
	// BeforeInitialize is true when the agent was started but never
	// answered initialize: a broken adapter or command, not a scenario's
	// failure (`airwire conform` stops when the first runs all end so).
	BeforeInitialize bool
	// Exit says how the agent ended ("exit status 3", "signal: killed"
	// after the client's SIGKILL); "" when it was not started.
	Exit string
	// NotJSON are the agent's stdout lines that were not JSON-RPC (the
	// first MaxNotJSON, each cut to 200 bytes).
	NotJSON []string
	Stderr  string
}

func (e *RunError) Error() string {
	s := fmt.Sprintf("%s/%s: %v", e.Scenario, e.Profile, e.Err)
	if e.Exit != "" {
		s += "\nagent exit: " + e.Exit
	}
	if len(e.NotJSON) > 0 {
		s += "\n--- agent stdout that is not JSON-RPC ---\n" + strings.Join(e.NotJSON, "\n")
	}
	if e.Stderr != "" {
		s += "\n--- agent stderr (tail) ---\n" + e.Stderr
	}
	return s
}

func (e *RunError) Unwrap() error { return e.Err }

// Run drives the adapter through the scenario with the profile and returns
// the recorded journal. The adapter runs behind `airwire record --cli-lane
// --no-redact`, with HOME, CLAUDE_CONFIG_DIR and the workspace under Dir,
// IS_SANDBOX=1 and the fake CLI as CLAUDE_CODE_EXECUTABLE. Every process it
// starts has ended when Run returns.
func Run(ctx context.Context, o Options) (*Result, error) {
	if o.WaitTimeout == 0 {
		o.WaitTimeout = DefaultWaitTimeout
	}
	if o.Settle == 0 {
		o.Settle = DefaultSettle
		if o.EditorLane {
			o.Settle = EditorLaneSettle
		}
	}
	if o.ExitTimeout == 0 {
		o.ExitTimeout = DefaultExitTimeout
	}
	if o.PATH == "" {
		o.PATH = os.Getenv("PATH")
	}
	if len(o.Agent) == 0 || o.Airwire == "" || o.Scenario == nil || o.Dir == "" {
		return nil, errors.New("conform.Run: Agent, Airwire, Scenario and Dir are required")
	}
	d := &driver{o: o, sc: o.Scenario, saved: map[string]any{}}
	res, err := d.run(ctx)
	if err != nil {
		re := &RunError{Scenario: o.Scenario.Name, Profile: o.Profile, Err: err, Stderr: d.stderrTail(),
			BeforeInitialize: d.c != nil && !d.initialized, Exit: d.end.describe()}
		if d.c != nil {
			re.NotJSON = d.c.notJSONLines()
		}
		return res, re
	}
	return res, nil
}

type driver struct {
	o  Options
	sc *scenario.Scenario
	p  Paths

	c       *client
	a       *answerer
	trigger int // the agent frame the next editor frame follows
	pending []pendingCall
	// stepAt is the index of the client step running.
	stepAt int
	saved  map[string]any

	smu       sync.Mutex
	sessionID string
	stderr    tailBuffer

	// modelBase is the model API URL of a model scenario's CLI; stopModel
	// stops the mock model API of a live run.
	modelBase string
	model     *mockapi.Server
	stopModel func() error
	// jpath is the run's journal.
	jpath string
	// initialized is set once the agent answered initialize; end is how
	// the agent's process ended.
	initialized bool
	end         ending
	// replay is the cassette a replayed model scenario plays (nil otherwise).
	replay *cassette.Cassette
	// settleFrom is when a post-turn wait last saw the CLI frame it waited
	// for: the next settle counts the agent's quiet from then at the
	// earliest (awaitPostTurn).
	settleFrom time.Time
	// standIn: the layout is a stand-in's (standin.go), for an editor that
	// is not the driver; workspace is its chosen session directory.
	standIn   bool
	workspace string
	// stdin is the agent's stdin; closedAt is when closeInput closed it.
	stdin    io.Closer
	closedAt time.Time
	// turnEnds holds the frames (by index) that ended a prompt step's turn
	// in a v2 run (awaitTurnEnd); configOptions are those of the last
	// session setup answer (v2Method).
	turnEnds      map[int]bool
	configOptions []any
}

func (d *driver) session() string {
	d.smu.Lock()
	defer d.smu.Unlock()
	return d.sessionID
}

func (d *driver) stderrTail() string { return d.stderr.String() }

// layout creates the run's directories, workspace, transcript, CLI script
// and fake CLI wrapper.
func (d *driver) layout() error {
	root, err := filepath.Abs(d.o.Dir)
	if err != nil {
		return err
	}
	if r, err := filepath.EvalSymlinks(root); err == nil {
		root = r
	}
	d.p = Paths{Root: root, Cwd: filepath.Join(root, "work"), Home: filepath.Join(root, "home"),
		Airwire: d.o.Airwire, Agent: d.o.Agent, CLI: filepath.Join(root, "bin", execwrap.Name("claude"))}
	d.p.ConfigDir = filepath.Join(d.p.Home, ".claude")
	d.p.MCPServer = filepath.Join(d.p.Home, "bin", execwrap.Name("mcp-server"))
	if d.workspace != "" {
		if d.p.Cwd, err = filepath.Abs(d.workspace); err != nil {
			return err
		}
		if r, err := filepath.EvalSymlinks(d.p.Cwd); err == nil {
			d.p.Cwd = r
		}
	}
	for _, dir := range []string{d.p.Cwd, d.p.ConfigDir, filepath.Join(root, "bin"), filepath.Join(root, "tmp")} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
	}
	files, err := d.sc.WorkspaceFiles()
	if err != nil {
		return err
	}
	for rel, content := range files {
		if err := d.writeWorkspaceFile(filepath.Join(d.p.Cwd, filepath.FromSlash(rel)), string(content)); err != nil {
			return err
		}
	}
	stored := d.sc.Sessions
	if d.sc.Transcript != nil {
		stored = append([]scenario.Transcript{*d.sc.Transcript}, stored...)
	}
	for i := range stored {
		if err := os.MkdirAll(stored[i].ProjectCwd(d.p.Cwd), 0o755); err != nil {
			return err
		}
	}
	if err := d.sc.WriteSessions(d.p.ConfigDir, d.p.Cwd, map[string]string{"cwd": d.p.Cwd, "home": d.p.Home}); err != nil {
		return err
	}
	if err := d.sc.WriteConfigFiles(d.p.ConfigDir, scenario.ConfigFileVars(d.p.Cwd, d.p.Home, d.p.ConfigDir, time.Now())); err != nil {
		return err
	}
	if err := d.layoutMCPServer(); err != nil {
		return err
	}
	if d.sc.Live() {
		return d.layoutModel()
	}
	return d.layoutScripted()
}

// layoutMCPServer writes the stand-in for `airwire conform mcp-server`
// when the session names it ({{mcpServer}}: in params.mcpServers or in
// its _meta, as Claude Code options).
func (d *driver) layoutMCPServer() error {
	b, err := json.Marshal(d.sc.Client.Session)
	if err != nil || !strings.Contains(string(b), "{{mcpServer}}") {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(d.p.MCPServer), 0o755); err != nil {
		return err
	}
	return execwrap.Write(d.p.MCPServer, d.o.Airwire, "conform", "mcp-server")
}

// layoutScripted writes the scripted fake CLI's script and its wrapper.
func (d *driver) layoutScripted() error {
	script := d.sc.CLI
	if _, ok := script.Controls[TitleSubtype]; !ok {
		// The fake answers unknown subtypes with an error; the reference then
		// falls back to a title it reads from the session file, which the fake
		// may or may not have written yet. A fixed answer removes that race.
		controls := map[string]scenario.ControlOverride{TitleSubtype: {Response: map[string]any{"title": DefaultTitle}}}
		for k, v := range script.Controls {
			controls[k] = v
		}
		script.Controls = controls
	}
	if err := scenario.WriteCLIScript(filepath.Join(d.p.Root, "cli.json"), &script); err != nil {
		return err
	}
	fake := []string{"conform", "paced-cli"}
	if d.o.Pace < 0 {
		fake = []string{"fake-cli"}
	}
	return execwrap.Write(d.p.CLI, append([]string{d.o.Airwire}, fake...)...)
}

func (d *driver) env() []string {
	env := []string{
		"PATH=" + d.o.PATH,
		"HOME=" + d.p.Home,
		"CLAUDE_CONFIG_DIR=" + d.p.ConfigDir,
		"TMPDIR=" + filepath.Join(d.p.Root, "tmp"),
		"IS_SANDBOX=1",
		"TZ=UTC",
		"LANG=C.UTF-8",
	}
	return append(append(env, d.cliEnv()...), d.o.Env...)
}

func (d *driver) run(ctx context.Context) (*Result, error) {
	err := d.layout()
	if d.stopModel != nil {
		defer d.stopModel()
	}
	if err != nil {
		return nil, fmt.Errorf("preparing the run directory: %w", err)
	}
	// The adapter's argv names this run ({scenario}, {profile}, {cwd},
	// {root}); the normalizer reads it from d.p.
	d.p.Agent = ExpandAgent(d.o.Agent, d.sc.Name, d.o.Profile, d.p)
	caps, err := scenario.ClientCapabilities(d.o.Profile, d.sc.Capabilities)
	if err != nil {
		return nil, err
	}
	jpath := filepath.Join(d.p.Root, "journal.jsonl")
	d.jpath = jpath
	cmd := d.command(jpath)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	group, err := procgroup.Start(cmd, procgroup.WithParentDeath(0))
	if err != nil {
		return nil, fmt.Errorf("starting airwire record: %w", err)
	}
	stepCtx, stopSteps := stepContext(ctx)
	defer stopSteps()
	d.c = newClient(stdin)
	d.a = &answerer{c: d.c, answers: d.sc.Client.Answers, cwd: d.p.Cwd, root: d.p.Root, sessionID: d.session,
		cancelled: func(m *agentMsg) { d.awaitWithdrawal(stepCtx, m) }}
	d.c.answer = d.a.handle
	readDone := make(chan struct{})
	go func() { defer close(readDone); d.c.read(stdout) }()
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()

	d.stdin = stdin
	stepErr := d.steps(stepCtx, caps)
	if stepErr != nil && ctx.Err() == nil && errors.Is(stepErr, context.DeadlineExceeded) {
		stepErr = fmt.Errorf("%w: the run's time limit ran out (its last part is kept for ending the agent)", stepErr)
	}

	// End the session: stdin EOF (unless a shutdown step sent it), then
	// wait; SIGTERM and SIGKILL if needed.
	d.closeInput()
	d.end = d.stop(ctx, group, cmd, waited, stepErr != nil)
	if d.end.signal != "" && stepErr == nil {
		stepErr = fmt.Errorf("the agent did not exit within %s of stdin EOF", d.o.ExitTimeout)
	}
	<-readDone
	res := &Result{Scenario: d.sc, Profile: d.o.Profile, Paths: d.p, Journal: jpath, ClosedAt: d.closedAt}
	res.Anchors, res.Scripted = d.c.takeAnchors()
	if cmd.ProcessState != nil {
		res.ExitCode = cmd.ProcessState.ExitCode()
	}
	hdr, entries, jerr := journal.ReadAll(jpath)
	res.Header, res.Entries = hdr, entries
	if stepErr != nil {
		return res, stepErr
	}
	if jerr != nil {
		return res, fmt.Errorf("reading the journal: %w", jerr)
	}
	d.c.mu.Lock()
	probs := append([]string(nil), d.c.problems...)
	d.c.mu.Unlock()
	probs = append(probs, d.modelProblems()...)
	if len(probs) > 0 {
		return res, errors.New(strings.Join(probs, "; "))
	}
	return res, nil
}

// command is the adapter behind `airwire record`, writing the journal
// jpath; it is started in a process group of its own that dies with the
// driver (SIGKILL).
func (d *driver) command(jpath string) *exec.Cmd {
	args := []string{"record", "--quiet", "--cli-lane", "--no-redact", "--journal", jpath}
	if d.sc.Live() && d.o.Live {
		args = append(args, "--model-lane")
	}
	args = append(append(args, "--"), d.p.Agent...)
	cmd := exec.Command(d.o.Airwire, args...)
	cmd.Dir = d.p.Cwd
	cmd.Env = d.env()
	var errOut io.Writer = &d.stderr
	if d.o.Stderr != nil {
		errOut = io.MultiWriter(&d.stderr, d.o.Stderr)
	}
	cmd.Stderr = errOut
	return cmd
}

// steps runs initialize, the session opening and the scenario's steps.
func (d *driver) steps(ctx context.Context, caps map[string]any) error {
	d.trigger = -1
	m, err := d.call(ctx, "initialize", d.initializeParams(caps), 0, false)
	d.initialized = m != nil
	if err != nil {
		return err
	}
	if err := d.checkProtocol(m); err != nil {
		return err
	}
	if err := d.awaitAuthStatus(ctx, m); err != nil {
		return err
	}
	if err := d.open(ctx); err != nil {
		return err
	}
	for i, st := range d.sc.Client.Steps {
		d.stepAt = i
		if err := d.step(ctx, st); err != nil {
			if st.AwaitAll {
				return fmt.Errorf("client.steps[%d] (awaitAll): %w", i, err)
			}
			return fmt.Errorf("client.steps[%d]: %w", i, err)
		}
	}
	if !d.closedAt.IsZero() {
		return nil // a shutdown step ended the session
	}
	if err := d.finish(ctx); err != nil {
		return fmt.Errorf("after the last step, %w", err)
	}
	return nil
}

// finish brings the run to where the editor may leave: every async request
// answered, the CLI's post-turn work (a model scenario) or the fake CLI's
// answers (a scripted one) done, and the agent quiet.
func (d *driver) finish(ctx context.Context) error {
	if err := d.awaitAll(ctx); err != nil {
		return fmt.Errorf("awaiting the async requests: %w", err)
	}
	if err := d.settle(ctx); err != nil {
		return err
	}
	if d.sc.Live() {
		d.awaitPostTurn(ctx, true)
	} else {
		d.awaitAnswers(ctx)
	}
	return d.settle(ctx)
}

// shutdown is a shutdown step: the editor leaves once the run is finished,
// as at the end of the steps, and the agent gets stdin EOF.
func (d *driver) shutdown(ctx context.Context) error {
	if err := d.finish(ctx); err != nil {
		return err
	}
	d.closeInput()
	return nil
}

// closeInput closes the agent's stdin, once, after the answers still being
// prepared went out: the editor's end of the session.
func (d *driver) closeInput() {
	if !d.closedAt.IsZero() {
		return
	}
	d.a.late.Wait()
	d.closedAt = time.Now()
	d.stdin.Close()
}

// CancelWait bounds how long a cancelTurn answer waits for the agent to
// withdraw the permission request with $/cancel_request.
const CancelWait = 3 * time.Second

// awaitWithdrawal waits until the agent sent $/cancel_request for request
// m, or CancelWait passed. It runs off the reader goroutine.
func (d *driver) awaitWithdrawal(ctx context.Context, m *agentMsg) {
	_ = d.waitWithin(ctx, CancelWait, "$/cancel_request", func(msgs []*agentMsg) bool {
		for _, x := range msgs[m.index+1:] {
			if x.isNotification() && x.method == "$/cancel_request" {
				if id, ok := x.params["requestId"]; ok {
					if b, err := json.Marshal(id); err == nil && string(b) == strings.TrimSpace(string(m.id)) {
						return true
					}
				}
			}
		}
		return false
	})
	_ = d.settle(ctx)
}

// AuthStatusWait bounds the wait for the first _auth/status_update.
const AuthStatusWait = 5 * time.Second

// awaitAuthStatus waits for the first _auth/status_update when the agent
// declared agentCapabilities._meta.authStatus (the JetBrains shared key:
// "the agent pushes _auth/status_update"). The reference pushes it when a
// background `claude auth status` ends; a run short enough to end first
// would lose it, and the transcript would depend on the machine's load.
// The wait is bounded: an agent that declares the key but pushes nothing
// only slows the run.
func (d *driver) awaitAuthStatus(ctx context.Context, init *agentMsg) error {
	if agentMeta(init)["authStatus"] == nil {
		return nil
	}
	err := d.waitWithin(ctx, AuthStatusWait, "_auth/status_update", func(msgs []*agentMsg) bool {
		for _, m := range msgs {
			if m.isNotification() && m.method == "_auth/status_update" {
				return true
			}
		}
		return false
	})
	if ctx.Err() != nil {
		return err
	}
	return nil
}

func (d *driver) vars() map[string]string {
	v := map[string]string{"sessionId": d.session(), "cwd": d.p.Cwd, "home": d.p.Home, "mcpServer": d.p.MCPServer, "modelApi": d.modelBase}
	var flat func(prefix string, x any)
	flat = func(prefix string, x any) {
		switch t := x.(type) {
		case map[string]any:
			for k, e := range t {
				flat(prefix+"."+k, e)
			}
		case []any:
			for i, e := range t {
				flat(fmt.Sprintf("%s.%d", prefix, i), e)
			}
		case string:
			v[prefix] = t
		case nil:
		default:
			b, _ := json.Marshal(t)
			v[prefix] = string(b)
		}
	}
	for name, r := range d.saved {
		flat("saved."+name, r)
	}
	return v
}

func (d *driver) expand(x any) any {
	if x == nil {
		return nil
	}
	g, err := deepCopy(x)
	if err != nil {
		return x
	}
	return scenario.Expand(g, d.vars())
}

// open sends the request that opens the scenario's session.
func (d *driver) open(ctx context.Context) error {
	s := d.sc.Client.Session
	method := d.sc.OpenMethod()
	if method == scenario.SessionNone {
		return nil
	}
	mcp := []any{}
	if len(s.MCPServers) > 0 {
		mcp = d.expand(s.MCPServers).([]any)
	}
	params := map[string]any{"cwd": d.p.Cwd, "mcpServers": mcp}
	if s.Meta != nil {
		params["_meta"] = d.expand(s.Meta)
	}
	if len(s.AdditionalDirectories) > 0 {
		var dirs []any
		for _, a := range s.AdditionalDirectories {
			dirs = append(dirs, filepath.Join(d.p.Cwd, filepath.FromSlash(a)))
		}
		params["additionalDirectories"] = dirs
	}
	switch method {
	case scenario.SessionNew:
		res, err := d.call(ctx, "session/new", params, 0, false)
		if err != nil {
			return err
		}
		d.noteConfigOptions(res)
		var r struct {
			SessionID string `json:"sessionId"`
		}
		if err := json.Unmarshal(res.result, &r); err != nil || r.SessionID == "" {
			return fmt.Errorf("session/new returned no sessionId: %s", res.result)
		}
		d.smu.Lock()
		d.sessionID = r.SessionID
		d.smu.Unlock()
	case scenario.SessionLoad, scenario.SessionResume:
		params["sessionId"] = d.sc.Transcript.SessionID
		d.smu.Lock()
		d.sessionID = d.sc.Transcript.SessionID
		d.smu.Unlock()
		m, p := d.v2Method("session/"+method, params)
		res, err := d.call(ctx, m, p, 0, false)
		if err != nil {
			return err
		}
		d.noteConfigOptions(res)
	}
	return nil
}

// call sends a request after the agent settled and waits for its
// response; the response becomes the next trigger. expectError, when
// non-zero, is the error code the agent must answer with. scripted marks a scenario step's request.
func (d *driver) call(ctx context.Context, method string, params any, expectError int, scripted bool) (*agentMsg, error) {
	m, err := d.send(ctx, method, params, scripted)
	if err != nil {
		return nil, err
	}
	return m, expectAnswer(method, m, expectError)
}

// send sends a request after the agent settled and waits for its
// response, which becomes the next trigger.
func (d *driver) send(ctx context.Context, method string, params any, scripted bool) (*agentMsg, error) {
	if err := d.settle(ctx); err != nil {
		return nil, err
	}
	id, err := d.c.request(method, params, d.trigger, scripted)
	if err != nil {
		return nil, fmt.Errorf("%s: writing the request: %w", method, err)
	}
	m, err := d.waitResponse(ctx, method, id)
	if err != nil {
		return nil, err
	}
	d.trigger = m.index
	return m, nil
}

// expectAnswer checks the answer m to method against the error code a step
// expects (0: a result).
func expectAnswer(method string, m *agentMsg, expectError int) error {
	switch {
	case expectError != 0 && m.err == nil:
		return fmt.Errorf("%s: expected error %s, got result %s", method, errorCodeText(expectError), m.result)
	case expectError == scenario.AnyError:
	case expectError != 0 && m.err.Code != expectError:
		return fmt.Errorf("%s: expected error %d, got %v", method, expectError, m.err)
	case expectError == 0 && m.err != nil:
		return fmt.Errorf("%s: %w", method, m.err)
	}
	return nil
}

func (d *driver) waitResponse(ctx context.Context, method, id string) (*agentMsg, error) {
	var got *agentMsg
	err := d.wait(ctx, fmt.Sprintf("the response to %s (id %s)", method, id), func([]*agentMsg) bool {
		got = d.c.response(id)
		return got != nil
	})
	return got, err
}

// wait blocks until cond holds over the agent's frames, the agent closes
// its output, ctx ends or WaitTimeout passes.
func (d *driver) wait(ctx context.Context, what string, cond func([]*agentMsg) bool) error {
	return d.waitWithin(ctx, d.o.WaitTimeout, what, cond)
}

// waitWithin is wait with its own time limit; it reads only the client's
// frames, so it may run off the driver's goroutine.
func (d *driver) waitWithin(ctx context.Context, limit time.Duration, what string, cond func([]*agentMsg) bool) error {
	timer := time.NewTimer(limit)
	defer timer.Stop()
	for {
		msgs, changed, closed := d.c.snapshot()
		if cond(msgs) {
			return nil
		}
		if closed {
			return fmt.Errorf("the agent closed its output while the client waited for %s", what)
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return fmt.Errorf("waiting for %s: %w", what, ctx.Err())
		case <-timer.C:
			return fmt.Errorf("waited %s for %s in vain", limit, what)
		}
	}
}

// settle waits until the agent has been silent for Settle (since
// settleFrom at the earliest).
func (d *driver) settle(ctx context.Context) error {
	deadline := time.Now().Add(d.o.WaitTimeout)
	for {
		last := d.c.lastArrival()
		if d.settleFrom.After(last) {
			last = d.settleFrom
		}
		quiet := time.Since(last)
		if quiet >= d.o.Settle {
			return nil
		}
		if time.Now().After(deadline) {
			return nil // a chatty agent: go on rather than hang
		}
		select {
		case <-time.After(d.o.Settle - quiet):
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

func (d *driver) step(ctx context.Context, st scenario.ClientStep) error {
	switch {
	case st.Prompt != nil:
		return d.prompt(ctx, st.Prompt)
	case st.Request != nil:
		for n := range st.Request.Times() {
			if err := d.request(ctx, st.Request); err != nil {
				if st.Request.Times() > 1 {
					return fmt.Errorf("repetition %d of %d: %w", n+1, st.Request.Times(), err)
				}
				return err
			}
		}
		return nil
	case st.Notify != nil:
		if err := d.settle(ctx); err != nil {
			return err
		}
		return d.c.notify(st.Notify.Method, d.expand(st.Notify.Params), d.trigger, true)
	case st.WaitFor != nil:
		if !st.WaitFor.In(d.o.Profile) {
			return nil
		}
		return d.waitFor(ctx, st.WaitFor)
	case st.AwaitAll:
		return d.awaitAll(ctx)
	case st.AwaitPostTurn:
		if d.sc.Live() && len(d.pending) == 0 {
			d.awaitPostTurn(ctx, false)
		}
		return d.settle(ctx)
	case st.Shutdown:
		return d.shutdown(ctx)
	}
	return errors.New("empty step")
}

// request sends one request step's request: it waits for the response and
// checks it, or goes on at once when the step is async.
func (d *driver) request(ctx context.Context, r *scenario.Request) error {
	params, _ := d.expand(r.Params).(map[string]any)
	if params == nil {
		params = map[string]any{}
	}
	method, params := d.v2Method(r.Method, params)
	if r.Async {
		return d.sendAsync(ctx, method, params)
	}
	m, err := d.call(ctx, method, params, r.Expected(), true)
	if err != nil {
		return err
	}
	if r.Save != "" && m.err == nil {
		var v any
		_ = json.Unmarshal(m.result, &v)
		d.saved[r.Save] = v
	}
	return nil
}

func (d *driver) sendAsync(ctx context.Context, method string, params any) error {
	if err := d.settle(ctx); err != nil {
		return err
	}
	id, err := d.c.request(method, params, d.trigger, true)
	if err != nil {
		return err
	}
	d.pending = append(d.pending, pendingCall{method: method, id: id, step: d.stepAt})
	return nil
}

// pendingCall is an async request whose response awaitAll collects.
type pendingCall struct {
	method, id string
	// step is the index of the client step that sent it.
	step int
	// prompt is the step of an async session/prompt, session its session.
	prompt  *scenario.Prompt
	session string
}

// awaitAll waits for every async request; the last response to arrive
// becomes the trigger. An error names the step that sent the request.
func (d *driver) awaitAll(ctx context.Context) error {
	for _, p := range d.pending {
		if err := d.awaitOne(ctx, p); err != nil {
			return fmt.Errorf("client.steps[%d] (async %s, id %s): %w", p.step, p.method, p.id, err)
		}
	}
	d.pending = nil
	return nil
}

// awaitOne waits for the response to p and checks it as p's step says.
func (d *driver) awaitOne(ctx context.Context, p pendingCall) error {
	m, err := d.waitResponse(ctx, p.method, p.id)
	if err != nil {
		return err
	}
	d.trigger = max(d.trigger, m.index)
	if p.prompt != nil && d.v2() && m.err == nil {
		if m, err = d.awaitTurnEnd(ctx, m, p.session); err != nil {
			return err
		}
	}
	want := 0
	if p.prompt != nil {
		want = p.prompt.ExpectError
	}
	switch {
	case want != 0 && (m.err == nil || m.err.Code != want):
		return fmt.Errorf("expected error %d, got %s%v", want, m.result, m.err)
	case want == 0 && m.err != nil:
		return m.err
	case p.prompt != nil:
		return checkStopReason(m, p.prompt)
	}
	return nil
}

func (d *driver) prompt(ctx context.Context, p *scenario.Prompt) error {
	blocks := p.Content()
	sid := d.session()
	if p.SessionID != "" {
		sid = p.SessionID
	}
	params := map[string]any{"sessionId": sid, "prompt": blocks}
	if p.Meta != nil {
		params["_meta"] = p.Meta
	}
	params = d.expand(params).(map[string]any)
	sid, _ = params["sessionId"].(string)
	if d.sc.Live() && len(d.pending) == 0 {
		// The previous turn's suggestion comes before the next prompt.
		d.awaitPostTurn(ctx, false)
	}
	if p.Async {
		if err := d.sendAsync(ctx, "session/prompt", params); err != nil {
			return err
		}
		d.pending[len(d.pending)-1].prompt = p
		d.pending[len(d.pending)-1].session = sid
		return nil
	}
	m, err := d.send(ctx, "session/prompt", params, true)
	if err != nil {
		return err
	}
	if d.v2() && m.err == nil {
		// v2 answered when the prompt was taken in: the step ends with the turn.
		if m, err = d.awaitTurnEnd(ctx, m, sid); err != nil {
			return err
		}
	}
	if err := expectAnswer("session/prompt", m, p.ExpectError); err != nil {
		return err
	}
	return checkStopReason(m, p)
}

// checkStopReason enforces a prompt step's stopReason.
func checkStopReason(m *agentMsg, p *scenario.Prompt) error {
	if p.StopReason == "" || m.err != nil {
		return nil
	}
	var r struct {
		StopReason string `json:"stopReason"`
	}
	_ = json.Unmarshal(m.result, &r)
	if r.StopReason != p.StopReason {
		return fmt.Errorf("session/prompt: stopReason %q, want %q", r.StopReason, p.StopReason)
	}
	return nil
}

// waitFor blocks until the agent sent Count matching frames; the frame that
// completed the count becomes the trigger.
func (d *driver) waitFor(ctx context.Context, w *scenario.WaitFor) error {
	want := max(w.Count, 1)
	what := fmt.Sprintf("%d× %s%s%s", want, w.SessionUpdate, w.Request, w.Notification)
	return d.wait(ctx, what, func(msgs []*agentMsg) bool {
		n := 0
		for _, m := range msgs {
			if matches(m, w) {
				n++
				if n == want {
					// A floated frame (a title, a commands update) may have
					// arrived before the step's trigger: never move it back.
					d.trigger = max(d.trigger, m.index)
					if w.Save != "" {
						d.saved[w.Save] = m.params
					}
					return true
				}
			}
		}
		return false
	})
}

func matches(m *agentMsg, w *scenario.WaitFor) bool {
	switch {
	case w.SessionUpdate != "":
		if m.method != "session/update" || m.hasID {
			return false
		}
		u, _ := m.params["update"].(map[string]any)
		return u["sessionUpdate"] == w.SessionUpdate
	case w.Request != "":
		return m.isRequest() && m.method == w.Request
	case w.Notification != "":
		return m.isNotification() && m.method == w.Notification
	}
	return false
}

// tailBuffer keeps the last 16 KiB written to it.
type tailBuffer struct {
	mu sync.Mutex
	b  []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if len(t.b) > 16<<10 {
		t.b = append([]byte(nil), t.b[len(t.b)-16<<10:]...)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(bytes.TrimSpace(t.b))
}

// errorCodeText says which error a step expects.
func errorCodeText(code int) string {
	if code == scenario.AnyError {
		return "(any code)"
	}
	return strconv.Itoa(code)
}

// deepCopy copies a YAML-decoded value into plain JSON types.
func deepCopy(v any) (any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var out any
	return out, json.Unmarshal(b, &out)
}
