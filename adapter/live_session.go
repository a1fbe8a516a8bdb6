package adapter

import (
	"context"
	"slices"

	"github.com/airwire/airwire/adapter/claude"
	"github.com/airwire/airwire/adapter/history"
	"github.com/airwire/airwire/internal/jsonrpc"
)

// A session/load or session/resume of a session that is live in this agent
// (opened by session/new, a fork, or an earlier load or resume) starts no
// second CLI when its session-defining params are the ones the session was
// opened with: a load replays the history into the running session, and
// both answer with the live session's modes and config options. Other
// params restart the session: its CLI is torn down and a new one resumes
// the conversation in the live permission mode (contract: "Session fork
// point").

// openLive is a load (replay) or resume of the live session live.
func (a *Agent) openLive(ctx context.Context, req *jsonrpc.Request, live *Session, p storedParams, replay bool) (any, error) {
	path, stored := history.Find(a.configDir(), p.SessionID)
	if sessionFingerprint(req.Params) != sessionFingerprint(live.opened) {
		return a.recreateLive(ctx, req, live, p, path, stored, replay)
	}
	if replay && stored {
		if err := live.replay(path); err != nil {
			return nil, errReplay
		}
	}
	return a.answerOpened(req, live)
}

// recreateLive tears live down and starts its session again with the
// request's params, in the live permission mode: resuming its stored
// conversation, or, for a session never prompted (nothing stored yet), as
// a fresh CLI under the same id. A load then replays the history.
func (a *Agent) recreateLive(ctx context.Context, req *jsonrpc.Request, live *Session, p storedParams, path string, stored, replay bool) (any, error) {
	mode := live.cfg.Mode()
	live.stopTurn(ctx)
	a.closeLoaded(live.ID)
	s := a.newSessionState(p.SessionID, p.Cwd, stored)
	s.index.resumed = stored
	s.opened = slices.Clone(req.Params)
	st := claude.SessionStart{Resume: p.SessionID}
	if !stored {
		st = claude.SessionStart{SessionID: p.SessionID}
	}
	if err := s.startStored(ctx, st, mode, p); err != nil {
		return nil, err
	}
	if replay && stored {
		if err := s.replay(path); err != nil {
			s.Close()
			return nil, errReplay
		}
	}
	return a.answerOpened(req, s)
}
