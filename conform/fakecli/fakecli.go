package fakecli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/airwire/airwire/conform/scenario"
	"github.com/airwire/airwire/internal/lookup"
)

// Environment variables the fake reads.
const (
	// EnvScript names the script file (a scenario's cli section).
	EnvScript = "AIRWIRE_FAKE_CLI_SCRIPT"
	// EnvLog names the JSONL log file.
	EnvLog = "AIRWIRE_FAKE_CLI_LOG"
	// EnvSkipHooks lists hook events (comma-separated, e.g. PostToolUse) the
	// fake never calls back, whatever the script says. It exists for
	// mutation checks: a suite must notice a CLI that skips a hook.
	EnvSkipHooks = "AIRWIRE_FAKE_CLI_SKIP_HOOKS"
)

// Options are the inputs of one fake CLI process.
type Options struct {
	// Args is the argv after the program name.
	Args   []string
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer
	// Getenv reads the environment.
	Getenv func(string) string
	// Environ lists the environment (only names are logged).
	Environ func() []string
	// Cwd is the working directory (the session's project directory).
	Cwd string
}

// Run runs one fake CLI process and returns its exit code. It returns when
// stdin ends, ctx is cancelled (SIGTERM), or a script step exits.
func Run(ctx context.Context, o Options) int {
	log := openLog(o.Getenv(EnvLog))
	defer log.close()
	log.event("start", map[string]any{"argv": o.Args, "cwd": o.Cwd, "env": envNames(o.Environ)})

	args, err := ParseArgs(o.Args)
	if err == nil {
		log.role = args.Mode.String()
	}
	if err != nil {
		fmt.Fprintln(o.ErrOut, err)
		log.event("exit", map[string]any{"code": 1, "error": err.Error()})
		return 1
	}
	script := &scenario.CLIScript{}
	if p := o.Getenv(EnvScript); p != "" {
		if script, err = scenario.LoadCLIScript(p); err != nil {
			fmt.Fprintf(o.ErrOut, "fake-cli: %v\n", err)
			log.event("exit", map[string]any{"code": 1, "error": err.Error()})
			return 1
		}
	}
	home := o.Getenv("HOME")
	configDir := o.Getenv("CLAUDE_CONFIG_DIR")
	if configDir == "" {
		configDir = filepath.Join(home, ".claude")
	}

	code := 0
	switch args.Mode {
	case ModeVersion:
		fmt.Fprintf(o.Out, "%s (Claude Code)\n", Version)
	case ModeHelp:
		fmt.Fprintln(o.Out, "Usage: claude [options] [command] [prompt]\n\nairwire fake Claude Code CLI (stream-json only).")
	case ModeAuthStatus:
		st, loggedIn := authStatus(configDir, script.Auth)
		if args.Options["text"] == "set" && !loggedIn {
			fmt.Fprintln(o.Out, "Not logged in. Run claude auth login to authenticate.")
		} else if args.Options["text"] == "set" {
			fmt.Fprintln(o.Out, "Logged in with an API key (ANTHROPIC_API_KEY).")
		} else {
			b, _ := json.MarshalIndent(st, "", "  ")
			fmt.Fprintln(o.Out, string(b))
		}
		if !loggedIn {
			code = 1
		}
		log.event("out", map[string]any{"frame": st})
	case ModeAuthLogin:
		fmt.Fprintln(o.ErrOut, "Login is not available in the fake CLI.")
		code = 1
	case ModeAuthLogout:
		fmt.Fprintln(o.Out, "Successfully logged out from your Anthropic account.")
	default:
		c := newCLI(ctx, args, script, o, log, home, configDir)
		code = c.serve(o.In)
	}
	log.event("exit", map[string]any{"code": code})
	return code
}

// cli is the state of one stream-json session process.
type cli struct {
	ctx    context.Context
	args   *Args
	script *scenario.CLIScript
	log    *logger
	errOut io.Writer

	outMu sync.Mutex
	out   io.Writer

	cwd, home, configDir string
	sessionID            string
	transcriptPath       string
	process              string
	permissionMode       string
	model                string
	builder              *scenario.Builder
	transcript           *transcriptWriter

	prompts chan map[string]any
	eof     chan struct{}

	mu         sync.Mutex
	ids        *scenario.IDs
	clock      scenario.Clock
	hooks      map[string][]hookMatcher
	pending    map[string]chan map[string]any
	abort      chan struct{}
	aborted    bool
	used       []bool
	skipHooks  map[string]bool
	eventCount map[string]int
	eventUsed  map[string]int
	eventCh    chan struct{}
	// fastMode is the last fastMode the host applied: the real CLI then
	// reports fast_mode_state "on", without a reason, on its system/init
	// and results (fastModeState).
	fastMode bool
	// promptSuggestions is initialize.promptSuggestions: the CLI then runs
	// its prompt-suggestion agent after every turn.
	promptSuggestions bool
	// continuing is set when a turn ended with another prompt already
	// queued: the CLI then goes on without an idle/running pair.
	continuing bool
	// queuedAnnounced holds the uuids of prompts whose command_lifecycle
	// queued frame was written when they arrived during a turn.
	queuedAnnounced map[string]bool
	// turnRunning is true while a turn plays.
	turnRunning bool
	// lastTurn is the index of the script turn played last (-1: none).
	lastTurn int
	// turns counts the turns that went idle; results counts result frames
	// (result_index).
	turns, results int
	// skillsRead and holdUntil implement the hold after the first skill
	// read (see SkillReadHold).
	skillsRead bool
	holdUntil  time.Time
	// initSent is set once the first system/init is out.
	initSent bool
}

func newCLI(ctx context.Context, args *Args, script *scenario.CLIScript, o Options, log *logger, home, configDir string) *cli {
	cwd := o.Cwd
	if real, err := filepath.EvalSymlinks(cwd); err == nil {
		cwd = real
	}
	c := &cli{
		ctx: ctx, args: args, script: script, log: log, errOut: o.ErrOut, out: o.Out,
		cwd: cwd, home: home, configDir: configDir,
		permissionMode:  "default",
		prompts:         make(chan map[string]any, 256),
		eof:             make(chan struct{}),
		hooks:           map[string][]hookMatcher{},
		pending:         map[string]chan map[string]any{},
		used:            make([]bool, len(script.Turns)),
		skipHooks:       map[string]bool{},
		eventCount:      map[string]int{},
		eventUsed:       map[string]int{},
		eventCh:         make(chan struct{}),
		queuedAnnounced: map[string]bool{},
		lastTurn:        -1,
	}
	if args.PermissionMode != "" {
		c.permissionMode = args.PermissionMode
	}
	for _, ev := range strings.Split(o.Getenv(EnvSkipHooks), ",") {
		if ev = strings.TrimSpace(ev); ev != "" {
			c.skipHooks[ev] = true
		}
	}
	c.model = resolveModel(firstNonEmpty(args.Model, script.Model, scenario.DefaultModel))
	switch {
	case args.Resume != "" && args.ForkSession:
		c.process = scenario.ProcessFork
	case args.Resume != "" || args.Continue:
		c.process = scenario.ProcessResume
	default:
		c.process = scenario.ProcessNew
	}
	switch {
	case c.process == scenario.ProcessResume && args.Resume != "":
		c.sessionID = args.Resume
	case args.SessionID != "":
		c.sessionID = args.SessionID
	case c.process == scenario.ProcessFork:
		c.sessionID = scenario.FixedUUID(scenario.NSSession, 2)
	default:
		c.sessionID = scenario.FixedUUID(scenario.NSSession, 1)
	}
	c.transcriptPath = scenario.SessionFile(configDir, cwd, c.sessionID)
	c.transcript = newTranscriptWriter(c, args.NoSessionPersistence)
	gen := 0
	if c.process == scenario.ProcessFork {
		gen = c.transcript.fork(scenario.SessionFile(configDir, cwd, args.Resume))
	} else {
		gen = c.transcript.resume()
	}
	c.ids = scenario.NewIDs(scenario.NSFakeCLI + uint16(gen&0xff))
	c.builder = scenario.NewBuilder(c.model)
	c.log.session = c.sessionID
	return c
}

func resolveModel(m string) string {
	for _, e := range defaultModels() {
		mm := e.(map[string]any)
		if mm["value"] == m {
			return mm["resolvedModel"].(string)
		}
	}
	return m
}

func firstNonEmpty(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}

func (c *cli) vars() map[string]string {
	return map[string]string{
		scenario.VarCwd: c.cwd, scenario.VarHome: c.home, scenario.VarConfigDir: c.configDir,
		scenario.VarSessionID: c.sessionID, scenario.VarTranscriptPath: c.transcriptPath,
	}
}

// mode is the current permission mode (set_permission_mode changes it).
func (c *cli) mode() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.permissionMode
}

// currentModel is the resolved model (set_model changes it).
func (c *cli) currentModel() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.model
}

func (c *cli) uuid() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.ids.UUID()
}

func (c *cli) now() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.clock.Next()
}

// serve reads stdin and plays turns until EOF, cancellation or an exit step.
func (c *cli) serve(in io.Reader) int {
	go c.read(in)
	for {
		select {
		case msg := <-c.prompts:
			if code, exit := c.runTurn(msg); exit {
				return code
			}
		case <-c.eof:
			if len(c.prompts) > 0 {
				continue
			}
			return 0
		case <-c.ctx.Done():
			c.log.event("signal", map[string]any{"reason": "terminated"})
			return 0
		}
	}
}

func (c *cli) read(in io.Reader) {
	defer close(c.eof)
	r := bufio.NewReaderSize(in, 1<<16)
	for {
		line, err := r.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			c.handleLine(bytes.TrimSpace(line))
		}
		if err != nil {
			if !errors.Is(err, io.EOF) {
				c.log.event("note", map[string]any{"read_error": err.Error()})
			}
			c.log.event("eof", nil)
			return
		}
	}
}

func (c *cli) handleLine(line []byte) {
	var msg map[string]any
	if err := json.Unmarshal(line, &msg); err != nil {
		c.log.event("in", map[string]any{"raw": string(line)})
		return
	}
	c.log.event("in", map[string]any{"frame": json.RawMessage(line)})
	switch msg["type"] {
	case "control_request":
		c.handleControl(msg)
	case "control_response":
		resp, _ := msg["response"].(map[string]any)
		id, _ := resp["request_id"].(string)
		if c.args.ReplayUserMessages {
			c.write(msg)
		}
		c.mu.Lock()
		ch := c.pending[id]
		delete(c.pending, id)
		c.mu.Unlock()
		if ch != nil {
			ch <- resp
		}
	case "user":
		// A prompt that arrives during a turn is queued at once, and the CLI
		// says so then (command_lifecycle queued).
		c.mu.Lock()
		running := c.turnRunning
		c.mu.Unlock()
		if id, _ := msg["uuid"].(string); running && id != "" {
			c.emit(lifecycleFrame(id, "queued"), nil)
			c.mu.Lock()
			c.queuedAnnounced[id] = true
			c.mu.Unlock()
		}
		c.prompts <- msg
		c.signal("prompt")
	}
}

// signal records that event happened and wakes every waiter.
func (c *cli) signal(event string) {
	c.mu.Lock()
	c.eventCount[event]++
	close(c.eventCh)
	c.eventCh = make(chan struct{})
	c.mu.Unlock()
}

// write marshals f as one line on stdout and logs it.
func (c *cli) write(f map[string]any) {
	c.hold()
	c.writeNow(f)
}

// writeNow is write without waiting for a hold (see SkillReadHold).
func (c *cli) writeNow(f map[string]any) {
	b, err := json.Marshal(f)
	if err != nil {
		fmt.Fprintf(c.errOut, "fake-cli: cannot encode frame: %v\n", err)
		return
	}
	c.outMu.Lock()
	_, _ = c.out.Write(append(b, '\n'))
	c.outMu.Unlock()
	c.log.event("out", map[string]any{"frame": json.RawMessage(b)})
}

// noEnvelope lists frame types the CLI writes without uuid and session_id.
var noEnvelope = lookup.Set{
	"control_request", "control_response", "control_cancel_request", "keep_alive", "transcript_mirror",
}

// emit fills in placeholders, uuid, session_id and timestamp, writes the
// frame and records it in the transcript. It returns the frame as written.
func (c *cli) emit(f map[string]any, extra map[string]string) map[string]any {
	vars := c.vars()
	for k, v := range extra {
		vars[k] = v
	}
	f = scenario.Expand(f, vars).(map[string]any)
	typ, _ := f["type"].(string)
	if !noEnvelope.Has(typ) {
		if _, ok := f["uuid"]; !ok {
			f["uuid"] = c.uuid()
		}
		if _, ok := f["session_id"]; !ok {
			f["session_id"] = c.sessionID
		}
		if typ == "assistant" || typ == "user" {
			if _, ok := f["timestamp"]; !ok {
				f["timestamp"] = c.now()
			}
		}
	}
	c.write(f)
	c.transcript.frame(f)
	return f
}

// request sends a CLI → host control request and waits for its response.
// It returns false when the turn is aborted (interrupt, stdin EOF, SIGTERM)
// first; the request is then withdrawn with control_cancel_request.
func (c *cli) request(body map[string]any, abort <-chan struct{}) (map[string]any, bool) {
	id, ch := c.send(body)
	return c.wait(id, ch, abort)
}

// send writes a CLI → host control request and returns its id and the
// channel its response arrives on.
func (c *cli) send(body map[string]any) (string, chan map[string]any) {
	id := c.uuid()
	ch := make(chan map[string]any, 1)
	c.mu.Lock()
	c.pending[id] = ch
	c.mu.Unlock()
	body = scenario.Expand(body, c.vars()).(map[string]any)
	c.write(map[string]any{"type": "control_request", "request_id": id, "request": body})
	return id, ch
}

// wait waits for the response of a request sent with send (see request).
func (c *cli) wait(id string, ch chan map[string]any, abort <-chan struct{}) (map[string]any, bool) {
	select {
	case resp := <-ch:
		return resp, true
	case <-abort:
	case <-c.eof:
	case <-c.ctx.Done():
	}
	c.mu.Lock()
	delete(c.pending, id)
	c.mu.Unlock()
	c.write(map[string]any{"type": "control_cancel_request", "request_id": id})
	return nil, false
}

func promptText(msg map[string]any) string {
	m, _ := msg["message"].(map[string]any)
	switch content := m["content"].(type) {
	case string:
		return content
	case []any:
		var parts []string
		for _, b := range content {
			if bm, ok := b.(map[string]any); ok && bm["type"] == "text" {
				s, _ := bm["text"].(string)
				parts = append(parts, s)
			}
		}
		return strings.Join(parts, "\n")
	}
	return ""
}

// pickTurn returns the first unused turn that fits the prompt, or nil.
// Autonomous turns never answer a prompt.
func (c *cli) pickTurn(text string) *scenario.Turn {
	for i := range c.script.Turns {
		t := &c.script.Turns[i]
		if c.used[i] || t.Autonomous != nil || (t.Process != "" && t.Process != c.process) || (t.Match != "" && !strings.Contains(text, t.Match)) {
			continue
		}
		c.used[i] = true
		c.lastTurn = i
		return t
	}
	c.lastTurn = -1
	return nil
}

// nextAutonomous returns the unused autonomous turn that follows the turn
// just played, or nil.
func (c *cli) nextAutonomous() *scenario.Turn {
	i := c.lastTurn + 1
	if c.lastTurn < 0 || i >= len(c.script.Turns) || c.used[i] || c.script.Turns[i].Autonomous == nil {
		return nil
	}
	c.used[i] = true
	c.lastTurn = i
	return &c.script.Turns[i]
}

func envNames(environ func() []string) []string {
	if environ == nil {
		return nil
	}
	var out []string
	for _, kv := range environ() {
		name, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(name, "CLAUDE") || strings.HasPrefix(name, "ANTHROPIC") || strings.HasPrefix(name, "AIRWIRE_FAKE") || name == "IS_SANDBOX" {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

// writeFile writes a tool's file under the cwd.
func (c *cli) writeFile(fw *scenario.FileWrite) {
	p := filepath.Join(c.cwd, filepath.FromSlash(fw.Path))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err == nil {
		err = os.WriteFile(p, []byte(scenario.ExpandString(fw.Content, c.vars())), 0o644)
		if err != nil {
			c.log.event("note", map[string]any{"write_error": err.Error()})
		}
	}
}
