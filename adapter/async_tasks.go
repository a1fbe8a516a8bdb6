package adapter

import (
	"context"

	"github.com/airwire/airwire/adapter/asynctasks"
	"github.com/airwire/airwire/adapter/caps"
	"github.com/airwire/airwire/adapter/claude"
	"github.com/airwire/airwire/internal/jsonrpc"
)

// Contract "Async tasks" lives in adapter/asynctasks; this file wires it
// to the session: its host, the frames and the CLI's end under the
// translator's lock, and the `_session/async_task/stop` request.

// asyncTasksHost is the session side of a session's async tasks.
type asyncTasksHost struct {
	send    func(update any)
	routeOf func(toolCallID string) (send func(update any), ok bool)
}

func (h asyncTasksHost) Send(update any) { h.send(update) }

func (h asyncTasksHost) RouteOf(toolCallID string) (func(update any), bool) {
	return h.routeOf(toolCallID)
}

// newSessionAsyncTasks is the async task registry of t's session: its
// updates go to the session, those of a task that a subagent's tool call
// started to the subagent's session.
func newSessionAsyncTasks(t *translator, c caps.Client) *asynctasks.Tasks {
	return asynctasks.New(c, asyncTasksHost{send: t.s.notify, routeOf: t.sub.RouteOfCall})
}

// asyncHead is what the async tasks read of a frame's head.
func asyncHead(h frameHead) asynctasks.Head {
	return asynctasks.Head{Type: h.Type, Subtype: h.Subtype, Root: h.Parent == nil}
}

// cliEnded finishes every open task when the CLI ends on its own
// (contract "Liveness"): stopped after a cancel, else failed.
func (t *translator) cliEnded(cancelled bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.async.CLIEnded(cancelled)
	t.sendAll(t.bg.terminals.cliClosed())
	t.sendAll(t.bg.work.Closed())
	syncLists(t)
}

// shutdownSession ends s as the agent exits because the editor went away:
// every async task still open ends stopped (contract "Async tasks >
// Liveness"), then Close.
func shutdownSession(s *Session) {
	if !s.isClosed() {
		s.tr.mu.Lock()
		s.tr.async.Shutdown()
		s.tr.mu.Unlock()
	}
	s.Close()
}

// asyncTaskStopMethod is the editor's stop request (contract "Stop
// request").
const asyncTaskStopMethod = "_session/async_task/stop"

type asyncTaskStopParams struct {
	SessionID   string `json:"sessionId"`
	AsyncTaskID string `json:"asyncTaskId"`
}

// stopAsyncTask answers `_session/async_task/stop`: the CLI's stop_task
// between the registry's claim and its stopped state.
func (a *Agent) stopAsyncTask(ctx context.Context, req *jsonrpc.Request) (any, error) {
	var p asyncTaskStopParams
	if err := decode(req, &p); err != nil {
		return nil, err
	}
	notStopped := map[string]bool{"stopped": false}
	s, err := a.session(p.SessionID)
	if err != nil {
		return notStopped, nil
	}
	r, t := s.tr.async, s.tr
	t.mu.Lock()
	claimed := r.ClaimStop(p.AsyncTaskID)
	t.mu.Unlock()
	if !claimed {
		return notStopped, nil
	}
	if err := s.cli().Request(context.WithoutCancel(ctx), claude.StopTask{TaskID: p.AsyncTaskID}, nil); err != nil {
		t.mu.Lock()
		r.ReleaseStop(p.AsyncTaskID)
		t.mu.Unlock()
		return nil, err
	}
	t.mu.Lock()
	r.Stopped(p.AsyncTaskID)
	t.mu.Unlock()
	return map[string]bool{"stopped": true}, nil
}
