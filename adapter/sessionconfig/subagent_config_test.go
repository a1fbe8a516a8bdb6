package sessionconfig

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/airwire/airwire/conform/goldentest"
	"github.com/airwire/airwire/internal/testroot"
)

// TestSubagentModelEntry matches a child's response model against the
// root session's model list of a recorded run (contract "Native subagent
// sessions"): the current entry when it runs that model up to a context
// hint, else the entry whose value or resolved model it is, a concrete
// entry before `default`; no entry for an unknown model.
func TestSubagentModelEntry(t *testing.T) {
	c := goldentest.LoadCassette(t, filepath.Join(testroot.Root(t), "goldens", "subagent-native-sessions", "air.golden"))
	a := answersOf(t, c.Processes[0])
	if !a.hasInit {
		t.Fatal("no initialize answer in the cassette")
	}
	s := New(a.init, a.settings, goldenOptions)
	for _, c := range []struct{ model, current, want string }{
		{"claude-opus-5-5", "opus", "opus/Opus 5.5"},
		{"claude-opus-5-5[1m]", "opus", "opus/Opus 5.5"},
		{"claude-opus-5-5-1m", "opus", "opus/Opus 5.5"},
		{"claude-sonnet-5-5", "opus", "sonnet/Sonnet 5.5"},
		{"sonnet", "opus", "sonnet/Sonnet 5.5"},
		{"claude-opus-5-5", "default", "default/Default (recommended)"},
		{"claude-opus-5-5", "sonnet", "opus/Opus 5.5"},
		{"claude-unknown-1", "opus", ""},
	} {
		s.model = c.current
		v, n, ok := s.SubagentModelEntry(c.model)
		got := ""
		if ok {
			got = v + "/" + n
		}
		if got != c.want {
			t.Errorf("%s on %s: %q, want %q", c.model, c.current, got, c.want)
		}
	}
	if !strings.Contains(string(s.SubagentModeOption("auto")), `"value":"auto"`) ||
		!strings.Contains(string(s.SubagentModeOption("dontAsk")), `"options":[{"value":"dontAsk","name":"dontAsk"}]`) {
		t.Errorf("mode options: %s %s", s.SubagentModeOption("auto"), s.SubagentModeOption("dontAsk"))
	}
}
