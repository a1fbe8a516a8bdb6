package adapter

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/airwire/airwire/adapter/claude"
	"github.com/airwire/airwire/adapter/sessionconfig"
	"github.com/airwire/airwire/internal/jsonrpc"
)

// configChanges send a session's mode and config option changes to its
// CLI and tell the editor of them, and adopt a mode the CLI moved to. They
// reach their session through configHost.
type configChanges struct {
	host  configHost
	agent *Agent
	tr    *translator
	id    string
}

// configHost is what config changes reach of their session.
type configHost interface {
	cli() *claude.Process
	notify(update any)
	config() *sessionconfig.Session
}

// config is the session's modes and config options.
func (s *Session) config() *sessionconfig.Session { return s.cfg }

type setModeParams struct {
	SessionID string `json:"sessionId"`
	ModeID    string `json:"modeId"`
}

// setMode changes the permission mode: the CLI first, then the editor.
func (a *Agent) setMode(ctx context.Context, req *jsonrpc.Request) (any, error) {
	var p setModeParams
	if err := decode(req, &p); err != nil {
		return nil, err
	}
	s, err := a.session(p.SessionID)
	if err != nil {
		return nil, err
	}
	plan, err := s.cfg.SetMode(p.ModeID)
	return s.configChanges.apply(ctx, req, plan, err)
}

type setConfigParams struct {
	SessionID string          `json:"sessionId"`
	ConfigID  string          `json:"configId"`
	Value     json.RawMessage `json:"value"`
}

// setConfigOption changes one config option (mode, model, effort, …).
func (a *Agent) setConfigOption(ctx context.Context, req *jsonrpc.Request) (any, error) {
	var p setConfigParams
	if err := decode(req, &p); err != nil {
		return nil, err
	}
	s, err := a.session(p.SessionID)
	if err != nil {
		return nil, err
	}
	plan, err := s.cfg.SetConfigOption(p.ConfigID, p.Value)
	return s.configChanges.apply(ctx, req, plan, err)
}

// apply sends a planned change's control requests to the CLI in order,
// then publishes its updates, answers the editor, and sends what follows
// the answer. The editor's request is answered asynchronously, because the
// CLI round trips must not hold up the editor's other messages.
func (c *configChanges) apply(ctx context.Context, req *jsonrpc.Request, plan sessionconfig.Plan, err error) (any, error) {
	var pe *sessionconfig.ParamsError
	if errors.As(err, &pe) {
		return nil, &jsonrpc.WireError{Code: int64(pe.Code()), Message: pe.Error()}
	}
	if err != nil {
		return nil, err
	}
	go func() {
		for _, body := range plan.Requests {
			if err := c.controlBody(ctx, body); err != nil {
				_ = c.agent.conn.Respond(req.ID, nil, jsonrpc.Errorf(jsonrpc.ErrInternal, "Internal error"))
				return
			}
		}
		out := c.commitSynced(ctx, plan)
		for _, u := range out.Updates {
			c.host.notify(u)
		}
		_ = c.agent.conn.Respond(req.ID, out.Result, nil)
		for _, body := range out.After {
			go func() { c.afterRequest(ctx, body) }()
		}
	}()
	return nil, jsonrpc.ErrAsyncResponse
}

// controlBody sends one control request given as its whole body.
func (c *configChanges) controlBody(ctx context.Context, body json.RawMessage) error {
	var head struct {
		Subtype string `json:"subtype"`
	}
	if err := json.Unmarshal(body, &head); err != nil {
		return err
	}
	var resp json.RawMessage
	if err := c.host.cli().Request(context.WithoutCancel(ctx), rawRequest{head.Subtype, body}, &resp); err != nil {
		return err
	}
	if head.Subtype == "get_context_usage" {
		c.tr.contextUsage(resp)
	}
	return nil
}

// commitSynced sends a plan's best-effort Sync request (contract
// "Recommended config values": a failed effort sync keeps the new model)
// and commits the plan accordingly.
func (c *configChanges) commitSynced(ctx context.Context, plan sessionconfig.Plan) sessionconfig.Outcome {
	if plan.Sync == nil {
		return plan.Commit()
	}
	if err := c.controlBody(ctx, plan.Sync); err != nil {
		c.agent.opts.Log.Warn("effort sync after a model switch failed", "session", c.id, "err", err)
		return plan.CommitUnsynced()
	}
	return plan.Commit()
}

// afterRequest sends a control request that follows a change's answer.
func (c *configChanges) afterRequest(ctx context.Context, body json.RawMessage) {
	if err := c.controlBody(ctx, body); err != nil {
		c.agent.opts.Log.Warn("control request after a config change failed", "session", c.id, "err", err)
	}
}

// refreshContextUsage asks the CLI how full the context is.
func (c *configChanges) refreshContextUsage(ctx context.Context) {
	var resp json.RawMessage
	if err := c.host.cli().Request(context.WithoutCancel(ctx), claude.GetContextUsage{Detail: "summary"}, &resp); err == nil {
		c.tr.contextUsage(resp)
	}
}

// adoptMode records a mode the CLI already moved to (an approved
// ExitPlanMode) and tells the editor.
func (c *configChanges) adoptMode(mode string) {
	cfg := c.host.config()
	plan, err := cfg.SetMode(mode)
	if err != nil {
		return
	}
	plan.Commit()
	c.host.notify(cfg.CurrentModeUpdate())
	c.host.notify(cfg.ConfigOptionUpdate())
}
