package compaction

import (
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/airwire/airwire/adapter/claude"
)

// fakeIdleHost is a session whose state the test sets.
type fakeIdleHost struct {
	mu       sync.Mutex
	busy     bool
	tokens   int
	settings IdleSettings
	compacts int
	logs     []string
}

func (h *fakeIdleHost) Busy() bool { h.mu.Lock(); defer h.mu.Unlock(); return h.busy }
func (h *fakeIdleHost) ContextTokens() (int, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.tokens, h.tokens > 0
}
func (h *fakeIdleHost) Settings() IdleSettings { return h.settings }
func (h *fakeIdleHost) Compact()               { h.mu.Lock(); h.compacts++; h.mu.Unlock() }
func (h *fakeIdleHost) Log(msg string)         { h.mu.Lock(); h.logs = append(h.logs, msg); h.mu.Unlock() }
func (h *fakeIdleHost) lastLog() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.logs) == 0 {
		return ""
	}
	return h.logs[len(h.logs)-1]
}

// idleUnderTest is an Idle on a fake clock whose timer the test fires.
type idleUnderTest struct {
	*Idle
	host    *fakeIdleHost
	now     time.Time
	armed   func()
	armedIn time.Duration
}

func newIdleUnderTest(env map[string]string) *idleUnderTest {
	h := &fakeIdleHost{tokens: 250_000}
	u := &idleUnderTest{host: h, now: time.Date(2026, 12, 7, 10, 0, 0, 0, time.UTC)}
	u.Idle = NewIdle(h, func(name string) string { return env[name] })
	u.Now = func() time.Time { return u.now }
	u.AfterFunc = func(d time.Duration, f func()) func() bool {
		u.armed, u.armedIn = f, d
		return func() bool { u.armed = nil; return true }
	}
	return u
}

// fire runs the armed timer as its deadline passes.
func (u *idleUnderTest) fire(t *testing.T) {
	t.Helper()
	if u.armed == nil {
		t.Fatalf("not armed (last log %q)", u.host.lastLog())
	}
	u.now = u.now.Add(u.armedIn)
	f := u.armed
	u.armed = nil
	f()
}

// A one-hour cache over a large context: armed at idle for 54 minutes
// after the request, and the /compact goes out when it fires.
func TestIdleCompactsBeforeTheCacheExpires(t *testing.T) {
	u := newIdleUnderTest(nil)
	u.NoteRequest("1h", "msg_1")
	u.now = u.now.Add(10 * time.Second)
	u.OnIdle()
	if u.armedIn != 54*time.Minute-10*time.Second {
		t.Errorf("armed in %v, want 54 min after the request", u.armedIn)
	}
	u.fire(t)
	if u.host.compacts != 1 || u.Compacting() {
		t.Errorf("compacts %d, still compacting %v", u.host.compacts, u.Compacting())
	}
	// Compacted for this request: the next idle does not arm again.
	u.OnIdle()
	if u.armed != nil || !strings.Contains(u.host.lastLog(), "already compacted") {
		t.Errorf("armed again after compacting; log %q", u.host.lastLog())
	}
	// A new request (even of the same cache) arms again.
	u.NoteRequest("", "msg_2")
	u.OnIdle()
	if u.armed == nil {
		t.Error("a new request does not arm again")
	}
}

// Each condition that keeps it from arming.
func TestIdleSkips(t *testing.T) {
	for _, tc := range []struct {
		name, want string
		set        func(u *idleUnderTest)
	}{
		{"five-minute cache", "one-hour cache (\"5m\")", func(u *idleUnderTest) { u.NoteRequest("5m", "m") }},
		{"no request", "no request with a one-hour cache", func(u *idleUnderTest) {}},
		{"small context", "below 200000", func(u *idleUnderTest) { u.host.tokens = 150_000 }},
		{"busy", "busy", func(u *idleUnderTest) { u.host.busy = true }},
		{"rate limited", "rate limit", func(u *idleUnderTest) { u.NoteRateLimit("allowed_warning") }},
		{"lapsed", "lapsed", func(u *idleUnderTest) { u.now = u.now.Add(56 * time.Minute) }},
		{"setting", "idleCompaction", func(u *idleUnderTest) { u.host.settings.IdleCompactionOff = true }},
		{"auto compact off", "autoCompactEnabled", func(u *idleUnderTest) { u.host.settings.AutoCompactOff = true }},
		{"settings env", "DISABLE_COMPACT", func(u *idleUnderTest) {
			u.host.settings.Env = map[string]string{"DISABLE_COMPACT": " Yes "}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			u := newIdleUnderTest(nil)
			if tc.name != "no request" && tc.name != "five-minute cache" {
				u.NoteRequest("1h", "m")
			}
			tc.set(u)
			u.OnIdle()
			if u.armed != nil || !strings.Contains(u.host.lastLog(), tc.want) {
				t.Errorf("armed %v, log %q; want a skip for %q", u.armed != nil, u.host.lastLog(), tc.want)
			}
		})
	}
}

// The CLI's environment sets the delay and the minimum; the settings' env
// wins over it for Claude Code's variables, and the floor stays 100,000.
func TestIdleEnvironment(t *testing.T) {
	u := newIdleUnderTest(map[string]string{"CLAUDE_AGENT_ACP_IDLE_COMPACT_DELAY_MS": "300",
		"CLAUDE_CODE_IDLE_COMPACT_MIN_TOKENS": "50000", "DISABLE_AUTO_COMPACT": "1"})
	u.host.settings.Env = map[string]string{"DISABLE_AUTO_COMPACT": "0"}
	u.host.tokens = 120_000
	u.NoteRequest("1h", "m")
	u.OnIdle()
	if u.armed == nil || u.armedIn != 300*time.Millisecond {
		t.Fatalf("armed %v in %v; log %q", u.armed != nil, u.armedIn, u.host.lastLog())
	}
	u.host.tokens = 99_999
	u.fire(t)
	if u.host.compacts != 0 || !strings.Contains(u.host.lastLog(), "below 100000") {
		t.Errorf("fired under the floor: compacts %d, log %q", u.host.compacts, u.host.lastLog())
	}
	for raw, want := range map[string]time.Duration{"": 54 * time.Minute, "x": 54 * time.Minute, "-5": 54 * time.Minute,
		"2147483648": 54 * time.Minute, " 10 ": 10 * time.Millisecond} {
		u := newIdleUnderTest(map[string]string{"CLAUDE_AGENT_ACP_IDLE_COMPACT_DELAY_MS": raw})
		if got := u.delay(); got != want {
			t.Errorf("delay %q = %v, want %v", raw, got, want)
		}
	}
}

// A prompt, a new request or a cleared context drops an armed compaction,
// and a disposed one never arms.
func TestIdleDisarms(t *testing.T) {
	u := newIdleUnderTest(nil)
	u.NoteRequest("1h", "m")
	u.OnIdle()
	u.Disarm("prompt")
	if u.armed != nil {
		t.Error("a prompt left it armed")
	}
	u.OnIdle()
	u.NoteRequest("1h", "m") // the same message again: the time stays, the timer too
	if u.armed == nil {
		t.Error("a repeated message disarmed it")
	}
	u.Reset()
	if u.armed != nil {
		t.Error("a cleared context left it armed")
	}
	u.NoteRequest("1h", "m2")
	u.Dispose()
	u.OnIdle()
	if u.armed != nil {
		t.Error("a disposed compaction armed")
	}
	var none *Idle
	none.OnIdle()
	none.Dispose()
	if none.Compacting() {
		t.Error("a nil Idle compacts")
	}
}

// The compaction the agent starts by itself is automatic, in rawOutput
// and in the AIR key alike; the CLI calls every /compact manual.
func TestIdleCompactionIsAutomatic(t *testing.T) {
	boundary := `{"type":"system","subtype":"compact_boundary","uuid":"u1","compact_metadata":{"trigger":"manual","pre_tokens":250012}}`
	for _, byAgent := range []bool{false, true} {
		var lc Lifecycle
		lc.AgentCompacting = func() bool { return byAgent }
		f, err := claude.DecodeFrame(json.RawMessage(boundary))
		if err != nil {
			t.Fatal(err)
		}
		want := map[bool]string{false: `"trigger":"manual"`, true: `"trigger":"automatic"`}[byAgent]
		got, _ := json.Marshal(lc.BoundaryFrame(f))
		if !strings.Contains(string(got), want) {
			t.Errorf("by the agent %v: %s, want %s", byAgent, got, want)
		}
	}
}
