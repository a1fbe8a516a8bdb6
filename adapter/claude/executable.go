package claude

import (
	"errors"
	"os/exec"
)

// ErrNoExecutable is returned when no Claude CLI can be found; its text
// names the three places looked in.
var ErrNoExecutable = errors.New("cannot find the Claude Code CLI: pass --claude-path, set CLAUDE_CODE_EXECUTABLE, or put `claude` on PATH")

// Locator says where to look for the CLI. Zero funcs use the process's
// environment and exec.LookPath.
type Locator struct {
	// Flag is the --claude-path value ("" when not given).
	Flag     string
	Getenv   func(string) string
	LookPath func(string) (string, error)
}

// ResolveExecutable returns the CLI to spawn: --claude-path, else
// CLAUDE_CODE_EXECUTABLE (the reference's claudeCliPath), else `claude`
// on PATH, else ErrNoExecutable.
func ResolveExecutable(l Locator) (string, error) {
	if l.Flag != "" {
		return l.Flag, nil
	}
	getenv, lookPath := l.Getenv, l.LookPath
	if getenv == nil {
		getenv = osGetenv
	}
	if lookPath == nil {
		lookPath = exec.LookPath
	}
	if p := getenv("CLAUDE_CODE_EXECUTABLE"); p != "" {
		return p, nil
	}
	if p, err := lookPath("claude"); err == nil {
		return p, nil
	}
	return "", ErrNoExecutable
}
