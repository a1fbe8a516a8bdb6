//go:build !linux

package sessionindex

import (
	"errors"
	"path/filepath"
)

// watchQueue is unavailable off Linux: every list reads its directories.
type watchQueue struct{}

type watchEvent struct {
	wd   int
	name string
	gone bool
}

func newWatchQueue() (*watchQueue, error) { return nil, errors.New("no inotify") }

func (q *watchQueue) add(string) (int, error)    { return 0, errors.New("no inotify") }
func (q *watchQueue) close()                     {}
func (q *watchQueue) read() ([]watchEvent, bool) { return nil, false }
func (q *watchQueue) remove(int)                 {}

// statFd stats dir/name by its path.
func statFd(_ int, dir, name string) (candidate, bool) {
	return statCandidate(filepath.Join(dir, name))
}
