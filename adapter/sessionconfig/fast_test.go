package sessionconfig

import (
	"strings"
	"testing"
)

// fastSession is a session on a model with Fast mode, Fast mode on.
func fastSession(notices bool) *Session {
	in := Init{Models: []Model{{Value: "opus", DisplayName: "Opus", SupportsFastMode: true}, {Value: "haiku", DisplayName: "Haiku"}},
		FastModeState: "on"}
	return New(in, Settings{}, Options{Mode: "default", BooleanOptions: true, Notices: notices})
}

func syncFast(s *Session, state, reason string) string {
	var b strings.Builder
	for _, u := range s.SyncFast(state, reason) {
		b.Write(u)
		b.WriteByte('\n')
	}
	return b.String()
}

// Fast mode that the user had on and the CLI turns off for a reason it
// explains is said once, at the flip, before the option update: a warning
// notice with the reason sentence-cased, or for a client without notices
// the reference's transcript line, the reason as it reads on after the
// label.
func TestFastModeTurnedOff(t *testing.T) {
	s := fastSession(true)
	got := syncFast(s, "off", "free")
	lines := strings.Split(strings.TrimSpace(got), "\n")
	want := `{"description":"Not available on the free plan.","sessionUpdate":"notice","severity":"warning","title":"Fast mode turned off"}`
	if len(lines) != 2 || lines[0] != want || !strings.Contains(lines[1], `"sessionUpdate":"config_option_update"`) ||
		!strings.Contains(lines[1], `"description":"Faster responses on supported models — not available on the free plan","category":"model_config","type":"boolean","currentValue":false`) {
		t.Fatalf("the flip sent:\n%s\nwant the notice %s, then the option update", got, want)
	}
	if again := syncFast(s, "off", "free"); again != "" {
		t.Errorf("the same report again sent:\n%s", again)
	}
	if other := syncFast(s, "off", "network_error"); strings.Contains(other, "notice") || !strings.Contains(other, "network error") {
		t.Errorf("a new reason while off: %s", other)
	}

	line := syncFast(fastSession(false), "off", "extra_usage_disabled")
	if !strings.HasPrefix(line, `{"content":{"text":"**Fast mode turned off:** requires extra usage to be enabled for this account.","type":"text"},"sessionUpdate":"agent_message_chunk"}`) {
		t.Errorf("a client without notices got:\n%s", line)
	}
}

// No warning without a flip the user would miss: Fast mode already off,
// a reason not worth saying, a cooldown, a model without Fast mode, or no
// state at all; an unexplained routine reason changes nothing.
func TestFastModeSyncGuards(t *testing.T) {
	off := New(Init{Models: []Model{{Value: "opus", SupportsFastMode: true}}, FastModeState: "off", FastModeDisabledReason: "sdk_opt_in_required"},
		Settings{}, Options{Mode: "default", Notices: true})
	if got := syncFast(off, "off", "sdk_opt_in_required"); got != "" {
		t.Errorf("a routine report sent:\n%s", got)
	}
	if got := syncFast(off, "off", "free"); strings.Contains(got, "notice") || !strings.Contains(got, "config_option_update") {
		t.Errorf("Fast mode already off: %s", got)
	}
	if got := syncFast(fastSession(true), "off", "preference"); strings.Contains(got, "notice") || !strings.Contains(got, "config_option_update") {
		t.Errorf("turned off for an unexplained reason: %s", got)
	}
	for _, state := range []string{"", "cooldown", "on"} {
		if got := syncFast(fastSession(true), state, "free"); got != "" {
			t.Errorf("state %q sent:\n%s", state, got)
		}
	}
	s := fastSession(true)
	s.model = "haiku"
	if got := syncFast(s, "off", "free"); got != "" || !s.fast {
		t.Errorf("a model without Fast mode: %s (fast %v)", got, s.fast)
	}
}
