package sessionfailure

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/airwire/airwire/adapter/refjs"
)

// referencePolicyRow is one row of the reference's failure policy table
// in its dist/session-failure-extension.js.
var referencePolicyRow = regexp.MustCompile(`(?m)^\s*(\w+): \{\s*category: "(\w+)",\s*actions: \[([^\]]*)\],\s*fallbackTitle: "([^"]*)",`)

// The category, the actions and the fallback title of every kind are the
// reference's own (read from the installed reference, make deps).
func TestPoliciesAreTheReferences(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(refjs.Dist(t), "session-failure-extension.js"))
	if err != nil {
		t.Fatal(err)
	}
	rows := referencePolicyRow.FindAllStringSubmatch(string(src), -1)
	seen := 0
	for _, row := range rows {
		kind := Kind(row[1])
		if kind == AuthRequired {
			continue // no record: the prompt ends with authRequired
		}
		seen++
		var actions []string
		for _, a := range strings.Split(row[3], ",") {
			if a = strings.Trim(strings.TrimSpace(a), `"`); a != "" {
				actions = append(actions, a)
			}
		}
		got := policyOf(kind)
		if got.category != row[2] || strings.Join(got.actions, ",") != strings.Join(actions, ",") || got.fallback != row[4] {
			t.Errorf("%s: ours %q %q %q, the reference's %q %q %q", kind, got.category, got.actions, got.fallback, row[2], actions, row[4])
		}
	}
	if seen != len(policies) {
		t.Errorf("the reference has %d kinds with a record (%d rows read), we have %d", seen, len(rows), len(policies))
	}
}
