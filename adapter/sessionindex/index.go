package sessionindex

import (
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/airwire/airwire/adapter/parallel"
	"github.com/airwire/airwire/internal/pathstyle"
	"github.com/airwire/airwire/internal/projectdir"
)

// Index keeps what a list row needs of each transcript, keyed by path and
// checked against its size, mtime and inode: each transcript is parsed
// once and read again only when it changed. An entry holds a few short
// strings and numbers (a few hundred bytes), so 10,000 transcripts keep
// a few MB.
type Index struct {
	configDir string

	listings *listings

	mu    sync.Mutex
	cache map[string]cacheEntry
	// decorated are the listings as candidates of a scope path, by
	// directory name and path.
	decorated map[string]decorated
	// dirCwds is the cwd some transcript of a project directory gave, by
	// directory name, for a transcript that names none.
	dirCwds map[string]string
}

type cacheEntry struct {
	mtimeNs int64
	size    int64
	ino     uint64
	meta    *rowMeta // nil: not listed (sidechain, no message, no title)
}

// rowMeta is what the list keeps of one transcript.
type rowMeta struct {
	title       string // display title
	archived    bool
	sdkArchived bool   // the custom title the SDK reports is archived
	fileCwd     string // the transcript's own cwd, when it encodes to its directory
	projectCwd  string // the cwd the SDK reads: last relocated, else first cwd
	continuedIn string
	updatedAtMs int64
	facts       facts
}

// NewIndex is an empty index of the transcripts under configDir.
func NewIndex(configDir string) *Index {
	return &Index{configDir: configDir, listings: newListings(), cache: map[string]cacheEntry{},
		decorated: map[string]decorated{}, dirCwds: map[string]string{}}
}

// Close ends the watching of the cached directory listings.
func (ix *Index) Close() { ix.listings.close() }

// candidates are the transcripts of the scope directories (dir name →
// scope path, as scopeDirs gives them), newest first, from the cached
// listings. The slice may be shared: callers do not change it.
func (ix *Index) candidates(dirs map[string]string) []candidate {
	root := projectsDir(ix.configDir)
	var out []candidate
	for dirName, projectPath := range dirs {
		sc := scope{dirName: dirName, projectPath: projectPath}
		cands := ix.decorate(sc, ix.listings.candidates(filepath.Join(root, dirName), sc))
		if len(dirs) == 1 {
			return cands
		}
		out = append(out, cands...)
	}
	slices.SortFunc(out, func(a, b candidate) int { return newestFirst(&a, &b) })
	return out
}

// decorated is a listing with the directory name and scope path set on
// each candidate, kept while the listing does not change.
type decorated struct {
	src, out []candidate
}

// decorate is src with scope sc set: src itself when it has (a listing
// has the scope it was read for), else a copy, from the cache when src is
// the listing it was made from.
func (ix *Index) decorate(sc scope, src []candidate) []candidate {
	if len(src) == 0 || (src[0].dirName == sc.dirName && src[0].projectPath == sc.projectPath) {
		return src
	}
	key := sc.dirName + "\x00" + sc.projectPath
	ix.mu.Lock()
	d, ok := ix.decorated[key]
	ix.mu.Unlock()
	if ok && len(d.src) == len(src) && (len(src) == 0 || &d.src[0] == &src[0]) {
		return d.out
	}
	out := slices.Clone(src)
	sc.set(out)
	ix.mu.Lock()
	ix.decorated[key] = decorated{src: src, out: out}
	ix.mu.Unlock()
	return out
}

// metaOf is the row metadata of a candidate, from the cache when the file
// did not change.
func (ix *Index) metaOf(c candidate) *rowMeta {
	ix.mu.Lock()
	e, ok := ix.cache[c.path]
	ix.mu.Unlock()
	if ok && e.mtimeNs == c.mtimeNs && e.size == c.size && e.ino == c.ino {
		return e.meta
	}
	m, err := ix.readMeta(c)
	if err != nil {
		return nil // unreadable now: retried next time
	}
	ix.mu.Lock()
	ix.cache[c.path] = cacheEntry{mtimeNs: c.mtimeNs, size: c.size, ino: c.ino, meta: m}
	if m != nil && m.fileCwd != "" {
		ix.dirCwds[c.dirName] = m.fileCwd
	}
	ix.mu.Unlock()
	return m
}

// forget drops the cache entries of paths.
func (ix *Index) forget(paths ...string) {
	ix.mu.Lock()
	for _, p := range paths {
		delete(ix.cache, p)
	}
	ix.mu.Unlock()
}

// readMeta reads one transcript: nil for one the list never shows.
func (ix *Index) readMeta(c candidate) (*rowMeta, error) {
	f, err := os.Open(c.path) // its stat is c's
	if err != nil {
		return nil, err
	}
	defer f.Close()
	w := windowPool.Get().(*windows)
	defer windowPool.Put(w)
	ht := readHeadTailInto(f, c.size, w.head[:], w.tail[:])
	if isSidechainTranscript(ht.head) {
		return nil, nil
	}
	fa := scanFile(f, c.size, ht)
	if !fa.hasMessages {
		return nil, nil
	}
	title, archived, custom := copyTitles(ht, c.path)
	if title == "" {
		return nil, nil
	}
	last := fa.lastMessageAt
	if last == 0 {
		last = lastTimestamp(f, c.size)
	}
	if last == 0 || last > c.mtimeMs() {
		last = c.mtimeMs()
	}
	relocated := relocatedCwd(ht.tail)
	cands := []string{relocated, fa.headCwd}
	if fa.tailCwd != "" {
		cands = append(cands, pathAndAncestors(fa.tailCwd)...)
	}
	m := &rowMeta{
		title: displayTitle(title, archived), archived: archived, sdkArchived: IsArchivedTitle(custom),
		fileCwd: recoverCwd(c.dirName, cands), projectCwd: firstNonEmpty(relocated, fa.headCwd),
		continuedIn: continuedIn(ht.tail), updatedAtMs: last, facts: fa,
	}
	m.own()
	return m, nil
}

// own copies every string of m: one may still share the windows the
// transcript was read into, which the next transcript reuses.
func (m *rowMeta) own() {
	for _, s := range []*string{&m.title, &m.fileCwd, &m.projectCwd, &m.continuedIn,
		&m.facts.headCwd, &m.facts.tailCwd, &m.facts.forkedFrom, &m.facts.model, &m.facts.turnState} {
		*s = strings.Clone(*s)
	}
}

func isSidechainTranscript(head string) bool {
	first := head
	if i := indexByte(head, '\n'); i >= 0 {
		first = head[:i]
	}
	return contains(first, `"isSidechain":true`) || contains(first, `"isSidechain": true`)
}

// recoverCwd is the first absolute candidate that encodes to dirName.
func recoverCwd(dirName string, cands []string) string {
	for _, c := range cands {
		if c != "" && filepath.IsAbs(c) && dirMatches(dirName, c) {
			return c
		}
	}
	return ""
}

// row is one session of a listing scope.
type row struct {
	sessionID, cwd, title, path string
	archived                    bool
	updatedAtMs, orderAtMs      int64
	mtimeMs                     int64
	facts                       facts
}

func (r row) position() Position { return Position{OrderAtMs: r.orderAtMs, SessionID: r.sessionID} }

// before reports whether a comes first: last user activity descending,
// then session id.
func before(a, b Position) bool {
	if a.OrderAtMs != b.OrderAtMs {
		return a.OrderAtMs > b.OrderAtMs
	}
	return a.SessionID < b.SessionID
}

// rowsOf are the rows of the candidates, each session once (from its
// most recently modified listed transcript), in list order.
func (ix *Index) rowsOf(cands []candidate) []row {
	best := map[string]row{}
	for _, c := range cands {
		r, ok := ix.rowOf(c)
		if !ok {
			continue
		}
		if prev, ok := best[c.sessionID]; ok && prev.mtimeMs >= c.mtimeMs() {
			continue
		}
		best[c.sessionID] = r
	}
	out := make([]row, 0, len(best))
	for _, r := range best {
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return before(out[i].position(), out[j].position()) })
	return out
}

// rowOf is the row of one transcript; false when the list does not show it.
func (ix *Index) rowOf(c candidate) (row, bool) {
	m := ix.metaOf(c)
	if m == nil || !ix.inScope(c, m) || ix.continuedElsewhere(c, m) {
		return row{}, false
	}
	cwd := ix.rowCwd(c, m)
	if cwd == "" {
		return row{}, false
	}
	order := m.updatedAtMs
	if p := m.facts.lastPromptAt; p != 0 && p < order {
		order = p
	}
	return row{sessionID: c.sessionID, cwd: cwd, title: m.title, path: c.path, archived: m.archived,
		updatedAtMs: m.updatedAtMs, orderAtMs: order, mtimeMs: c.mtimeMs(), facts: m.facts}, true
}

// page is the first limit rows that keep passes after `after`, in list
// order, and whether more follow. cands are newest first: a row's order
// key is at most its transcript's mtime, so the walk stops once it holds
// limit+1 rows and the next mtime is older than the last of them. Each
// session is listed from its first (newest) transcript that is listed.
func (ix *Index) page(cands []candidate, keep func(row) bool, after *Position, limit int) ([]row, bool) {
	want := limit + 1
	listed := map[string]bool{}
	var hits []row // in list order, at most want
	for i, c := range cands {
		if len(hits) == want && c.mtimeMs() < hits[want-1].orderAtMs {
			break
		}
		if listed[c.sessionID] {
			continue
		}
		ix.prefetch(cands[i:], want-len(hits))
		r, ok := ix.rowOf(c)
		if !ok {
			continue
		}
		listed[c.sessionID] = true
		if !keep(r) || (after != nil && !before(*after, r.position())) {
			continue
		}
		at, _ := slices.BinarySearchFunc(hits, r, func(a, b row) int {
			if before(a.position(), b.position()) {
				return -1
			}
			return 1
		})
		if hits = slices.Insert(hits, at, r); len(hits) > want {
			hits = hits[:want]
		}
	}
	if len(hits) > limit {
		return hits[:limit], true
	}
	return hits, false
}

// prefetch reads, several at once, the first transcripts of cands
// whose metadata is not cached at their stat: up to n of them, at least 8.
func (ix *Index) prefetch(cands []candidate, n int) {
	if ix.cached(cands[0]) {
		return
	}
	var todo []candidate
	for _, c := range cands {
		if len(todo) == max(n, 8) {
			break
		}
		if !ix.cached(c) {
			todo = append(todo, c)
		}
	}
	parallel.For(len(todo), func(i int) { ix.metaOf(todo[i]) })
}

// cached reports whether c's metadata is cached at its stat.
func (ix *Index) cached(c candidate) bool {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	e, ok := ix.cache[c.path]
	return ok && e.mtimeNs == c.mtimeNs && e.size == c.size && e.ino == c.ino
}

// inScope: a transcript of a long-named directory counts only when it
// belongs to the path; one whose cwd is another existing path with the
// same encoding is left out.
func (ix *Index) inScope(c candidate, m *rowMeta) bool {
	if c.projectPath == "" {
		return true
	}
	if !projectdir.IsExact(pathstyle.Native(), c.dirName, c.projectPath) {
		return m.projectCwd != "" && samePath(canonical(m.projectCwd), c.projectPath)
	}
	own := m.projectCwd
	if own == "" || samePath(own, c.projectPath) || !exists(own) {
		return true
	}
	return samePath(canonical(own), c.projectPath)
}

// continuedElsewhere: the SDK hides a transcript continued in a session
// whose transcript holds history.
func (ix *Index) continuedElsewhere(c candidate, m *rowMeta) bool {
	if m.continuedIn == "" {
		return false
	}
	return hasHistory(filepath.Join(filepath.Dir(c.path), m.continuedIn+".jsonl"))
}

// rowCwd is the transcript's own cwd, else the scope path of its
// directory, else the cwd another transcript of the directory gave.
func (ix *Index) rowCwd(c candidate, m *rowMeta) string {
	if m.fileCwd != "" {
		return m.fileCwd
	}
	if c.projectPath != "" && dirMatches(c.dirName, c.projectPath) {
		return c.projectPath
	}
	ix.mu.Lock()
	defer ix.mu.Unlock()
	return ix.dirCwds[c.dirName]
}

// findTranscripts are every transcript of a session in any project
// directory (empty ones too when withEmpty), by path.
func (ix *Index) findTranscripts(id string, withEmpty bool) []candidate {
	if !ValidID(id) {
		return nil
	}
	var out []candidate
	for dirName := range scopeDirs(ix.configDir, nil) {
		c, ok := statCandidate(filepath.Join(projectsDir(ix.configDir), dirName, id+".jsonl"))
		if ok && (withEmpty || c.size > 0) {
			c.sessionID, c.dirName = id, dirName
			out = append(out, c)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].path < out[j].path })
	return out
}
