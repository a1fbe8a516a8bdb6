package toolcall

import (
	"path/filepath"
	"strings"
)

// skillContainers are the directories, under the project and the home
// directory, that hold skills (`<container>/<name>/SKILL.md`).
var skillContainers = []string{".claude/skills", ".agents/skills"}

// SkillPath is the absolute path of the SKILL.md of a skill, "" when it
// is not found (contract: "AIR metadata keys": `skill` is `{name,
// path?}`). A scoped name (`<scope>:<name>`) is looked for under the
// scope's directory and its plugin; the name never reaches the file
// system when it holds a separator or is `..`.
func (d *Disk) SkillPath(skill, cwd string) string {
	if d == nil || cwd == "" {
		return ""
	}
	scope, name, scoped := strings.Cut(skill, ":")
	if !scoped {
		scope, name = "", skill
	}
	if name == "" || name == ".." || strings.ContainsAny(name, `/\`) || (scoped && escapes(scope)) {
		return ""
	}
	var containers []string
	bases := []string{cwd}
	if d.Home != "" {
		bases = append(bases, d.Home)
	}
	for _, base := range bases {
		if scoped {
			for _, c := range skillContainers {
				containers = append(containers, filepath.Join(base, scope, c))
			}
			containers = append(containers, filepath.Join(base, ".claude/plugins", scope, "skills"))
		}
	}
	for _, base := range bases {
		for _, c := range skillContainers {
			containers = append(containers, filepath.Join(base, c))
		}
	}
	for _, c := range containers {
		if p := filepath.Join(c, name, "SKILL.md"); d.isFile(p) {
			return p
		}
	}
	return ""
}

// escapes reports a scope that would leave its base directory.
func escapes(scope string) bool {
	if scope == "" || filepath.IsAbs(scope) {
		return true
	}
	for _, part := range strings.FieldsFunc(scope, func(r rune) bool { return r == '/' || r == '\\' }) {
		if part == ".." {
			return true
		}
	}
	return false
}
