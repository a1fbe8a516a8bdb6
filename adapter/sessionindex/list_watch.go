package sessionindex

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"
)

// group is the watching of one cwd, shared by its subscriptions (contract:
// "List subscription"). One goroutine runs it: events and kicks mark
// sessions, a debounced pass stats the scope, reads the rows that changed
// and sends each subscription what it has not seen.
type group struct {
	svc   *Service
	cwd   string
	paths []string

	watcher *fsnotify.Watcher
	watched map[string]int // directory: the files it took of watchBudget

	kicks chan kick
	done  chan struct{}
	wg    sync.WaitGroup

	mu      sync.Mutex
	members map[string]*subscription

	// Owned by the loop.
	stats       map[string]string // transcript stats by session, to tell a change
	live        map[string]liveRecord
	dirty       map[string]bool
	registryHit bool
	first       time.Time // first change of the current burst
	deadline    time.Time // when the next pass runs (zero: none)
}

type kick struct {
	id  string
	now bool
}

// startGroup watches the scope of cwd and stats every transcript in it.
func startGroup(svc *Service, cwd string) (*group, error) {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, err
	}
	g := &group{svc: svc, cwd: cwd, paths: scopePaths(cwd, true), watcher: w, watched: map[string]int{},
		kicks: make(chan kick, 64), done: make(chan struct{}), members: map[string]*subscription{}, dirty: map[string]bool{}}
	g.syncWatches()
	g.stats = g.statScope()
	g.live = svc.registry.snapshot()
	g.deadline = time.Now().Add(firstRescan)
	g.wg.Add(1)
	go g.loop()
	return g, nil
}

func (g *group) join(s *subscription) {
	g.mu.Lock()
	g.members[s.id] = s
	g.mu.Unlock()
}

// leave removes a subscription and says how many are left.
func (g *group) leave(id string) int {
	g.mu.Lock()
	defer g.mu.Unlock()
	delete(g.members, id)
	return len(g.members)
}

func (g *group) stop() {
	close(g.done)
	g.watcher.Close()
	g.wg.Wait()
	for _, files := range g.watched {
		watchBudget.release(files)
	}
}

func (g *group) kick(id string, now bool) {
	select {
	case g.kicks <- kick{id: id, now: now}:
	case <-g.done:
	}
}

// watchDirs are the directories to watch: the scope's project
// directories, the projects directory and the registry, each replaced by
// its nearest existing parent while it is missing.
func (g *group) watchDirs() []string {
	cfg := g.svc.Index.configDir
	dirs := []string{projectsDir(cfg), filepath.Join(cfg, "sessions")}
	for name := range scopeDirs(cfg, g.paths) {
		dirs = append(dirs, filepath.Join(projectsDir(cfg), name))
	}
	for _, p := range g.paths {
		dirs = append(dirs, filepath.Join(projectsDir(cfg), encode(p)))
	}
	out := map[string]bool{}
	for _, d := range dirs {
		out[nearestExisting(d)] = true
	}
	return slices.Sorted(maps.Keys(out))
}

func nearestExisting(dir string) string {
	for d := dir; ; d = filepath.Dir(d) {
		if st, err := os.Stat(d); err == nil && st.IsDir() {
			return d
		}
		if filepath.Dir(d) == d {
			return d
		}
	}
}

// syncWatches adds the directories that came and drops the ones no longer
// wanted. A directory too large for kqueue (watchBudget) is left to the
// rescan.
func (g *group) syncWatches() {
	want := map[string]bool{}
	for _, d := range g.watchDirs() {
		want[d] = true
		if _, ok := g.watched[d]; !ok {
			g.add(d)
		}
	}
	for d, files := range g.watched {
		if !want[d] {
			_ = g.watcher.Remove(d)
			watchBudget.release(files)
			delete(g.watched, d)
		}
	}
}

// add watches d with what it takes of watchBudget.
func (g *group) add(d string) {
	files, err := watchBudget.reserve(d)
	if err != nil {
		return
	}
	if g.watcher.Add(d) != nil {
		watchBudget.release(files)
		return
	}
	g.watched[d] = files
}

// statScope is a stat key of each session's transcripts in the scope.
func (g *group) statScope() map[string]string {
	cands := candidatesOf(g.svc.Index.configDir, scopeDirs(g.svc.Index.configDir, g.paths))
	sort.Slice(cands, func(i, j int) bool { return cands[i].path < cands[j].path })
	out := map[string]string{}
	for _, c := range cands {
		out[c.sessionID] += c.path + ":" + strconv.FormatInt(c.mtimeNs, 10) + ":" + strconv.FormatInt(c.size, 10) + ";"
	}
	return out
}

func (g *group) loop() {
	defer g.wg.Done()
	timer := time.NewTimer(time.Until(g.deadline))
	rescan := time.NewTicker(rescanEvery)
	defer rescan.Stop()
	for {
		select {
		case <-g.done:
			timer.Stop()
			return
		case ev, ok := <-g.watcher.Events:
			if ok {
				g.event(ev)
			}
		case <-g.watcher.Errors:
		case k := <-g.kicks:
			g.dirty[k.id] = true
			g.schedule(k.now)
		case <-rescan.C:
			g.pass()
		case <-timer.C:
			g.pass()
		}
		resetTimer(timer, g.deadline)
	}
}

func resetTimer(t *time.Timer, at time.Time) {
	if !t.Stop() {
		select {
		case <-t.C:
		default:
		}
	}
	if !at.IsZero() {
		t.Reset(max(0, time.Until(at)))
	}
}

// event marks what a file event names.
func (g *group) event(ev fsnotify.Event) {
	if filepath.Dir(ev.Name) == filepath.Join(g.svc.Index.configDir, "sessions") {
		if strings.HasSuffix(ev.Name, ".json") {
			g.registryHit = true
			g.schedule(false)
		}
		return
	}
	if id := sessionOfEvent(ev.Name); id != "" {
		g.dirty[id] = true
	}
	g.schedule(false)
}

// schedule sets the next pass: 150 ms after the last change of a burst, at
// most 1 s after its first; at once for a session of this connection.
func (g *group) schedule(now bool) {
	t := time.Now()
	if now {
		g.deadline = t
		return
	}
	if g.first.IsZero() {
		g.first = t
	}
	g.deadline = minTime(t.Add(debounce), g.first.Add(maxDelay))
}

func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}
