package adapter

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/airwire/airwire/adapter/claude"
)

// fakeControlAnswer is the test CLI's answer to a control request: empty,
// but initialize carries claude_code_version when ADAPTER_TEST_CLI_VERSION
// names one.
func fakeControlAnswer(req []byte) string {
	if v := os.Getenv("ADAPTER_TEST_CLI_VERSION"); v != "" && bytes.Contains(req, []byte(`"subtype":"initialize"`)) {
		return fmt.Sprintf(`{"claude_code_version":%q}`, v)
	}
	if v := os.Getenv("ADAPTER_TEST_CLI_INIT"); v != "" && bytes.Contains(req, []byte(`"subtype":"initialize"`)) {
		return v
	}
	if f := os.Getenv("ADAPTER_TEST_MCP_AUTH"); f != "" {
		return fakeMCPAuth(f, req)
	}
	return "{}"
}

// fakeMCPAuth answers as Claude Code with one server, gh, that needs an
// OAuth sign-in until the file signedIn says "done".
func fakeMCPAuth(signedIn string, req []byte) string {
	switch {
	case bytes.Contains(req, []byte(`"subtype":"mcp_status"`)):
		status := "needs-auth"
		if b, _ := os.ReadFile(signedIn); string(b) == "done" {
			status = "connected"
		}
		return `{"mcpServers":[{"name":"gh","status":"` + status + `"},{"name":"mine","status":"needs-auth"}]}`
	case bytes.Contains(req, []byte(`"subtype":"mcp_authenticate"`)) && bytes.Contains(req, []byte(`"serverName":"gh"`)):
		return `{"requiresUserAction":true,"authUrl":"https://auth.example/gh"}`
	}
	return "{}"
}

func appendLine(path, line string) {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return
	}
	defer f.Close()
	fmt.Fprintln(f, line)
}

// versionCLI starts an agent whose test CLI reports version and records
// the CLAUDE_AGENT_SDK_VERSION of each start in the returned file.
func versionCLI(t *testing.T, version string) (*editor, string) {
	t.Helper()
	t.Setenv("ADAPTER_TEST_CLI_VERSION", version)
	sdk := t.TempDir() + "/sdk"
	t.Setenv("ADAPTER_TEST_SDK_FILE", sdk)
	return startAgent(t, "ok"), sdk
}

// updatesUntil collects the session/update params until the reply to id.
func (e *editor) updatesUntil(id float64) []string {
	e.t.Helper()
	var out []string
	e.replyAfter(id, func(m map[string]any) {
		if m["method"] == "session/update" {
			out = append(out, fmt.Sprint(m["params"]))
		}
	})
	return out
}

func (e *editor) newSession(id float64) {
	e.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%v,"method":"session/new","params":{"cwd":%q,"mcpServers":[]}}`, id, e.t.TempDir()))
	e.reply(id)
}

// A CLI inside the supported range is logged with its version, gets the
// SDK version that ships it from its second start on, and the editor sees
// no warning.
func TestCLIVersionLoggedAndSDKVersionMatches(t *testing.T) {
	e, sdk := versionCLI(t, "2.1.320")
	e.openSession()
	e.newSession(2)
	e.send(`{"jsonrpc":"2.0","id":3,"method":"session/list","params":{}}`)
	for _, u := range e.updatesUntil(3) {
		if strings.Contains(u, "Warning") || strings.Contains(u, "2.1.320") {
			t.Errorf("a supported CLI got an editor notice: %s", u)
		}
	}
	if log := e.log.String(); !strings.Contains(log, `msg="the Claude CLI started" session=`) || !strings.Contains(log, "version=2.1.320 sdk_version=0.3.320") {
		t.Errorf("the CLI's version is not logged:\n%s", log)
	}
	b, _ := os.ReadFile(sdk)
	if got, want := strings.Fields(string(b)), []string{claude.SDKVersion, "0.3.320"}; strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("CLAUDE_AGENT_SDK_VERSION of the two starts = %q, want %q (the first start does not know the version yet)", got, want)
	}
}

// A CLI outside the supported range is logged as a warning and the editor
// sees it once, after the session/new answer: a transcript line for a
// client without sessionFailure.
func TestCLIVersionOutsideTheRangeIsWarned(t *testing.T) {
	e, _ := versionCLI(t, "2.0.99")
	e.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{}}}`)
	e.reply(0)
	e.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":%q,"mcpServers":[]}}`, t.TempDir()))
	e.reply(1)
	e.send(`{"jsonrpc":"2.0","id":2,"method":"session/list","params":{}}`)
	var warned int
	for _, u := range e.updatesUntil(2) {
		if strings.Contains(u, "agent_message_chunk") && strings.Contains(u, "**Warning:** Claude Code 2.0.99 is outside the versions this agent supports ("+claude.SupportedRange()+")") {
			warned++
		}
	}
	if warned != 1 {
		t.Errorf("the editor got %d warnings about CLI 2.0.99, want 1", warned)
	}
	if log := e.log.String(); !strings.Contains(log, `level=WARN msg="the Claude CLI's version is outside the supported range"`) || !strings.Contains(log, "version=2.0.99") {
		t.Errorf("the unsupported version is not logged as a warning:\n%s", log)
	}
}

// For an AIR client that declared sessionFailure the warning is an
// advisory notice record in a session_info_update.
func TestCLIVersionOutsideTheRangeIsANoticeForSessionFailure(t *testing.T) {
	e, _ := versionCLI(t, "2.1.400")
	e.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{"_meta":{"jetbrains":{"air":{"version":1,"capabilities":["sessionFailure"]}}}}}}`)
	e.reply(0)
	e.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":%q,"mcpServers":[]}}`, t.TempDir()))
	e.reply(1)
	e.send(`{"jsonrpc":"2.0","id":2,"method":"session/list","params":{}}`)
	var notice string
	for _, u := range e.updatesUntil(2) {
		if strings.Contains(u, "2.1.400") {
			notice = u
		}
	}
	if !strings.Contains(notice, "session_info_update") || !strings.Contains(notice, "sessionFailure") || !strings.Contains(notice, "severity:warning") {
		t.Errorf("the AIR client's warning = %q, want a sessionFailure warning in a session_info_update", notice)
	}
}
