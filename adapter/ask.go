package adapter

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"sync"
	"time"

	"github.com/airwire/airwire/adapter/claude"
	"github.com/airwire/airwire/adapter/permission"
	"github.com/airwire/airwire/adapter/toolcall"
	"github.com/airwire/airwire/adapter/turns"
	"github.com/airwire/airwire/internal/jsonrpc"
)

// asks are a session's editor prompts: permission requests, MCP
// elicitations and the CLI's dialogs, and the open ones a cancel withdraws.
// They reach their session through askHost.
type asks struct {
	host    askHost
	agent   *Agent
	config  *configChanges
	plans   *planResets
	tr      *translator
	fg      *turns.Foreground // the session's work awaits the user while one is open
	id, cwd string

	mu   sync.Mutex
	open map[int]*openAsk // open editor prompts
	seq  int
	// answeredAt is when the CLI last got the answer of an editor prompt.
	answeredAt time.Time
}

// openAsk is an editor prompt awaiting its answer.
type openAsk struct {
	cancel context.CancelFunc
	call   *jsonrpc.Outgoing // nil when the request could not be sent
	// done is closed once the CLI was answered.
	done chan struct{}
	// withdrawn: a cancel or close withdrew it (withdraw).
	withdrawn bool
}

// askHost is what the asks reach of their session.
type askHost interface {
	activeTurnID() string
	cancelActive() bool
}

// canUseTool answers the CLI's can_use_tool (contract: "Permission
// presentation"): the tool call goes to the editor first, then the
// permission request; the editor's answer becomes the control response.
// The request is answered asynchronously; a control_cancel_request of the
// CLI (ctx) withdraws the editor's request with $/cancel_request.
func (k *asks) canUseTool(ctx context.Context, params json.RawMessage, reply claude.Reply) {
	req, err := permission.ParseRequest(params)
	if err != nil {
		reply(nil, errors.New("malformed can_use_tool request"))
		return
	}
	toolCall := k.tr.permissionToolCall(req)
	ps := k.permissionSession()
	ps.ParentToolUseID, ps.ID = k.tr.toolUseOwner(req.AgentID, k.id)
	prompt, dec := permission.Ask(req, toolCall, ps)
	if dec != nil {
		reply(k.decided(*dec))
		return
	}
	settle := k.tr.networkSettler(req)
	k.askEditor(ctx, prompt, reply, func(dec permission.Decision) {
		k.plans.accept(req.ToolUseID, dec) // clear_context.go
		if settle != nil {
			settle(dec)
		}
	})
}

// permissionToolCall sends the tool call the request is about (when the
// editor has not seen it) and returns the tool call the request repeats.
func (t *translator) permissionToolCall(req permission.Request) json.RawMessage {
	t.mu.Lock()
	defer t.mu.Unlock()
	updates, ptc := t.tools.Permission(toolcall.PermissionRequest{ToolUseID: req.ToolUseID, ToolName: req.ToolName,
		Input: req.Input, BlockedPath: req.BlockedPath, DisplayName: req.DisplayName})
	t.sendAll(updates)
	raw, _ := json.Marshal(ptc)
	return raw
}

// toolUseOwner is who asks for a subagent's tool use (agentID, the CLI's
// agent_id: the subagent's task id; "" for the main agent): the parent
// tool use that started the subagent, and the session the request goes to,
// the subagent's child session once announced (contract "Native subagent
// sessions": the child's interactions are on the child session), else
// root.
func (t *translator) toolUseOwner(agentID, root string) (parent, sessionID string) {
	if agentID == "" {
		return "", root
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if task := t.bg.tasks[agentID]; task != nil {
		parent = task.toolUseID
	}
	if sessionID, ok := t.sub.ChildSession(agentID); ok {
		return parent, sessionID
	}
	return parent, root
}

func (k *asks) permissionSession() permission.Session {
	home, _ := os.UserHomeDir()
	if h := k.agent.opts.Getenv("HOME"); h != "" {
		home = h
	}
	used, window := k.tr.contextOccupancy()
	c := k.agent.clientCaps()
	return permission.Session{ID: k.id, Cwd: k.cwd, Home: home, Client: c,
		Modes: []string{"default", "acceptEdits", "plan", "auto", "bypassPermissions"},
		// A fresh context continues the turn that owns the request; a client
		// whose turns end with live subagents can be asked out of a turn.
		NoContextReset: c.AIR.Has(backgroundSubagents) && k.host.activeTurnID() == "",
		ContextUsed:    used, ContextWindow: window,
		AutoUnavailable: k.config.host.config() != nil && k.config.host.config().CurrentModel().AutoUnavailable()}
}

// askEditor puts the prompt to the editor and answers the CLI with the
// decision its answer makes; answered, when set, sees the decision of an
// answer before the CLI does, once the request is closed. The request is written before askEditor
// returns, in its place among the updates of the CLI's frames (the
// reference sends it as it reads the control request); the answer is
// awaited in the background.
func (k *asks) askEditor(ctx context.Context, prompt *permission.Prompt, reply claude.Reply, answered func(permission.Decision)) {
	ctx, cancel := context.WithCancel(ctx)
	awaited := k.tr.awaitUser(prompt.Params) // subagents.go
	key, done, call, err := k.start(prompt, cancel)
	go func() {
		var result json.RawMessage
		if err == nil {
			err = call.Wait(ctx, &result)
		}
		var dec permission.Decision
		var we *jsonrpc.WireError
		switch {
		case err == nil:
			dec = prompt.Answer(k.agent.v2.Load().answer(prompt.Method, result))
		case errors.As(err, &we):
			dec = prompt.Fail(we.Message)
		default:
			dec = prompt.Aborted()
		}
		aborted := err != nil && !errors.As(err, &we)
		awaited(aborted)
		// The work runs again (v2: state running) before what the answer
		// settles is reported, as the reference does.
		k.fg.RequestClosed(k.withdrawn(key))
		if err == nil && answered != nil {
			answered(dec)
		}
		reply(k.decided(dec))
		k.untrack(key, done, !aborted)
	}()
}

// start sends the prompt's request to the editor and registers it as
// open, so a session/cancel or close can withdraw it; done is closed once
// the CLI was answered. Both happen under k.mu: a withdraw sees the request
// whenever the editor could have answered it.
func (k *asks) start(prompt *permission.Prompt, cancel context.CancelFunc) (key int, done chan struct{}, call *jsonrpc.Outgoing, err error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.fg.RequestOpened()
	call, err = k.agent.v2.Load().request(k.agent.conn, prompt.Method, prompt.Params)
	if k.open == nil {
		k.open = map[int]*openAsk{}
	}
	k.seq++
	done = make(chan struct{})
	k.open[k.seq] = &openAsk{cancel: cancel, call: call, done: done}
	return k.seq, done, call, err
}

// withdrawn reports whether a cancel or close withdrew open prompt key.
func (k *asks) withdrawn(key int) bool {
	k.mu.Lock()
	defer k.mu.Unlock()
	a := k.open[key]
	return a != nil && a.withdrawn
}

// untrack forgets an open prompt once the CLI got its decision; byEditor:
// the decision is the editor's answer.
func (k *asks) untrack(key int, done chan struct{}, byEditor bool) {
	k.mu.Lock()
	a := k.open[key]
	delete(k.open, key)
	if byEditor {
		k.answeredAt = time.Now()
	}
	k.mu.Unlock()
	close(done)
	if a != nil {
		a.cancel()
	}
}

// answerLead is how long an interrupt waits after the answers the editor
// gave just before its session/cancel reached the CLI. The CLI settles an
// answer a moment after it reads it, while it acts on an interrupt read in
// the same chunk at once: the reference's interrupt trails such answers by
// a few milliseconds, so the CLI settles them by the answer.
const answerLead = 10 * time.Millisecond

// withdraw cancels every open editor prompt: each settles as aborted,
// except one the editor already answered, which settles by its answer.
// The returned func waits until the CLI got those answers, and answerLead
// after the last answer it got: an editor that answers its prompts
// cancelled as it sends session/cancel (Zed) has them reach the CLI, and
// settle there, before the interrupt, as the reference's do.
func (k *asks) withdraw() (answered func()) {
	k.mu.Lock()
	open := make([]*openAsk, 0, len(k.open))
	for _, a := range k.open {
		a.withdrawn = true
		open = append(open, a)
	}
	k.mu.Unlock()
	var wait []chan struct{}
	for _, a := range open {
		if a.call != nil && a.call.Arrived() {
			wait = append(wait, a.done)
		}
		a.cancel()
	}
	return func() {
		for _, d := range wait {
			<-d
		}
		k.mu.Lock()
		since := time.Since(k.answeredAt)
		k.mu.Unlock()
		if since < answerLead {
			time.Sleep(answerLead - since)
		}
	}
}

// decided turns a decision into the control response, and acts on what it
// says besides (Auto mode that fell back, a mode an approved plan moved
// to, an intended interrupt).
func (k *asks) decided(dec permission.Decision) (any, error) {
	if dec.AutoFallback {
		for _, u := range k.config.host.config().AutoFallback().Notice() {
			k.config.host.notify(u)
		}
	}
	if dec.Mode != "" {
		k.config.adoptMode(dec.Mode)
	}
	if dec.Interrupt && dec.ClearContextMode == "" {
		k.host.cancelActive() // "keep planning" ends the turn; a clear context continues it
	}
	if dec.Error != "" {
		return nil, errors.New(dec.Error)
	}
	return dec.Response, nil
}

// elicitation answers an MCP server's elicitation through the editor.
func (k *asks) elicitation(ctx context.Context, params json.RawMessage, reply claude.Reply) {
	e, err := permission.ParseMCPElicitation(params)
	if err != nil {
		reply(nil, errors.New("malformed elicitation request"))
		return
	}
	prompt, dec := permission.AskMCP(e, k.id, k.agent.clientCaps())
	if dec != nil {
		reply(k.decided(*dec))
		return
	}
	k.askEditor(ctx, prompt, reply, nil)
}

// userDialog answers a dialog the CLI asks the host to show
// (request_user_dialog): the refusal-fallback consent goes to the editor as
// a form elicitation; any other kind, or a payload it cannot read, is
// answered cancelled at once (the CLI keeps its default, the refusal).
func (k *asks) userDialog(ctx context.Context, params json.RawMessage, reply claude.Reply) {
	d, err := permission.ParseUserDialog(params)
	if err != nil {
		reply(nil, errors.New("malformed request_user_dialog request"))
		return
	}
	prompt, dec, bad := permission.AskDialog(d, k.id, k.agent.clientCaps())
	if bad {
		k.agent.opts.Log.Error("refusal_fallback_prompt payload had an unexpected shape; cancelling the dialog",
			"session", k.id, "payload", string(d.Payload))
	}
	if dec != nil {
		reply(k.decided(*dec))
		return
	}
	k.askEditor(ctx, prompt, reply, nil)
}

// networkSettler returns what settles the tool call of a Sandbox Network
// request once the editor answered it: the request only asks and runs
// nothing, so no tool_result ever ends its call, which the permission
// request showed (contract "Permission presentation"). It is nil for any
// other request.
func (t *translator) networkSettler(req permission.Request) func(permission.Decision) {
	if req.ToolName != "SandboxNetworkAccess" {
		return nil
	}
	return func(dec permission.Decision) {
		if dec.Error != "" {
			return
		}
		status := "failed"
		if dec.Allow {
			status = "completed"
		}
		t.mu.Lock()
		defer t.mu.Unlock()
		t.s.notify(map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": req.ToolUseID, "status": status})
	}
}
