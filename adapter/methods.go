package adapter

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/airwire/airwire/adapter/sessionfailure"

	"github.com/airwire/airwire/adapter/acpv2"
	"github.com/airwire/airwire/adapter/agentinfo"
	"github.com/airwire/airwire/adapter/caps"
	"github.com/airwire/airwire/adapter/claude"
	"github.com/airwire/airwire/adapter/claudesettings"
	"github.com/airwire/airwire/adapter/history"
	"github.com/airwire/airwire/adapter/mcpservers"
	"github.com/airwire/airwire/adapter/permission"
	"github.com/airwire/airwire/adapter/providers"
	"github.com/airwire/airwire/adapter/toolcall"
	"github.com/airwire/airwire/adapter/usage"
	"github.com/airwire/airwire/internal/envlist"
	"github.com/airwire/airwire/internal/jsonrpc"
	"github.com/airwire/airwire/internal/uuid"
)

// initialize negotiates the ACP version (acpv2.Protocols: a client that
// asks for 2 or later gets the draft v2 unless only v1 is served), builds
// the one caps.Client of the connection and answers with the agent's
// capabilities, in the negotiated version's shape.
func (a *Agent) initialize(ctx context.Context, req *jsonrpc.Request) (any, error) {
	var p acpv2.InitializeParams
	if err := decode(req, &p); err != nil {
		return nil, err
	}
	protocols := cmp.Or(a.opts.Protocols, acpv2.Auto)
	requested, known := p.Requested()
	version, ok := protocols.Select(requested)
	switch {
	case (!ok || !known) && protocols == acpv2.V2:
		return nil, protocols.UnsupportedVersion(requested)
	case !ok || !known:
		version = 1 // v1 reads no version
	}
	declared := p.ClientCapabilities
	if known && requested >= 2 {
		declared = p.V1ClientCapabilities(version == 2)
	}
	c := caps.Parse(declared)
	c.V2 = version == 2
	c.TerminalOutput = c.TerminalOutput || c.V2 // a v2 client shows display terminals
	a.mu.Lock()
	a.client = c
	a.mu.Unlock()
	result := a.initializeResult(c)
	if c.V2 {
		a.v2.CompareAndSwap(nil, &v2Conn{a: a})
		v2, err := acpv2.InitializeResponse(result)
		if err != nil {
			return nil, err
		}
		result = v2
	}
	_ = a.conn.Respond(req.ID, result, nil)
	a.probeAuth(false)
	return nil, jsonrpc.ErrAsyncResponse
}

type newSessionParams struct {
	Cwd        string          `json:"cwd"`
	MCPServers json.RawMessage `json:"mcpServers"`
	Meta       json.RawMessage `json:"_meta,omitempty"`
}

// MCPServersRaw is the editor's MCP server list ([] when absent).
func (p newSessionParams) MCPServersRaw() json.RawMessage {
	if len(p.MCPServers) == 0 || string(p.MCPServers) == "null" {
		return json.RawMessage("[]")
	}
	return p.MCPServers
}

// newSession starts a CLI for a new session and answers once it is ready.
func (a *Agent) newSession(ctx context.Context, req *jsonrpc.Request) (any, error) {
	var p newSessionParams
	if err := decode(req, &p); err != nil {
		return nil, err
	}
	if p.Cwd == "" {
		return nil, invalidParams("cwd is required")
	}
	s := a.newSessionState(uuid.New(), p.Cwd, false)
	s.mode, s.modeBuiltIn = s.prefs.settings.StartMode("", "", s.prefs.bypass(p.Meta))
	s.opened = slices.Clone(req.Params)
	if err := s.start(ctx, claude.SessionStart{SessionID: s.ID, PermissionMode: s.mode, MCPServers: p.MCPServersRaw(), Meta: p.Meta}); err != nil {
		return nil, err
	}
	a.mu.Lock()
	a.sessions[s.ID] = s
	a.mu.Unlock()
	_ = a.conn.Respond(req.ID, s.cfg.Result(s.ID), nil)
	s.publishCommands()
	signInServers(s, mcpservers.Names(p.MCPServers))
	s.warnUnsupportedCLI()
	return nil, jsonrpc.ErrAsyncResponse
}

// signInServers signs in, in the background, the servers among names that
// Claude Code reports need OAuth, for a client that takes URL elicitations
// (adapter/mcpservers): after a session's setup answer, and after a
// `/mcp` reconnect.
func signInServers(s *Session, names []string) {
	if !s.agent.clientCaps().URLElicit || len(names) == 0 {
		return
	}
	if p := s.cli(); p != nil {
		s.signIn.Start(mcpservers.CLI(p), names)
	}
}

// signInEditor is the editor side of a sign-in: the URL elicitation and
// its completion, in the connection's ACP version.
type signInEditor struct{ a *Agent }

func (e signInEditor) ElicitURL(ctx context.Context, p mcpservers.URLElicitation) (string, error) {
	params, _ := json.Marshal(p)
	v := e.a.v2.Load()
	call, err := v.request(e.a.conn, permission.MethodCreateElicitation, params)
	if err != nil {
		return "", err
	}
	var result json.RawMessage
	if err := call.Wait(ctx, &result); err != nil {
		return "", err
	}
	var answer struct {
		Action string `json:"action"`
	}
	_ = json.Unmarshal(v.answer(permission.MethodCreateElicitation, result), &answer)
	return answer.Action, nil
}

func (e signInEditor) Complete(id string) {
	_ = e.a.conn.Notify("elicitation/complete", map[string]any{"elicitationId": id})
}

// newSessionState makes a Session that has no CLI yet.
func (a *Agent) newSessionState(id, cwd string, resumed bool) *Session {
	c := a.clientCaps()
	read := func() claudesettings.Settings { return claudesettings.Read(a.configDir(), cwd) }
	s := &Session{ID: id, Cwd: cwd, agent: a, failures: sessionfailure.New(id), fileChanges: newFileChanges(c, cwd),
		prefs: sessionPrefs{settings: read(), read: read, getenv: a.opts.Getenv}}
	s.fg.Report = a.v2.Load().foreground(id)
	s.idle = newIdleCompaction(s)
	tools := toolcall.NewSession(c, cwd)
	tools.UseDisk(a.disk())
	s.titles.host, s.titles.index, s.goal.host = s, &s.index, s
	s.titles.stat = func() (history.Info, bool) { return history.Stat(a.configDir(), id) }
	s.goal.caps = a.clientCaps
	s.asks = asks{host: s, agent: a, id: id, cwd: cwd}
	s.tr = newTranslator(s, tools, usage.NewTracker(usage.Window{Size: usage.DefaultWindow}, resumed))
	s.asks.tr, s.asks.fg = s.tr, &s.fg
	s.skills = skills{host: s, agent: a, id: id, cwd: cwd}
	if s.fileChanges != nil {
		s.fileChanges.host, s.fileChanges.log, s.fileChanges.id = s, a.opts.Log, id
	}
	s.configChanges = configChanges{host: s, agent: a, tr: s.tr, id: id}
	s.signIn.SessionID, s.signIn.Log, s.signIn.Editor = id, a.opts.Log, signInEditor{a}
	s.signIn.Current = func(c mcpservers.Control) bool { return c == mcpservers.CLI(s.cli()) }
	s.asks.config, s.asks.plans = &s.configChanges, &s.plans
	s.tr.usage.OnWindow(func(model string, size int) { a.windows.learn(windowKey(routedGetenv(a), model), size) })
	return s
}

// disk is what the tool call rendering reads (the AIR diff patch, plan
// file and skill path), with the agent's HOME.
func (a *Agent) disk() *toolcall.Disk {
	d := toolcall.OSDisk()
	if h := a.opts.Getenv("HOME"); h != "" {
		d.Home = h
	}
	return d
}

type sessionParams struct {
	SessionID string `json:"sessionId"`
}

// cancel interrupts the session's turn; it ends with stopReason cancelled.
func (a *Agent) cancel(ctx context.Context, req *jsonrpc.Request) (any, error) {
	var p sessionParams
	if err := decode(req, &p); err != nil {
		return nil, err
	}
	s, err := a.session(p.SessionID)
	if err != nil {
		if a.cancelChildSession(ctx, p.SessionID) {
			return nil, nil
		}
		return nil, err
	}
	s.idle.Disarm("cancel")
	s.interrupt(ctx)
	return nil, nil
}

// interrupt cancels the session's turns and sends the CLI the interrupt:
// the prompts it has not started end at once and are withdrawn from its
// queue first (abandonQueued), the one under way ends at its result.
func (s *Session) interrupt(ctx context.Context) {
	s.tr.toolCallsCancelled()
	abandoned := s.tr.abandonQueued()
	if !s.cancelActive() && len(abandoned) == 0 {
		return
	}
	s.tr.interruptCompaction()
	answered := s.asks.withdraw()
	go func() {
		answered()
		cli := s.cli()
		for _, uuid := range abandoned {
			_ = cli.Post(claude.CancelAsyncMessage{MessageUUID: uuid})
		}
		_ = cli.Request(context.WithoutCancel(ctx), claude.Interrupt{}, nil)
	}()
}

// closeSession ends a session and reaps its CLI; its turns end first, as
// a cancel ends them (closeTurns). Closing a session that is not open here
// (closed already, or never) succeeds and does nothing, as the reference
// does and ACP asks of an agent.
func (a *Agent) closeSession(ctx context.Context, req *jsonrpc.Request) (any, error) {
	var p sessionParams
	if err := decode(req, &p); err != nil {
		return nil, err
	}
	s, err := a.session(p.SessionID)
	if err != nil {
		return map[string]any{}, nil
	}
	s.closeTurns()
	a.mu.Lock()
	delete(a.sessions, p.SessionID)
	a.mu.Unlock()
	s.Close()
	return map[string]any{}, nil
}

// closeRead is the editor connection's preview (jsonrpc.WithPreview): a
// session/close detaches its session's CLI the moment it is read, as the
// reference's teardown detaches it before it reads on, so a reply the
// editor sends with the close (a permission settled cancelled) cannot
// bring back a CLI line that the close ends (closeTurns). A function, not
// a method: the Agent keeps its method count small.
func closeRead(a *Agent) func(*jsonrpc.Request) {
	return func(req *jsonrpc.Request) {
		if req.Method != "session/close" {
			return
		}
		var p sessionParams
		if json.Unmarshal(req.Params, &p) != nil {
			return
		}
		if s, err := a.session(p.SessionID); err == nil {
			detach(s)
		}
	}
}

func sprintf(f string, a ...any) string { return fmt.Sprintf(f, a...) }

// Client-managed model routing (ACP `providers/list`, `providers/set`,
// `providers/disable`; the state and the update queue are
// providers.Router): the agent has one provider, "main", routed by Claude
// Code itself until the client sets it. A change answers once every live
// session runs under it (restartForProvider). Functions, not methods: the
// Agent keeps its method count small.

// providerMethod is the provider method name serves, in ACP v1 and v2
// alike (nil for another name).
func providerMethod(name string) method {
	switch name {
	case "providers/list":
		return listProviders
	case "providers/set":
		return setProvider
	case "providers/disable":
		return disableProvider
	}
	return nil
}

// listProviders answers providers/list.
func listProviders(a *Agent, _ context.Context, _ *jsonrpc.Request) (any, error) {
	return a.routing.List(func(k string) (string, bool) { return envlist.Lookup(a.opts.Environ, k) }), nil
}

// setProvider answers providers/set once the gateway's models are listed
// and every live session runs under the new routing.
func setProvider(a *Agent, _ context.Context, req *jsonrpc.Request) (any, error) {
	cfg, err := providers.ParseSet(req.Params)
	if err != nil {
		return nil, providerParamsError(err)
	}
	updateProvider(a, req.ID, &cfg)
	return nil, jsonrpc.ErrAsyncResponse
}

// disableProvider gives "main" back to Claude Code's own routing; an
// unknown provider id changes nothing and succeeds.
func disableProvider(a *Agent, _ context.Context, req *jsonrpc.Request) (any, error) {
	var p struct {
		ProviderID string `json:"providerId"`
	}
	if err := decode(req, &p); err != nil {
		return nil, err
	}
	if p.ProviderID != providers.ID {
		return map[string]any{}, nil
	}
	updateProvider(a, req.ID, nil)
	return nil, jsonrpc.ErrAsyncResponse
}

// updateProvider moves the agent to cfg in the background (the update
// waits for turns, which the editor's messages end) and answers id. The
// agent's background context bounds it: a listing stops at shutdown.
func updateProvider(a *Agent, id json.RawMessage, cfg *providers.Config) {
	ticket := a.routing.Begin()
	a.bgWork.Add(1)
	go func() {
		defer a.bgWork.Done()
		if err := a.routing.Update(a.bg, ticket, cfg, liveRestarts(a)); err != nil {
			_ = a.conn.Respond(id, nil, providerUpdateError(err))
			return
		}
		_ = a.conn.Respond(id, map[string]any{}, nil)
	}()
}

// providerParamsError is the -32602 of a refused providers/set or gateway
// payload, with the data the reference sends.
func providerParamsError(err error) error {
	var pe *providers.ParamError
	if !errors.As(err, &pe) {
		return invalidParams("")
	}
	we := invalidParams(pe.Message)
	if pe.Data != nil {
		we.Data, _ = json.Marshal(pe.Data)
	}
	return we
}

// providerUpdateError is the -32603 of a failed update: a model listing
// that failed names the provider and the gateway.
func providerUpdateError(err error) error {
	var de *providers.DiscoveryError
	if !errors.As(err, &de) {
		return jsonrpc.Errorf(jsonrpc.ErrInternal, "Internal error")
	}
	data, _ := json.Marshal(map[string]string{"providerId": providers.ID, "apiType": de.Config.APIType, "baseUrl": de.Config.BaseURL})
	return &jsonrpc.WireError{Code: jsonrpc.ErrInternal.Code, Message: "Internal error: " + de.Error(), Data: data}
}

// liveRestarts lists the agent's open sessions for a provider update.
func liveRestarts(a *Agent) func() []providers.Session {
	return func() []providers.Session {
		a.mu.Lock()
		defer a.mu.Unlock()
		out := make([]providers.Session, 0, len(a.sessions))
		for _, s := range a.sessions {
			out = append(out, providerRestart{s})
		}
		return out
	}
}

// providerRestart is a session as a provider update sees it.
type providerRestart struct{ s *Session }

func (r providerRestart) Busy() bool {
	r.s.mu.Lock()
	defer r.s.mu.Unlock()
	return len(r.s.turns) > 0
}

func (r providerRestart) Restart(ctx context.Context) { restartForProvider(r.s, ctx) }

// gatewayLogin serves authenticate's gateway methods: a valid payload
// routes later sessions through the gateway, which now owns the
// credentials; a call without one succeeds and routes nothing.
func gatewayLogin(a *Agent, params json.RawMessage) (handled bool, err error) {
	cfg, ok, err := providers.Gateway(params)
	if !ok {
		return false, nil
	}
	if err != nil {
		return true, providerParamsError(err)
	}
	setAuthStatus(a, agentinfo.Gateway(a.routing.SetGateway(cfg)))
	return true, nil
}
