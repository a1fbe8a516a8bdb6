package validate

import (
	"bytes"
	"encoding/json"
	pathpkg "path"
	"strconv"
	"strings"
	"unicode"

	"github.com/airwire/airwire/internal/lazyre"
)

// SectionFileChange names the contract's agent file-change report.
const SectionFileChange = "Agent file-change report"

// The agent's file-change reports ("Agent file-change report"). The rules
// bind the agent: "The adapter ignores a malformed request and a repeated
// request id", "sends one session_info_update before the PromptResponse",
// drops "paths outside these roots, the roots themselves, and paths with
// control characters", and "The serialized report has at most 256 KiB".
// That the client ignores a duplicate or stale report is not on the wire.
//
// Rule ids:
//
//	file-change-report-repeated     a second report for one request id of a session
//	file-change-report-unrequested  a report for no accepted request of an open
//	                                prompt turn (none, a malformed one, or a
//	                                repeated request id the agent must ignore)
//	file-change-report-missing      a prompt turn with an accepted request ends
//	                                with a PromptResponse and no report
//	file-change-report-path         a path outside the session's roots, a root
//	                                itself, or one with a control character
//	file-change-report-size         a report over 256 KiB serialized
const (
	RuleFileChangeRepeated    = "file-change-report-repeated"
	RuleFileChangeUnrequested = "file-change-report-unrequested"
	RuleFileChangeMissing     = "file-change-report-missing"
	RuleFileChangePath        = "file-change-report-path"
	RuleFileChangeSize        = "file-change-report-size"
)

// fileChangeMaxBytes is "The serialized report has at most 256 KiB".
const fileChangeMaxBytes = 256 << 10

// fileChangeRequestID is the request id pattern of "Request".
var fileChangeRequestID = lazyre.New(`^[A-Za-z0-9._:-]{1,128}$`)

// acceptedFileChangeRequest is the request id of a session/prompt's
// agentFileChangeReportRequest that the agent accepts: well formed
// (exactly version 1 and requestId, the id pattern) and, per session, not
// a repeated id. "" when there is none to answer.
func (c *checker) acceptedFileChangeRequest(sid string, params any) string {
	st := &c.v.st
	req, ok := path(params, "_meta", "jetbrains", "air", "agentFileChangeReportRequest").(map[string]any)
	if !ok || !st.caps["agentFileChangeReport"] || len(req) != 2 || !isOne(req["version"]) {
		return ""
	}
	id, _ := req["requestId"].(string)
	if !fileChangeRequestID.MatchString(id) || st.fcrRequested[sid+"\x00"+id] {
		return ""
	}
	st.fcrRequested[sid+"\x00"+id] = true
	return id
}

// hookFileChangeReport checks one agentFileChangeReport of the agent.
func hookFileChangeReport(c *checker, h hookCtx) {
	if !c.fromAgent() || !c.v.st.initSeen {
		return
	}
	st := &c.v.st
	sid, _ := path(c.doc, "params", "sessionId").(string)
	id, _ := field(h.val, "requestId").(string)
	key := sid + "\x00" + id
	switch t := st.openFileChangeTurn(sid, id); {
	case st.fcrReported[key]:
		c.add(h.ptr+"/requestId", RuleFileChangeRepeated, SectionFileChange, SeverityError,
			"request %s of session %s was reported already; the agent sends one report per request and ignores a repeated request id (Request, Report)", id, sid)
	case t == nil:
		c.add(h.ptr+"/requestId", RuleFileChangeUnrequested, SectionFileChange, SeverityError,
			"no open prompt turn of session %s has an accepted request %s; the agent ignores a malformed request and a repeated request id (Request)", sid, id)
	default:
		t.fcrReported = true
	}
	st.fcrReported[key] = true
	c.fileChangePaths(h, sid)
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if enc.Encode(h.val) == nil && buf.Len()-1 > fileChangeMaxBytes {
		c.add(h.ptr, RuleFileChangeSize, SectionFileChange, SeverityError,
			"the serialized report has %d bytes; it has at most 256 KiB (%d) (Report)", buf.Len()-1, fileChangeMaxBytes)
	}
}

// openFileChangeTurn is the open prompt turn of sid whose accepted request
// is id (nil when none).
func (s *state) openFileChangeTurn(sid, id string) *turn {
	for _, t := range s.turns[sid] {
		if id != "" && t.fcrID == id {
			return t
		}
	}
	return nil
}

// fileChangePaths checks each reported path against the session's roots.
func (c *checker) fileChangePaths(h hookCtx, sid string) {
	roots := c.v.st.roots[sid]
	paths, _ := field(h.val, "paths").([]any)
	for i, p := range paths {
		s, ok := p.(string)
		if !ok {
			continue
		}
		why := ""
		switch {
		case strings.IndexFunc(s, unicode.IsControl) >= 0:
			why = "holds a control character"
		case len(roots) == 0:
			continue // the session's directories were not seen
		case isRootPath(roots, s):
			why = "is a root itself"
		case !underRoots(roots, s):
			why = "is outside the working directory and the additional directories " + strings.Join(roots, ", ")
		}
		if why != "" {
			c.add(h.ptr+"/paths/"+strconv.Itoa(i), RuleFileChangePath, SectionFileChange, SeverityError,
				"path %q %s; the agent drops such a path and sets truncated: true (Report)", s, why)
		}
	}
}

// fileChangeTurnEnd reports a prompt turn that ends with a PromptResponse
// and never reported its accepted request.
func (c *checker) fileChangeTurnEnd(t *turn) {
	if t == nil || t.fcrID == "" || t.fcrReported || !c.fromAgent() {
		return
	}
	ptr, end := "/result", "the PromptResponse"
	if c.v.st.v2 {
		ptr, end = "/params/update", "the turn's idle state_update"
	}
	c.add(ptr, RuleFileChangeMissing, SectionFileChange, SeverityError,
		"the prompt asked for file-change report %s and the agent sends one session_info_update with it before %s (Report)", t.fcrID, end)
}

// sessionRoots are the working directory and the additional directories
// of a session/new, session/load, session/resume or session/fork request
// (params.additionalDirectories, and _meta.claudeCode.options'), cleaned,
// relative ones resolved against the cwd.
func sessionRoots(params any) []string {
	cwd, ok := field(params, "cwd").(string)
	if !ok || cwd == "" {
		return nil
	}
	cwd = cleanRoot(cwd, "")
	roots := []string{cwd}
	for _, list := range []any{field(params, "additionalDirectories"), path(params, "_meta", "claudeCode", "options", "additionalDirectories")} {
		dirs, _ := list.([]any)
		for _, d := range dirs {
			if s, ok := d.(string); ok && s != "" {
				roots = append(roots, cleanRoot(s, cwd))
			}
		}
	}
	return roots
}

// cleanRoot cleans p with forward slashes, resolved against base when it
// is relative, without the /private of a macOS temporary directory (the
// report names canonical paths, the request may not).
func cleanRoot(p, base string) string {
	p = strings.ReplaceAll(p, `\`, "/")
	if base != "" && !strings.HasPrefix(p, "/") && !isDrivePath(p) {
		p = base + "/" + p
	}
	p = pathpkg.Clean(p)
	if rest, ok := strings.CutPrefix(p, "/private/"); ok {
		p = "/" + rest
	}
	return p
}

func isDrivePath(p string) bool {
	return len(p) >= 2 && p[1] == ':' && unicode.IsLetter(rune(p[0]))
}

// samePath compares two cleaned paths, without case for drive paths.
func samePath(a, b string) bool {
	if isDrivePath(a) {
		return strings.EqualFold(a, b)
	}
	return a == b
}

func isRootPath(roots []string, p string) bool {
	p = cleanRoot(p, "")
	for _, r := range roots {
		if samePath(r, p) {
			return true
		}
	}
	return false
}

func underRoots(roots []string, p string) bool {
	p = cleanRoot(p, "")
	for _, r := range roots {
		prefix := strings.TrimSuffix(r, "/") + "/"
		if len(p) > len(prefix) && samePath(p[:len(prefix)], prefix) {
			return true
		}
	}
	return false
}
