package adapter

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/airwire/airwire/adapter/caps"
	"github.com/airwire/airwire/adapter/claude"
	"github.com/airwire/airwire/adapter/claudesettings"
	"github.com/airwire/airwire/adapter/notices"
	"github.com/airwire/airwire/adapter/permission"
	"github.com/airwire/airwire/adapter/providers"
	"github.com/airwire/airwire/adapter/sessionconfig"
	"github.com/airwire/airwire/adapter/usage"
	"github.com/airwire/airwire/internal/clistart"
	"github.com/airwire/airwire/internal/envlist"
	"github.com/airwire/airwire/internal/jsonrpc"
)

// claudePath resolves the CLI: --claude-path, CLAUDE_CODE_EXECUTABLE, PATH,
// then the installers' places. A relative path is taken from the directory
// the agent started in (the process never changes it), not from the
// session's cwd that the CLI is spawned in.
func (a *Agent) claudePath() (string, error) {
	return claude.ResolveExecutable(claude.Locator{Flag: a.opts.ClaudePath, Getenv: a.opts.Getenv})
}

// hookEvents are the hooks the reference registers: the agent observes
// them (PostToolUse carries a tool's final response).
var hookEvents = []string{"PostToolUse", "PostModelSwitch", "PostCompact", "TaskCreated", "TaskCompleted"}

// startError is what the editor learns when a CLI does not start: why, in
// words that carry no path of this machine and no variable's value
// (internal/clistart); the whole error goes to the log. Behind
// `airwire record --cli-lane` the CLI shim reports the same reasons.
func startError(reason string) *jsonrpc.WireError {
	msg := "Internal error: " + strings.TrimSuffix(clistart.Prefix, ": ")
	if reason != "" {
		msg = "Internal error: " + clistart.Prefix + reason
	}
	return &jsonrpc.WireError{Code: -32603, Message: msg}
}

// resolveReason is why no CLI was found to start.
func resolveReason(err error) string {
	var nf *claude.NotFoundError
	if errors.As(err, &nf) {
		return nf.Reason()
	}
	return ""
}

// exitWait bounds how long a failed handshake waits for the CLI's exit,
// whose status and first stderr line say why it failed.
const exitWait = 2 * time.Second

// exitReason is how the CLI ended, when it ended during the handshake
// ("" when it is still running).
func exitReason(proc *claude.Process) string {
	select {
	case <-proc.Done():
	case <-time.After(exitWait):
		return ""
	}
	var exit *claude.ExitError
	if errors.As(proc.Err(), &exit) {
		return clistart.Exited(exit.Code, exit.Signal, exit.FirstStderr)
	}
	return clistart.Exited(0, "", "")
}

// start spawns the session's CLI and runs the control handshake, then asks
// how full the context is. st is kept for a clear-context restart.
func (s *Session) start(ctx context.Context, st claude.SessionStart) error {
	s.startParams = st
	if err := s.spawn(ctx, st); err != nil {
		return err
	}
	if !s.windowKnown {
		askContextUsage(ctx, s)
	}
	return nil
}

// askContextUsage asks the CLI how full the context is: written now, so
// before what follows a setup answer (the MCP sign-in's mcp_status), as
// the reference orders them; answered in the background.
func askContextUsage(ctx context.Context, s *Session) {
	if wait, err := s.cli().Begin(claude.GetContextUsage{Detail: "summary"}); err == nil {
		go s.configChanges.contextUsageOf(ctx, wait)
	}
}

// spawn starts a CLI as st says, makes it the session's CLI (the frames
// of a CLI it replaces no longer reach the session) and runs the control
// handshake.
func (s *Session) spawn(ctx context.Context, st claude.SessionStart) error {
	log := s.agent.opts.Log.With("session", s.ID)
	path, err := s.agent.claudePath()
	if err != nil {
		log.Error("cannot start the Claude CLI", "err", err)
		return startError(resolveReason(err))
	}
	st.AllowBypass = s.prefs.bypass(st.Meta)
	if st.Settings, err = sessionSettings(st.Meta, s.Cwd); err != nil { // contract "Session hooks"
		return invalidParams(err.Error())
	}
	auth := authContext{settings: st.Settings, cwd: s.Cwd, env: optionsEnv(st.Meta),
		helper: s.prefs.current().APIKeyHelperUnder(st.Settings)}
	s.mu.Lock()
	s.auth = auth
	s.mu.Unlock()
	if s.agent.useAuthContext(auth) {
		s.agent.probeAuth(true) // the reference reads the login again in the session's context
	}
	authEpoch := s.agent.authEpoch.Load()
	st.FormElicitation = s.agent.clientCaps().FormElicit
	spawn, err := claude.ReferenceOptions(st)
	if err != nil {
		return invalidParams(err.Error())
	}
	s.mu.Lock()
	s.startAgent = spawn.Agent
	s.mu.Unlock()
	s.fileChanges.setRoots(s.Cwd, spawn.AdditionalDirectories)
	env := claude.EnvOptions{FileCheckpointing: s.fileChanges.checkpointsOn(), CLIVersion: s.agent.versions.known(path)}
	var routed []string
	if spawn.Settings, routed, err = providerStart(s.agent, spawn.Settings); err != nil {
		return invalidParams(err.Error())
	}
	env.Session = append(optionsEnv(st.Meta), routed...)
	s.mu.Lock()
	s.gen++
	h := &cliHandler{s: s, gen: s.gen}
	s.mu.Unlock()
	cliEnv := claude.Env(s.agent.opts.Environ, env)
	proc, err := claude.Start(claude.Config{Path: path, Args: claude.Args(spawn),
		Env: cliEnv, Dir: s.Cwd, Handler: h, Log: log, Backlog: holdEditor(s.agent)})
	if err != nil {
		log.Error("cannot start the Claude CLI", "err", err)
		return startError(clistart.Exec(err))
	}
	s.mu.Lock()
	s.proc, s.cliEnv = proc, cliEnv
	s.mu.Unlock()
	initialized := func(init []byte) {
		s.noteCLIVersion(log, path, init)
		publishSessionAccount(s.agent, init, auth.helper, authEpoch)
	}
	if err := s.handshake(ctx, proc, st, initialized); err != nil {
		log.Error("the Claude CLI handshake failed", "err", err)
		reason := exitReason(proc)
		s.mu.Lock()
		s.gen++ // a CLI that never started ends nothing of the session's
		s.mu.Unlock()
		proc.Close()
		return startError(reason)
	}
	h.started()
	return nil
}

// dialogKinds is the CLI dialogs the session declares: the refusal
// fallback prompt only for an editor with form elicitation, the one form
// that can present it; the CLI then never asks, and a refusal ends the turn.
func dialogKinds(c caps.Client) []string {
	if !c.FormElicit {
		return nil
	}
	return []string{permission.DialogRefusalFallback}
}

// cli is the session's current CLI.
func (s *Session) cli() *claude.Process {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.proc
}

// handshake is the SDK's start: initialize with the agent's hooks, the
// model and mode the session opens with, then get_settings; their answers
// configure the session. st is how the CLI started; initialized gets the
// initialize answer (the CLI's version).
func (s *Session) handshake(ctx context.Context, proc *claude.Process, st claude.SessionStart, initialized func([]byte)) error {
	c := s.agent.clientCaps()
	init := claude.Initialize{PromptSuggestions: ptr(true), SupportedDialogKinds: dialogKinds(c)}
	s.subagentInitialize(&init, st.Meta)
	initResp, err := proc.Initialize(ctx, init)
	if err != nil {
		return err
	}
	initialized(initResp)
	in, err := sessionconfig.ParseInit(initResp)
	if err != nil {
		return err
	}
	base := sessionconfig.Options{Mode: s.mode, BuiltInDefault: s.modeBuiltIn, Resumed: st.Resume != "", CLIModels: in.Models,
		Effort: requestEffort(st.Meta), SettingsEffort: s.prefs.effort(st.Settings),
		BooleanOptions: c.BooleanOptions, Recommended: c.AIR.Has(caps.RecommendedValue),
		PresentationHints: c.AIR.Client, Notices: c.Notices, Agent: s.startAgent}
	in.Models = gatewayModels(s.agent.routing.Resolved(), s.prefs.allowed().Apply(in.Models))
	var paused pausedReader
	defer paused.resume()
	if err := s.prefs.open(ctx, proc, in, base, st.Meta, &paused); err != nil {
		return err
	}
	wait, err := proc.Begin(claude.GetSettings{})
	paused.resume() // after the write, as the SDK's continuation
	var settings json.RawMessage
	if err == nil {
		err = wait(ctx, &settings)
	}
	if err != nil {
		return err
	}
	s.configure(in, settings, s.prefs.options(base, st.Meta))
	// Recommended config values: the SDK runs the effort the selector shows.
	if req := s.cfg.InitialEffortRequest(); req != nil {
		return s.configChanges.controlBody(ctx, req, &paused)
	}
	return nil
}

// inOrder sends req as the SDK sends an awaited request: written before
// the previous request's pause ends; its response handed over after every
// CLI line read before it (a hook callback is answered first, as the SDK
// handles lines in order), and the lines after it left unhandled until
// the caller writes its next request (paused).
func inOrder(ctx context.Context, proc *claude.Process, req claude.ControlRequest, paused *pausedReader) error {
	wait, resume, err := proc.BeginPaused(req)
	paused.resume()
	if err != nil {
		return err
	}
	paused.last = resume
	return wait(ctx, nil)
}

func ptr[T any](v T) *T { return &v }

// configure builds the session's modes and config options from the CLI's
// initialize answer (its models narrowed to a gateway's), its get_settings
// answer and o, and seeds the context window.
func (s *Session) configure(in sessionconfig.Init, settings json.RawMessage, o sessionconfig.Options) {
	s.cfg = sessionconfig.New(in, sessionconfig.ParseSettings(settings), o)
	s.commands = in.Commands
	if len(in.Models) > 0 {
		m := in.Models[0]
		s.tr.usage.SetWindow(usage.GuessWindow(m.Value, m.ResolvedModel, m.DisplayName, m.Description))
		model := m.ResolvedModel
		if model == "" {
			model = m.Value
		}
		if w, ok := s.agent.windows.known(windowKey(routedGetenv(s.agent), model)); ok {
			s.tr.usage.SetWindow(w)
			s.windowKnown = true
		}
	}
}

// sessionPrefs are what the user asked of sessions outside the session
// request: the Claude Code settings read when the session opened
// (adapter/claudesettings), ANTHROPIC_MODEL and
// ANTHROPIC_CUSTOM_MODEL_OPTION in the agent's environment, and for a
// stored session the model its transcript's last answer ran on. A
// preferred model the CLI refused to switch to is dropped.
type sessionPrefs struct {
	settings claudesettings.Settings
	// read reads the settings files as they are now.
	read         func() claudesettings.Settings
	getenv       func(string) string
	resumedModel string
	noPreference bool
}

// allowed is what restricts the model picker.
func (p *sessionPrefs) allowed() sessionconfig.Allowed {
	return sessionconfig.Allowed{Models: p.settings.AvailableModels, Overrides: p.settings.ModelOverrides,
		Denied: p.settings.DeniedModels, Custom: p.getenv("ANTHROPIC_CUSTOM_MODEL_OPTION")}
}

// model is the preferred model: ANTHROPIC_MODEL, else the settings'
// model; "" for none.
func (p *sessionPrefs) model() string {
	if p.noPreference {
		return ""
	}
	if m := p.getenv("ANTHROPIC_MODEL"); m != "" {
		return m
	}
	return p.settings.Model
}

// bypass: the session offers Bypass permissions (and the CLI gets
// --allow-dangerously-skip-permissions) unless the agent may not run it,
// the host removes it (meta, the session request's _meta), or the
// settings disable it.
func (p *sessionPrefs) bypass(meta json.RawMessage) bool {
	return allowBypass(p.getenv) && !hostRemovesBypass(meta) && !p.settings.BypassDisabled()
}

// effort reads the settings' effort levels under the session's own
// settings (flag, the --settings JSON its CLI gets) from the files as
// they are at each call: a model switch takes the levels of a file
// changed while the session ran, as the reference's watcher of the
// files has them.
func (p *sessionPrefs) effort(flag string) func() claudesettings.Effort {
	over, ok := claudesettings.FlagEffort(flag)
	return func() claudesettings.Effort {
		files := p.current().Effort
		if flag != "" && ok {
			return files.Over(over)
		}
		return files
	}
}

// current is the settings files as they are now.
func (p *sessionPrefs) current() claudesettings.Settings {
	if p.read == nil {
		return p.settings
	}
	return p.read()
}

// requestEffort is the session request's
// `_meta.claudeCode.options.effort`: the level the CLI runs at, shown
// as the session opens.
func requestEffort(meta json.RawMessage) string {
	var m struct {
		ClaudeCode struct {
			Options struct {
				Effort string `json:"effort"`
			} `json:"options"`
		} `json:"claudeCode"`
	}
	if len(meta) == 0 || json.Unmarshal(meta, &m) != nil {
		return ""
	}
	return m.ClaudeCode.Options.Effort
}

// options is base with what the preferences decide.
func (p *sessionPrefs) options(base sessionconfig.Options, meta json.RawMessage) sessionconfig.Options {
	base.Model, base.AllowAuto, base.AllowBypass = p.model(), !p.settings.AutoDisabled(), p.bypass(meta)
	base.ResumedModel = p.resumedModel
	return base
}

// open settles with a new CLI, before the settings are asked for, the
// model and mode the session opens with (sessionconfig.Opening): the
// switch to the preferred model, then the mode the session can start in.
// A switch the CLI refuses leaves a resumed session on its transcript's
// model, and a new one on the CLI's own when a PreModelSwitch hook vetoed
// it; any other refusal fails a new session's start, as the SDK's does.
func (p *sessionPrefs) open(ctx context.Context, proc *claude.Process, in sessionconfig.Init,
	base sessionconfig.Options, meta json.RawMessage, paused *pausedReader) error {
	setModel, setMode := sessionconfig.Opening(in, p.options(base, meta))
	if setModel != nil {
		if err := inOrder(ctx, proc, rawRequest{"set_model", setModel}, paused); err != nil {
			if !base.Resumed && !strings.Contains(err.Error(), modelSwitchBlocked) {
				return err
			}
			p.noPreference = true
			_, setMode = sessionconfig.Opening(in, p.options(base, meta))
		}
	}
	if setMode == nil {
		return nil
	}
	return inOrder(ctx, proc, rawRequest{"set_permission_mode", setMode}, paused)
}

// modelSwitchBlocked begins the CLI's refusal of a model switch that a
// PreModelSwitch hook vetoed.
const modelSwitchBlocked = "Model switch blocked by a PreModelSwitch hook"

// allowBypass: bypassPermissions is offered (and the CLI gets
// --allow-dangerously-skip-permissions) unless the agent runs as root
// outside a sandbox the CLI recognizes (it refuses the flag then).
func allowBypass(getenv func(string) string) bool {
	return bypassAllowed(os.Getuid(), getenv)
}

// hostRemovesBypass reports whether the session request's _meta sets
// claudeCode.options.allowDangerouslySkipPermissions to false: the host
// removes Bypass permissions (contract "Permission modes"), and the CLI
// gets no --allow-dangerously-skip-permissions.
func hostRemovesBypass(meta json.RawMessage) bool {
	var m struct {
		ClaudeCode struct {
			Options struct {
				Allow *bool `json:"allowDangerouslySkipPermissions"`
			} `json:"options"`
		} `json:"claudeCode"`
	}
	if len(meta) == 0 || json.Unmarshal(meta, &m) != nil {
		return false
	}
	a := m.ClaudeCode.Options.Allow
	return a != nil && !*a
}

// bypassAllowed is the Claude CLI's own rule (2.1.318): as root (uid 0; -1
// on Windows, which it does not check) only IS_SANDBOX=1, exactly, or a
// set CLAUDE_CODE_BUBBLEWRAP lets the flag through. The reference accepts
// any IS_SANDBOX value, and with IS_SANDBOX=yes every session/new fails
// (goldens/DEVIATIONS.md 24).
func bypassAllowed(uid int, getenv func(string) string) bool {
	return uid != 0 || getenv("IS_SANDBOX") == "1" || getenv("CLAUDE_CODE_BUBBLEWRAP") != ""
}

// HandleExit implements claude.Handler: a CLI that ends on its own ends
// every open turn (a turn under way stops waiting for a result that never
// comes) and later prompts get the reference's "session has ended" error.
func (s *Session) HandleExit(err error) {
	s.mu.Lock()
	s.ended = true
	open := s.turns
	s.turns, s.state = nil, idle
	closed := s.closed
	s.mu.Unlock()
	if !closed {
		s.tr.cliEnded(len(open) > 0 && open[0].cancelled)
	}
	if len(open) > 0 {
		s.agent.opts.Log.Warn("the Claude CLI ended during a turn", "session", s.ID, "exit", err)
	}
	turnID := ""
	if len(open) > 0 {
		turnID = open[0].promptUUID
	}
	failed := s.tr.exitFailure(err, turnID) // contract "Session failure"
	for i, t := range open {
		s.fileChanges.unavailable(t.fileChange, fileChangeProviderError)
		if i == 0 && failed != nil {
			t.settle(&s.fg, outcomeOf(failed), nil)
			continue
		}
		t.settle(&s.fg, outcomeOf(emptyTurnResult("end_turn")), nil)
	}
}

// errSessionEnded is the reference's answer to a prompt on a session whose
// CLI is gone.
var errSessionEnded = &jsonrpc.WireError{Code: -32603, Message: "Internal error: The Claude Agent session has ended. Please start a new session."}

// emptyTurnResult is a PromptResponse with no usage.
func emptyTurnResult(stop string) map[string]any {
	return map[string]any{"stopReason": stop, "usage": map[string]int{"cachedReadTokens": 0, "cachedWriteTokens": 0,
		"inputTokens": 0, "outputTokens": 0, "totalTokens": 0}}
}

// contextWindows are the context windows the results of this agent's
// sessions confirmed, by backend and model, as the reference's
// cross-session cache keeps them: a CLI started later on the same backend
// and model (a new session, a restarted live session) starts with that
// window and asks its CLI for none. A get_context_usage answer never goes
// in: its spelling and size can differ from the result's. Logout empties it
// (the window can depend on the account).
type contextWindows struct {
	mu sync.Mutex
	by map[string]int
}

// providerRoutingEnv are the variables that choose the backend, its
// context lane and the account a CLI's requests reach.
var providerRoutingEnv = []string{
	"ANTHROPIC_BASE_URL", "ANTHROPIC_BEDROCK_BASE_URL", "ANTHROPIC_VERTEX_BASE_URL",
	"CLAUDE_CODE_USE_BEDROCK", "CLAUDE_CODE_USE_VERTEX", "ANTHROPIC_VERTEX_PROJECT_ID",
	"CLOUD_ML_REGION", "AWS_REGION", "ANTHROPIC_CUSTOM_HEADERS", "ANTHROPIC_API_KEY",
	"ANTHROPIC_AUTH_TOKEN", "CLAUDE_CODE_OAUTH_TOKEN",
}

// windowKey is the cache key of model on the backend getenv selects.
func windowKey(getenv func(string) string, model string) string {
	parts := make([]string, 0, len(providerRoutingEnv)+1)
	for _, name := range providerRoutingEnv {
		parts = append(parts, getenv(name))
	}
	return strings.Join(append(parts, model), "\x00")
}

// learn keeps a window a result confirmed.
func (c *contextWindows) learn(key string, size int) {
	if size <= 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.by == nil {
		c.by = map[string]int{}
	}
	c.by[key] = size
}

// known is the confirmed window of key, if any.
func (c *contextWindows) known(key string) (usage.Window, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	size, ok := c.by[key]
	return usage.Window{Size: size, Authoritative: true}, ok
}

// forget empties the cache.
func (c *contextWindows) forget() {
	c.mu.Lock()
	c.by = nil
	c.mu.Unlock()
}

// The CLI's version: the agent reads it from the CLI's answer to initialize
// (claude_code_version), logs it at every start and remembers it per
// executable, so that the next CLI it starts from the same file gets the
// CLAUDE_AGENT_SDK_VERSION of that version (claude.SDKVersionFor; the
// first start sends the goldens' SDKVersion). A CLI outside the supported
// range (claude.MinCLIVersion–claude.MaxCLIVersion) is logged as a warning
// and reported to the editor once per session, after its session/new,
// load, resume or fork answer: contract "Session failure", Delivery — a
// session-scoped warning goes in a session_info_update (an advisory
// notice) for a client that declared sessionFailure, and is a transcript
// line for any other client. A CLI inside the range changes nothing on the
// wire.

// cliVersions remembers the version each CLI executable reported.
type cliVersions struct {
	mu     sync.Mutex
	byPath map[string]string
}

func (c *cliVersions) known(path string) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.byPath[path]
}

func (c *cliVersions) learn(path, version string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.byPath == nil {
		c.byPath = map[string]string{}
	}
	c.byPath[path] = version
}

// noteCLIVersion logs the version a started CLI reported and remembers it;
// a version outside the supported range is kept for the editor's notice.
func (s *Session) noteCLIVersion(log *slog.Logger, path string, init []byte) {
	v := claude.InitCLIVersion(init)
	if v == "" {
		log.Warn("the Claude CLI did not report its version; the agent cannot check it", "supported", claude.SupportedRange())
		return
	}
	s.agent.versions.learn(path, v)
	if claude.CLISupported(v) {
		log.Info("the Claude CLI started", "version", v, "sdk_version", claude.SDKVersionFor(v), "supported", claude.SupportedRange())
		return
	}
	log.Warn("the Claude CLI's version is outside the supported range", "version", v, "supported", claude.SupportedRange())
	s.mu.Lock()
	s.unsupportedCLI = v
	s.mu.Unlock()
}

// cliVersionWarning is the editor's text for an unsupported CLI version.
func cliVersionWarning(version string) string {
	return "Claude Code " + version + " is outside the versions this agent supports (" + claude.SupportedRange() +
		"); it may not work as expected. Install a supported Claude Code version."
}

// warnUnsupportedCLI tells the editor, once per session, that its CLI's
// version is outside the supported range.
func (s *Session) warnUnsupportedCLI() {
	s.mu.Lock()
	v := s.unsupportedCLI
	if v == "" || s.cliWarned {
		s.mu.Unlock()
		return
	}
	s.cliWarned = true
	s.mu.Unlock()
	text := cliVersionWarning(v)
	if s.agent.clientCaps().Notices {
		s.notify(notices.Notice{Severity: "warning", Title: text}.Update())
		return
	}
	if !s.tr.failure.on {
		s.notify(textUpdate("agent_message_chunk", "**Warning:** "+text, ""))
		return
	}
	s.tr.mu.Lock()
	r := s.failures.Notice(text, "")
	s.tr.mu.Unlock()
	s.notify(failureUpdate(r))
}

// providerStart lays the current model routing (providers.Router) over a
// CLI's start: its `--settings`, which Claude Code applies over the
// user's and project's settings files, and its environment.
func providerStart(a *Agent, settings string) (string, []string, error) {
	c := a.routing.Resolved()
	if c == nil {
		return settings, nil, nil
	}
	out, err := providers.Settings(settings, c)
	return out, providers.Env(c), err
}

// noConversation is how Claude Code refuses to resume a session it holds
// no conversation of.
const noConversation = "No conversation found with session ID"

// restartForProvider replaces the session's CLI with one under the
// current routing: it resumes the conversation under the same id (a
// session never prompted, which Claude Code cannot resume, then starts
// fresh under it), in the session's mode, restores its model, ultracode,
// Fast mode and effort, and publishes its config options, which the
// routing may change (its models). A session whose CLI cannot start
// again is lost (lostOnProviderUpdate).
func restartForProvider(s *Session, ctx context.Context) {
	s.mu.Lock()
	if s.closed || s.proc == nil {
		s.mu.Unlock()
		return
	}
	old, st := s.proc, s.startParams
	s.gen++ // the old CLI's last frames and its exit reach no one
	// The new CLI is a new query of the same session: its title, commands
	// and skills are published again, and its context window is known
	// only if a result confirmed it on this routing.
	s.skills.reset()
	s.titles.reset()
	s.idle.Reset()
	s.windowKnown = false
	s.mu.Unlock()
	prev := s.cfg.ConfigOptions()
	_, agentChosen := sessionconfig.AgentOf(s.cfg)
	s.mode = s.cfg.Mode()
	old.Close()
	s.tr.mu.Lock()
	s.terminalKnown, s.skillsRead = false, false
	s.tr.mu.Unlock()
	st.PermissionMode, st.ForkSession = s.mode, false
	st.Resume, st.SessionID = s.ID, ""
	err := s.spawn(ctx, st)
	if err != nil && strings.Contains(err.Error(), noConversation) {
		// Claude Code cannot resume a session never prompted: it starts
		// fresh under the same id, as the reference does after that try.
		st.Resume, st.SessionID = "", s.ID
		err = s.spawn(ctx, st)
	}
	if err != nil {
		lostOnProviderUpdate(s, err)
		return
	}
	s.mu.Lock()
	closed, proc := s.closed, s.proc
	s.mu.Unlock()
	if closed { // closed while its CLI started: that CLI is reaped too
		proc.Close()
		return
	}
	if !s.windowKnown {
		askContextUsage(ctx, s)
	}
	restoreChoices(s, ctx, prev, agentChosen)
	s.notify(s.cfg.ConfigOptionUpdate())
}

// restoredChoices are the config options a provider restart restores,
// in order: the model first (it decides which of the others exist), then
// ultracode and Fast mode, then effort (after ultracode, whose effort flag
// carries it), then the agent. The mode is the start's own.
var restoredChoices = []string{"model", "ultracode", "fast", "effort", "agent"}

// restoreChoices selects again, on the restarted CLI, each choice of the
// session's config options before it (prev) that the new ones show with
// another value; a choice the new routing does not offer is logged and
// left.
func restoreChoices(s *Session, ctx context.Context, prev json.RawMessage, agentChosen bool) {
	var paused pausedReader
	defer paused.resume()
	for _, id := range restoredChoices {
		was, ok := optionValue(prev, id)
		now, shown := optionValue(s.cfg.ConfigOptions(), id)
		// An agent the client chose is chosen again even when the picker
		// shows it: the CLI restarts as options.agent, which a choice of
		// Default overrode.
		if !ok || !shown || (string(now) == string(was) && !(id == "agent" && agentChosen)) {
			continue
		}
		plan, err := s.cfg.SetConfigOption(id, was)
		for i := 0; err == nil && i < len(plan.Requests); i++ {
			err = s.configChanges.controlBody(ctx, plan.Requests[i], &paused)
		}
		if err != nil {
			s.agent.opts.Log.Warn("could not restore a choice after a provider change", "session", s.ID, "option", id, "err", err)
			continue
		}
		s.configChanges.commitSynced(ctx, plan, &paused)
	}
}

// optionValue is the currentValue of config option id in options.
func optionValue(options json.RawMessage, id string) (json.RawMessage, bool) {
	var opts []struct {
		ID           string          `json:"id"`
		CurrentValue json.RawMessage `json:"currentValue"`
	}
	_ = json.Unmarshal(options, &opts)
	for _, o := range opts {
		if o.ID == id {
			return o.CurrentValue, true
		}
	}
	return nil, false
}

// gatewayModels keeps the models a provider's gateway listed (all when it
// listed none or was not listed).
func gatewayModels(c *providers.Config, models []sessionconfig.Model) []sessionconfig.Model {
	if c == nil || !c.Narrow {
		return models
	}
	ids := make([]providers.Model, len(models))
	for i, m := range models {
		ids[i] = providers.Model{Value: m.Value, ResolvedModel: m.ResolvedModel}
	}
	kept := providers.Narrow(ids, c.Listed, c.RegionPrefix)
	out := make([]sessionconfig.Model, 0, len(kept))
	for _, i := range kept {
		out = append(out, models[i])
	}
	return out
}

// routedGetenv reads the environment a CLI started now gets: the agent's,
// under the current model routing.
func routedGetenv(a *Agent) func(string) string {
	routed := providers.Env(a.routing.Resolved())
	return func(name string) string {
		if v, ok := envlist.Lookup(routed, name); ok {
			return v
		}
		return a.opts.Getenv(name)
	}
}

// optionsEnv is the session's `_meta.claudeCode.options.env` as KEY=VALUE
// entries, sorted by key: the SDK lays it over the agent's environment
// (strings as they are, numbers and booleans as their text; other values
// are left out).
func optionsEnv(meta json.RawMessage) []string {
	var m struct {
		ClaudeCode struct {
			Options struct {
				Env map[string]json.RawMessage `json:"env"`
			} `json:"options"`
		} `json:"claudeCode"`
	}
	if len(meta) == 0 || json.Unmarshal(meta, &m) != nil {
		return nil
	}
	var out []string
	for k, raw := range m.ClaudeCode.Options.Env {
		var str string
		switch {
		case string(raw) == "null":
			continue
		case json.Unmarshal(raw, &str) == nil:
		case len(raw) > 0 && (raw[0] == '-' || raw[0] >= '0' && raw[0] <= '9' || raw[0] == 't' || raw[0] == 'f'):
			str = string(raw)
		default:
			continue
		}
		out = append(out, k+"="+str)
	}
	slices.Sort(out)
	return out
}
