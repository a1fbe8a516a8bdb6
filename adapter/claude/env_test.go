package claude

import (
	"slices"
	"testing"
)

// TestEnv: the names the reference's child got in the peer capture
// (research: peer-capture/real-cli-env-names.txt) are the agent's own plus
// CLAUDE_AGENT_SDK_VERSION, CLAUDE_CODE_EMIT_SESSION_STATE_EVENTS,
// CLAUDE_CODE_ENABLE_SDK_FILE_CHECKPOINTING (an AIR client with file-change
// reports), CLAUDE_CODE_ENTRYPOINT, CLAUDE_CODE_SDK_READS_SESSION_STATE and
// CLAUDE_CODE_STARTUP_FAILURE_RESULTS.
func TestEnv(t *testing.T) {
	base := []string{"HOME=/h", "PATH=/bin", "NODE_OPTIONS=--inspect", "DEBUG=x", "CLAUDE_CODE_EMIT_SESSION_STATE_EVENTS=0"}
	got := Env(base, EnvOptions{Session: []string{"ANTHROPIC_BASE_URL=http://x", "HOME=/session"}, FileCheckpointing: true})
	want := []string{"HOME=/session", "PATH=/bin", "CLAUDE_CODE_EMIT_SESSION_STATE_EVENTS=1", "ANTHROPIC_BASE_URL=http://x",
		"CLAUDE_CODE_STARTUP_FAILURE_RESULTS=1", "CLAUDE_CODE_ENTRYPOINT=sdk-ts", "CLAUDE_AGENT_SDK_VERSION=0.3.318",
		"CLAUDE_CODE_ENABLE_SDK_FILE_CHECKPOINTING=true", "CLAUDE_CODE_SDK_READS_SESSION_STATE=1"}
	if !slices.Equal(got, want) {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

func TestEnvKeepsWhatIsSet(t *testing.T) {
	base := []string{"CLAUDE_CODE_ENTRYPOINT=mine", "claude_code_sdk_reads_session_state=0", "DEBUG_CLAUDE_AGENT_SDK=yes", "CLAUDE_AGENT_SDK_VERSION="}
	got := Env(base, EnvOptions{})
	want := []string{"CLAUDE_CODE_ENTRYPOINT=mine", "claude_code_sdk_reads_session_state=0", "DEBUG_CLAUDE_AGENT_SDK=yes",
		"CLAUDE_AGENT_SDK_VERSION=0.3.318", "CLAUDE_CODE_EMIT_SESSION_STATE_EVENTS=1", "CLAUDE_CODE_STARTUP_FAILURE_RESULTS=1", "DEBUG=1"}
	if !slices.Equal(got, want) {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}
