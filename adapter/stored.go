package adapter

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"time"

	"github.com/airwire/airwire/adapter/claude"
	"github.com/airwire/airwire/adapter/history"
	"github.com/airwire/airwire/adapter/mcpservers"
	"github.com/airwire/airwire/adapter/sessionindex"
	"github.com/airwire/airwire/adapter/toolcall"
	"github.com/airwire/airwire/internal/jsonrpc"
)

// Stored sessions: session/load (replay, then continue), session/resume
// (continue without replay), session/fork (copy, then continue the copy),
// session/list and session/delete, on the transcripts the Claude CLI keeps
// under $CLAUDE_CONFIG_DIR/projects.

type storedParams struct {
	SessionID  string          `json:"sessionId"`
	Cwd        string          `json:"cwd"`
	MCPServers json.RawMessage `json:"mcpServers"`
	Meta       json.RawMessage `json:"_meta,omitempty"`
}

func (a *Agent) configDir() string { return history.ConfigDir(a.opts.Getenv) }

// loadSession replays a stored session to the editor, then starts its CLI.
func (a *Agent) loadSession(ctx context.Context, req *jsonrpc.Request) (any, error) {
	return a.openStored(ctx, req, true)
}

// resumeSession continues a stored session without replaying it.
func (a *Agent) resumeSession(ctx context.Context, req *jsonrpc.Request) (any, error) {
	return a.openStored(ctx, req, false)
}

func (a *Agent) openStored(ctx context.Context, req *jsonrpc.Request, replay bool) (any, error) {
	var p storedParams
	if err := decode(req, &p); err != nil {
		return nil, err
	}
	if p.Cwd == "" || !history.ValidID(p.SessionID) {
		return nil, invalidParams("sessionId and cwd are required")
	}
	if live, err := a.session(p.SessionID); err == nil {
		return a.openLive(ctx, req, live, p, replay)
	}
	path, ok := history.Find(a.configDir(), p.SessionID)
	if !ok {
		return nil, sessionNotFound(p.SessionID)
	}
	s := a.newSessionState(p.SessionID, p.Cwd, true)
	s.index.resumed = true
	s.opened = slices.Clone(req.Params)
	if replay {
		if err := s.replay(path); err != nil {
			return nil, errReplay
		}
	}
	return a.continueStored(ctx, req, s, path, p, claude.SessionStart{Resume: p.SessionID})
}

// errReplay is the answer of a load whose transcript cannot be read.
var errReplay = &jsonrpc.WireError{Code: -32603, Message: "Internal error: cannot read the stored session"}

// continueStored starts the CLI of a stored session where its transcript
// ended (its mode and model), answers, and publishes the commands.
func (a *Agent) continueStored(ctx context.Context, req *jsonrpc.Request, s *Session, path string, p storedParams, st claude.SessionStart) (any, error) {
	tail, _ := history.ReadTail(path, true)
	if err := s.startStored(ctx, st, "", tail, p); err != nil {
		return nil, err
	}
	return a.answerOpened(req, s)
}

// startStored starts the CLI of a loaded, resumed or forked session, with
// the request's MCP servers and _meta: in explicit, the mode of a live
// session started again, else as claudesettings.Settings.StartMode
// resolves the transcript's mode; on the model its transcript's last
// answer ran on (tail).
func (s *Session) startStored(ctx context.Context, st claude.SessionStart, explicit string, tail history.Resumed, p storedParams) error {
	s.mode, s.modeBuiltIn = s.prefs.settings.StartMode(explicit, tail.PermissionMode, s.prefs.bypass(p.Meta))
	s.prefs.resumedModel = tail.Model
	st.PermissionMode, st.MCPServers, st.Meta = s.mode, newSessionParams{MCPServers: p.MCPServers}.MCPServersRaw(), p.Meta
	return s.start(ctx, st)
}

// answerOpened makes s a session of this connection, answers its load,
// resume or fork, and then publishes the refined child models and the
// commands.
func (a *Agent) answerOpened(req *jsonrpc.Request, s *Session) (any, error) {
	a.mu.Lock()
	a.sessions[s.ID] = s
	a.mu.Unlock()
	_ = a.conn.Respond(req.ID, s.cfg.Result(s.ID), nil)
	s.publishReplayedChildModels()
	s.publishCommands()
	s.publishRfdReplayModels()
	signInServers(s, mcpservers.Names(s.startParams.MCPServers))
	s.warnUnsupportedCLI()
	return nil, jsonrpc.ErrAsyncResponse
}

// replay sends the stored messages as updates, before the load's answer.
func (s *Session) replay(path string) error {
	msgs, err := history.ReadMessages(path)
	if err != nil {
		return err
	}
	render := toolcall.Renderer{Caps: s.agent.clientCaps(), Cwd: s.Cwd, Disk: s.agent.disk(), Replay: true}
	s.replayMessages(path, msgs, render)
	return nil
}

// forkSession copies a stored session and continues the copy.
func (a *Agent) forkSession(ctx context.Context, req *jsonrpc.Request) (any, error) {
	var p storedParams
	if err := decode(req, &p); err != nil {
		return nil, err
	}
	if p.Cwd == "" || !history.ValidID(p.SessionID) {
		return nil, invalidParams("sessionId and cwd are required")
	}
	upTo, err := a.forkPointRow(p)
	if err != nil {
		return nil, err
	}
	// The fork's row waits for its response (sessionindex fork holds).
	if svc := a.index.service(); svc != nil {
		svc.ForkStarted(p.SessionID)
		defer svc.ForkAnswered(p.SessionID)
	}
	id, err := history.ForkAt(a.configDir(), p.SessionID, upTo, time.Now())
	if svc := a.index.service(); svc != nil && err == nil {
		svc.ForkCreated(p.SessionID, id)
	}
	if errors.Is(err, history.ErrNotFound) {
		return nil, sessionNotFound(p.SessionID)
	}
	if err != nil {
		a.opts.Log.Error("fork failed", "session", p.SessionID, "err", err)
		return nil, jsonrpc.Errorf(jsonrpc.ErrInternal, "Internal error: cannot fork the session")
	}
	path, _ := history.Find(a.configDir(), id)
	s := a.newSessionState(id, p.Cwd, true)
	s.index.resumed = true
	s.opened = slices.Clone(req.Params)
	return a.continueStored(ctx, req, s, path, p, claude.SessionStart{Resume: id})
}

// listSessions is session/list: the session index's page for a
// sessionIndex client, else pages of stored sessions, without the archived
// ones for another AIR client (contract: "Delete and close").
func (a *Agent) listSessions(ctx context.Context, req *jsonrpc.Request) (any, error) {
	if svc := a.index.indexed(); svc != nil {
		r, err := sessionindex.ParseListRequest(req.Params)
		if err != nil {
			return nil, indexError(err)
		}
		return svc.List(r), nil
	}
	var p history.ListParams
	if len(req.Params) > 0 {
		if err := json.Unmarshal(req.Params, &p); err != nil {
			return nil, invalidParams("")
		}
	}
	page, err := history.List(a.configDir(), p)
	var pe *history.ParamsError
	if errors.As(err, &pe) {
		we := &jsonrpc.WireError{Code: jsonrpc.ErrInvalidParams.Code, Message: pe.Message}
		if pe.Data != nil {
			we.Data, _ = json.Marshal(pe.Data)
		}
		return nil, we
	}
	if err != nil {
		return nil, jsonrpc.Errorf(jsonrpc.ErrInternal, "Internal error")
	}
	if page.Sessions == nil {
		page.Sessions = []history.Listed{}
	}
	if svc := a.index.service(); svc != nil {
		hidden := svc.HiddenArchived(p.Cwd)
		page.Sessions = slices.DeleteFunc(page.Sessions, func(l history.Listed) bool { return hidden[l.SessionID] })
	}
	return page, nil
}

// deleteSession stops a live session and removes its stored transcript:
// every copy for a sessionIndex client, none for another AIR client, which
// archives it instead (contract: "Delete and close").
func (a *Agent) deleteSession(ctx context.Context, req *jsonrpc.Request) (any, error) {
	var p sessionParams
	if err := decode(req, &p); err != nil {
		return nil, err
	}
	loaded := a.closeLoaded(p.SessionID)
	if svc := a.index.indexed(); svc != nil {
		if err := svc.Delete(p.SessionID, loaded); err != nil {
			return nil, indexError(err)
		}
		return map[string]any{}, nil
	}
	if svc := a.index.service(); svc != nil {
		if err := svc.ArchiveInsteadOfDelete(p.SessionID); err != nil {
			return nil, indexError(err)
		}
		return map[string]any{}, nil
	}
	if err := history.Delete(a.configDir(), p.SessionID); err != nil {
		a.opts.Log.Error("delete failed", "session", p.SessionID, "err", err)
		return nil, jsonrpc.Errorf(jsonrpc.ErrInternal, "Internal error: cannot delete the session")
	}
	return map[string]any{}, nil
}
