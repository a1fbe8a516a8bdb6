package main

import (
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/airwire/airwire/internal/testroot"
)

// initSymbol is a package init function of this module, as `go tool nm`
// names it: pkg.init, pkg.init.N (an init func or var initializers) and
// pkg.map.init.N (a map literal).
var initSymbol = regexp.MustCompile(`^github\.com/airwire/airwire/\S+\.(map\.)?init(\.\d+)?$`)

// agentprocsInit is the one init on purpose: cmd/internal/agentprocs.
const agentprocsInit = "github.com/airwire/airwire/cmd/internal/agentprocs.init.0"

// TestMain removes the airwire binary the tests built (testroot.Binary).
func TestMain(m *testing.M) {
	os.Exit(testroot.RunTests(m))
}

// TestNoPackageInitCode: no package of airwire has init code. Every
// package's init code runs at every start of the one binary, whatever the
// verb, and maps its page of the binary: `airwire agent` paid some 0.6 MiB
// of resident memory for the tables of the conformance suite, the
// validator and the fake CLI (issue 9, RSS after session/new). Tables are
// static data instead: internal/lookup (Set, Map, Lazy), internal/lazyre,
// switches, arrays and constants.
func TestNoPackageInitCode(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := testroot.Binary(t)
	out, err := exec.Command("go", "tool", "nm", bin).Output()
	if err != nil {
		t.Fatalf("go tool nm: %v", err)
	}
	var found []string
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.Fields(line)
		if len(f) == 3 && f[1] == "T" && initSymbol.MatchString(f[2]) && f[2] != agentprocsInit {
			found = append(found, f[2])
		}
	}
	if len(found) > 0 {
		t.Errorf("package init code in the binary (a package-level map literal, call or regexp.MustCompile; "+
			"see `go tool objdump -s SYMBOL` for its source lines):\n  %s", strings.Join(found, "\n  "))
	}
}
