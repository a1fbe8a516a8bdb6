package scenario

import (
	"bufio"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// coversEvidence is what a golden's client lane must show for a scenario
// to claim a contract section or subsection: one of the markers on one
// line. Only claims that can be decided from the messages are here; a
// claim of a whole section whose text also states what a client without
// the capability does not get (Session failure, Async tasks, Permission
// presentation) is left out, because a scenario that shows the absence
// covers it too.
type coversEvidence struct {
	claims  []string // "Section" or "Section > Subsection"
	what    string
	markers []string // any of them on one client line; "a&b" needs both
}

var coversEvidences = []coversEvidence{
	{claims: []string{"Session fork point"}, what: "a session/fork request",
		markers: []string{`"method":"session/fork"`}},
	{claims: []string{"Diff patch > Diff content"}, what: "a diffPatch payload",
		markers: []string{`"diffPatch":{`}},
	{claims: []string{"Session failure > Record", "Session failure > Identity and revisions", "Session failure > Delivery",
		"Session failure > Title and details"}, what: "a sessionFailure record",
		markers: []string{`"sessionFailure":{`}},
	{claims: []string{"Async tasks > Updates", "Async tasks > Task id and output path", "Async tasks > Tool call of a task",
		"Async tasks > Liveness", "Async tasks > Stop request"}, what: "an async_task_* update, the asyncTasks marker or a stop request",
		markers: []string{`"sessionUpdate":"async_task_`, `"asyncTasks":{`, `"method":"_session/async_task/stop"`}},
	{claims: []string{"Goal", "Goal > Control request", "Goal > Session state", "Goal > Lifecycle", "Goal > Claude mapping"},
		what:    "a _session/goal request or a goal snapshot in session_info_update",
		markers: []string{`"method":"_session/goal"`, `"sessionUpdate":"session_info_update"&"goal":`}},
	{claims: append([]string{"Agent file-change report"}, prefixed("Agent file-change report")...), what: "an agentFileChangeReportRequest",
		markers: []string{`"agentFileChangeReportRequest"`}},
	{claims: append([]string{"Session index"}, prefixed("Session index", "Relation to the RFDs", "Relation to ACP RFD #2161")...),
		what: "session/list, session/delete, session/close or a _session/ index method",
		markers: []string{`"method":"session/list"`, `"method":"session/delete"`, `"method":"session/close"`, `"method":"_session/rename"`,
			`"method":"_session/archive"`, `"method":"_session/unarchive"`, `"method":"_session/list/`}},
	{claims: []string{"Question custom answers"}, what: "an elicitation/create request",
		markers: []string{`"method":"elicitation/create"`}},
	{claims: []string{"Context compaction"}, what: "a compaction_update or a contextCompaction payload",
		markers: []string{`"sessionUpdate":"compaction_update"`, `"contextCompaction":{`}},
}

// prefixed lists "sec > sub" for each subsection of sec but skip.
func prefixed(sec string, skip ...string) []string {
	var out []string
	for _, sub := range SubsectionsOf(sec) {
		if !slices.Contains(skip, sub) {
			out = append(out, sec+SubsectionSep+sub)
		}
	}
	return out
}

// evidenceFor is the row that decides claim (nil: not decidable).
func evidenceFor(claim string) *coversEvidence {
	for i := range coversEvidences {
		if slices.Contains(coversEvidences[i].claims, claim) {
			return &coversEvidences[i]
		}
	}
	return nil
}

// shows reports whether line holds one of the markers.
func (e *coversEvidence) shows(line string) bool {
	for _, m := range e.markers {
		all := true
		for _, part := range strings.Split(m, "&") {
			all = all && strings.Contains(line, part)
		}
		if all {
			return true
		}
	}
	return false
}

// TestCoversClaimsShowInGoldens: each covers entry that coversEvidences
// can decide is backed by the client lane of one of the scenario's
// goldens.
func TestCoversClaimsShowInGoldens(t *testing.T) {
	root := repoRoot(t)
	scs, err := LoadDir(filepath.Join(root, "scenarios"))
	if err != nil {
		t.Fatal(err)
	}
	decided := 0
	for _, sc := range scs {
		lines := goldenClientLines(t, filepath.Join(root, "goldens", sc.Name))
		if len(lines) == 0 {
			continue // no golden recorded yet
		}
		for _, claim := range sc.Covers {
			e := evidenceFor(claim)
			if e == nil {
				continue
			}
			decided++
			if !slices.ContainsFunc(lines, e.shows) {
				t.Errorf("%s covers %q, but no golden of it shows %s: remove the claim", sc.Name, claim, e.what)
			}
		}
	}
	if decided < 40 {
		t.Errorf("only %d claims decided; the goldens or the scenarios were not found", decided)
	}
}

// TestCoversEvidenceNamesSections: every claim of coversEvidences is a
// contract section or subsection.
func TestCoversEvidenceNamesSections(t *testing.T) {
	for _, e := range coversEvidences {
		for _, c := range e.claims {
			if !IsSection(c) && !IsSubsection(c) {
				t.Errorf("coversEvidences: %q is no section", c)
			}
		}
	}
}

// goldenClientLines are the client-lane lines of every golden in dir.
func goldenClientLines(t *testing.T, dir string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.golden"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		sc.Buffer(nil, 64<<20)
		for sc.Scan() {
			if l := sc.Text(); strings.HasPrefix(l, "client ") {
				out = append(out, l)
			}
		}
		fh.Close()
		if err := sc.Err(); err != nil {
			t.Fatal(err)
		}
	}
	return out
}
