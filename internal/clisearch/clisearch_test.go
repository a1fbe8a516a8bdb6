package clisearch

import (
	"errors"
	"io/fs"
	"strings"
	"testing"
	"time"
)

// fakeFS is a file system of stat results: a path's mode, or absent.
type fakeFS map[string]fs.FileMode

func (m fakeFS) stat(p string) (fs.FileInfo, error) {
	mode, ok := m[p]
	if !ok {
		return nil, fs.ErrNotExist
	}
	return fakeInfo{mode}, nil
}

type fakeInfo struct{ mode fs.FileMode }

func (i fakeInfo) Name() string       { return "" }
func (i fakeInfo) Size() int64        { return 0 }
func (i fakeInfo) Mode() fs.FileMode  { return i.mode }
func (i fakeInfo) ModTime() time.Time { return time.Time{} }
func (i fakeInfo) IsDir() bool        { return i.mode.IsDir() }
func (i fakeInfo) Sys() any           { return nil }

const exe, plain, dir = fs.FileMode(0o755), fs.FileMode(0o644), fs.ModeDir | 0o755

type vars map[string]string

func (e vars) get(k string) string { return e[k] }

func TestResolveExecutable(t *testing.T) {
	tests := []struct {
		name  string
		goos  string
		home  string
		flag  string
		env   vars
		files fakeFS
		want  string
	}{
		// The user's choice, resolved where the agent started.
		{"flag absolute", "linux", "/home/a", "/opt/c/claude",
			vars{"CLAUDE_CODE_EXECUTABLE": "/opt/env/claude"}, fakeFS{"/opt/c/claude": exe, "/opt/env/claude": exe}, "/opt/c/claude"},
		{"flag relative to the start directory", "linux", "/home/a", "./bin/../claude",
			vars{}, fakeFS{"/start/claude": exe}, "/start/claude"},
		{"flag ~", "linux", "/home/a", "~/tools/claude", vars{}, fakeFS{"/home/a/tools/claude": exe}, "/home/a/tools/claude"},
		{"flag bare name on PATH", "linux", "/home/a", "claude-dev",
			vars{"PATH": "/usr/bin"}, fakeFS{"/usr/bin/claude-dev": exe, "/start/claude-dev": exe}, "/usr/bin/claude-dev"},
		{"env relative", "darwin", "/Users/a", "",
			vars{"CLAUDE_CODE_EXECUTABLE": "vendor/claude"}, fakeFS{"/start/vendor/claude": exe}, "/start/vendor/claude"},
		// PATH: executables only, absolute entries only.
		{"PATH", "linux", "/home/a", "", vars{"PATH": "bin:/usr/local/x:/usr/bin"},
			fakeFS{"/start/bin/claude": exe, "/usr/local/x/claude": plain, "/usr/bin/claude": exe}, "/usr/bin/claude"},
		{"PATH before install places", "linux", "/home/a", "", vars{"PATH": "/usr/bin"},
			fakeFS{"/home/a/.local/bin/claude": exe, "/usr/bin/claude": exe}, "/usr/bin/claude"},
		{"a directory named claude is no CLI", "linux", "/home/a", "", vars{"PATH": "/usr/bin"},
			fakeFS{"/usr/bin/claude": dir, "/home/a/.local/bin/claude": exe}, "/home/a/.local/bin/claude"},
		// Install places.
		{"native installer", "linux", "/home/a", "", vars{"PATH": "/usr/bin"},
			fakeFS{"/home/a/.local/bin/claude": exe, "/home/a/.claude/local/claude": exe}, "/home/a/.local/bin/claude"},
		{"old local install", "darwin", "/Users/a b", "", vars{},
			fakeFS{"/Users/a b/.claude/local/claude": exe}, "/Users/a b/.claude/local/claude"},
		{"Homebrew on macOS", "darwin", "/Users/a", "", vars{},
			fakeFS{"/opt/homebrew/bin/claude": exe, "/usr/local/bin/claude": exe}, "/opt/homebrew/bin/claude"},
		{"no Homebrew prefix off macOS", "linux", "/home/a", "", vars{},
			fakeFS{"/opt/homebrew/bin/claude": exe, "/usr/local/bin/claude": exe}, "/usr/local/bin/claude"},
		{"npm_config_prefix", "linux", "/home/a", "", vars{"npm_config_prefix": "/home/a/.npm-global", "PREFIX": "/p"},
			fakeFS{"/home/a/.npm-global/bin/claude": exe, "/p/bin/claude": exe}, "/home/a/.npm-global/bin/claude"},
		{"PREFIX", "darwin", "/Users/a", "", vars{"PREFIX": "/opt/node"},
			fakeFS{"/opt/node/bin/claude": exe}, "/opt/node/bin/claude"},

		// Windows: drive letters, UNC, spaces, PATHEXT, .cmd shims.
		{"windows PATH prefers claude.exe", "windows", `C:\Users\a`, "",
			vars{"PATH": `C:\Windows;"C:\Program Files\Claude"`},
			fakeFS{`C:\Program Files\Claude\claude.cmd`: plain, `C:\Program Files\Claude\claude.exe`: plain}, `C:\Program Files\Claude\claude.exe`},
		{"windows npm shim on PATH", "windows", `C:\Users\a`, "", vars{"PATH": `C:\Users\a\AppData\Roaming\npm`},
			fakeFS{`C:\Users\a\AppData\Roaming\npm\claude`: plain, `C:\Users\a\AppData\Roaming\npm\claude.cmd`: plain},
			`C:\Users\a\AppData\Roaming\npm\claude.cmd`},
		{"windows PATHEXT is honoured", "windows", `C:\Users\a`, "", vars{"PATH": `D:\bin`, "PATHEXT": ".EXE;.PS1"},
			fakeFS{`D:\bin\claude.cmd`: plain, `D:\bin\claude.ps1`: plain}, `D:\bin\claude.ps1`},
		{"windows relative PATH entry skipped", "windows", `C:\Users\a`, "", vars{"PATH": `bin;C:\bin`},
			fakeFS{`D:\start\bin\claude.exe`: plain, `C:\bin\claude.exe`: plain}, `C:\bin\claude.exe`},
		{"windows flag without extension", "windows", `C:\Users\a`, `C:\tools\claude`, vars{},
			fakeFS{`C:\tools\claude.exe`: plain}, `C:\tools\claude.exe`},
		{"windows flag relative", "windows", `C:\Users\a`, `.\vendor\claude.exe`, vars{},
			fakeFS{`D:\start\vendor\claude.exe`: plain}, `D:\start\vendor\claude.exe`},
		{"windows flag UNC", "windows", `C:\Users\a`, `\\srv\tools\claude.exe`, vars{},
			fakeFS{`\\srv\tools\claude.exe`: plain}, `\\srv\tools\claude.exe`},
		{"windows flag ~", "windows", `C:\Users\a b`, `~/bin/claude.exe`, vars{},
			fakeFS{`C:\Users\a b\bin\claude.exe`: plain}, `C:\Users\a b\bin\claude.exe`},
		{"windows native installer", "windows", `C:\Users\a b`, "", vars{"PATH": `C:\Windows`},
			fakeFS{`C:\Users\a b\.local\bin\claude.exe`: plain}, `C:\Users\a b\.local\bin\claude.exe`},
		{"windows npm default prefix", "windows", `C:\Users\a`, "", vars{"APPDATA": `C:\Users\a\AppData\Roaming`},
			fakeFS{`C:\Users\a\AppData\Roaming\npm\claude.cmd`: plain}, `C:\Users\a\AppData\Roaming\npm\claude.cmd`},
		{"windows npm shim runs its native binary", "windows", `C:\Users\a`, "", vars{"PATH": `C:\Users\a\AppData\Roaming\npm`},
			fakeFS{`C:\Users\a\AppData\Roaming\npm\claude.cmd`: plain,
				`C:\Users\a\AppData\Roaming\npm\node_modules\@anthropic-ai\claude-code\bin\claude.exe`: plain},
			`C:\Users\a\AppData\Roaming\npm\node_modules\@anthropic-ai\claude-code\bin\claude.exe`},
		{"windows flag naming a shim", "windows", `C:\Users\a`, `E:\node\claude.cmd`, vars{},
			fakeFS{`E:\node\claude.cmd`: plain, `E:\node\node_modules\@anthropic-ai\claude-code\bin\claude.exe`: plain},
			`E:\node\node_modules\@anthropic-ai\claude-code\bin\claude.exe`},
		{"windows npm_config_prefix", "windows", `C:\Users\a`, "",
			vars{"APPDATA": `C:\Users\a\AppData\Roaming`, "npm_config_prefix": `E:\node`},
			fakeFS{`E:\node\claude.cmd`: plain, `C:\Users\a\AppData\Roaming\npm\claude.cmd`: plain}, `E:\node\claude.cmd`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			wd := "/start"
			if tt.goos == "windows" {
				wd = `D:\start`
			}
			got, err := ResolveExecutable(Locator{Flag: tt.flag, GOOS: tt.goos, Home: tt.home, WorkDir: wd,
				Getenv: tt.env.get, Stat: tt.files.stat})
			if err != nil || got != tt.want {
				t.Fatalf("got %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}

// A CLI the user names must be there: the search does not go on past it.
func TestResolveExecutableGivenButMissing(t *testing.T) {
	files := fakeFS{"/usr/bin/claude": exe, "/start/claude": plain, "/opt/d": dir}
	for _, tt := range []struct{ flag, cce, source, reason string }{
		{"./claude", "", "--claude-path ./claude", "--claude-path names a file that is not executable"},
		{"", "/opt/gone/claude", "CLAUDE_CODE_EXECUTABLE /opt/gone/claude", "CLAUDE_CODE_EXECUTABLE names nothing (not found)"},
		{"claude-dev", "", "--claude-path claude-dev", "--claude-path names nothing on PATH"},
		{"/opt/d", "", "--claude-path /opt/d", "--claude-path names a directory"},
	} {
		_, err := ResolveExecutable(Locator{Flag: tt.flag, GOOS: "linux", Home: "/home/a", WorkDir: "/start",
			Getenv: vars{"PATH": "/usr/bin", "CLAUDE_CODE_EXECUTABLE": tt.cce}.get, Stat: files.stat})
		var nf *NotFoundError
		if !errors.Is(err, ErrNoExecutable) || !strings.Contains(err.Error(), tt.source+" is not an executable file") ||
			!errors.As(err, &nf) || nf.Reason() != tt.reason {
			t.Errorf("flag %q, env %q: err = %v, reason %q, want %q", tt.flag, tt.cce, err, nf.Reason(), tt.reason)
		}
	}
}

// The error names every place searched, as a user writes it, and no value
// of the environment.
func TestResolveExecutableNotFound(t *testing.T) {
	tests := []struct {
		goos, home string
		env        vars
		want       string
	}{
		{"linux", "/home/alice", vars{"PATH": "/usr/bin", "npm_config_prefix": "/home/alice/.npm"},
			"~/.local/bin, ~/.claude/local, /usr/local/bin, $npm_config_prefix/bin"},
		{"darwin", "/Users/alice", vars{"PREFIX": "/secret/prefix"},
			"~/.local/bin, ~/.claude/local, /opt/homebrew/bin, /usr/local/bin, $PREFIX/bin"},
		{"windows", `C:\Users\alice`, vars{"APPDATA": `C:\Users\alice\AppData\Roaming`},
			`%USERPROFILE%\.local\bin, %USERPROFILE%\.claude\local, %APPDATA%\npm`},
	}
	for _, tt := range tests {
		_, err := ResolveExecutable(Locator{GOOS: tt.goos, Home: tt.home, WorkDir: "/start",
			Getenv: tt.env.get, Stat: fakeFS{}.stat})
		var nf *NotFoundError
		if !errors.As(err, &nf) || !errors.Is(err, ErrNoExecutable) {
			t.Fatalf("%s: err = %v", tt.goos, err)
		}
		msg := err.Error()
		if !strings.Contains(msg, " on PATH or in "+tt.want+": ") {
			t.Errorf("%s: %q does not list %q", tt.goos, msg, tt.want)
		}
		for _, leak := range []string{"alice", "secret"} {
			if strings.Contains(msg, leak) {
				t.Errorf("%s: %q shows an environment value", tt.goos, msg)
			}
		}
		for _, hint := range []string{"--claude-path", "CLAUDE_CODE_EXECUTABLE"} {
			if !strings.Contains(msg, hint) {
				t.Errorf("%s: %q does not name %s", tt.goos, msg, hint)
			}
		}
	}
}
