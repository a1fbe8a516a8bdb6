package conform

import (
	"errors"
	"strings"
	"testing"

	"github.com/airwire/airwire/cmd/cmdutil"
)

// TestAgentLineReferenceNotInstalled: outside a checkout, --reference (and
// --update without --agent) says exactly what installs the reference: the
// two variables, or make deps in a checkout; never --agent, which
// --reference excludes.
func TestAgentLineReferenceNotInstalled(t *testing.T) {
	t.Chdir(t.TempDir())
	for _, o := range []ConformOptions{{Reference: true}, {Update: true}} {
		o.Getenv = func(string) string { return "" }
		_, err := agentLine(&o)
		var fe *cmdutil.FlagError
		if !errors.As(err, &fe) {
			t.Fatalf("%+v: err = %v, want a usage error", o, err)
		}
		msg := err.Error()
		for _, want := range []string{"AIRWIRE_NODE", "AIRWIRE_REFERENCE_ADAPTER", "make deps in an airwire checkout"} {
			if !strings.Contains(msg, want) {
				t.Errorf("%q lacks %q", msg, want)
			}
		}
		if o.Reference && (strings.Contains(msg, "--agent") || strings.Contains(msg, "AIRWIRE_CONFORM_AGENT")) {
			t.Errorf("--reference suggests what it excludes: %q", msg)
		}
	}
}
