package permission

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/airwire/airwire/adapter/jsstr"
)

// shellLabel describes the complete effect of a Bash or PowerShell bundle:
// command rules, read paths, additional directories, or a representable
// combination (Choices per tool). It returns "" when the bundle holds
// anything else, so only one-time allow and reject are offered.
func shellLabel(toolName string, cs *changeSet) string {
	if cs == nil || !shellRepresentable(toolName, cs) {
		return ""
	}
	var readPaths, commands, dirs []string
	for _, u := range cs.updates {
		if u.Type == "addDirectories" {
			dirs = append(dirs, u.Directories...)
			continue
		}
		for _, r := range u.Rules {
			switch {
			case r.ToolName == "Read":
				if p := strings.TrimSuffix(r.Content, "/**"); p != "" {
					readPaths = append(readPaths, p)
				}
			case r.ToolName == toolName && r.Content != "":
				if c := strings.TrimSuffix(r.Content, ":*"); !slices.Contains(commands, c) {
					commands = append(commands, c)
				}
			}
		}
	}
	return shellLabelText(readPaths, commands, dirs)
}

// shellRepresentable reports a bundle of session directories and allow rules
// with content, for this shell or Read only.
func shellRepresentable(toolName string, cs *changeSet) bool {
	for _, u := range cs.updates {
		if u.Type == "addDirectories" {
			if u.Destination != "session" {
				return false
			}
			continue
		}
		if u.Type != "addRules" || u.Behavior != "allow" {
			return false
		}
		for _, r := range u.Rules {
			if (r.ToolName != toolName && r.ToolName != "Read") || jsstr.Trim(r.Content) == "" {
				return false
			}
		}
	}
	return true
}

// shellLabelText words the effect as Claude Code's own shell prompt does.
func shellLabelText(readPaths, commands, dirs []string) string {
	hasPaths := len(readPaths) > 0 || len(dirs) > 0
	paths := append(slices.Clone(dirs), readPaths...)
	switch {
	case len(readPaths) > 0 && len(dirs) == 0 && len(commands) == 0:
		return "Yes, allow reading from " + displayPaths(readPaths) + " from this project"
	case len(dirs) > 0 && len(readPaths) == 0 && len(commands) == 0:
		return "Yes, and always allow access to " + displayPaths(dirs) + " from this project"
	case len(commands) > 0 && !hasPaths:
		return "Yes, and don't ask again for " + displayList(commands) + " commands"
	case hasPaths && len(commands) == 0:
		return "Yes, and always allow access to " + displayPaths(paths) + " from this project"
	case hasPaths && len(paths) == 1 && len(commands) == 1:
		return "Yes, and allow access to " + displayPaths(paths) + " and " + displayList(commands) + " commands"
	case hasPaths:
		return "Yes, and allow " + displayPaths(paths) + " access and " + displayList(commands) + " commands"
	}
	return ""
}

// displayList joins up to a few values as English, or says "similar" when
// the list is long.
func displayList(values []string) string {
	if jsLen(strings.Join(values, ", ")) > 50 {
		return "similar"
	}
	switch len(values) {
	case 1:
		return values[0]
	case 2:
		return values[0] + " and " + values[1]
	}
	return strings.Join(values[:len(values)-1], ", ") + ", and " + values[len(values)-1]
}

// displayPaths shortens each path to the shortest suffix that tells it from
// the others, with a trailing slash; two paths are listed, more summarized.
func displayPaths(paths []string) string {
	var norm []string
	for _, p := range paths {
		if n := nodeNormalize(p); !slices.Contains(norm, n) {
			norm = append(norm, n)
		}
	}
	names := make([]string, len(norm))
	for i := range norm {
		names[i] = distinctSuffix(norm, i)
		if !strings.HasSuffix(names[i], sep) {
			names[i] += sep
		}
	}
	if len(names) <= 2 {
		return displayList(names)
	}
	return fmt.Sprintf("%s, %s and %d more", names[0], names[1], len(names)-2)
}

// distinctSuffix is the shortest trailing run of segments of norm[i] that no
// other path ends with at the same depth; the whole path when none is.
func distinctSuffix(norm []string, i int) string {
	segs := make([][]string, len(norm))
	for j, p := range norm {
		segs[j] = slices.DeleteFunc(strings.Split(p, sep), func(s string) bool { return s == "" })
	}
	suffix := func(j, depth int) string {
		s := segs[j][max(0, len(segs[j])-depth):]
		if len(s) == 0 {
			return norm[j]
		}
		return strings.Join(s, sep)
	}
	name := orDefault(nodeBase(norm[i]), norm[i])
	for depth := 1; depth <= len(segs[i]); depth++ {
		cand := suffix(i, depth)
		unique := true
		for j := range norm {
			if j != i && suffix(j, depth) == cand {
				unique = false
			}
		}
		if unique {
			return cand
		}
		if depth == len(segs[i]) {
			name = norm[i]
		}
	}
	return name
}

// nodeNormalize cleans p as path.normalize does: a trailing separator
// stays.
func nodeNormalize(p string) string {
	n := filepath.Clean(p)
	if p != "" && os.IsPathSeparator(p[len(p)-1]) && !strings.HasSuffix(n, sep) {
		n += sep
	}
	return n
}

// nodeBase is the last segment of p ("" for the root), as path.basename.
func nodeBase(p string) string {
	b := filepath.Base(strings.TrimRight(p, sep+"/"))
	if b == sep || b == "." && p != "." {
		return ""
	}
	return b
}
