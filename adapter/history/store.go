package history

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/airwire/airwire/internal/pathstyle"
	"github.com/airwire/airwire/internal/projectdir"
)

// ConfigDir is the Claude configuration directory: CLAUDE_CONFIG_DIR, else
// .claude in the home directory (getenv is os.Getenv or a test's
// stand-in).
func ConfigDir(getenv func(string) string) string {
	return configDirOn(pathstyle.Native(), getenv)
}

// configDirOn is ConfigDir on platform f: the home directory is $HOME, or
// %USERPROFILE% on Windows (Node's os.homedir, which the SDK uses).
func configDirOn(f pathstyle.Flavour, getenv func(string) string) string {
	if d := getenv("CLAUDE_CONFIG_DIR"); d != "" {
		return d
	}
	if f == pathstyle.Windows {
		return f.Join(getenv("USERPROFILE"), ".claude")
	}
	return f.Join(getenv("HOME"), ".claude")
}

// ValidID reports whether id can name a stored session: the CLI and the
// SDK accept UUIDs only (any case). Anything else (a `/`, `..`, NUL or a
// drive prefix) never reaches the file system. By hand, not by regexp: a
// listing checks every file name of a project directory.
func ValidID(id string) bool {
	if len(id) != 36 || id[8] != '-' || id[13] != '-' || id[18] != '-' || id[23] != '-' {
		return false
	}
	for i := range len(id) {
		if !hexDigit[id[i]] && i != 8 && i != 13 && i != 18 && i != 23 {
			return false
		}
	}
	return true
}

// hexDigit are the hex digits of either case: a table, as ValidID runs on
// every name of a project directory of a session list (10,000 of them cold).
var hexDigit = [256]bool{
	'0': true, '1': true, '2': true, '3': true, '4': true, '5': true, '6': true, '7': true, '8': true, '9': true,
	'a': true, 'b': true, 'c': true, 'd': true, 'e': true, 'f': true,
	'A': true, 'B': true, 'C': true, 'D': true, 'E': true, 'F': true,
}

func projectsDir(configDir string) string { return filepath.Join(configDir, "projects") }

// resolve is the real path of dir, as the CLI names its project directory
// after it; dir itself when it cannot be resolved.
func resolve(dir string) string {
	if r, err := filepath.EvalSymlinks(dir); err == nil {
		return r
	}
	return dir
}

// projectDirs are the project directories that hold the sessions of cwd:
// the one named after its real path and, for a name the CLI cut to 200
// characters, the ones with the same cut and another hash.
func projectDirs(configDir, cwd string) []string {
	real, f := resolve(cwd), pathstyle.Native()
	name := projectdir.NameOn(f, real)
	root := projectsDir(configDir)
	dirs := []string{filepath.Join(root, name)}
	if len(name) <= 200 {
		return dirs
	}
	ents, _ := os.ReadDir(root)
	for _, e := range ents {
		if e.IsDir() && !projectdir.IsExact(f, e.Name(), real) && projectdir.Matches(f, e.Name(), real) {
			dirs = append(dirs, filepath.Join(root, e.Name()))
		}
	}
	return dirs
}

// allProjectDirs are every project directory under configDir, by name.
func allProjectDirs(configDir string) []string {
	root := projectsDir(configDir)
	ents, err := os.ReadDir(root)
	if err != nil {
		return nil
	}
	var dirs []string
	for _, e := range ents {
		if e.IsDir() || e.Type()&fs.ModeSymlink != 0 {
			dirs = append(dirs, filepath.Join(root, e.Name()))
		}
	}
	sort.Strings(dirs)
	return dirs
}

// Find is the transcript of session id in any project directory, as the
// reference looks a session up for load, resume and fork (a client may
// reopen it from another path than the one it was stored under); an empty
// transcript does not count. ok is false when there is none.
func Find(configDir, id string) (path string, ok bool) {
	if !ValidID(id) {
		return "", false
	}
	for _, dir := range allProjectDirs(configDir) {
		p := filepath.Join(dir, id+".jsonl")
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() && st.Size() > 0 {
			return p, true
		}
	}
	return "", false
}

// Delete removes what `session/delete` removes for a plain or a Zed
// client: the session's transcript and its sidecar directory (subagent
// transcripts, titles) in the first project directory that has a
// non-empty transcript. A session that is not stored, or an id that is no
// UUID, is no error: ACP asks a delete of an unknown session to succeed.
func Delete(configDir, id string) error {
	p, ok := Find(configDir, id)
	if !ok {
		return nil
	}
	if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return os.RemoveAll(strings.TrimSuffix(p, ".jsonl"))
}
