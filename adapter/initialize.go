package adapter

import "github.com/airwire/airwire/adapter/caps"

// initializeResult is the initialize answer for client c.
func (a *Agent) initializeResult(c caps.Client) map[string]any {
	return map[string]any{"protocolVersion": 1, "agentInfo": map[string]any{"name": "airwire", "version": a.opts.Version}}
}
