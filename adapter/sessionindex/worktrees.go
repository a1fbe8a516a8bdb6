package sessionindex

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/airwire/airwire/internal/lazyre"
)

// Worktrees (contract: "List request", includeWorktrees): the linked
// worktrees of a repository come from <git-common-dir>/worktrees/*/gitdir,
// without running git; a worktree whose directory is gone is left out.

var gitdirLineRE = lazyre.New(`(?m)^gitdir:\s*(.+)$`)

// findGitDir is the git directory of the repository that holds cwd.
func findGitDir(cwd string) string {
	for cur := filepath.Clean(cwd); ; cur = filepath.Dir(cur) {
		dotgit := filepath.Join(cur, ".git")
		if st, err := os.Stat(dotgit); err == nil {
			if st.IsDir() {
				return dotgit
			}
			data, err := os.ReadFile(dotgit)
			if err != nil {
				return ""
			}
			if m := gitdirLineRE.FindStringSubmatch(string(data)); m != nil {
				return resolveFrom(cur, strings.TrimSpace(m[1]))
			}
			return ""
		}
		if filepath.Dir(cur) == cur {
			return ""
		}
	}
}

func resolveFrom(base, p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(base, p)
}

// commonDir is the repository's common git directory.
func commonDir(gitDir string) string {
	data, err := os.ReadFile(filepath.Join(gitDir, "commondir"))
	if v := strings.TrimSpace(string(data)); err == nil && v != "" {
		return resolveFrom(gitDir, v)
	}
	return gitDir
}

// repositoryWorktrees are the existing worktree roots of cwd's repository:
// the main one and every linked one.
func repositoryWorktrees(cwd string) []string {
	gitDir := findGitDir(cwd)
	if gitDir == "" {
		return nil
	}
	common := commonDir(gitDir)
	var roots []string
	if filepath.Base(common) == ".git" {
		roots = append(roots, filepath.Dir(common))
	}
	dir := filepath.Join(common, "worktrees")
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		data, err := os.ReadFile(filepath.Join(dir, e.Name(), "gitdir"))
		if g := strings.TrimSpace(string(data)); err == nil && g != "" {
			roots = append(roots, filepath.Dir(resolveFrom(filepath.Join(dir, e.Name()), g)))
		}
	}
	return existingDirs(roots)
}

// worktreeRoot is the nearest parent of cwd with a .git entry.
func worktreeRoot(cwd string) string {
	for cur := filepath.Clean(cwd); ; cur = filepath.Dir(cur) {
		if exists(filepath.Join(cur, ".git")) {
			return cur
		}
		if filepath.Dir(cur) == cur {
			return ""
		}
	}
}

// worktreeCounterparts are the same subdirectory of cwd in every existing
// worktree of its repository (cwd's own included).
func worktreeCounterparts(cwd string) []string {
	root := worktreeRoot(cwd)
	if root == "" {
		return nil
	}
	rel, err := filepath.Rel(root, cwd)
	if err != nil {
		return nil
	}
	var out []string
	for _, wt := range repositoryWorktrees(cwd) {
		out = append(out, filepath.Join(wt, rel))
	}
	return existingDirs(out)
}

func existingDirs(paths []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil || !st.IsDir() {
			continue
		}
		p = canonical(p)
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
}

// scopePaths are the paths a list of cwd covers: cwd (resolved), and with
// worktrees its counterparts in the other worktrees.
func scopePaths(cwd string, worktrees bool) []string {
	paths := []string{canonical(cwd)}
	if !worktrees {
		return paths
	}
	for _, p := range worktreeCounterparts(paths[0]) {
		if !containsStr(paths, p) {
			paths = append(paths, p)
		}
	}
	return paths
}

func containsStr(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
