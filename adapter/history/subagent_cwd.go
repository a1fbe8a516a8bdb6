package history

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
)

// A subagent that Claude Code ran in its own directory (an Agent call with
// isolation "worktree") has that directory in its metadata file: cwd,
// worktreePath or inheritedWorktreePath. Its transcript records the
// directory it ran in on each row, which the replay prefers (contract
// "Native subagent sessions": the RFD form announces a child with its
// cwd when it differs from its parent's).

// subagentCwd is the directory of a subagent whose metadata placement is
// placement ("" for none): the cwd of the first row of its transcript
// file that has an absolute one, else placement. "" when the metadata
// places it nowhere.
func subagentCwd(placement, file string) string {
	if placement == "" {
		return ""
	}
	if cwd := recordedCwd(file); cwd != "" {
		return cwd
	}
	return placement
}

// recordedCwd is the first absolute cwd of a row of the transcript file;
// "" when no row has one or the file cannot be read. A damaged row is
// skipped.
func recordedCwd(file string) string {
	f, err := os.Open(file)
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 64<<20)
	for sc.Scan() {
		line := sc.Bytes()
		if !bytes.Contains(line, []byte(`"cwd"`)) {
			continue
		}
		var row struct {
			Cwd any `json:"cwd"`
		}
		if json.Unmarshal(line, &row) != nil {
			continue
		}
		if cwd, ok := row.Cwd.(string); ok && filepath.IsAbs(cwd) {
			return cwd
		}
	}
	return ""
}

// firstAbsolute is the first of paths that is absolute; "" for none.
func firstAbsolute(paths ...string) string {
	for _, p := range paths {
		if p != "" && filepath.IsAbs(p) {
			return p
		}
	}
	return ""
}
