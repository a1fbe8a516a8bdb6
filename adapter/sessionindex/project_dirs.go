package sessionindex

import (
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/airwire/airwire/internal/pathstyle"
	"github.com/airwire/airwire/internal/projectdir"
)

// Project directories (contract: "List request", "List response"): the CLI
// keeps the transcripts of a cwd in <config>/projects/<encoded cwd>/; a
// name longer than 200 characters is cut and gets a hash, so such a
// directory counts for a path only when one of its transcripts belongs to
// the path. A directory name is never decoded.

const longNameLimit = 200

func projectsDir(configDir string) string { return filepath.Join(configDir, "projects") }

// encode is the project directory name of a path.
func encode(path string) string { return projectdir.Name(path) }

// canonical is path with symlinks resolved; path itself when that fails.
func canonical(path string) string {
	if r, err := filepath.EvalSymlinks(path); err == nil {
		return r
	}
	return filepath.Clean(path)
}

// dirMatches reports whether dirName may hold the transcripts of path: its
// exact encoding (in any case where the platform's file system ignores
// it), or for a long path the cut prefix with any hash.
func dirMatches(dirName, path string) bool {
	f := pathstyle.Native()
	return projectdir.Matches(f, dirName, path) || projectdir.IsExact(f, dirName, path)
}

// samePath compares two paths as the SDK does (its comparable): '/' for
// '\' on Windows, NFC and any case on macOS and Windows.
func samePath(a, b string) bool {
	f := pathstyle.Native()
	return f.Key(a) == f.Key(b)
}

// exactDir is the entry of ents that is path's own project directory on
// platform f: name itself where names are case-sensitive; on macOS and
// Windows the entry as it is spelled on disk, which may differ in case.
func exactDir(f pathstyle.Flavour, ents []os.DirEntry, name, path string) string {
	if !f.FoldsCase() {
		return name
	}
	for _, e := range ents {
		if projectdir.IsExact(f, e.Name(), path) {
			return e.Name()
		}
	}
	return name
}

// candidate is one transcript file of a listing scope.
type candidate struct {
	sessionID string
	path      string
	dirName   string
	// projectPath is the scope path whose directory this is ("" when
	// every project is listed).
	projectPath string
	mtimeNs     int64 // modification time, ns since the epoch
	size        int64
	ino         uint64
}

func (c candidate) mtimeMs() int64 { return c.mtimeNs / int64(time.Millisecond) }

// scopeDirs are the project directories of paths, with the path each
// belongs to; every project directory (path "") when paths is nil.
func scopeDirs(configDir string, paths []string) map[string]string {
	root := projectsDir(configDir)
	out := map[string]string{}
	ents, err := os.ReadDir(root)
	if err != nil {
		return out
	}
	if paths == nil {
		for _, e := range ents {
			if e.IsDir() || e.Type()&os.ModeSymlink != 0 {
				out[e.Name()] = ""
			}
		}
		return out
	}
	for _, p := range paths {
		name := exactDir(pathstyle.Native(), ents, encode(p), p)
		if _, err := os.Stat(filepath.Join(root, name)); err == nil {
			out[name] = p
		}
		if len(name) <= longNameLimit {
			continue
		}
		for _, e := range ents {
			if _, seen := out[e.Name()]; !seen && dirMatches(e.Name(), p) {
				out[e.Name()] = p
			}
		}
	}
	return out
}

// candidatesOf are the transcripts of the directories, session ids only.
func candidatesOf(configDir string, dirs map[string]string) []candidate {
	root := projectsDir(configDir)
	var out []candidate
	for dirName, projectPath := range dirs {
		ents, err := os.ReadDir(filepath.Join(root, dirName))
		if err != nil {
			continue
		}
		for _, e := range ents {
			id, ok := strings.CutSuffix(e.Name(), ".jsonl")
			if !ok || !ValidID(id) {
				continue
			}
			c, ok := statCandidate(filepath.Join(root, dirName, e.Name()))
			if !ok {
				continue
			}
			c.sessionID, c.dirName, c.projectPath = id, dirName, projectPath
			out = append(out, c)
		}
	}
	return out
}

func statCandidate(path string) (candidate, bool) {
	st, err := os.Stat(path)
	if err != nil || !st.Mode().IsRegular() {
		return candidate{}, false
	}
	return candidate{path: path, mtimeNs: st.ModTime().UnixNano(), size: st.Size(), ino: fileIno(st)}, true
}

// pathAndAncestors is path and each of its parents.
func pathAndAncestors(path string) []string {
	var out []string
	for p := filepath.Clean(path); ; p = filepath.Dir(p) {
		out = append(out, p)
		if filepath.Dir(p) == p {
			return out
		}
	}
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
