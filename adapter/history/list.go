package history

import (
	"cmp"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf16"

	"github.com/airwire/airwire/adapter/parallel"
	"github.com/airwire/airwire/internal/lazyre"
)

// PageSize is the number of sessions in one `session/list` page of a
// plain or a Zed client.
const PageSize = 1000

// ListParams are the `session/list` params a plain listing reads; nil
// means absent.
type ListParams struct {
	Cwd    *string `json:"cwd"`
	Cursor *string `json:"cursor"`
}

// Page is a `session/list` result for a plain or a Zed client.
type Page struct {
	Sessions   []Listed `json:"sessions"`
	NextCursor string   `json:"nextCursor,omitempty"`
}

// Listed is one session of a page.
type Listed struct {
	SessionID string `json:"sessionId"`
	Cwd       string `json:"cwd"`
	Title     string `json:"title"`
	UpdatedAt string `json:"updatedAt"`
}

// ParamsError is a `session/list` request the reference rejects with
// invalidParams (-32602): Message and Data are the error's.
type ParamsError struct {
	Message string
	Data    any
}

func (e *ParamsError) Error() string { return e.Message }

var cursorRE = lazyre.New(`^offset:(\d+)$`)

// offsetOf is the offset a cursor names: "offset:N"; absent is 0.
func offsetOf(cursor *string) (int, error) {
	if cursor == nil {
		return 0, nil
	}
	m := cursorRE.FindStringSubmatch(*cursor)
	if m == nil {
		return 0, &ParamsError{Message: "Unknown session/list cursor: " + *cursor}
	}
	n, err := strconv.Atoi(m[1])
	if err != nil {
		n = math.MaxInt
	}
	return n, nil
}

// List is one page of the stored sessions of p.Cwd (of every project when
// absent), newest first, as the reference lists them for a client without
// the session index: by transcript modification time then session id,
// both descending; at most PageSize a page, with an "offset:N" cursor for
// the next one. Sessions with nothing to show as a title, or that do not
// say their cwd, are left out. A relative cwd or an unknown cursor is a
// *ParamsError.
func List(configDir string, p ListParams) (Page, error) {
	if p.Cwd != nil && !filepath.IsAbs(*p.Cwd) {
		return Page{}, &ParamsError{
			Message: fmt.Sprintf("`cwd` must be an absolute path, but received: %s", *p.Cwd),
			Data:    map[string]string{"cwd": *p.Cwd},
		}
	}
	offset, err := offsetOf(p.Cursor)
	if err != nil {
		return Page{}, err
	}
	defer parallel.Bulk()() // every transcript stat'ed, a thousand read
	infos := listInfos(candidates(configDir, p.Cwd), offset, PageSize+1)
	page := Page{Sessions: []Listed{}}
	for i, in := range infos {
		if i == PageSize {
			page.NextCursor = "offset:" + strconv.Itoa(offset+PageSize)
			break
		}
		if in.Cwd == "" {
			continue
		}
		page.Sessions = append(page.Sessions, Listed{SessionID: in.SessionID, Cwd: in.Cwd,
			Title: sanitizeTitle(in.Summary), UpdatedAt: isoMillis(in.Modified)})
	}
	return page, nil
}

// candidate is a transcript file a listing may show.
type candidate struct {
	id, path, project string
	mtime             time.Time
	mtimeNs           int64 // mtime, to sort by
}

// candidates are the transcripts of cwd's project directories, or of all
// project directories when cwd is nil, newest first (then by id,
// descending).
func candidates(configDir string, cwd *string) []candidate {
	var dirs []string
	project := ""
	if cwd != nil {
		project = resolve(*cwd)
		dirs = projectDirs(configDir, *cwd)
	} else {
		dirs = allProjectDirs(configDir)
	}
	var out []candidate
	for _, dir := range dirs {
		names, mtimes := dirTranscripts(dir)
		for i, mtime := range mtimes {
			out = append(out, candidate{id: strings.TrimSuffix(names[i], ".jsonl"),
				path: dir + string(filepath.Separator) + names[i], project: project, mtime: mtime, mtimeNs: mtime.UnixNano()})
		}
	}
	return newestFirst(out)
}

// newestFirst is cands by mtime, then by id, both descending; equal ones
// keep their order. The order is found on indexes (thousands of
// candidates), and each candidate moves once, into a new slice.
func newestFirst(cands []candidate) []candidate {
	order := make([]int32, len(cands))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int {
		if c := cmp.Compare(cands[b].mtimeNs, cands[a].mtimeNs); c != 0 {
			return c
		}
		if c := strings.Compare(cands[b].id, cands[a].id); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	out := make([]candidate, len(cands))
	for i, j := range order {
		out[i] = cands[j]
	}
	return out
}

// isTranscriptName reports a transcript's file name: <session id>.jsonl.
func isTranscriptName(name string) bool {
	id, ok := strings.CutSuffix(name, ".jsonl")
	return ok && ValidID(id)
}

// readChunk is how many transcripts listInfos reads at once.
const readChunk = 64

// listInfos reads the candidates in order and keeps, after skipping
// offset sessions, at most limit sessions that have something to show,
// each id once. It reads readChunk transcripts at a time, in parallel.
func listInfos(cands []candidate, offset, limit int) []Info {
	var out []Info
	seen := map[string]bool{}
	for start := 0; start < len(cands) && len(out) < limit; start += readChunk {
		chunk := cands[start:min(start+readChunk, len(cands))]
		infos, oks := make([]Info, len(chunk)), make([]bool, len(chunk))
		parallel.For(len(chunk), func(i int) {
			infos[i], oks[i] = readInfo(chunk[i].path, chunk[i].id, chunk[i].project)
		})
		for i, in := range infos {
			if len(out) >= limit {
				break
			}
			if !oks[i] || seen[in.SessionID] {
				continue
			}
			seen[in.SessionID] = true
			if offset > 0 {
				offset--
				continue
			}
			in.Modified = chunk[i].mtime
			out = append(out, in)
		}
	}
	return out
}

// isoMillis is t as JavaScript's toISOString writes it.
func isoMillis(t time.Time) string {
	return t.UTC().Truncate(time.Millisecond).Format("2006-01-02T15:04:05.000Z")
}

// Title limits of the reference's sanitizeTitle.
const (
	maxTitleLength = 256
	titleScan      = 4096
)

// sanitizeTitle puts a stored summary on one line with single spaces and
// cuts it to maxTitleLength UTF-16 units with an ellipsis.
func sanitizeTitle(text string) string {
	if u := utf16.Encode([]rune(text)); len(u) > titleScan {
		// The title of a long text depends only on its start.
		head := strings.TrimLeftFunc(spaceRunRE.ReplaceAllString(string(utf16.Decode(u[:titleScan])), " "), unicode.IsSpace)
		if hu := utf16.Encode([]rune(head)); len(hu) >= maxTitleLength+2 {
			return string(utf16.Decode(hu[:maxTitleLength-1])) + "…"
		}
	}
	s := strings.Join(strings.Fields(text), " ")
	su := utf16.Encode([]rune(s))
	if len(su) <= maxTitleLength {
		return s
	}
	return string(utf16.Decode(su[:maxTitleLength-1])) + "…"
}

var spaceRunRE = lazyre.New(`\s+`)
