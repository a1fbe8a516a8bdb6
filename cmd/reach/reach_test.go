package reach

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airwire/airwire/cmd/factory"
	"github.com/airwire/airwire/conform/reach"
)

// coverage writes a dist/ with one module of two functions, one of which
// ran, and the coverage file of the one process that loaded it.
func coverage(t *testing.T) (covDir, dist string) {
	t.Helper()
	root := t.TempDir()
	dist = filepath.Join(root, "claude-agent-acp", "dist")
	src := "function ran() {}\nfunction idle() {}\n"
	if err := os.MkdirAll(filepath.Join(dist, "permissions"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dist, "permissions", "m.js"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	cov := `{"result":[{"url":"file://` + filepath.ToSlash(dist) + `/permissions/m.js","functions":[
		{"functionName":"","isBlockCoverage":true,"ranges":[{"startOffset":0,"endOffset":37,"count":1}]},
		{"functionName":"ran","isBlockCoverage":true,"ranges":[{"startOffset":0,"endOffset":17,"count":1}]},
		{"functionName":"idle","isBlockCoverage":false,"ranges":[{"startOffset":18,"endOffset":36,"count":0}]}]}]}`
	covDir = filepath.Join(root, "cov")
	if err := os.Mkdir(covDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(covDir, "coverage-1-1-0.json"), []byte(cov), 0o644); err != nil {
		t.Fatal(err)
	}
	return covDir, dist
}

// airwire reach prints the table and writes the JSON report; the
// unexecuted function is named with its line in both.
func TestReach(t *testing.T) {
	covDir, dist := coverage(t)
	var out, errOut bytes.Buffer
	f := factory.New("test", factory.WithIO(nil, &out, &errOut))
	jsonPath := filepath.Join(t.TempDir(), "out", "reach.json")
	cmd := NewCmdReach(f, nil)
	cmd.SetArgs([]string{covDir, "--json", jsonPath})
	if err := cmd.Execute(); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "permissions/m.js") || !strings.Contains(out.String(), "  2-2\tidle\n") {
		t.Errorf("stdout:\n%s", out.String())
	}
	data, err := os.ReadFile(jsonPath)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"functions": {
        "executed": 1,
        "total": 2,
        "percent": 50
      }`) {
		t.Errorf("the JSON lacks the module's function counts and percentage:\n%s", data)
	}
	var rep reach.Report
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatal(err)
	}
	m := rep.Modules[0]
	if rep.Dist != dist || m.Name != "permissions/m.js" || m.Area != "permissions" || m.Functions != (reach.Count{Executed: 1, Total: 2}) ||
		len(m.Uncovered) != 1 || m.Uncovered[0] != (reach.Function{Name: "idle", Line: 2, EndLine: 2}) {
		t.Errorf("report %+v", rep)
	}
}

// --module reports the modules it names and their sum, without the rule
// table; a pattern that names no module fails.
func TestReachModule(t *testing.T) {
	covDir, _ := coverage(t)
	var out bytes.Buffer
	f := factory.New("test", factory.WithIO(nil, &out, &bytes.Buffer{}))
	cmd := NewCmdReach(f, nil)
	cmd.SetArgs([]string{covDir, "--module", "permissions/*"})
	if err := cmd.Execute(); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "selected modules (permissions/*)  1/2") || strings.Contains(out.String(), "Rule table") {
		t.Errorf("stdout:\n%s", out.String())
	}
	cmd = NewCmdReach(f, nil)
	cmd.SetArgs([]string{covDir, "--module", "v2/*"})
	cmd.SilenceUsage, cmd.SilenceErrors = true, true
	if err := cmd.Execute(); err == nil || !strings.Contains(err.Error(), "matches no module") {
		t.Errorf("a pattern that names no module: err = %v", err)
	}
}

// Without an argument the command is a usage error; a directory without
// coverage fails and says why.
func TestReachErrors(t *testing.T) {
	f := factory.New("test", factory.WithIO(nil, &bytes.Buffer{}, &bytes.Buffer{}))
	cmd := NewCmdReach(f, func(*ReachOptions) error { t.Fatal("ran without a directory"); return nil })
	cmd.SetArgs([]string{}) // nil would make cobra read the test binary's own flags
	cmd.SilenceUsage, cmd.SilenceErrors = true, true
	if err := cmd.Execute(); err == nil {
		t.Error("no error without COVERAGE_DIR")
	}
	cmd = NewCmdReach(f, nil)
	cmd.SetArgs([]string{t.TempDir()})
	cmd.SilenceUsage, cmd.SilenceErrors = true, true
	if err := cmd.Execute(); err == nil || !strings.Contains(err.Error(), "NODE_V8_COVERAGE") {
		t.Errorf("err = %v", err)
	}
}
