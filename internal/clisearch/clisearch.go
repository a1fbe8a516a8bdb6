// Package clisearch finds the Claude Code CLI to start: --claude-path,
// else CLAUDE_CODE_EXECUTABLE, else `claude` on PATH, else where Claude
// Code's installers put it. The bare agent (adapter/claude) and the
// recording proxy's CLI shim (`airwire record --cli-lane`) search alike,
// so both start the same CLI and, when there is none, give the editor the
// same reason (NotFoundError.Reason). The search is a function of the
// platform, home, environment and a stat func, so every platform's runs
// in a test.
package clisearch

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"runtime"
	"strings"

	"github.com/airwire/airwire/internal/clistart"
	"github.com/airwire/airwire/internal/pathstyle"
)

// ErrNoExecutable is what every failure to find the Claude CLI is (a
// *NotFoundError says where it looked).
var ErrNoExecutable = errors.New("cannot find the Claude Code CLI")

// NotFoundError says where the CLI was looked for. Its text names places
// the way a user writes them (~/.local/bin, %APPDATA%\npm), never the
// values of the environment, so it can reach an editor.
type NotFoundError struct {
	// Source and Given are the option that named a CLI that is not there
	// (--claude-path or CLAUDE_CODE_EXECUTABLE) and its value as given;
	// both "" when the search ran.
	Source, Given string
	// Tried are the places searched after PATH, in order.
	Tried []string
	// Names is what Given names instead of an executable
	// (clistart.Names: "a directory"), when Source is set.
	Names string
}

func (e *NotFoundError) Error() string {
	if e.Source != "" {
		return ErrNoExecutable.Error() + ": " + e.Source + " " + e.Given + " is not an executable file: it names " + e.Names
	}
	return ErrNoExecutable.Error() + " on PATH or in " + strings.Join(e.Tried, ", ") +
		": install Claude Code, pass --claude-path, or set CLAUDE_CODE_EXECUTABLE"
}

// Reason is why no CLI started, for the editor: what the option names
// instead of an executable, without its value (a path of this machine);
// the search's places as a user writes them.
func (e *NotFoundError) Reason() string {
	if e.Source != "" {
		return clistart.Given(e.Source, e.Names)
	}
	return "cannot find it on PATH or in " + strings.Join(e.Tried, ", ") +
		": install Claude Code, pass --claude-path, or set CLAUDE_CODE_EXECUTABLE"
}

// Is makes errors.Is(err, ErrNoExecutable) hold.
func (e *NotFoundError) Is(target error) bool { return target == ErrNoExecutable }

// Locator says where to look for the CLI. Its zero fields are the running
// process's: runtime.GOOS, os.Getenv, os.Stat, os.Getwd, and $HOME (or
// %USERPROFILE% on Windows) read through Getenv. With every field set,
// ResolveExecutable touches nothing but Stat, so any platform's search
// runs in a test.
type Locator struct {
	// Flag is the --claude-path value ("" when not given).
	Flag string
	GOOS string
	Home string
	// WorkDir is the directory the agent started in: a relative
	// --claude-path or CLAUDE_CODE_EXECUTABLE is taken from there, never
	// from a session's cwd (a CLI is spawned in the session's cwd).
	WorkDir string
	Getenv  func(string) string
	Stat    func(string) (fs.FileInfo, error)
}

// ResolveExecutable returns the absolute path of the CLI to spawn:
// --claude-path, else CLAUDE_CODE_EXECUTABLE (the reference's
// claudeCliPath), else `claude` on PATH (claude.exe, claude.cmd … as
// PATHEXT lists on Windows), else where Claude Code's installers put it.
// A value given by the user that names no executable is an error, not a
// reason to search on. On Windows an npm claude.cmd shim gives way to the
// native binary it starts (behindShim).
func ResolveExecutable(l Locator) (string, error) {
	l = l.withDefaults()
	if l.Flag != "" {
		return l.given("--claude-path", l.Flag)
	}
	if v := l.Getenv("CLAUDE_CODE_EXECUTABLE"); v != "" {
		return l.given("CLAUDE_CODE_EXECUTABLE", v)
	}
	if p, ok := l.onPath("claude"); ok {
		return p, nil
	}
	var tried []string
	for _, pl := range installPlaces(l.GOOS, l.Home, l.Getenv) {
		if p, ok := l.inDir(pl.dir, "claude"); ok {
			return p, nil
		}
		tried = append(tried, pl.label)
	}
	return "", &NotFoundError{Tried: tried}
}

func (l Locator) withDefaults() Locator {
	if l.GOOS == "" {
		l.GOOS = runtime.GOOS
	}
	if l.Getenv == nil {
		l.Getenv = os.Getenv
	}
	if l.Stat == nil {
		l.Stat = os.Stat
	}
	if l.Home == "" {
		l.Home = l.Getenv(homeVar(l.GOOS))
	}
	if l.WorkDir == "" {
		l.WorkDir, _ = os.Getwd()
	}
	return l
}

func homeVar(goos string) string {
	if goos == "windows" {
		return "USERPROFILE"
	}
	return "HOME"
}

// given resolves a CLI the user named: a leading ~ is the home directory,
// a bare name is looked up on PATH, and a relative path is taken from the
// directory the agent started in.
func (l Locator) given(source, v string) (string, error) {
	f := pathstyle.For(l.GOOS)
	p := expandHome(f, v, l.Home)
	if !f.HasSeparator(p) {
		if found, ok := l.onPath(p); ok {
			return found, nil
		}
		return "", &NotFoundError{Source: source, Given: v, Names: "nothing on PATH"}
	}
	if !f.IsAbs(p) {
		p = l.join(l.WorkDir, p)
	}
	if found, ok := l.executable(p); ok {
		return found, nil
	}
	names := clistart.Names(l.Stat, p, l.GOOS)
	if names == "" {
		names = "no executable file"
	}
	return "", &NotFoundError{Source: source, Given: v, Names: names}
}

// expandHome replaces a leading "~" (alone, or before a separator) with
// home, as a shell would have.
func expandHome(f pathstyle.Flavour, p, home string) string {
	if home == "" || p == "" || p[0] != '~' || len(p) > 1 && !f.IsSeparator(p[1]) {
		return p
	}
	return f.Join(strings.TrimRight(home, `/\`) + p[1:])
}

// onPath is name in the first absolute PATH directory that has it.
func (l Locator) onPath(name string) (string, bool) {
	f := pathstyle.For(l.GOOS)
	for _, dir := range f.SplitList(l.Getenv("PATH")) {
		if !f.IsAbs(dir) {
			continue // a relative entry would depend on the session's cwd
		}
		if p, ok := l.inDir(dir, name); ok {
			return p, true
		}
	}
	return "", false
}

func (l Locator) inDir(dir, name string) (string, bool) {
	return l.executable(l.join(dir, name))
}

// executable is p if it is an executable file; on Windows, p as it is
// when it has an extension, else p with the first PATHEXT extension that
// names a file (claude.exe before claude.cmd).
func (l Locator) executable(p string) (string, bool) {
	if l.GOOS != "windows" {
		return p, l.isExecutable(p)
	}
	f := pathstyle.Windows
	if f.Ext(p) != "" && l.isExecutable(p) {
		return l.behindShim(p), true
	}
	for _, ext := range pathExt(l.Getenv("PATHEXT")) {
		if l.isExecutable(p + ext) {
			return l.behindShim(p + ext), true
		}
	}
	return "", false
}

// npmNative is where npm installs the CLI's native binary, relative to the
// directory of the claude.cmd shim it writes (the global prefix).
const npmNative = `node_modules\@anthropic-ai\claude-code\bin\claude.exe`

// behindShim is the native claude.exe an npm claude.cmd (or .bat, .ps1)
// shim starts, when it is there; p otherwise. Go quotes the arguments of
// a process for the C runtime, not for cmd.exe, which runs a batch file:
// the CLI's JSON arguments (--settings, --mcp-config) would reach it
// mangled through the shim.
func (l Locator) behindShim(p string) string {
	f := pathstyle.Windows
	switch strings.ToLower(f.Ext(p)) {
	case ".cmd", ".bat", ".ps1":
		if native := f.Join(f.Dir(p), npmNative); l.isExecutable(native) {
			return native
		}
	}
	return p
}

func (l Locator) isExecutable(p string) bool {
	st, err := l.Stat(p)
	if err != nil || st.IsDir() {
		return false
	}
	return l.GOOS == "windows" || st.Mode()&0o111 != 0
}

// join is dir and name, cleaned on Unix and without a leading .\ on
// Windows ("./claude" from the start directory).
func (l Locator) join(dir, name string) string {
	f := pathstyle.For(l.GOOS)
	if f != pathstyle.Windows {
		return path.Clean(f.Join(dir, name))
	}
	for len(name) > 2 && name[0] == '.' && f.IsSeparator(name[1]) {
		name = name[2:]
	}
	return f.Join(dir, name)
}

// pathExt are the extensions Windows runs a command name with, lower-cased:
// PATHEXT, or the list exec.LookPath assumes when it is unset.
func pathExt(v string) []string {
	if v == "" {
		v = ".com;.exe;.bat;.cmd"
	}
	var out []string
	for _, e := range strings.Split(strings.ToLower(v), ";") {
		if strings.HasPrefix(e, ".") {
			out = append(out, e)
		}
	}
	return out
}

// place is a directory an installer puts the CLI in, with the name the
// error gives it.
type place struct{ dir, label string }

// installPlaces are where Claude Code's installers put the CLI, in the
// order they are searched: the native installer's ~/.local/bin, the old
// local install's ~/.claude/local, Homebrew on macOS, /usr/local/bin, and
// npm's global prefix. The prefix is read from the environment
// ($npm_config_prefix, which npm sets, or $PREFIX, which npm honours; on
// Windows %APPDATA%\npm by default), never from `npm config get prefix`,
// which takes a Node start-up.
func installPlaces(goos, home string, getenv func(string) string) []place {
	f := pathstyle.For(goos)
	var out []place
	if goos == "windows" {
		if home != "" {
			out = append(out, place{f.Join(home, `.local\bin`), `%USERPROFILE%\.local\bin`},
				place{f.Join(home, `.claude\local`), `%USERPROFILE%\.claude\local`})
		}
		if v := getenv("npm_config_prefix"); v != "" {
			return append(out, place{v, "%npm_config_prefix%"})
		}
		if v := getenv("APPDATA"); v != "" {
			out = append(out, place{f.Join(v, "npm"), `%APPDATA%\npm`})
		}
		return out
	}
	if home != "" {
		out = append(out, place{f.Join(home, ".local/bin"), "~/.local/bin"},
			place{f.Join(home, ".claude/local"), "~/.claude/local"})
	}
	if goos == "darwin" {
		out = append(out, place{"/opt/homebrew/bin", "/opt/homebrew/bin"})
	}
	out = append(out, place{"/usr/local/bin", "/usr/local/bin"})
	for _, name := range []string{"npm_config_prefix", "PREFIX"} {
		if v := getenv(name); v != "" {
			return append(out, place{f.Join(v, "bin"), "$" + name + "/bin"})
		}
	}
	return out
}
