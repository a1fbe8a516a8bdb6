package clistart

import (
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestNames(t *testing.T) {
	dir := t.TempDir()
	plain := filepath.Join(dir, "plain")
	exe := filepath.Join(dir, "exe")
	for p, mode := range map[string]os.FileMode{plain: 0o644, exe: 0o755} {
		if err := os.WriteFile(p, []byte("#!/bin/sh\n"), mode); err != nil {
			t.Fatal(err)
		}
	}
	tests := map[string]string{filepath.Join(dir, "nope"): "nothing (not found)", dir: "a directory", exe: ""}
	if runtime.GOOS != "windows" {
		tests[plain] = "a file that is not executable"
	}
	for p, want := range tests {
		if got := Names(os.Stat, p, runtime.GOOS); got != want {
			t.Errorf("Names(%s) = %q, want %q", filepath.Base(p), got, want)
		}
	}
}

func TestExec(t *testing.T) {
	_, err := exec.Command(filepath.Join(t.TempDir(), "nope")).Output()
	if got := Exec(err); got != "its executable was not found" {
		t.Errorf("a missing file: %q (%v)", got, err)
	}
	if got := Exec(&fs.PathError{Op: "fork/exec", Path: "/x", Err: fs.ErrPermission}); !strings.Contains(got, "permission denied") {
		t.Errorf("permission: %q", got)
	}
	if got := Exec(errors.New("odd")); got != "its process could not be created" {
		t.Errorf("other: %q", got)
	}
}

// TestExited: the status and the scrubbed first stderr line; a shim's
// line is its reason as it is.
func TestExited(t *testing.T) {
	tests := []struct {
		code      int
		signal    string
		first     string
		want      string
		notInWant string
	}{
		{3, "", "Error: --allow-dangerously-skip-permissions cannot be used with root/sudo privileges, see /home/alice/.claude/x.json\n",
			"it exited with status 3: Error: --allow-dangerously-skip-permissions cannot be used with root/sudo privileges, see <path>", "alice"},
		{1, "", "auth: token abcdef0123456789abcdef0123456789 rejected", "it exited with status 1: auth: token <redacted> rejected", "abcdef"},
		{1, "", "", "it exited with status 1", ""},
		{-1, "SIGKILL", "", "it was ended by signal SIGKILL", ""},
		{1, "", `token="sk-ant-api03-abcdefghijklmnop" at C:\Users\bob\x`, `it exited with status 1: token="<redacted>" at <path>`, "bob"},
		{127, "", ShimLine(Given("CLAUDE_CODE_EXECUTABLE", "a directory")), "CLAUDE_CODE_EXECUTABLE names a directory", ""},
	}
	for _, tt := range tests {
		got := Exited(tt.code, tt.signal, tt.first)
		if got != tt.want || tt.notInWant != "" && strings.Contains(got, tt.notInWant) {
			t.Errorf("Exited(%d, %q, %q) = %q, want %q", tt.code, tt.signal, tt.first, got, tt.want)
		}
	}
	if got := Scrub(strings.Repeat("é", 300)); len([]rune(got)) != maxLine+1 {
		t.Errorf("a long line is %d runes", len([]rune(got)))
	}
}
