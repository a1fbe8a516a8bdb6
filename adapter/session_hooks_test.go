package adapter

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/airwire/airwire/adapter/claude"
)

// Contract "Session hooks": the hooks of _meta.claudeCode.options.settings
// (an object, or a JSON file relative to the cwd) reach that session's CLI
// as its flag settings, --settings; no settings, no flag.
func TestSessionHooksReachTheFlagSettings(t *testing.T) {
	hooks := `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"echo done"}]}]}}`
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "hooks.json"), []byte("{\n  \"hooks\": {\"Stop\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"echo done\"}]}]}\n}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for name, meta := range map[string]string{
		"object": `{"claudeCode":{"options":{"settings":` + hooks + `}}}`,
		"file":   `{"claudeCode":{"options":{"settings":"hooks.json"}}}`,
	} {
		got, err := sessionSettings(json.RawMessage(meta), dir)
		if err != nil || got != hooks {
			t.Fatalf("%s: %q, %v", name, got, err)
		}
		spawn, err := claude.ReferenceOptions(claude.SessionStart{SessionID: "s", Settings: got, Meta: json.RawMessage(meta)})
		if err != nil {
			t.Fatal(err)
		}
		args := claude.Args(spawn)
		if i := slices.Index(args, "--settings"); i < 0 || args[i+1] != hooks {
			t.Errorf("%s: argv %v has no --settings with the hooks", name, args)
		}
	}
	if got, err := sessionSettings(json.RawMessage(`{"claudeCode":{"options":{"maxTurns":1}}}`), dir); got != "" || err != nil {
		t.Errorf("no settings: %q, %v", got, err)
	}
	if _, err := sessionSettings(json.RawMessage(`{"claudeCode":{"options":{"settings":"missing.json"}}}`), dir); err == nil {
		t.Error("a missing settings file must fail the session")
	}
}

// The auth status probe runs in the last session's context, as the
// reference's does: its flag settings go before the subcommand (a global
// option; the CLI refuses it after `auth status`), and none means the
// bare probe. Pinned on the wire by the session-hooks scenario.
func TestAuthProbeCarriesTheSessionSettings(t *testing.T) {
	bare := authContext{cwd: "/w"}.probeArgs()
	if !slices.Equal(bare, []string{"auth", "status", "--json"}) {
		t.Errorf("no settings: %v", bare)
	}
	got := authContext{settings: `{"hooks":{}}`, cwd: "/w"}.probeArgs()
	if want := []string{"--settings", `{"hooks":{}}`, "auth", "status", "--json"}; !slices.Equal(got, want) {
		t.Errorf("with settings: %v, want %v", got, want)
	}
}

// A session opened while the agent's first auth status probe runs, in a
// context that reads the login otherwise (its own environment leaves no
// ANTHROPIC_API_KEY, and its settings' apiKeyHelper starts the JetBrains
// Air gateway's proxy), has the probe run again there; the answer of the
// old context is never pushed. Pinned on the wire by the
// auth-status-api-key-helper scenario.
func TestAuthProbeRunsAgainInANewContext(t *testing.T) {
	t.Setenv("ADAPTER_TEST_AUTH", "400ms")
	t.Setenv("ANTHROPIC_API_KEY", "sk-ant-test")
	e := startAgent(t, "plain")
	cwd := t.TempDir()
	if err := os.MkdirAll(filepath.Join(cwd, ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	helper := `{"apiKeyHelper": "echo sk-ant-helper # central proxy start"}`
	if err := os.WriteFile(filepath.Join(cwd, ".claude", "settings.json"), []byte(helper), 0o644); err != nil {
		t.Fatal(err)
	}
	statuses, note := e.initializeNotingStatus()
	cwdJSON, _ := json.Marshal(cwd)
	e.send(`{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":` + string(cwdJSON) +
		`,"mcpServers":[],"_meta":{"claudeCode":{"options":{"env":{"ANTHROPIC_API_KEY":""}}}}}}`)
	e.replyAfter(1, note)
	e.await("a status update", func(m map[string]any) bool { note(m); return len(*statuses) > 0 }, note)
	if len(*statuses) != 1 || !strings.Contains((*statuses)[0], "JetBrains Air Gateway") {
		t.Errorf("status updates %q, want only the JetBrains Air Gateway's", *statuses)
	}
}

// TestSessionAccountIsPublished: the account a session's CLI reports in
// its initialize answer becomes the client's login state when the auth
// status probe says nothing (here: it prints nothing), as the reference
// publishes a session's identity.
func TestSessionAccountIsPublished(t *testing.T) {
	t.Setenv("ADAPTER_TEST_CLI_INIT", `{"account":{"tokenSource":"none","apiKeySource":"ANTHROPIC_API_KEY","apiProvider":"firstParty"}}`)
	e := startAgent(t, "plain")
	statuses, note := e.initializeNotingStatus()
	cwdJSON, _ := json.Marshal(t.TempDir())
	e.send(`{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":` + string(cwdJSON) + `,"mcpServers":[]}}`)
	e.replyAfter(1, note)
	if len(*statuses) != 1 || !strings.Contains((*statuses)[0], "Anthropic API key") {
		t.Errorf("status updates %q, want the session account's API key login, before the session/new answer", *statuses)
	}
}

// initializeNotingStatus initializes the agent as a plain client; note
// collects into statuses the params of each _auth/status_update among the
// messages it is given, from the initialize answer on.
func (e *editor) initializeNotingStatus() (statuses *[]string, note func(map[string]any)) {
	statuses = new([]string)
	note = func(m map[string]any) {
		if m["method"] == "_auth/status_update" {
			*statuses = append(*statuses, fmt.Sprint(m["params"]))
		}
	}
	e.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{}}}`)
	e.replyAfter(0, note)
	return statuses, note
}
