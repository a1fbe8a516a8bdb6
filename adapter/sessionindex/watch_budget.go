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

// watchBudget is the process's budget: its zero value is this platform's,
// so that no init code builds it (TestNoPackageInitCode).
var watchBudget fileBudget

var errTooManyFiles = errors.New("directory too large to watch with kqueue")

// fileBudget counts the files that watches make fsnotify open.
type fileBudget struct {
	goos  string // "" is runtime.GOOS
	limit int    // 0 is kqueueFileBudget
	mu    sync.Mutex
	used  int
}

func newFileBudget(goos string, files int) *fileBudget {
	return &fileBudget{goos: goos, limit: files}
}

// perFile reports whether watches on b's platform cost a file each.
func (b *fileBudget) perFile() bool {
	goos := b.goos
	if goos == "" {
		goos = runtime.GOOS
	}
	return watchesEachFile(goos)
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
	if !b.perFile() {
		return 0, nil
	}
	limit := b.limit
	if limit == 0 {
		limit = kqueueFileBudget
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	n, err := countEntries(dir, limit-b.used)
	if err != nil {
		return 0, err
	}
	b.used += n
	return n, nil
}

// release gives back what reserve took.
func (b *fileBudget) release(files int) {
	if files == 0 {
		return
	}
	b.mu.Lock()
	b.used -= files
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
