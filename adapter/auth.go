package adapter

import (
	"context"
	"encoding/json"
	"os/exec"
	"strings"

	"github.com/airwire/airwire/internal/jsonrpc"
)

type authenticateParams struct {
	MethodID string `json:"methodId"`
}

// authenticate: the terminal login methods run in the editor's terminal
// (`airwire agent --cli auth login …`), so no method completes here. The
// reference's gateway methods exist only for clients that declare
// auth._meta.gateway, which the agent does not offer; every id is refused
// with the reference's -32602.
func (a *Agent) authenticate(ctx context.Context, req *jsonrpc.Request) (any, error) {
	var p authenticateParams
	if err := decode(req, &p); err != nil {
		return nil, err
	}
	data, _ := json.Marshal(map[string]string{"methodId": p.MethodID})
	return nil, &jsonrpc.WireError{Code: jsonrpc.ErrInvalidParams.Code,
		Message: "Invalid params: Unsupported authentication method: " + p.MethodID, Data: data}
}

// logout clears the CLI's stored login (`claude auth logout`, which only
// the CLI can do), then reads the login state again and pushes it.
func (a *Agent) logout(ctx context.Context, req *jsonrpc.Request) (any, error) {
	path, err := a.claudePath()
	if err != nil {
		return nil, jsonrpc.Errorf(jsonrpc.ErrInternal, "Internal error: claude auth logout failed: %v", err)
	}
	cmd := exec.CommandContext(a.bg, path, "auth", "logout")
	cmd.Env = a.opts.Environ
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		a.opts.Log.Error("claude auth logout failed", "err", err, "stderr", stderr.String())
		return nil, jsonrpc.Errorf(jsonrpc.ErrInternal, "Internal error: claude auth logout failed")
	}
	a.windows.forget()
	a.mu.Lock()
	a.authStatus = nil
	a.mu.Unlock()
	a.probeAuth()
	return map[string]any{}, nil
}
