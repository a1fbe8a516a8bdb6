package adapter

import (
	"strings"
	"sync"

	"github.com/airwire/airwire/adapter/usage"
)

// contextWindows are the context windows the results of this agent's
// sessions confirmed, by backend and model, as the reference's
// cross-session cache keeps them: a CLI started later on the same backend
// and model (a new session, a restarted live session) starts with that
// window and asks its CLI for none. A get_context_usage answer never goes
// in: its spelling and size can differ from the result's. Logout empties it
// (the window can depend on the account).
type contextWindows struct {
	mu sync.Mutex
	by map[string]int
}

// providerRoutingEnv are the variables that choose the backend, its
// context lane and the account a CLI's requests reach.
var providerRoutingEnv = []string{
	"ANTHROPIC_BASE_URL", "ANTHROPIC_BEDROCK_BASE_URL", "ANTHROPIC_VERTEX_BASE_URL",
	"CLAUDE_CODE_USE_BEDROCK", "CLAUDE_CODE_USE_VERTEX", "ANTHROPIC_VERTEX_PROJECT_ID",
	"CLOUD_ML_REGION", "AWS_REGION", "ANTHROPIC_CUSTOM_HEADERS", "ANTHROPIC_API_KEY",
	"ANTHROPIC_AUTH_TOKEN", "CLAUDE_CODE_OAUTH_TOKEN",
}

// windowKey is the cache key of model on the backend getenv selects.
func windowKey(getenv func(string) string, model string) string {
	parts := make([]string, 0, len(providerRoutingEnv)+1)
	for _, name := range providerRoutingEnv {
		parts = append(parts, getenv(name))
	}
	return strings.Join(append(parts, model), "\x00")
}

// learn keeps a window a result confirmed.
func (c *contextWindows) learn(key string, size int) {
	if size <= 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.by == nil {
		c.by = map[string]int{}
	}
	c.by[key] = size
}

// known is the confirmed window of key, if any.
func (c *contextWindows) known(key string) (usage.Window, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	size, ok := c.by[key]
	return usage.Window{Size: size, Authoritative: true}, ok
}

// forget empties the cache.
func (c *contextWindows) forget() {
	c.mu.Lock()
	c.by = nil
	c.mu.Unlock()
}
