package compaction

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/airwire/airwire/adapter/claude"
	"github.com/airwire/airwire/internal/lazyre"
)

// Idle compacts a session shortly before its one-hour prompt cache
// expires, so that the next prompt writes a short summary to the cache
// instead of the whole context, as the reference adapter does (Claude Code
// has the same feature, but runs it only for sessions a person attends,
// which sessions of an SDK are not). One per session.
//
// It arms at the session's idle (OnIdle) when every condition holds: the
// session's last main-thread request wrote a one-hour cache, its context
// holds at least the minimum tokens (200,000 by default;
// CLAUDE_CODE_IDLE_COMPACT_MIN_TOKENS, never below 100,000), the last
// rate limit status was "allowed", it has not compacted since that
// request, no setting or variable disables compaction (`idleCompaction`
// or `autoCompactEnabled` false; DISABLE_COMPACT or DISABLE_AUTO_COMPACT),
// and nothing runs. It fires 54 minutes after the request
// (CLAUDE_AGENT_ACP_IDLE_COMPACT_DELAY_MS changes the delay), checks
// again, and sends the session a /compact of its own (IdleHost.Compact).
// A client's prompt, a cancel, a model switch and a new request disarm
// it; a cleared context forgets the request.
type Idle struct {
	host IdleHost
	env  func(string) string // the CLI's environment
	// AfterFunc runs f after d (time.AfterFunc); tests replace it.
	AfterFunc func(d time.Duration, f func()) (stop func() bool)
	// Now is the clock (time.Now); tests replace it.
	Now func() time.Time

	mu                    sync.Mutex
	ttl                   string
	requestAt             time.Time
	lastMessage           string
	compactedSinceRequest bool
	compacting            bool
	disposed              bool
	stop                  func() bool
	rateLimit             string
	warnedDelay           bool
}

// IdleHost is what an Idle needs of its session.
type IdleHost interface {
	// Busy reports whether a turn runs or waits, or the user is asked.
	Busy() bool
	// ContextTokens is the context's last known size.
	ContextTokens() (int, bool)
	// Settings are the settings as they are now.
	Settings() IdleSettings
	// Compact runs the session's own /compact and returns at its end.
	Compact()
	// Log records why the compaction did or did not arm.
	Log(msg string)
}

// IdleSettings are the settings that disable compaction (`idleCompaction`
// or `autoCompactEnabled` false), and their env block, which Claude Code
// lays over its environment.
type IdleSettings struct {
	IdleCompactionOff, AutoCompactOff bool
	Env                               map[string]string
}

// idleFacts are what the checks read of the host, read before the Idle's
// lock is taken: the host's locks are never taken under it.
type idleFacts struct {
	settings IdleSettings
	tokens   int
	known    bool
	busy     bool
}

// The policy's numbers, the reference's (and Claude Code's).
const (
	defaultIdleDelay = 54 * time.Minute // 0.9 of the one-hour cache
	lapsedAfter      = time.Minute
	defaultMinTokens = 200_000
	minTokensFloor   = 100_000
	maxTimerMs       = 2_147_483_647
)

// A nil *Idle does nothing (a session that never started).

// NewIdle returns the idle compaction of a session whose CLI runs in env.
func NewIdle(host IdleHost, env func(string) string) *Idle {
	return &Idle{host: host, env: env, AfterFunc: func(d time.Duration, f func()) func() bool {
		return time.AfterFunc(d, f).Stop
	}, Now: time.Now}
}

func (c *Idle) facts() idleFacts {
	f := idleFacts{settings: c.host.Settings(), busy: c.host.Busy()}
	f.tokens, f.known = c.host.ContextTokens()
	return f
}

// claudeEnv is a variable as Claude Code reads it: the settings' env
// block over its environment.
func (c *Idle) claudeEnv(f idleFacts, name string) string {
	if v, ok := f.settings.Env[name]; ok {
		return v
	}
	return c.env(name)
}

// Compacting reports whether a compaction it started still runs: the
// compaction's trigger is then the agent's, not the user's.
func (c *Idle) Compacting() bool {
	if c == nil {
		return false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.compacting
}

// NoteRequest records a main-thread response (its message_start, or its
// first assistant message when it was not streamed): the time the cache
// was written and its lifetime. A later call for the same message only
// updates the lifetime.
func (c *Idle) NoteRequest(ttl, messageID string) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.disposed {
		return
	}
	if ttl != "" {
		c.ttl = ttl
	}
	if messageID != "" && messageID == c.lastMessage {
		return
	}
	c.lastMessage, c.requestAt, c.compactedSinceRequest = messageID, c.Now(), false
	c.disarmLocked("new request")
}

// NoteRateLimit records a rate_limit_event's status: anything but
// "allowed" keeps the compaction from arming.
func (c *Idle) NoteRateLimit(status string) {
	if c == nil {
		return
	}
	if status == "" {
		return
	}
	c.mu.Lock()
	c.rateLimit = status
	c.mu.Unlock()
}

// OnIdle arms the compaction when every condition holds. It asks the
// host for its state: call it where no lock of the host is held.
func (c *Idle) OnIdle() {
	if c == nil || !c.mayArm() {
		return
	}
	f := c.facts()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.disposed {
		return
	}
	if skip := c.skipReason(f); skip != "" {
		c.host.Log("idle compaction: skip: " + skip)
		return
	}
	c.disarmLocked("rearm")
	wait := max(0, c.requestAt.Add(c.delay()).Sub(c.Now()))
	c.stop = c.AfterFunc(wait, c.fire)
	c.host.Log("idle compaction: armed for " + c.Now().Add(wait).UTC().Format(time.RFC3339))
}

// mayArm is the check that needs nothing of the host: a request that
// wrote a one-hour cache. Most idles end there, without reading the
// settings files.
func (c *Idle) mayArm() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.disposed || c.requestAt.IsZero() || c.ttl != "1h" {
		c.host.Log(fmt.Sprintf("idle compaction: skip: no request with a one-hour cache (%q)", c.ttl))
		return false
	}
	return true
}

// Reset forgets the request and its lifetime (the context was cleared).
func (c *Idle) Reset() {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.ttl, c.requestAt, c.lastMessage, c.compactedSinceRequest = "", time.Time{}, "", false
	c.disarmLocked("conversation reset")
}

// Disarm drops an armed compaction; reason is only logged.
func (c *Idle) Disarm(reason string) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.disarmLocked(reason)
}

// Dispose disarms for good: the session ended.
func (c *Idle) Dispose() {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.disarmLocked("disposed")
	c.disposed = true
}

func (c *Idle) disarmLocked(reason string) {
	if c.stop == nil {
		return
	}
	c.stop()
	c.stop = nil
	c.host.Log("idle compaction: disarmed: " + reason)
}

// fire checks again and compacts.
func (c *Idle) fire() {
	f := c.facts()
	c.mu.Lock()
	c.stop = nil
	if c.disposed {
		c.mu.Unlock()
		return
	}
	if skip := c.skipReason(f); skip != "" {
		c.mu.Unlock()
		c.host.Log("idle compaction: skip at fire: " + skip)
		return
	}
	c.compacting, c.compactedSinceRequest = true, true
	c.mu.Unlock()
	c.host.Log("idle compaction: sending /compact")
	c.host.Compact()
	c.mu.Lock()
	c.compacting = false
	c.mu.Unlock()
}

// skipReason is why no compaction may be armed now; "" when all holds.
func (c *Idle) skipReason(f idleFacts) string {
	switch {
	case c.compacting:
		return "a compaction runs"
	case f.settings.IdleCompactionOff:
		return "disabled by the idleCompaction setting"
	case f.settings.AutoCompactOff:
		return "disabled by the autoCompactEnabled setting"
	case claude.Truthy(c.claudeEnv(f, "DISABLE_COMPACT")):
		return "disabled by DISABLE_COMPACT"
	case claude.Truthy(c.claudeEnv(f, "DISABLE_AUTO_COMPACT")):
		return "disabled by DISABLE_AUTO_COMPACT"
	case c.requestAt.IsZero():
		return "no request recorded"
	case c.Now().After(c.requestAt.Add(c.delay() + lapsedAfter)):
		return "the cache lapsed"
	case c.rateLimit != "" && c.rateLimit != "allowed":
		return "rate limit status " + c.rateLimit
	case c.compactedSinceRequest:
		return "already compacted for this request"
	case c.ttl != "1h":
		return fmt.Sprintf("cache lifetime %q, not 1h", c.ttl)
	}
	least := minTokens(c.claudeEnv(f, "CLAUDE_CODE_IDLE_COMPACT_MIN_TOKENS"))
	if !f.known || f.tokens < least {
		return fmt.Sprintf("context below %d tokens", least)
	}
	if f.busy {
		return "the session is busy"
	}
	return ""
}

var digitsRE = lazyre.New(`^\d+$`)

// minTokens is CLAUDE_CODE_IDLE_COMPACT_MIN_TOKENS (raw), at least
// 100,000; 0 and invalid values are 200,000, as in Claude Code.
func minTokens(raw string) int {
	raw = strings.TrimSpace(raw)
	n, err := strconv.Atoi(raw)
	if !digitsRE.MatchString(raw) || err != nil || n == 0 {
		n = defaultMinTokens
	}
	return max(minTokensFloor, n)
}

// delay is CLAUDE_AGENT_ACP_IDLE_COMPACT_DELAY_MS of the CLI's
// environment (not the settings'), else 54 minutes; an invalid value is
// logged once.
func (c *Idle) delay() time.Duration {
	v := c.env("CLAUDE_AGENT_ACP_IDLE_COMPACT_DELAY_MS")
	if v == "" {
		return defaultIdleDelay
	}
	v = strings.TrimSpace(v)
	ms, err := strconv.ParseInt(v, 10, 64)
	if digitsRE.MatchString(v) && err == nil && ms <= maxTimerMs {
		return time.Duration(ms) * time.Millisecond
	}
	if !c.warnedDelay {
		c.warnedDelay = true
		c.host.Log("idle compaction: ignoring invalid CLAUDE_AGENT_ACP_IDLE_COMPACT_DELAY_MS")
	}
	return defaultIdleDelay
}
