package history

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/airwire/airwire/conform/scenario"
)

// store is a config dir with a project cwd for tests.
type store struct {
	configDir, cwd string
}

func newStore(t *testing.T) *store {
	t.Helper()
	tmp, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	s := &store{configDir: filepath.Join(tmp, "config"), cwd: filepath.Join(tmp, "work")}
	if err := os.MkdirAll(s.cwd, 0o700); err != nil {
		t.Fatal(err)
	}
	return s
}

// write stores the lines as session id of cwd, modified at mtime.
func (s *store) write(t *testing.T, id string, mtime time.Time, lines ...string) string {
	t.Helper()
	p := scenario.SessionFile(s.configDir, s.cwd, id)
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(p, mtime, mtime); err != nil {
		t.Fatal(err)
	}
	return p
}

func sessionID(i int) string { return fmt.Sprintf("00000000-0000-4000-8000-%012d", i) }

func promptRowJSON(cwd, text string) string {
	return fmt.Sprintf(`{"type":"user","uuid":"u1","parentUuid":null,"cwd":%q,"sessionId":"x","message":{"role":"user","content":[{"type":"text","text":%q}]}}`, cwd, text)
}

var base = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func TestListPaging(t *testing.T) {
	s := newStore(t)
	const n = PageSize + 1
	for i := 0; i < n; i++ {
		// Two sessions share each modification time: the id breaks the tie.
		s.write(t, sessionID(i), base.Add(time.Duration(i/2)*time.Second), promptRowJSON(s.cwd, fmt.Sprintf("task %d", i)))
	}
	page, err := List(s.configDir, ListParams{Cwd: &s.cwd})
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Sessions) != PageSize || page.NextCursor != "offset:1000" {
		t.Fatalf("first page: %d sessions, cursor %q", len(page.Sessions), page.NextCursor)
	}
	first := page.Sessions[0]
	if first.SessionID != sessionID(n-1) || first.Title != fmt.Sprintf("task %d", n-1) || first.Cwd != s.cwd ||
		first.UpdatedAt != "2026-01-01T00:08:20.000Z" {
		t.Errorf("newest session %+v", first)
	}
	if page.Sessions[1].SessionID != sessionID(n-2) || page.Sessions[2].SessionID != sessionID(n-3) {
		t.Errorf("order: %s, %s after %s", page.Sessions[1].SessionID, page.Sessions[2].SessionID, first.SessionID)
	}
	next, err := List(s.configDir, ListParams{Cwd: &s.cwd, Cursor: &page.NextCursor})
	if err != nil {
		t.Fatal(err)
	}
	if len(next.Sessions) != 1 || next.Sessions[0].SessionID != sessionID(0) || next.NextCursor != "" {
		t.Errorf("second page %+v", next)
	}
	if b := string(marshal(next)); strings.Contains(b, "nextCursor") {
		t.Errorf("last page encodes a cursor: %s", b)
	}
}

func TestListParamsErrors(t *testing.T) {
	s := newStore(t)
	bad := func(p ListParams, want string) {
		t.Helper()
		_, err := List(s.configDir, p)
		var pe *ParamsError
		if !errors.As(err, &pe) || pe.Message != want {
			t.Errorf("error %v, want %q", err, want)
		}
	}
	for _, c := range []string{"abc", "", "offset:", "offset:-1", "offset:1 ", "<cursor-1>"} {
		bad(ListParams{Cursor: &c}, "Unknown session/list cursor: "+c)
	}
	rel := "work"
	bad(ListParams{Cwd: &rel}, "`cwd` must be an absolute path, but received: work")
	empty := ""
	bad(ListParams{Cwd: &empty}, "`cwd` must be an absolute path, but received: ")
	page, err := List(s.configDir, ListParams{Cwd: &s.cwd})
	if err != nil || page.Sessions == nil || len(page.Sessions) != 0 {
		t.Errorf("empty listing %+v, %v", page, err)
	}
	if got := string(marshal(page)); got != `{"sessions":[]}` {
		t.Errorf("empty page encodes as %s", got)
	}
}

func TestListTitlesAndSkips(t *testing.T) {
	s := newStore(t)
	s.write(t, sessionID(1), base.Add(5*time.Second), promptRowJSON(s.cwd, "first prompt"),
		`{"type":"last-prompt","lastPrompt":"last\nprompt  here","sessionId":"x"}`)
	s.write(t, sessionID(2), base.Add(4*time.Second), promptRowJSON(s.cwd, "first"),
		`{"type":"ai-title","aiTitle":"AI title","sessionId":"x"}`,
		`{"type":"custom-title","customTitle":"Renamed \"quoted\"","sessionId":"x"}`)
	// A subagent transcript and a session with nothing to show are not listed.
	s.write(t, sessionID(3), base.Add(3*time.Second), `{"type":"user","isSidechain":true,"uuid":"a","message":{"role":"user","content":"sub"}}`)
	s.write(t, sessionID(4), base.Add(2*time.Second), `{"type":"queue-operation","operation":"enqueue"}`)
	// Rows without a cwd take the listed directory.
	s.write(t, sessionID(5), base.Add(1*time.Second), `{"type":"user","uuid":"u","message":{"role":"user","content":"<command-name>/model</command-name>"}}`)
	// Not a session file.
	s.write(t, "notes", base, promptRowJSON(s.cwd, "x"))
	page, err := List(s.configDir, ListParams{Cwd: &s.cwd})
	if err != nil {
		t.Fatal(err)
	}
	want := []Listed{
		{SessionID: sessionID(1), Cwd: s.cwd, Title: "last prompt here", UpdatedAt: "2026-01-01T00:00:05.000Z"},
		{SessionID: sessionID(2), Cwd: s.cwd, Title: `Renamed "quoted"`, UpdatedAt: "2026-01-01T00:00:04.000Z"},
		{SessionID: sessionID(5), Cwd: s.cwd, Title: "/model", UpdatedAt: "2026-01-01T00:00:01.000Z"},
	}
	if fmt.Sprint(page.Sessions) != fmt.Sprint(want) {
		t.Errorf("sessions\n got %+v\nwant %+v", page.Sessions, want)
	}
	// Without a cwd every project is listed, and a session that does not
	// say its cwd is left out.
	all, err := List(s.configDir, ListParams{})
	if err != nil {
		t.Fatal(err)
	}
	if len(all.Sessions) != 2 || all.Sessions[0].SessionID != sessionID(1) || all.Sessions[1].SessionID != sessionID(2) {
		t.Errorf("all projects %+v", all.Sessions)
	}
}

func TestSanitizeTitle(t *testing.T) {
	long := strings.Repeat("é", 300)
	for _, tt := range []struct{ in, want string }{
		{"  a\r\n\tb  ", "a b"},
		{long, strings.Repeat("é", 255) + "…"},
		{strings.Repeat(" ", 5000) + "tail", "tail"},
		{strings.Repeat("ab ", 2000), strings.Repeat("ab ", 85) + "…"},
	} {
		if got := sanitizeTitle(tt.in); got != tt.want {
			t.Errorf("sanitizeTitle(%.20q…) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestDelete(t *testing.T) {
	s := newStore(t)
	keep := s.write(t, sessionID(1), base, promptRowJSON(s.cwd, "keep"))
	gone := s.write(t, sessionID(2), base, promptRowJSON(s.cwd, "gone"))
	side := strings.TrimSuffix(gone, ".jsonl")
	if err := os.MkdirAll(filepath.Join(side, "subagents"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := Delete(s.configDir, sessionID(2)); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{gone, side} {
		if _, err := os.Stat(p); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s is still there (%v)", p, err)
		}
	}
	if _, err := os.Stat(keep); err != nil {
		t.Errorf("the other session went too: %v", err)
	}
	// Deleting what is not stored succeeds, as ACP asks.
	for _, id := range []string{sessionID(2), sessionID(9), "not-a-uuid", "../x"} {
		if err := Delete(s.configDir, id); err != nil {
			t.Errorf("Delete(%q) = %v", id, err)
		}
	}
	page, _ := List(s.configDir, ListParams{Cwd: &s.cwd})
	if len(page.Sessions) != 1 || page.Sessions[0].SessionID != sessionID(1) {
		t.Errorf("after delete %+v", page.Sessions)
	}
}

func TestFindSkipsEmptyTranscripts(t *testing.T) {
	s := newStore(t)
	p := scenario.SessionFile(s.configDir, "/elsewhere", sessionID(1))
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, ok := Find(s.configDir, sessionID(1)); ok {
		t.Error("an empty transcript counts")
	}
	full := s.write(t, sessionID(1), base, promptRowJSON(s.cwd, "x"))
	if got, ok := Find(s.configDir, sessionID(1)); !ok || got != full {
		t.Errorf("Find = %q, %v; want %q", got, ok, full)
	}
}
