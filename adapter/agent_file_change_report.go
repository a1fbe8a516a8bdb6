package adapter

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"log/slog"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf16"

	"github.com/airwire/airwire/adapter/airmeta"
	"github.com/airwire/airwire/adapter/caps"
	"github.com/airwire/airwire/adapter/claude"
	"github.com/airwire/airwire/adapter/notdir"
	"github.com/airwire/airwire/adapter/usage"
	"github.com/airwire/airwire/internal/pathstyle"
)

// Contract "Agent file-change report": an AIR client that declared
// agentFileChangeReport may add `agentFileChangeReportRequest` to a
// session/prompt `_meta`; the turn then ends with one session_info_update
// (before its PromptResponse) that lists the files the turn changed, taken
// from a dry-run rewind of the CLI's file checkpoint of the turn, or says
// why the list is unavailable.

// The limits and names of the contract.
const (
	fileChangeRequestKey = "agentFileChangeReportRequest"
	fileChangeMaxPaths   = 1024       // "at most 1,024 paths"
	fileChangeMaxPathLen = 4096       // "Each path has at most 4,096 characters"
	fileChangeMaxBytes   = 256 * 1024 // "The serialized report has at most 256 KiB"
)

// fileChangeTimeout bounds the checkpoint preview ("did not answer within
// 2 seconds"); a variable so that tests can shorten it.
var fileChangeTimeout = 2 * time.Second

// The unavailable reasons (contract "Unavailable report").
const (
	fileChangeCancelled     = "cancelled"
	fileChangeTimedOut      = "timeout"
	fileChangeInvalidOutput = "invalidOutput"
	fileChangeProviderError = "providerError"
)

// validFileChangeRequestID reports whether id fits the request id pattern
// ^[A-Za-z0-9._:-]{1,128}$ (a regexp of that bound compiles into 128
// copies of its class, at every start of every airwire verb).
func validFileChangeRequestID(id string) bool {
	if len(id) < 1 || len(id) > 128 {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		ok := c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || strings.IndexByte("._:-", c) >= 0
		if !ok {
			return false
		}
	}
	return true
}

// fileChangeRequestOf returns the request id of a prompt's `_meta` when it
// holds a well-formed request: an object of exactly `version` (the number
// 1) and `requestId` (matching the pattern). Anything else gives "".
func fileChangeRequestOf(meta json.RawMessage) string {
	raw := airmeta.Payload(meta, fileChangeRequestKey)
	var req map[string]json.RawMessage
	if raw == nil || json.Unmarshal(raw, &req) != nil || len(req) != 2 {
		return ""
	}
	var version float64
	var id string
	if json.Unmarshal(req["version"], &version) != nil || version != 1 ||
		json.Unmarshal(req["requestId"], &id) != nil || !validFileChangeRequestID(id) {
		return ""
	}
	return id
}

// fileChanges is a session's side of the extension: the roots a reported
// path must lie in and the request ids already taken. A nil *fileChanges
// (a client without the capability) accepts no request.
type fileChanges struct {
	host    fileChangeHost
	log     *slog.Logger
	id      string
	timeout time.Duration
	mu      sync.Mutex
	roots   []string // canonical: the cwd first, then additional directories
	seen    map[string]bool
}

// fileChangeHost is what the file-change reports reach of their session.
type fileChangeHost interface {
	notify(update any)
	cli() *claude.Process
	activeTurnID() string
	activeFileChangeRequest() *fileChangeRequest
}

// fileChangeRequest is one accepted request; its report goes out once.
// A cancel closes abort, which ends a checkpoint preview under way.
type fileChangeRequest struct {
	id        string
	once      sync.Once
	abort     chan struct{}
	abortOnce sync.Once
}

// cancelled ends the request's preview, if one runs (session/cancel).
func (req *fileChangeRequest) cancelled() {
	if req != nil {
		req.abortOnce.Do(func() { close(req.abort) })
	}
}

// newFileChanges is the session's state, nil unless the client declared
// the capability.
func newFileChanges(c caps.Client, cwd string) *fileChanges {
	if !c.AIR.Has(caps.AgentFileChangeReport) {
		return nil
	}
	r := &fileChanges{timeout: fileChangeTimeout, seen: map[string]bool{}}
	r.setRoots(cwd, nil)
	return r
}

// setRoots takes the working directory and the additional directories
// (the CLI's --add-dir list), resolved against the cwd and canonicalized;
// a repeated root counts once.
func (r *fileChanges) setRoots(cwd string, additional []string) {
	if r == nil {
		return
	}
	root := canonicalFromExistingAncestor(resolvePath("/", cwd))
	roots := []string{root}
	for _, d := range additional {
		if d = canonicalFromExistingAncestor(resolvePath(root, d)); !isRoot(roots, d) {
			roots = append(roots, d)
		}
	}
	r.mu.Lock()
	r.roots = roots
	r.mu.Unlock()
}

// request accepts the request of a prompt's `_meta`: nil when there is
// none, it is malformed, or its id was already used in this session.
func (r *fileChanges) request(meta json.RawMessage) *fileChangeRequest {
	if r == nil {
		return nil
	}
	id := fileChangeRequestOf(meta)
	r.mu.Lock()
	defer r.mu.Unlock()
	if id == "" || r.seen[id] {
		return nil
	}
	r.seen[id] = true
	return &fileChangeRequest{id: id, abort: make(chan struct{})}
}

// checkpointsOn says whether the CLI starts with SDK file checkpointing
// ("With the capability, the adapter enables SDK file checkpointing").
func (r *fileChanges) checkpointsOn() bool { return r != nil }

// unavailable sends req's `unavailable` report with reason
// (nothing for a nil req or one already reported).
func (f *fileChanges) unavailable(req *fileChangeRequest, reason string) {
	if req != nil {
		f.send(req, unavailableReport(req, reason))
	}
}

// unavailableReport is the contract's "Unavailable report" of req.
func unavailableReport(req *fileChangeRequest, reason string) map[string]any {
	return map[string]any{"version": 1, "requestId": req.id, "status": "unavailable", "reason": reason}
}

// send sends a report of req unless one went out already.
func (f *fileChanges) send(req *fileChangeRequest, report map[string]any) {
	if req == nil {
		return
	}
	req.once.Do(func() {
		f.host.notify(map[string]any{"sessionUpdate": "session_info_update",
			"_meta": airmeta.Merge(nil, caps.AgentFileChangeReport, report)})
	})
}

// fileChangesAtTurnEnd sends the file-change report of the active turn,
// if it asked for one, before that turn's response; reason is the turn's
// stop reason and the result is the one to answer with. A cancelled turn
// reports `cancelled`; any other asks the CLI for a dry-run rewind of the
// turn's checkpoint. The wait releases the translator lock: the CLI's
// frames arrive on this goroutine, so none is translated meanwhile, while
// a session/cancel can still mark the turn. A turn cancelled during the
// preview ends the wait at once, reports `cancelled` and ends cancelled,
// as when the cancel came first.
func (t *translator) fileChangesAtTurnEnd(reason string) string {
	req := t.s.activeFileChangeRequest()
	if req == nil {
		return reason
	}
	if reason != usage.Cancelled {
		t.mu.Unlock()
		report, unavailable := t.s.fileChanges.preview(req)
		t.mu.Lock()
		if !t.s.activeCancelled() {
			if report == nil {
				report = unavailableReport(req, unavailable)
			}
			t.s.fileChanges.send(req, report)
			return reason
		}
		reason = usage.Cancelled
	}
	t.s.fileChanges.unavailable(req, fileChangeCancelled)
	return reason
}

// activeUnavailable ends the report of the turn under way, if
// it asked for one, with reason (a failed turn: providerError).
func (f *fileChanges) activeUnavailable(reason string) {
	if f == nil {
		return // no request without the capability
	}
	f.unavailable(f.host.activeFileChangeRequest(), reason)
}

// activeFileChangeRequest is the request of the turn under way (nil for
// none).
func (s *Session) activeFileChangeRequest() *fileChangeRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.turns) == 0 {
		return nil
	}
	return s.turns[0].fileChange
}

// rewindPreview is the CLI's answer to a dry-run rewind_files.
type rewindPreview struct {
	CanRewind    bool              `json:"canRewind"`
	FilesChanged []json.RawMessage `json:"filesChanged"`
}

// preview asks the CLI which files a rewind to the turn's
// prompt would restore, within the timeout (contract "Claude source"). It
// returns the `reported` report, or nil and the unavailable reason.
func (f *fileChanges) preview(req *fileChangeRequest) (map[string]any, string) {
	ctx, cancel := context.WithTimeout(context.Background(), f.timeout)
	defer cancel()
	go func() {
		select {
		case <-req.abort:
			cancel() // the turn was cancelled: its report says so at once
		case <-ctx.Done():
		}
	}()
	var p rewindPreview
	err := f.host.cli().Request(ctx, claude.RewindFiles{UserMessageID: f.host.activeTurnID(), DryRun: true}, &p)
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return nil, fileChangeTimedOut
	case err != nil:
		f.log.Warn("the file checkpoint preview failed", "session", f.id, "err", err)
		return nil, fileChangeProviderError
	case !p.CanRewind || p.FilesChanged == nil:
		return nil, fileChangeInvalidOutput
	}
	f.mu.Lock()
	roots := f.roots
	f.mu.Unlock()
	paths, truncated := reportedPaths(p.FilesChanged, roots)
	return fitFileChangeReport(req.id, paths, truncated), ""
}

// reportedPaths keeps the changed files that the report may name (contract
// "Report"): each resolved against the cwd (the first root) to an absolute
// canonical path, at most 4,096 characters, no control character, inside
// a root and not a root itself; a repeated path counts once. Past 1,024
// paths or 256 KiB of path bytes the rest is left out. truncated says
// that something was dropped or left out.
func reportedPaths(files []json.RawMessage, roots []string) (paths []string, truncated bool) {
	seen := map[string]bool{}
	total := 0
	for _, raw := range files {
		p, ok := reportablePath(raw, roots)
		if !ok {
			truncated = true
			continue
		}
		if seen[fileKey(p)] {
			continue
		}
		if len(paths) >= fileChangeMaxPaths || total+len(p) > fileChangeMaxBytes {
			truncated = true
			continue
		}
		seen[fileKey(p)] = true
		paths = append(paths, p)
		total += len(p)
	}
	return paths, truncated
}

// reportablePath is one changed file as the report names it, or false
// when the filters drop it.
func reportablePath(raw json.RawMessage, roots []string) (string, bool) {
	var p string
	if json.Unmarshal(raw, &p) != nil || strings.TrimFunc(p, isJSSpace) == "" || !pathFits(p) {
		return "", false
	}
	abs := resolvePath(roots[0], p)
	canonical := filepath.Join(canonicalFromExistingAncestor(filepath.Dir(abs)), filepath.Base(abs))
	if !pathFits(canonical) || isRoot(roots, canonical) {
		return "", false
	}
	for _, root := range roots {
		if withinRoot(canonical, root) {
			return canonical, true
		}
	}
	return "", false
}

// pathFits: at most 4,096 characters (UTF-16 code units, as JavaScript
// and the JVM count them) and no C0, DEL or C1 control character.
func pathFits(p string) bool {
	n := 0
	for _, r := range p {
		if r <= 0x1f || (r >= 0x7f && r <= 0x9f) {
			return false
		}
		n += utf16.RuneLen(r)
	}
	return n <= fileChangeMaxPathLen
}

// isJSSpace is JavaScript's String.prototype.trim whitespace.
func isJSSpace(r rune) bool { return unicode.IsSpace(r) || r == '\uFEFF' }

// fitFileChangeReport is the `reported` report of paths, with paths taken
// off its end (and truncated set) until its JSON has at most 256 KiB.
func fitFileChangeReport(id string, paths []string, truncated bool) map[string]any {
	report := func() map[string]any {
		return map[string]any{"version": 1, "requestId": id, "status": "reported",
			"paths": append([]string{}, paths...), "declaredComplete": false, "truncated": truncated}
	}
	size := jsonSize(report())
	for size > fileChangeMaxBytes && len(paths) > 0 {
		last := paths[len(paths)-1]
		paths = paths[:len(paths)-1]
		size -= jsonSize(last)
		if len(paths) > 0 {
			size-- // the comma before it
		}
		if !truncated {
			truncated = true
			size = jsonSize(report())
		}
	}
	return report()
}

// jsonSize is the length of v's JSON as the agent writes it (no HTML
// escaping).
func jsonSize(v any) int {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
	return b.Len() - 1 // the encoder's newline
}

// resolvePath resolves p against base and cleans it.
func resolvePath(base, p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(base, p)
}

// canonicalFromExistingAncestor resolves the symbolic links of the longest
// part of p that exists and appends the rest as it is; p itself when
// resolving fails for another reason than a missing path.
func canonicalFromExistingAncestor(p string) string {
	cur := p
	var missing []string
	for {
		real, err := filepath.EvalSymlinks(cur)
		if err == nil {
			for i := len(missing) - 1; i >= 0; i-- {
				real = filepath.Join(real, missing[i])
			}
			return real
		}
		if !errors.Is(err, fs.ErrNotExist) && !notdir.Is(err) {
			return p
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return p
		}
		missing = append(missing, filepath.Base(cur))
		cur = parent
	}
}

// fileKey is a canonical path as the report compares it: in any case on
// Windows (the reference's pathKey), so C:\Work\a.go and c:\work\A.go
// count once.
func fileKey(p string) string { return pathstyle.Native().NodeKey(p) }

// isRoot reports whether p is one of the roots, compared by fileKey.
func isRoot(roots []string, p string) bool {
	return slices.ContainsFunc(roots, func(r string) bool { return fileKey(r) == fileKey(p) })
}

// withinRoot reports whether p lies in root (or is root).
func withinRoot(p, root string) bool {
	rel, err := filepath.Rel(root, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}
