package sessionindex

import (
	"cmp"
	"os"
	"slices"
	"strings"
	"sync"
	"time"
)

// Directory listings (issue 10: the common case cheap): the transcripts of
// a project directory with their stat, kept between lists. The first use
// of a directory reads it and stats each transcript (in parallel, relative
// to the open directory); a watch on it (no recursion) then names each
// file that changes, and the next use stats only those. Each use first
// drains the watch's queue: on Linux a raw inotify queue read without
// waiting (the kernel queues an event before the write that causes it
// returns), elsewhere fsnotify read up to a probe of its own
// (watch_queue_portable.go); either way a list sees every write that ended
// before it began. A listing is trusted for listingMaxAge at most, and
// never after the queue overflowed: then the directory is read again.
// Past maxWatchedDirs, or without a watch (none available, or a directory
// too large for kqueue), every use reads the directory. The watch is the
// index's own: no subscription starts and no client sees it (contract:
// "session/list starts or renews nothing").

const (
	maxWatchedDirs = 64
	listingMaxAge  = 30 * time.Second
)

// dirListing is the cached listing of one project directory.
type dirListing struct {
	sorted []candidate     // the transcripts, by mtime, newest first
	scope  scope           // set on each of sorted
	dirty  map[string]bool // file names an event named since the listing
	at     time.Time       // when it was read
	wd     int             // its watch
	stale  bool            // read it again at next use
}

// listings are the directory listings of an index; mu serializes their use.
type listings struct {
	mu    sync.Mutex
	dirs  map[string]*dirListing // by directory path
	byWD  map[int]string         // directory path by watch
	queue *watchQueue            // nil before the first use
	off   bool                   // no watching (unavailable, or closed)
}

func newListings() *listings {
	return &listings{dirs: map[string]*dirListing{}, byWD: map[int]string{}}
}

// close ends the watching.
func (ls *listings) close() {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	if ls.queue != nil {
		ls.queue.close()
		ls.queue = nil
	}
	ls.off, ls.dirs, ls.byWD = true, map[string]*dirListing{}, map[int]string{}
}

// scope is what a list scope sets on the candidates of a directory: its
// name and the scope path it belongs to.
type scope struct{ dirName, projectPath string }

// set sets sc on each of cands.
func (sc scope) set(cands []candidate) {
	for i := range cands {
		cands[i].dirName, cands[i].projectPath = sc.dirName, sc.projectPath
	}
}

// candidates are the transcripts of dir (a project directory path), newest
// first; the slice is shared: callers do not change it. A listing read
// now has sc set; one read before keeps the scope it was read for.
func (ls *listings) candidates(dir string, sc scope) []candidate {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	ls.drain()
	if l := ls.dirs[dir]; l != nil && !l.stale && time.Since(l.at) < listingMaxAge {
		ls.refresh(dir, l)
		return l.sorted
	}
	wd, watched := ls.watch(dir)
	// The watch is in place before the read: no later change is lost.
	l := &dirListing{dirty: map[string]bool{}, at: time.Now(), wd: wd, scope: sc}
	l.sorted = readListing(dir)
	sc.set(l.sorted)
	if watched {
		ls.dirs[dir] = l
		ls.drain()
		ls.refresh(dir, l)
	}
	return l.sorted
}

// watch watches dir; the caller holds ls.mu.
func (ls *listings) watch(dir string) (int, bool) {
	if l := ls.dirs[dir]; l != nil {
		delete(ls.dirs, dir)
		return l.wd, true // still watched: only its listing is stale
	}
	if ls.off || len(ls.dirs) >= maxWatchedDirs {
		return 0, false
	}
	if ls.queue == nil {
		q, err := newWatchQueue()
		if err != nil {
			ls.off = true
			return 0, false
		}
		ls.queue = q
	}
	wd, err := ls.queue.add(dir)
	if err != nil {
		return 0, false
	}
	ls.byWD[wd] = dir
	return wd, true
}

// drain applies the queued events: a named file is dirty; a directory
// that went away is no longer listed; lost events make every listing
// stale. The caller holds ls.mu.
func (ls *listings) drain() {
	if ls.queue == nil {
		return
	}
	evs, overflow := ls.queue.read()
	if overflow {
		for _, l := range ls.dirs {
			l.stale = true
		}
	}
	for _, ev := range evs {
		dir, ok := ls.byWD[ev.wd]
		if !ok {
			continue
		}
		if ev.gone {
			ls.queue.remove(ev.wd)
			delete(ls.byWD, ev.wd)
			delete(ls.dirs, dir)
			continue
		}
		if l := ls.dirs[dir]; l != nil && ev.name != "" {
			l.dirty[ev.name] = true
		}
	}
}

// refresh stats the files an event named since the listing; the caller
// holds ls.mu.
func (ls *listings) refresh(dir string, l *dirListing) {
	if len(l.dirty) == 0 {
		return
	}
	ids := map[string]bool{}
	for name := range l.dirty {
		if id, ok := transcriptName(name); ok {
			ids[id] = true
		}
	}
	l.dirty = map[string]bool{}
	if len(ids) == 0 {
		return
	}
	kept := make([]candidate, 0, len(l.sorted)+len(ids))
	for _, c := range l.sorted {
		if !ids[c.sessionID] {
			kept = append(kept, c)
		}
	}
	for id := range ids {
		if c, ok := statAt(dir, id+".jsonl"); ok {
			c.sessionID, c.dirName, c.projectPath = id, l.scope.dirName, l.scope.projectPath
			kept = append(kept, c)
		}
	}
	l.sorted = sortCandidates(kept)
}

// transcriptName is the session id of a transcript's file name.
func transcriptName(name string) (string, bool) {
	id, ok := strings.CutSuffix(name, ".jsonl")
	return id, ok && ValidID(id)
}

// statAt stats dir/name.
func statAt(dir, name string) (candidate, bool) {
	f, err := os.Open(dir)
	if err != nil {
		return candidate{}, false
	}
	defer f.Close()
	return statFd(int(f.Fd()), dir, name)
}

// sortCandidates is cands by mtime, newest first, then by path
// (newestFirst). A listing holds thousands: their order is found on
// small indexes and keys, and each candidate moves once, into a new slice.
func sortCandidates(cands []candidate) []candidate {
	keys := make([]int64, len(cands))
	order := make([]int32, len(cands))
	for i, c := range cands {
		keys[i], order[i] = c.mtimeNs, int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int {
		if c := cmp.Compare(keys[b], keys[a]); c != 0 {
			return c
		}
		return strings.Compare(cands[a].path, cands[b].path)
	}) // newestFirst on the keys
	out := make([]candidate, len(cands))
	for i, j := range order {
		out[i] = cands[j]
	}
	return out
}

// newestFirst orders transcripts by mtime, newest first, then by path.
func newestFirst(a, b *candidate) int {
	if c := cmp.Compare(b.mtimeNs, a.mtimeNs); c != 0 {
		return c
	}
	return strings.Compare(a.path, b.path)
}
