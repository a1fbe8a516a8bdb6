package adapter

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"slices"
	"sync"

	"github.com/airwire/airwire/adapter/airmeta"
	"github.com/airwire/airwire/adapter/claude"
	"github.com/airwire/airwire/adapter/sessionconfig"
	"github.com/airwire/airwire/internal/jsonrpc"
)

// A session's modes, config options (adapter/sessionconfig) and slash
// commands, with the skill files behind them.

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
	if err == nil && plan.ModelChange {
		s.idle.Disarm("model change")
	}
	return s.configChanges.apply(ctx, req, plan, err)
}

// apply sends a planned change's control requests to the CLI in order,
// then publishes its updates, answers the editor, and sends what follows
// the answer. The editor's request is answered asynchronously, because the
// CLI round trips must not hold up the editor's other messages.
//
// Each response pauses the reading of the CLI's lines until the next
// request is written (claude.Process.BeginPaused), as the reference's
// continuation runs before its next line: Claude Code follows its
// set_model answer with hook callbacks at once, and the reference's
// get_context_usage goes out before their answers.
func (c *configChanges) apply(ctx context.Context, req *jsonrpc.Request, plan sessionconfig.Plan, err error) (any, error) {
	var pe *sessionconfig.ParamsError
	if errors.As(err, &pe) {
		return nil, &jsonrpc.WireError{Code: int64(pe.Code()), Message: pe.Error(), Data: pe.Data}
	}
	if err != nil {
		return nil, err
	}
	go func() {
		var paused pausedReader
		defer paused.resume()
		for _, body := range plan.Requests {
			if err := c.controlBody(ctx, body, &paused); err != nil {
				_ = c.agent.conn.Respond(req.ID, nil, jsonrpc.Errorf(jsonrpc.ErrInternal, "Internal error"))
				return
			}
		}
		out := c.commitSynced(ctx, plan, &paused)
		for _, u := range out.Updates {
			c.host.notify(u)
		}
		_ = c.agent.conn.Respond(req.ID, out.Result, nil)
		for _, body := range out.After {
			c.afterRequest(ctx, body)
		}
	}()
	return nil, jsonrpc.ErrAsyncResponse
}

// pausedReader is the resume of the last response that paused the CLI's
// reader; the zero value holds none.
type pausedReader struct{ last func() }

// resume lets the reader go on, once.
func (p *pausedReader) resume() {
	if p.last != nil {
		p.last()
		p.last = nil
	}
}

// controlBody sends one control request given as its whole body and waits
// for its response. The request is written before the previous response's
// pause ends, and its own response pauses the reader in turn.
func (c *configChanges) controlBody(ctx context.Context, body json.RawMessage, paused *pausedReader) error {
	wait, subtype, err := c.beginBody(body, paused)
	if err != nil {
		return err
	}
	return c.awaitBody(ctx, subtype, wait)
}

// beginBody writes a control request given as its whole body. With
// paused, the previous pause ends once it is written and the request's own
// response pauses the reader in turn; without, the request's response
// does not pause it, and a pause in force stays.
func (c *configChanges) beginBody(body json.RawMessage, paused *pausedReader) (wait func(context.Context, any) error, subtype string, err error) {
	var head struct {
		Subtype string `json:"subtype"`
	}
	if err := json.Unmarshal(body, &head); err != nil {
		return nil, "", err
	}
	req := rawRequest{head.Subtype, body}
	if paused == nil {
		wait, err = c.host.cli().Begin(req)
		return wait, head.Subtype, err
	}
	wait, resume, err := c.host.cli().BeginPaused(req)
	paused.resume()
	if err != nil {
		return nil, "", err
	}
	paused.last = resume
	return wait, head.Subtype, nil
}

// awaitBody waits for a control request's response and keeps what a
// get_context_usage answer says.
func (c *configChanges) awaitBody(ctx context.Context, subtype string, wait func(context.Context, any) error) error {
	var resp json.RawMessage
	if err := wait(context.WithoutCancel(ctx), &resp); err != nil {
		return err
	}
	if subtype == "get_context_usage" {
		c.tr.contextUsage(resp)
	}
	return nil
}

// commitSynced sends a plan's best-effort Sync request (contract
// "Recommended config values": a failed effort sync keeps the new model)
// and commits the plan accordingly.
func (c *configChanges) commitSynced(ctx context.Context, plan sessionconfig.Plan, paused *pausedReader) sessionconfig.Outcome {
	if plan.Sync == nil {
		return plan.Commit()
	}
	if err := c.controlBody(ctx, plan.Sync, paused); err != nil {
		c.agent.opts.Log.Warn("effort sync after a model switch failed", "session", c.id, "err", err)
		return plan.CommitUnsynced()
	}
	return plan.Commit()
}

// afterRequest sends a control request that follows a change's answer:
// it is written now, before the pause in force ends (as the reference
// writes every such request before it handles the CLI's next line), and
// its response is awaited in the background.
func (c *configChanges) afterRequest(ctx context.Context, body json.RawMessage) {
	wait, subtype, err := c.beginBody(body, nil)
	if err != nil {
		c.agent.opts.Log.Warn("control request after a config change failed", "session", c.id, "err", err)
		return
	}
	go func() {
		if err := c.awaitBody(ctx, subtype, wait); err != nil {
			c.agent.opts.Log.Warn("control request after a config change failed", "session", c.id, "err", err)
		}
	}()
}

// contextUsageOf takes the CLI's answer to a get_context_usage (how full
// the context is) that wait waits for.
func (c *configChanges) contextUsageOf(ctx context.Context, wait func(context.Context, any) error) {
	var resp json.RawMessage
	if err := wait(context.WithoutCancel(ctx), &resp); err == nil {
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

// Skill files, for AIR clients only (the only ones that use skill paths):
// on the session's first init the agent reads Claude Code's own skill list
// (get_context_usage, skills.skillFrontmatter) in the background and, when
// it differs from the last read, publishes the slash commands again. A
// commands_changed reads it again.

type skillFrontmatter struct {
	Skills struct {
		Frontmatter []struct {
			Name string `json:"name"`
			Path string `json:"path"`
		} `json:"skillFrontmatter"`
	} `json:"skills"`
}

type skillFile struct{ name, path string }

// skills are the skill files behind a session's slash commands, read from
// its CLI and found on disk. They reach their session through skillHost.
type skills struct {
	host    skillHost
	agent   *Agent
	id, cwd string

	mu    sync.Mutex
	files []skillFile
	// paths are the SKILL.md paths found on disk, by command name ("" when
	// none); see pathOnDisk.
	paths map[string]string
}

// skillHost is what the skills reach of their session.
type skillHost interface {
	cli() *claude.Process
	publishCommands()
}

// listed is the skill files the CLI last reported.
func (k *skills) listed() []skillFile {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.files
}

// reset forgets the skill files: a fresh Claude context reports them again.
func (k *skills) reset() {
	k.mu.Lock()
	k.files = nil
	k.mu.Unlock()
}

// refresh reads the skill list once more and re-publishes the
// commands when it changed; it never fails the turn.
func (k *skills) refresh() {
	if !k.agent.clientCaps().AIR.Client || k.host.cli() == nil {
		return
	}
	// written now, in its place among the requests the CLI's next lines
	// lead to (a `/mcp` command's mcp_status), as the reference writes it
	wait, err := k.host.cli().Begin(claudeContextUsage)
	if err != nil {
		k.agent.opts.Log.Warn("cannot read the skill files", "session", k.id, "err", err)
		return
	}
	go func() {
		var resp json.RawMessage
		if err := wait(context.Background(), &resp); err != nil {
			k.agent.opts.Log.Warn("cannot read the skill files", "session", k.id, "err", err)
			return
		}
		files := parseSkillFiles(resp)
		k.mu.Lock()
		changed := !slices.Equal(files, k.files) || k.files == nil
		k.files = files
		if changed {
			k.paths = nil
		}
		k.mu.Unlock()
		if changed && len(files) > 0 {
			k.host.publishCommands()
		}
	}()
}

// parseSkillFiles keeps the skills of a get_context_usage answer; a
// prompt command of .claude/commands (not a SKILL.md) is no skill. The
// path is the platform's, as the reference takes it (path.basename).
func parseSkillFiles(resp json.RawMessage) []skillFile {
	var f skillFrontmatter
	if json.Unmarshal(resp, &f) != nil {
		return nil
	}
	out := []skillFile{}
	for _, sk := range f.Skills.Frontmatter {
		if sk.Path != "" && filepath.Base(sk.Path) != "SKILL.md" {
			continue
		}
		out = append(out, skillFile{sk.Name, sk.Path})
	}
	return out
}

// claudeContextUsage is get_context_usage without detail, as the SDK's
// getContextUsage() sends it for the skill list.
var claudeContextUsage = claude.GetContextUsage{}

// skillCommand is an available command with the AIR skill keys (contract
// "AIR metadata keys": kind and skillPath of an available command).
type skillCommand struct {
	sessionconfig.AvailableCommand
	Meta map[string]any `json:"_meta,omitempty"`
}

// commandsUpdate is the commands update of an AIR client (contract
// "AIR metadata keys": kind and skillPath of an available command;
// DEVIATIONS.md 14): a command whose SKILL.md is found carries
// `_meta.jetbrains.air` {kind: "skill", skillPath}: the path Claude Code
// reports for a skill it lists, else, for a command that is neither built
// in nor an MCP prompt, the file on disk (`<container>/<name>/SKILL.md`).
// A skill without a SKILL.md (one built into Claude Code) gets neither
// key. files is nil before the first read.
func (k *skills) commandsUpdate(cmds []sessionconfig.AvailableCommand, commands []sessionconfig.Command, files []skillFile) json.RawMessage {
	listed := map[string]string{}
	for _, f := range files {
		listed[f.name] = f.path
	}
	builtin := map[string]bool{}
	for _, c := range commands {
		builtin[c.Name] = c.Builtin
	}
	out := make([]skillCommand, 0, len(cmds))
	for _, c := range cmds {
		sc := skillCommand{AvailableCommand: c}
		p, ok := listed[c.Name]
		if !ok || p == "" {
			if b, known := builtin[c.Name]; known && !b {
				p = k.pathOnDisk(c.Name)
			}
		}
		if p != "" {
			sc.Meta = airmeta.Merge(airmeta.Merge(nil, "kind", "skill"), "skillPath", p)
		}
		out = append(out, sc)
	}
	b, _ := json.Marshal(map[string]any{"sessionUpdate": "available_commands_update", "availableCommands": out})
	return b
}

// pathOnDisk finds the SKILL.md of skill name under the session's
// project and the home directory, once until the command list or the
// skill files change.
func (k *skills) pathOnDisk(name string) string {
	k.mu.Lock()
	defer k.mu.Unlock()
	if p, ok := k.paths[name]; ok {
		return p
	}
	if k.paths == nil {
		k.paths = map[string]string{}
	}
	p := k.agent.disk().SkillPath(name, k.cwd)
	k.paths[name] = p
	return p
}

// forgetPaths drops the paths found on disk: the command list or the
// skill files changed.
func (k *skills) forgetPaths() {
	k.mu.Lock()
	k.paths = nil
	k.mu.Unlock()
}
