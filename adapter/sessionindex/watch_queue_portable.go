//go:build !linux || airwire_portable

package sessionindex

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"time"

	"github.com/fsnotify/fsnotify"
)

// The portable watch queue watches project directories through fsnotify:
// kqueue on macOS and the BSDs, ReadDirectoryChangesW on Windows (and
// inotify again on Linux under -tags airwire_portable). fsnotify hands its
// events over from a goroutine of its own, so unlike the raw inotify queue
// an event the system already queued may not be readable yet; read waits
// for a probe instead (see read).

// probeWait is how long read waits for its probe's event; past it every
// listing is read again, as after an overflow.
const probeWait = 250 * time.Millisecond

// kqueueFileBudget is how many files the queue lets kqueue watch in all.
// fsnotify's kqueue backend opens every file of a watched directory (that
// is how kqueue sees a write to one); a project directory may hold 10,000
// transcripts, and a process has some 10,000 descriptors on macOS.
const kqueueFileBudget = 4096

var errTooManyFiles = errors.New("directory too large to watch with kqueue")

// watchQueue is an fsnotify watcher read without waiting on new events
// (listing.go). A watch is numbered like an inotify watch descriptor.
type watchQueue struct {
	w       *fsnotify.Watcher
	probe   string // a private directory, watched, where read leaves its marks
	seq     int    // the last mark
	byDir   map[string]int
	dirs    map[int]string
	files   map[int]int // the files each watch made kqueue open
	next    int
	perFile bool // the backend opens every file of a watched directory
	budget  int  // files it may still open
}

// watchEvent is one event: the file it names ("" for the directory), or
// gone when the directory's watch ended.
type watchEvent struct {
	wd   int
	name string
	gone bool
}

func newWatchQueue() (*watchQueue, error) {
	w, err := fsnotify.NewBufferedWatcher(256)
	if err != nil {
		return nil, err
	}
	probe, err := os.MkdirTemp("", "airwire-watch-")
	if err == nil {
		err = w.Add(probe)
	}
	if err != nil {
		w.Close()
		if probe != "" {
			os.RemoveAll(probe)
		}
		return nil, err
	}
	return &watchQueue{w: w, probe: probe, byDir: map[string]int{}, dirs: map[int]string{}, files: map[int]int{},
		perFile: watchesEachFile(runtime.GOOS), budget: kqueueFileBudget}, nil
}

// watchesEachFile reports whether fsnotify watches every file of a
// watched directory on goos, one descriptor each: with kqueue.
func watchesEachFile(goos string) bool {
	switch goos {
	case "darwin", "ios", "freebsd", "openbsd", "netbsd", "dragonfly":
		return true
	}
	return false
}

// add watches dir, unless kqueue would have to open more files than are
// left of its budget: such a directory is read at every use.
func (q *watchQueue) add(dir string) (int, error) {
	files := 0
	if q.perFile {
		n, err := countEntries(dir, q.budget)
		if err != nil {
			return 0, err
		}
		files = n
	}
	if err := q.w.Add(dir); err != nil {
		return 0, err
	}
	q.next++
	q.byDir[dir], q.dirs[q.next], q.files[q.next] = q.next, dir, files
	q.budget -= files
	return q.next, nil
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

func (q *watchQueue) remove(wd int) {
	if dir, ok := q.dirs[wd]; ok {
		_ = q.w.Remove(dir)
		q.budget += q.files[wd]
		delete(q.byDir, dir)
		delete(q.dirs, wd)
		delete(q.files, wd)
	}
}

func (q *watchQueue) close() {
	q.w.Close()
	os.RemoveAll(q.probe)
}

// read returns the queued events, and whether some were lost. It first
// creates a mark in the probe directory, then takes events until the
// mark's: the system queued every change that ended before read began
// ahead of the mark (in order on inotify; kqueue and
// ReadDirectoryChangesW report what is pending when fsnotify asks), so a
// list sees those. A mark that does not come within probeWait counts as
// lost events: every listing is read again.
func (q *watchQueue) read() (evs []watchEvent, lost bool) {
	q.seq++
	mark := filepath.Join(q.probe, strconv.Itoa(q.seq))
	f, err := os.Create(mark)
	if err != nil {
		return nil, true
	}
	f.Close()
	defer os.Remove(mark)
	timeout := time.NewTimer(probeWait)
	defer timeout.Stop()
	for {
		select {
		case ev, ok := <-q.w.Events:
			if !ok {
				return evs, true
			}
			if ev.Name == mark {
				return evs, lost
			}
			evs = q.appendEvent(evs, ev)
		case _, ok := <-q.w.Errors:
			lost = true // an overflow, or a watch that failed: nothing is known
			if !ok {
				return evs, true
			}
		case <-timeout.C:
			return evs, true
		}
	}
}

// appendEvent adds what ev says of a watched directory: that it went (a
// watched path removed or renamed) or that one of its files changed.
// Events of the probe directory are its own marks, or earlier ones.
func (q *watchQueue) appendEvent(evs []watchEvent, ev fsnotify.Event) []watchEvent {
	if wd, ok := q.byDir[ev.Name]; ok && ev.Has(fsnotify.Remove|fsnotify.Rename) {
		return append(evs, watchEvent{wd: wd, gone: true})
	}
	if wd, ok := q.byDir[filepath.Dir(ev.Name)]; ok {
		return append(evs, watchEvent{wd: wd, name: filepath.Base(ev.Name)})
	}
	return evs
}
