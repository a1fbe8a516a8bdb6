package mcpservers

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/airwire/airwire/adapter/claude"
)

// Status is one server of Claude Code's `mcp_status` answer.
type Status struct {
	Name   string `json:"name"`
	Status string `json:"status"` // connected, failed, needs-auth, pending, disabled, or one to come
	Error  string `json:"error,omitempty"`
	// Tools is nil when the answer has no tool list (an empty list counts).
	Tools  *[]json.RawMessage `json:"tools,omitempty"`
	Scope  *string            `json:"scope,omitempty"`
	Source *string            `json:"source,omitempty"`
}

// Login is Claude Code's answer to `mcp_authenticate`.
type Login struct {
	RequiresUserAction bool   `json:"requiresUserAction"`
	AuthURL            string `json:"authUrl,omitempty"`
}

// Control is one session's Claude Code, as these features use it. An error
// of Claude Code's own is reported with its message as Error().
type Control interface {
	Status(ctx context.Context) ([]Status, error)
	Reconnect(ctx context.Context, server string) error
	Toggle(ctx context.Context, server string, enabled bool) error
	Authenticate(ctx context.Context, server string) (Login, error)
}

// CLI is the Control of one Claude Code process.
func CLI(p *claude.Process) Control { return cli{p} }

type cli struct{ p *claude.Process }

func (c cli) Status(ctx context.Context) ([]Status, error) {
	var r struct {
		MCPServers []Status `json:"mcpServers"`
	}
	err := c.p.Request(ctx, claude.MCPStatus{}, &r)
	return r.MCPServers, plain(err)
}

func (c cli) Reconnect(ctx context.Context, server string) error {
	return plain(c.p.Request(ctx, claude.MCPReconnect{ServerName: server}, nil))
}

func (c cli) Toggle(ctx context.Context, server string, enabled bool) error {
	return plain(c.p.Request(ctx, claude.MCPToggle{ServerName: server, Enabled: enabled}, nil))
}

func (c cli) Authenticate(ctx context.Context, server string) (Login, error) {
	var l Login
	err := c.p.Request(ctx, claude.MCPAuthenticate{ServerName: server}, &l)
	return l, plain(err)
}

// plain is Claude Code's own error message as the error, as the SDK
// rejects a control request.
func plain(err error) error {
	var ce *claude.ControlError
	if errors.As(err, &ce) {
		return errors.New(ce.Message)
	}
	return err
}

// Names are the names of a session request's mcpServers (the editor's
// servers).
func Names(raw json.RawMessage) []string {
	var list []struct {
		Name string `json:"name"`
	}
	_ = json.Unmarshal(raw, &list) // validated when the session started
	names := make([]string, 0, len(list))
	for _, srv := range list {
		names = append(names, srv.Name)
	}
	return names
}
