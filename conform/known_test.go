package conform

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airwire/airwire/internal/journal"
	"github.com/airwire/airwire/schemas/validate"
)

func TestUnknownAgentErrors(t *testing.T) {
	ref := AgentID{"@agentclientprotocol/claude-agent-acp", "0.101.0"}
	known := []KnownFinding{
		{Rule: "air-unknown-key", Pointer: "/params/update/_meta/jetbrains/air/mcp", Runs: []string{"mcp-tool/air"}, Agent: ref.Name, Version: ref.Version, Deviation: "3"},
		{Rule: "diff-patch-text", Pointer: "/params/update/content/", Agent: ref.Name, Version: ref.Version, Deviation: "9"},
	}
	f := func(rule, ptr string, sev validate.Severity) validate.Finding {
		return validate.Finding{Rule: rule, Pointer: ptr, Severity: sev, Dir: validate.DirAgent}
	}
	tests := []struct {
		name  string
		run   string
		agent AgentID
		f     validate.Finding
		bad   bool
	}{
		{"listed in its run", "mcp-tool/air", ref, f("air-unknown-key", "/params/update/_meta/jetbrains/air/mcp", validate.SeverityError), false},
		{"listed, other run", "bash-foreground/air", ref, f("air-unknown-key", "/params/update/_meta/jetbrains/air/mcp", validate.SeverityError), true},
		{"other pointer", "mcp-tool/air", ref, f("air-unknown-key", "/params/update/_meta/jetbrains/air/zzz", validate.SeverityError), true},
		{"pointer prefix", "any/air", ref, f("diff-patch-text", "/params/update/content/0/_meta", validate.SeverityError), false},
		{"unlisted rule", "any/air", ref, f("permission-option-id", "/params/options/0/optionId", validate.SeverityError), true},
		{"warnings never fail", "any/air", ref, f("air-capability-unknown", "/result/_meta", validate.SeverityWarning), false},
		{"another agent, listed run", "mcp-tool/air", AgentID{"airwire", "0.1.0"}, f("air-unknown-key", "/params/update/_meta/jetbrains/air/mcp", validate.SeverityError), true},
		{"another agent, any run", "any/air", AgentID{"airwire", "0.1.0"}, f("diff-patch-text", "/params/update/content/0/_meta", validate.SeverityError), true},
		{"the reference's name, another version", "mcp-tool/air", AgentID{ref.Name, "0.102.0"}, f("air-unknown-key", "/params/update/_meta/jetbrains/air/mcp", validate.SeverityError), true},
		{"no initialize answer", "mcp-tool/air", AgentID{}, f("air-unknown-key", "/params/update/_meta/jetbrains/air/mcp", validate.SeverityError), true},
		{"another agent, warnings", "any/air", AgentID{"airwire", "0.1.0"}, f("air-capability-unknown", "/result/_meta", validate.SeverityWarning), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := unknownAgentErrors(tt.run, tt.agent, []validate.Finding{tt.f}, known)
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
	noAgent := t.TempDir()
	os.WriteFile(filepath.Join(noAgent, KnownFindingsFile), []byte(`[{"rule":"x","pointer":"/a","deviation":"3"}]`), 0o644)
	if _, err := LoadKnownFindings(noAgent); err == nil || !strings.Contains(err.Error(), "agent name and version") {
		t.Fatalf("an entry without the agent it was seen from must be rejected: %v", err)
	}
	k, err := LoadKnownFindings(goldensDir)
	if err != nil || len(k) == 0 {
		t.Fatalf("the committed list: %v %v", k, err)
	}
	for _, e := range k {
		if e.Agent != "@agentclientprotocol/claude-agent-acp" {
			t.Errorf("known finding %s at %s is listed for %q: known findings describe the reference only", e.Rule, e.Pointer, e.Agent)
		}
	}
}

func TestRunAgent(t *testing.T) {
	entries := []journal.Entry{
		{Kind: journal.KindMsg, Lane: journal.LaneClient, Dir: journal.DirEditor, Method: "initialize", Msg: json.RawMessage(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}`)},
		{Kind: journal.KindMsg, Lane: journal.LaneCLI, Dir: journal.DirAgent, Method: "initialize", Msg: json.RawMessage(`{"result":{"agentInfo":{"name":"cli","version":"9"}}}`)},
		{Kind: journal.KindMsg, Lane: journal.LaneClient, Dir: journal.DirAgent, Method: "initialize", Msg: json.RawMessage(`{"jsonrpc":"2.0","id":0,"result":{"agentInfo":{"name":"airwire","title":"Claude Agent","version":"0.1.0"}}}`)},
	}
	if got := RunAgent(entries); got != (AgentID{"airwire", "0.1.0"}) {
		t.Fatalf("RunAgent = %+v, want airwire 0.1.0", got)
	}
	if got := RunAgent(entries[:2]); got != (AgentID{}) {
		t.Fatalf("no initialize answer: RunAgent = %+v, want none", got)
	}
	v2 := journal.Entry{Kind: journal.KindMsg, Lane: journal.LaneClient, Dir: journal.DirAgent, Method: "initialize",
		Msg: json.RawMessage(`{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":2,"info":{"name":"airwire","version":"0.2.0"}}}`)}
	if got := RunAgent([]journal.Entry{v2}); got != (AgentID{"airwire", "0.2.0"}) {
		t.Fatalf("ACP v2 initialize answer: RunAgent = %+v, want airwire 0.2.0 from its info", got)
	}
}

func TestAgentNameOfBothVersions(t *testing.T) {
	for _, c := range []struct{ answer, want string }{
		{`{"id":0,"jsonrpc":"2.0","result":{"agentInfo":{"name":"airwire","version":"1"},"protocolVersion":1}}`, "airwire"},
		{`{"id":0,"jsonrpc":"2.0","result":{"info":{"name":"airwire","version":"1"},"protocolVersion":2}}`, "airwire"},
		{`{"id":0,"jsonrpc":"2.0","result":{"protocolVersion":2}}`, ""},
	} {
		tr := newTranscript([]byte(TagEditorToAgent + ` {"id":0,"jsonrpc":"2.0","method":"initialize","params":{}}` + "\n" + TagAgentToEditor + " " + c.answer + "\n"))
		if got := tr.agentName(); got != c.want {
			t.Errorf("agentName of %s = %q, want %q", c.answer, got, c.want)
		}
	}
}
