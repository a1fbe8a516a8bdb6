//go:build unix

package cli

import (
	"bufio"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/airwire/airwire/internal/testroot"
)

// sessionNewError runs argv (an agent, or one behind airwire record) with
// env, sends initialize and session/new, and returns session/new's error
// message.
func sessionNewError(t *testing.T, dir string, env []string, argv ...string) string {
	t.Helper()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env, cmd.Dir, cmd.Stderr = append(os.Environ(), env...), dir, io.Discard
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { in.Close(); cmd.Wait() }()
	timer := time.AfterFunc(30*time.Second, func() { cmd.Process.Kill() })
	defer timer.Stop()
	io.WriteString(in, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1}}`+"\n"+
		`{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":`+jsonString(dir)+`,"mcpServers":[]}}`+"\n")
	sc := bufio.NewScanner(out)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var m struct {
			ID    *int `json:"id"`
			Error *struct {
				Message string `json:"message"`
			} `json:"error"`
		}
		if json.Unmarshal(sc.Bytes(), &m) == nil && m.ID != nil && *m.ID == 1 {
			if m.Error == nil {
				t.Fatalf("%v: session/new succeeded: %s", argv, sc.Text())
			}
			return m.Error.Message
		}
	}
	t.Fatalf("%v: no answer to session/new", argv)
	return ""
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// TestCLIStartFailureSaysWhy: a CLI that cannot start (missing, not
// executable, a directory, or one that exits at once) gets the editor the
// reason, without the path, and the agent behind `airwire record
// --cli-lane` says exactly what the bare agent says.
func TestCLIStartFailureSaysWhy(t *testing.T) {
	bin := testroot.Binary(t)
	dir := t.TempDir()
	home := filepath.Join(dir, "home-of-someone")
	noexec, failing, garbage := filepath.Join(dir, "noexec"), filepath.Join(dir, "failing"), filepath.Join(dir, "garbage")
	for p, text := range map[string]string{
		noexec:  "#!/bin/sh\n",
		failing: "#!/bin/sh\necho \"Error: cannot read $HOME/.claude/settings.json\" >&2\necho more >&2\nexit 3\n",
		garbage: "not a program\n",
	} {
		mode := os.FileMode(0o755)
		if p == noexec {
			mode = 0o644
		}
		if err := os.WriteFile(p, []byte(text), mode); err != nil {
			t.Fatal(err)
		}
	}
	const prefix = "Internal error: the Claude CLI did not start: "
	tests := []struct{ cli, want string }{
		{filepath.Join(dir, "missing"), "CLAUDE_CODE_EXECUTABLE names nothing (not found)"},
		{noexec, "CLAUDE_CODE_EXECUTABLE names a file that is not executable"},
		{dir, "CLAUDE_CODE_EXECUTABLE names a directory"},
		{failing, "it exited with status 3: Error: cannot read <path>"},
		{garbage, "its executable is not a program this system can run"},
	}
	for _, tt := range tests {
		t.Run(filepath.Base(tt.cli), func(t *testing.T) {
			env := []string{"HOME=" + home, "CLAUDE_CODE_EXECUTABLE=" + tt.cli}
			bare := sessionNewError(t, dir, env, bin, "agent")
			if bare != prefix+tt.want {
				t.Errorf("bare agent: %q, want %q", bare, prefix+tt.want)
			}
			if strings.Contains(bare, dir) {
				t.Errorf("the message carries a path of the machine: %q", bare)
			}
			rec := sessionNewError(t, dir, env, bin, "record", "--journal", filepath.Join(t.TempDir(), "j.jsonl"), "--cli-lane", "--", bin, "agent")
			if rec != bare {
				t.Errorf("behind airwire record --cli-lane: %q, the bare agent: %q", rec, bare)
			}
		})
	}
	flag := sessionNewError(t, dir, []string{"HOME=" + home}, bin, "agent", "--claude-path", dir)
	if flag != prefix+"--claude-path names a directory" {
		t.Errorf("--claude-path a directory: %q", flag)
	}
}

// TestCLISearchSameBehindRecorder: with no CLI named (no --claude-path, no
// CLAUDE_CODE_EXECUTABLE) the agent behind `airwire record --cli-lane`
// searches where the bare agent does: with nothing on PATH or where the
// installers put it, it gives the bare agent's reason; with a CLI in
// ~/.local/bin, it starts that one.
func TestCLISearchSameBehindRecorder(t *testing.T) {
	if _, err := os.Stat("/usr/local/bin/claude"); err == nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("/usr/local/bin/claude exists: the search would find it")
		}
		t.Skip("/usr/local/bin/claude exists: the search would find it")
	}
	bin := testroot.Binary(t)
	dir := t.TempDir()
	emptyPath := filepath.Join(dir, "empty-path")
	if err := os.Mkdir(emptyPath, 0o755); err != nil {
		t.Fatal(err)
	}
	installed := filepath.Join(dir, "installed")
	local := filepath.Join(installed, ".local", "bin")
	if err := os.MkdirAll(local, 0o755); err != nil {
		t.Fatal(err)
	}
	script := "#!/bin/sh\necho \"Error: the installed CLI ran\" >&2\nexit 4\n"
	if err := os.WriteFile(filepath.Join(local, "claude"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	const prefix = "Internal error: the Claude CLI did not start: "
	tests := []struct{ name, home, want string }{
		{"nowhere", filepath.Join(dir, "empty-home"), "cannot find it on PATH or in ~/.local/bin, ~/.claude/local, /usr/local/bin: " +
			"install Claude Code, pass --claude-path, or set CLAUDE_CODE_EXECUTABLE"},
		{"installed", installed, "it exited with status 4: Error: the installed CLI ran"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := []string{"HOME=" + tt.home, "PATH=" + emptyPath, "CLAUDE_CODE_EXECUTABLE=", "npm_config_prefix=", "PREFIX="}
			bare := sessionNewError(t, dir, env, bin, "agent")
			if bare != prefix+tt.want {
				t.Errorf("bare agent: %q, want %q", bare, prefix+tt.want)
			}
			rec := sessionNewError(t, dir, env, bin, "record", "--journal", filepath.Join(t.TempDir(), "j.jsonl"), "--cli-lane", "--", bin, "agent")
			if rec != bare {
				t.Errorf("behind airwire record --cli-lane: %q, the bare agent: %q", rec, bare)
			}
		})
	}
}
