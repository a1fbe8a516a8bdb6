package conform

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airwire/airwire/schemas/validate"
)

func TestUnknownAgentErrors(t *testing.T) {
	known := []KnownFinding{
		{Rule: "air-unknown-key", Pointer: "/params/update/_meta/jetbrains/air/mcp", Runs: []string{"mcp-tool/air"}, Deviation: "3"},
		{Rule: "diff-patch-text", Pointer: "/params/update/content/", Deviation: "9"},
	}
	f := func(rule, ptr string, sev validate.Severity) validate.Finding {
		return validate.Finding{Rule: rule, Pointer: ptr, Severity: sev, Dir: validate.DirAgent}
	}
	tests := []struct {
		name string
		run  string
		f    validate.Finding
		bad  bool
	}{
		{"listed in its run", "mcp-tool/air", f("air-unknown-key", "/params/update/_meta/jetbrains/air/mcp", validate.SeverityError), false},
		{"listed, other run", "bash-foreground/air", f("air-unknown-key", "/params/update/_meta/jetbrains/air/mcp", validate.SeverityError), true},
		{"other pointer", "mcp-tool/air", f("air-unknown-key", "/params/update/_meta/jetbrains/air/zzz", validate.SeverityError), true},
		{"pointer prefix", "any/air", f("diff-patch-text", "/params/update/content/0/_meta", validate.SeverityError), false},
		{"unlisted rule", "any/air", f("permission-option-id", "/params/options/0/optionId", validate.SeverityError), true},
		{"warnings never fail", "any/air", f("air-capability-unknown", "/result/_meta", validate.SeverityWarning), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := unknownAgentErrors(tt.run, []validate.Finding{tt.f}, known)
			if (len(got) > 0) != tt.bad {
				t.Fatalf("unknown errors %q, want failing=%v", got, tt.bad)
			}
		})
	}
}

func TestLoadKnownFindings(t *testing.T) {
	dir := t.TempDir()
	if k, err := LoadKnownFindings(dir); err != nil || len(k) != 0 {
		t.Fatalf("missing file: %v %v", k, err)
	}
	bad := t.TempDir()
	os.WriteFile(filepath.Join(bad, KnownFindingsFile), []byte(`[{"rule":"x","pointer":"/a"}]`), 0o644)
	if _, err := LoadKnownFindings(bad); err == nil || !strings.Contains(err.Error(), "DEVIATIONS.md") {
		t.Fatalf("an entry without its deviation must be rejected: %v", err)
	}
	k, err := LoadKnownFindings(goldensDir)
	if err != nil || len(k) == 0 {
		t.Fatalf("the committed list: %v %v", k, err)
	}
}
