package sessionindex

import (
	"errors"
	"os"
	"runtime"
	"sync"
)

// fsnotify's kqueue backend (macOS, the BSDs) opens every file of a
// watched directory, one descriptor each: that is how kqueue sees a write
// to one. A project directory may hold 10,000 transcripts and a macOS
// process has some 10,000 descriptors, so the directory listings and the
// list subscriptions share a budget of files to watch. A directory that
// does not fit is not watched: a listing reads it at each use, a
// subscription sees its changes at its rescan. Elsewhere (inotify,
// ReadDirectoryChangesW) a directory is one watch and nothing is counted.

// kqueueFileBudget is how many files the process lets kqueue watch.
const kqueueFileBudget = 4096

// watchBudget is the process's budget.
var watchBudget = newFileBudget(runtime.GOOS, kqueueFileBudget)

var errTooManyFiles = errors.New("directory too large to watch with kqueue")

// fileBudget counts the files that watches make fsnotify open.
type fileBudget struct {
	perFile bool
	mu      sync.Mutex
	left    int
}

func newFileBudget(goos string, files int) *fileBudget {
	return &fileBudget{perFile: watchesEachFile(goos), left: files}
}

// watchesEachFile reports whether fsnotify watches every file of a
// watched directory on goos: with kqueue.
func watchesEachFile(goos string) bool {
	switch goos {
	case "darwin", "ios", "freebsd", "openbsd", "netbsd", "dragonfly":
		return true
	}
	return false
}

// reserve takes the files of dir from the budget before dir is watched,
// and says how many to release when the watch ends; an error when they do
// not fit.
func (b *fileBudget) reserve(dir string) (int, error) {
	if !b.perFile {
		return 0, nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	n, err := countEntries(dir, b.left)
	if err != nil {
		return 0, err
	}
	b.left -= n
	return n, nil
}

// release gives back what reserve took.
func (b *fileBudget) release(files int) {
	if files == 0 {
		return
	}
	b.mu.Lock()
	b.left += files
	b.mu.Unlock()
}

// countEntries counts the entries of dir, failing past limit.
func countEntries(dir string, limit int) (int, error) {
	f, err := os.Open(dir)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	n := 0
	for {
		names, err := f.Readdirnames(512)
		if n += len(names); n > limit {
			return 0, errTooManyFiles
		}
		if err != nil {
			return n, nil
		}
	}
}
