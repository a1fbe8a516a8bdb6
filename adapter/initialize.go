package adapter

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"slices"
	"strings"
	"time"

	"github.com/airwire/airwire/adapter/agentinfo"
	"github.com/airwire/airwire/adapter/caps"
	"github.com/airwire/airwire/internal/jsonrpc"
)

// authProbeTimeout bounds one `claude auth status --json` run.
const authProbeTimeout = 5 * time.Second

// initializeResult is the initialize answer for client c.
func (a *Agent) initializeResult(c caps.Client) json.RawMessage {
	exe, err := os.Executable()
	if err != nil && len(a.opts.Argv) > 0 {
		exe = a.opts.Argv[0]
	}
	return agentinfo.Initialize(c, agentinfo.Options{
		Version:  a.opts.Version,
		Launcher: agentinfo.LauncherFromArgv(exe, a.opts.Argv, a.opts.ClaudePath),
		Remote:   agentinfo.IsRemote(a.opts.Getenv),
	})
}

// authContext is the session whose settings and directory the auth
// status probe runs in, as the reference's probe does: the last session
// created or prompted. Its flag settings (contract "Session hooks") come
// before the subcommand, since --settings is a global option of the CLI.
type authContext struct {
	settings, cwd string
	// helper is the apiKeyHelper the session's CLI runs, which decides
	// whether its key is the JetBrains Air gateway's; env is the session's
	// own environment (`_meta.claudeCode.options.env`), laid over the
	// agent's.
	helper string
	env    []string
}

// useAuthContext makes c the context of the next auth status probes. It
// reports whether c changes what a probe reads: the directory (the agent's
// own before any session), the helper or the environment.
func (a *Agent) useAuthContext(c authContext) (changed bool) {
	a.mu.Lock()
	prev := a.authCtx
	a.authCtx = c
	a.mu.Unlock()
	if prev.cwd == "" {
		prev.cwd, _ = os.Getwd()
	}
	return prev.cwd != c.cwd || prev.helper != c.helper || !slices.Equal(prev.env, c.env)
}

// probeArgs is the argv of an auth status probe in context c.
func (c authContext) probeArgs() []string {
	if c.settings == "" {
		return agentinfo.ProbeArgs
	}
	return append([]string{"--settings", c.settings}, agentinfo.ProbeArgs...)
}

// probeAuth runs `claude auth status --json` in the background and pushes
// `_auth/status_update` when the identity it reports is new to the client.
// It never fails the caller: an unavailable CLI means "not reported".
// A fresh probe is one whose context changed: a probe under way, which
// reads the old one, is run again once it ends, and its answer dropped.
func (a *Agent) probeAuth(fresh bool) {
	if fresh {
		a.authEpoch.Add(1)
	}
	if !a.authProbing.TryLock() {
		if fresh {
			a.authAgain.Store(true)
		}
		return // a probe is under way; its answer serves this call too
	}
	a.bgWork.Add(1)
	go func() {
		defer a.bgWork.Done()
		for {
			readAuthStatus(a)
			a.authProbing.Unlock()
			if !a.authAgain.Swap(false) || !a.authProbing.TryLock() {
				return
			}
		}
	}()
}

// readAuthStatus runs `claude auth status --json` and pushes
// `_auth/status_update` when the identity it reports is new to the
// client; ok is false when the CLI reported none. (Functions, not
// methods: the Agent keeps its method count small.)
func readAuthStatus(a *Agent) (ok bool) {
	if a.routing.GatewayActive() { // the gateway owns the credentials
		return true
	}
	epoch := a.authEpoch.Load()
	a.mu.Lock()
	actx := a.authCtx
	a.mu.Unlock()
	stdout, err := a.runAuthStatus(a.bg, actx)
	if err != nil && len(stdout) == 0 {
		a.opts.Log.Warn("claude auth status failed", "err", err)
		return false
	}
	status, ok := agentinfo.FromCLIStatus(stdout, actx.helper)
	if !ok {
		return false
	}
	if a.authEpoch.Load() == epoch { // else a fresh probe follows
		setAuthStatus(a, status)
	}
	return true
}

// publishSessionAccount makes the account that a session's CLI reports in
// its initialize answer the client's login state when it names one, as
// the reference publishes a session's identity: not while the client's
// provider or a gateway login owns the credentials, nor when the auth
// context changed after the session read it (epoch; a probe in the new
// context follows). An account without an identity signal changes
// nothing.
func publishSessionAccount(a *Agent, initResp []byte, helper string, epoch uint64) {
	if a.routing.Resolved() != nil || a.routing.GatewayActive() || a.authEpoch.Load() != epoch {
		return
	}
	if status, ok := agentinfo.FromInitialize(initResp, helper); ok {
		setAuthStatus(a, status)
	}
}

// setAuthStatus makes status the client's login state, merged over the
// one it has, and pushes it when the identity changed.
func setAuthStatus(a *Agent, status agentinfo.AuthStatus) {
	a.mu.Lock()
	same := agentinfo.Same(a.authStatus, status)
	merged := agentinfo.Merge(a.authStatus, status)
	a.authStatus = &merged
	a.mu.Unlock()
	if !same {
		_ = a.conn.Notify(agentinfo.StatusUpdateMethod, merged.Notification())
	}
}

// runAuthStatus runs the CLI's auth status; a logged-out CLI exits 1 and
// still prints its JSON, so stdout is returned with the error.
func (a *Agent) runAuthStatus(ctx context.Context, actx authContext) ([]byte, error) {
	path, err := a.claudePath()
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, authProbeTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, actx.probeArgs()...)
	cmd.Env = append(slices.Clip(a.opts.Environ), actx.env...) // the last of a key wins
	cmd.Dir = actx.cwd
	out, err := cmd.Output()
	var exit *exec.ExitError
	if errors.As(err, &exit) && ctx.Err() == nil {
		return out, err
	}
	if err != nil {
		return nil, err
	}
	return out, nil
}

type authenticateParams struct {
	MethodID string `json:"methodId"`
}

// authenticate: the terminal login methods run in the editor's terminal
// (`airwire agent --cli auth login …`), so no such method completes here.
// The gateway methods (offered to clients that declare
// auth._meta.gateway) route later sessions through the client's gateway
// (gatewayLogin, methods.go). Every other id is refused with the reference's
// -32602.
func (a *Agent) authenticate(ctx context.Context, req *jsonrpc.Request) (any, error) {
	var p authenticateParams
	if err := decode(req, &p); err != nil {
		return nil, err
	}
	if handled, err := gatewayLogin(a, req.Params); handled {
		if err != nil {
			return nil, err
		}
		return map[string]any{}, nil
	}
	data, _ := json.Marshal(map[string]string{"methodId": p.MethodID})
	return nil, &jsonrpc.WireError{Code: jsonrpc.ErrInvalidParams.Code,
		Message: "Invalid params: Unsupported authentication method: " + p.MethodID, Data: data}
}

// logout clears the CLI's stored login (`claude auth logout`, which only
// the CLI can do), then reads the login state again before it answers:
// an API key from the environment survives the logout, and a login
// state the CLI cannot report becomes "Not logged in". The client hears
// of it only when it changed, as after any read. A gateway login or a
// provider the client set is dropped too, and then the live sessions
// restart under Claude Code's own routing (even when the CLI's logout
// failed: the routing is gone already), so the answer waits for them.
func (a *Agent) logout(ctx context.Context, req *jsonrpc.Request) (any, error) {
	if !a.routing.Clear() {
		return logoutCLI(a)
	}
	ticket := a.routing.Begin()
	a.bgWork.Add(1)
	go func() {
		defer a.bgWork.Done()
		err := cliLogout(a)
		if uerr := a.routing.Update(a.bg, ticket, nil, liveRestarts(a)); err == nil {
			err = uerr
		}
		if err != nil {
			_ = a.conn.Respond(req.ID, nil, err)
			return
		}
		res, err := afterLogout(a)
		_ = a.conn.Respond(req.ID, res, err)
	}()
	return nil, jsonrpc.ErrAsyncResponse
}

// logoutCLI is logout without a routing to drop.
func logoutCLI(a *Agent) (any, error) {
	if err := cliLogout(a); err != nil {
		return nil, err
	}
	return afterLogout(a)
}

// cliLogout runs `claude auth logout`.
func cliLogout(a *Agent) error {
	path, err := a.claudePath()
	if err != nil {
		return jsonrpc.Errorf(jsonrpc.ErrInternal, "Internal error: claude auth logout failed: %v", err)
	}
	cmd := exec.CommandContext(a.bg, path, "auth", "logout")
	cmd.Env = a.opts.Environ
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		a.opts.Log.Error("claude auth logout failed", "err", err, "stderr", stderr.String())
		return jsonrpc.Errorf(jsonrpc.ErrInternal, "Internal error: claude auth logout failed")
	}
	return nil
}

// afterLogout forgets the learned context windows (they belong to the
// login) and reads the login state again.
func afterLogout(a *Agent) (any, error) {
	a.windows.forget()
	if !readAuthStatus(a) {
		setAuthStatus(a, agentinfo.NotLoggedIn())
	}
	return map[string]any{}, nil
}
