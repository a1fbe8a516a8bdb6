package adapter

import (
	"context"
	"encoding/json"
	"errors"
	"os"

	"github.com/airwire/airwire/adapter/claude"
	"github.com/airwire/airwire/adapter/permission"
	"github.com/airwire/airwire/adapter/toolcall"
	"github.com/airwire/airwire/internal/jsonrpc"
)

// canUseTool answers the CLI's can_use_tool (contract: "Permission
// presentation"): the tool call goes to the editor first, then the
// permission request; the editor's answer becomes the control response.
// The request is answered asynchronously; a control_cancel_request of the
// CLI (ctx) withdraws the editor's request with $/cancel_request.
func (s *Session) canUseTool(ctx context.Context, params json.RawMessage, reply claude.Reply) {
	req, err := permission.ParseRequest(params)
	if err != nil {
		reply(nil, errors.New("malformed can_use_tool request"))
		return
	}
	toolCall := s.tr.permissionToolCall(req)
	ps := s.permissionSession()
	ps.ParentToolUseID, ps.ID = s.tr.toolUseOwner(req.AgentID, s.ID)
	prompt, dec := permission.Ask(req, toolCall, ps)
	if dec != nil {
		reply(s.decided(*dec))
		return
	}
	settle := s.tr.networkSettler(req)
	s.askEditor(ctx, prompt, reply, func(dec permission.Decision) {
		s.acceptPlanReset(req.ToolUseID, dec) // clear_context.go
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

func (s *Session) permissionSession() permission.Session {
	home, _ := os.UserHomeDir()
	if h := s.agent.opts.Getenv("HOME"); h != "" {
		home = h
	}
	used, window := s.tr.contextOccupancy()
	c := s.agent.clientCaps()
	return permission.Session{ID: s.ID, Cwd: s.Cwd, Home: home, Client: c,
		Modes: []string{"default", "acceptEdits", "plan", "auto", "bypassPermissions"},
		// A fresh context continues the turn that owns the request; a client
		// whose turns end with live subagents can be asked out of a turn.
		NoContextReset: c.AIR.Has(backgroundSubagents) && s.activeTurnID() == "",
		ContextUsed:    used, ContextWindow: window}
}

// askEditor puts the prompt to the editor and answers the CLI with the
// decision its answer makes; answered, when set, sees the decision of an
// answer before the CLI does. The request is written before askEditor
// returns, in its place among the updates of the CLI's frames (the
// reference sends it as it reads the control request); the answer is
// awaited in the background.
func (s *Session) askEditor(ctx context.Context, prompt *permission.Prompt, reply claude.Reply, answered func(permission.Decision)) {
	ctx, cancel := context.WithCancel(ctx)
	key := s.trackAsk(cancel)
	awaited := s.tr.awaitUser(prompt.Params) // subagents.go
	call, err := s.agent.conn.Start(prompt.Method, prompt.Params)
	go func() {
		defer s.untrackAsk(key)
		var result json.RawMessage
		if err == nil {
			err = call.Wait(ctx, &result)
		}
		var dec permission.Decision
		var we *jsonrpc.WireError
		switch {
		case err == nil:
			dec = prompt.Answer(result)
			if answered != nil {
				answered(dec)
			}
		case errors.As(err, &we):
			dec = prompt.Fail(we.Message)
		default:
			dec = prompt.Aborted()
		}
		awaited(err != nil && !errors.As(err, &we))
		reply(s.decided(dec))
	}()
}

// trackAsk registers an open editor prompt, so a session/cancel or close
// can withdraw it.
func (s *Session) trackAsk(cancel context.CancelFunc) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.asks == nil {
		s.asks = map[int]context.CancelFunc{}
	}
	s.askSeq++
	s.asks[s.askSeq] = cancel
	return s.askSeq
}

func (s *Session) untrackAsk(key int) {
	s.mu.Lock()
	cancel := s.asks[key]
	delete(s.asks, key)
	s.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

// withdrawAsks cancels every open editor prompt: each settles as aborted.
func (s *Session) withdrawAsks() {
	s.mu.Lock()
	open := make([]context.CancelFunc, 0, len(s.asks))
	for _, c := range s.asks {
		open = append(open, c)
	}
	s.mu.Unlock()
	for _, c := range open {
		c()
	}
}

// decided turns a decision into the control response, and acts on what it
// says besides (a mode an approved plan moved to, an intended interrupt).
func (s *Session) decided(dec permission.Decision) (any, error) {
	if dec.Mode != "" {
		s.adoptMode(dec.Mode)
	}
	if dec.Interrupt && dec.ClearContextMode == "" {
		s.cancelActive() // "keep planning" ends the turn; a clear context continues it
	}
	if dec.Error != "" {
		return nil, errors.New(dec.Error)
	}
	return dec.Response, nil
}

// elicitation answers an MCP server's elicitation through the editor.
func (s *Session) elicitation(ctx context.Context, params json.RawMessage, reply claude.Reply) {
	e, err := permission.ParseMCPElicitation(params)
	if err != nil {
		reply(nil, errors.New("malformed elicitation request"))
		return
	}
	prompt, dec := permission.AskMCP(e, s.ID, s.agent.clientCaps())
	if dec != nil {
		reply(s.decided(*dec))
		return
	}
	s.askEditor(ctx, prompt, reply, nil)
}

// userDialog answers a dialog the CLI asks the host to show
// (request_user_dialog): the refusal-fallback consent goes to the editor as
// a form elicitation; any other kind, or a payload it cannot read, is
// answered cancelled at once (the CLI keeps its default, the refusal).
func (s *Session) userDialog(ctx context.Context, params json.RawMessage, reply claude.Reply) {
	d, err := permission.ParseUserDialog(params)
	if err != nil {
		reply(nil, errors.New("malformed request_user_dialog request"))
		return
	}
	prompt, dec, bad := permission.AskDialog(d, s.ID, s.agent.clientCaps())
	if bad {
		s.agent.opts.Log.Error("refusal_fallback_prompt payload had an unexpected shape; cancelling the dialog",
			"session", s.ID, "payload", string(d.Payload))
	}
	if dec != nil {
		reply(s.decided(*dec))
		return
	}
	s.askEditor(ctx, prompt, reply, nil)
}
