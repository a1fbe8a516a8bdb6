// Package owntemp makes a process's own temporary directory, named
// <prefix><pid>-<random>, and removes those that processes which no longer
// run left under the same prefix: a process that is killed cannot remove
// its own (the recorder's socket directory, the session index's probe).
//
// Only a directory whose name is the prefix, a process id and a dash goes;
// one of a process that still runs stays, whoever it belongs to, and so
// does anything else. A process id that was reused keeps its directory
// until that process ends too.
package owntemp

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/airwire/airwire/internal/procgroup"
)

// Dir makes a new directory in base (the temporary directory when "")
// named prefix, this process's id, a dash and a random part, after
// removing the directories of the same prefix whose process has ended.
func Dir(base, prefix string) (string, error) {
	if base == "" {
		base = os.TempDir()
	}
	sweep(base, prefix)
	return os.MkdirTemp(base, prefix+strconv.Itoa(os.Getpid())+"-")
}

// sweep removes the directories of base named prefix<pid>-… whose process
// no longer runs.
func sweep(base, prefix string) {
	dirs, _ := filepath.Glob(filepath.Join(base, prefix+"*-*"))
	for _, dir := range dirs {
		pid, _, ok := strings.Cut(strings.TrimPrefix(filepath.Base(dir), prefix), "-")
		if n, err := strconv.Atoi(pid); ok && err == nil && n > 0 && n != os.Getpid() && !procgroup.Running(n) {
			os.RemoveAll(dir)
		}
	}
}
