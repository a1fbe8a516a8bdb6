//go:build !linux || airwire_portable

package sessionindex

import (
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/airwire/airwire/internal/owntemp"
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

// watchQueue is an fsnotify watcher read without waiting on new events
// (listing.go). A watch is numbered like an inotify watch descriptor.
type watchQueue struct {
	w     *fsnotify.Watcher
	probe string // a private directory, watched, where read leaves its marks
	seq   int    // the last mark
	byDir map[string]int
	dirs  map[int]string
	files map[int]int // what each watch took of watchBudget
	next  int
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
	// A killed agent cannot remove its probe: the next one does (owntemp).
	probe, err := owntemp.Dir("", "airwire-watch-")
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
	return &watchQueue{w: w, probe: probe, byDir: map[string]int{}, dirs: map[int]string{}, files: map[int]int{}}, nil
}

// add watches dir, unless kqueue would have to open more files than are
// left of watchBudget: such a directory is read at every use.
func (q *watchQueue) add(dir string) (int, error) {
	files, err := watchBudget.reserve(dir)
	if err != nil {
		return 0, err
	}
	if err := q.w.Add(dir); err != nil {
		watchBudget.release(files)
		return 0, err
	}
	q.next++
	q.byDir[dir], q.dirs[q.next], q.files[q.next] = q.next, dir, files
	return q.next, nil
}

func (q *watchQueue) remove(wd int) {
	if dir, ok := q.dirs[wd]; ok {
		_ = q.w.Remove(dir)
		watchBudget.release(q.files[wd])
		delete(q.byDir, dir)
		delete(q.dirs, wd)
		delete(q.files, wd)
	}
}

func (q *watchQueue) close() {
	for wd := range q.dirs {
		q.remove(wd)
	}
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
