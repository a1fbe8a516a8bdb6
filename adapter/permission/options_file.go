package permission

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/airwire/airwire/adapter/jsstr"
)

// fileOp is the operation of a filesystem tool: a read grant covers Read
// rules, an edit grant Edit rules, directories and acceptEdits.
type fileOp int

const (
	// opRead is Read, Glob and Grep.
	opRead fileOp = iota
	// opWrite is Edit, Write and NotebookEdit.
	opWrite
)

// ruleTool is the rule tool name whose grants cover the operation.
func (op fileOp) ruleTool() string {
	if op == opRead {
		return "Read"
	}
	return "Edit"
}

// fileOptions offers a session-scoped grant that covers the current path
// (Choices per tool; Durable SDK suggestions: "only when the SDK bundle is
// session-scoped and covers the current path").
func fileOptions(c optionContext, filePath string, op fileOp) []Option {
	return withOptionalUpdate(c.durable, fileSessionLabel(c, filePath, op))
}

// fileSessionChangeSet reports a bundle that only grants this operation for
// the session.
func fileSessionChangeSet(cs *changeSet, op fileOp) bool {
	if cs == nil {
		return false
	}
	for _, u := range cs.updates {
		if u.Destination != "session" {
			return false
		}
		switch u.Type {
		case "setMode":
			if op != opWrite || u.Mode != "acceptEdits" {
				return false
			}
		case "addDirectories":
			if op != opWrite {
				return false
			}
		case "addRules":
			if u.Behavior != "allow" || !allRulesFor(u.Rules, op.ruleTool()) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// allRulesFor reports that every rule is of toolName.
func allRulesFor(rules []rule, toolName string) bool {
	for _, r := range rules {
		if r.ToolName != toolName {
			return false
		}
	}
	return true
}

// fileSessionLabel words the grant, or returns "" when the bundle does not
// cover the file.
func fileSessionLabel(c optionContext, filePath string, op fileOp) string {
	cs, cwd := c.durable, c.session.Cwd
	if !fileSessionChangeSet(cs, op) {
		return ""
	}
	broad := sessionAllowRule(cs, op.ruleTool(), true)
	if filePath == "" {
		if !broad && !(op == opWrite && acceptEditsMode(cs)) {
			return ""
		}
		return sameProjectLabel(op)
	}
	file := resolve(cwd, filePath)
	claudePath := op == opWrite && (isInside(filepath.Join(cwd, ".claude"), file) ||
		(c.session.Home != "" && isInside(filepath.Join(c.session.Home, ".claude"), file)))
	covers := effectCoversFile(cs, file, op, cwd) || broad || (op == opWrite && !claudePath && acceptEditsMode(cs))
	switch {
	case !covers:
		return ""
	case claudePath && sessionAllowRule(cs, "Edit", false):
		return "Yes, and allow Claude to edit its own settings for this session"
	case isInside(cwd, file):
		return sameProjectLabel(op)
	}
	dir := orDefault(nodeBase(filepath.Dir(file)), "this directory")
	if op == opRead {
		return "Yes, allow reading from " + dir + sep + " during this session"
	}
	return "Yes, allow all edits in " + dir + sep + " during this session"
}

// sameProjectLabel is the label of a grant inside the working directory.
func sameProjectLabel(op fileOp) string {
	if op == opRead {
		return "Yes, during this session"
	}
	return "Yes, allow all edits during this session"
}

// sessionAllowRule reports a session allow rule for toolName; with
// wholeTool only one without content counts.
func sessionAllowRule(cs *changeSet, toolName string, wholeTool bool) bool {
	for _, u := range cs.updates {
		if u.Type != "addRules" || u.Destination != "session" || u.Behavior != "allow" {
			continue
		}
		for _, r := range u.Rules {
			if r.ToolName == toolName && (!wholeTool || !r.HasContent) {
				return true
			}
		}
	}
	return false
}

// acceptEditsMode reports a session setMode acceptEdits.
func acceptEditsMode(cs *changeSet) bool {
	for _, u := range cs.updates {
		if u.Type == "setMode" && u.Destination == "session" && u.Mode == "acceptEdits" {
			return true
		}
	}
	return false
}

// effectCoversFile reports that a directory or a rule path of the bundle is
// the file's directory or contains the file.
func effectCoversFile(cs *changeSet, file string, op fileOp, cwd string) bool {
	dir := filepath.Dir(file)
	for _, p := range grantedPaths(cs, op) {
		if r := resolve(cwd, p); r == dir || isInside(r, file) {
			return true
		}
	}
	return false
}

// grantedPaths are the directories and the rule paths (without a trailing
// /** ) of the bundle for the operation.
func grantedPaths(cs *changeSet, op fileOp) []string {
	var out []string
	for _, u := range cs.updates {
		if u.Type == "addDirectories" {
			out = append(out, u.Directories...)
		}
		if u.Type != "addRules" || u.Behavior != "allow" {
			continue
		}
		for _, r := range u.Rules {
			if p := jsstr.Trim(r.Content); r.ToolName == op.ruleTool() && p != "" {
				if strings.HasSuffix(p, "/**") || strings.HasSuffix(p, `\**`) {
					p = p[:len(p)-3]
				}
				out = append(out, p)
			}
		}
	}
	return out
}

// sep is the platform's path separator: the reference words paths with
// Node's native path module (path.sep, path.resolve …), and so does the
// agent, with path/filepath.
const sep = string(filepath.Separator)

// resolve is path.resolve(cwd, p) for an absolute cwd. On Windows a path
// rooted without a drive (`/.claude/x`) is on the drive of cwd.
func resolve(cwd, p string) string {
	switch {
	case filepath.IsAbs(p):
		return filepath.Clean(p)
	case p != "" && os.IsPathSeparator(p[0]):
		return filepath.Clean(filepath.VolumeName(cwd) + p)
	}
	return filepath.Join(cwd, p)
}

// isInside reports that candidate is dir or lies under it, as the
// reference decides with path.relative (which ignores case on Windows).
func isInside(dir, candidate string) bool {
	rel, err := filepath.Rel(filepath.Clean(dir), filepath.Clean(candidate))
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+sep)
}
