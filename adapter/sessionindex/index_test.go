package sessionindex

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/airwire/airwire/conform/scenario"
)

// writeSessions stores n sessions of cwd, one prompt and one answer each,
// a minute apart.
func writeSessions(t *testing.T, configDir, cwd string, n int) []string {
	t.Helper()
	sc := &scenario.Scenario{}
	var ids []string
	for i := range n {
		id := fmt.Sprintf("a0000000-0000-4000-8000-%012d", i)
		ids = append(ids, id)
		user, answer := fmt.Sprintf("Task %d", i), "Done."
		sc.Sessions = append(sc.Sessions, scenario.Transcript{SessionID: id,
			Modified: time.Date(2026, 1, 1, 10, i, 0, 0, time.UTC).Format(time.RFC3339),
			Rows:     []scenario.TranscriptRow{{User: &user}, {Assistant: &answer}}})
	}
	if err := sc.WriteSessions(configDir, cwd, nil); err != nil {
		t.Fatal(err)
	}
	return ids
}

// Paging never repeats or skips a row while answers are appended to the
// transcripts (which moves neither the order key nor the scope).
func TestPagingWhileAppending(t *testing.T) {
	cfg, cwd := t.TempDir(), canonical(t.TempDir())
	ids := writeSessions(t, cfg, cwd, 40)
	svc := NewService(cfg, nil, nil)
	defer svc.Close()
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			row := map[string]any{"type": "assistant", "timestamp": time.Now().UTC().Format(time.RFC3339Nano),
				"message": map[string]any{"role": "assistant", "model": "m", "content": []any{map[string]any{"type": "text", "text": "more"}}}}
			_ = scenario.AppendRow(scenario.SessionFile(cfg, cwd, ids[i%len(ids)]), row)
		}
	}()
	seen := map[string]bool{}
	cursor := ""
	for page := 0; ; page++ {
		p := mustList(t, svc, listOf(cwd, cursor, map[string]any{"limit": 7}))
		if p.NextCursor != "" && len(p.Sessions) == 0 {
			t.Fatal("an empty page with a cursor")
		}
		for _, s := range p.Sessions {
			if seen[s.SessionID] {
				t.Fatalf("page %d repeats %s", page, s.SessionID)
			}
			seen[s.SessionID] = true
		}
		if cursor = p.NextCursor; cursor == "" {
			break
		}
	}
	close(stop)
	wg.Wait()
	if len(seen) != len(ids) {
		t.Fatalf("listed %d of %d sessions", len(seen), len(ids))
	}
}

// A cursor works only in the scope it was issued for.
func TestCursorScope(t *testing.T) {
	cfg, cwd := t.TempDir(), canonical(t.TempDir())
	writeSessions(t, cfg, cwd, 3)
	svc := NewService(cfg, nil, nil)
	defer svc.Close()
	p := mustList(t, svc, listOf(cwd, "", map[string]any{"limit": 1}))
	if p.NextCursor == "" {
		t.Fatal("no cursor")
	}
	for name, params := range map[string]json.RawMessage{
		"cwd":       listOf(t.TempDir(), p.NextCursor, map[string]any{"limit": 1}),
		"archived":  listOf(cwd, p.NextCursor, map[string]any{"archived": All}),
		"worktrees": listOf(cwd, p.NextCursor, map[string]any{"includeWorktrees": true}),
		"garbage":   listOf(cwd, "offset:1", nil),
	} {
		if _, err := ParseListRequest(params); err == nil || err.(*Error).Code != CodeInvalidParams {
			t.Errorf("%s: cursor accepted (%v)", name, err)
		}
	}
	if _, err := ParseListRequest(listOf(cwd, p.NextCursor, map[string]any{"limit": 5})); err != nil {
		t.Errorf("another limit rejects the cursor: %v", err)
	}
}

// A session id that is no UUID never reaches the file system.
func TestUnsafeIDsRefused(t *testing.T) {
	cfg := t.TempDir()
	victim := filepath.Join(cfg, "victim.jsonl")
	if err := os.WriteFile(victim, []byte(`{"type":"user"}`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	svc := NewService(filepath.Join(cfg, "config"), nil, nil)
	defer svc.Close()
	for _, id := range []string{"../victim", "a/b", "..", "x\x00y", `C:\x`, "C:x", ""} {
		if err := svc.Delete(id, false); err == nil || err.(*Error).Code != CodeNotFound {
			t.Errorf("delete %q: %v", id, err)
		}
		if _, err := svc.Rename(id, "t", nil); err == nil {
			t.Errorf("rename %q accepted", id)
		}
		if err := svc.Archive(id, true, nil, false); err == nil {
			t.Errorf("archive %q accepted", id)
		}
	}
	if data, _ := os.ReadFile(victim); string(data) != `{"type":"user"}`+"\n" {
		t.Errorf("the file outside was touched: %q", data)
	}
}

func TestTitleModel(t *testing.T) {
	id := "d4444444-0000-4000-8000-000000000001"
	for _, c := range []struct {
		in       string
		archived bool
		want     string
	}{
		{"  Fix   the\tparser ", false, "Fix the parser"},
		{"Fix", true, "[archived] Fix"},
		{"[archived] [archived]  Fix", false, "Fix"},
		{"[archived] Fix", true, "[archived] Fix"},
		{"", true, "[archived] Session d4444444"},
		{strings.Repeat("x", 250), true, "[archived] " + strings.Repeat("x", 189)},
	} {
		if got := StoredTitle(c.in, c.archived, id); got != c.want {
			t.Errorf("StoredTitle(%q, %v) = %q, want %q", c.in, c.archived, got, c.want)
		}
	}
	if IsArchivedTitle("[archived]") || IsArchivedTitle("[archived]x") || !IsArchivedTitle(" [archived]\tx") {
		t.Error("IsArchivedTitle")
	}
}

// A rename writes the two title records and a 0600 sidecar; a torn last
// line is closed first; an archived session stays archived.
func TestRenameStoredSession(t *testing.T) {
	cfg, cwd := t.TempDir(), canonical(t.TempDir())
	id := writeSessions(t, cfg, cwd, 1)[0]
	path := scenario.SessionFile(cfg, cwd, id)
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	_, _ = f.WriteString(`{"type":"torn"`)
	f.Close()
	svc := NewService(cfg, nil, nil)
	defer svc.Close()
	if err := svc.Archive(id, true, nil, false); err != nil {
		t.Fatal(err)
	}
	shown, err := svc.Rename(id, "Parser fix", nil)
	if err != nil || shown != "Parser fix" {
		t.Fatalf("rename: %q %v", shown, err)
	}
	data, _ := os.ReadFile(path)
	if !strings.Contains(string(data), "{\"type\":\"torn\"\n{\"type\":\"custom-title\"") ||
		!strings.HasSuffix(string(data), titleRecords(id, "[archived] Parser fix")) {
		t.Errorf("transcript tail %q", data[max(0, len(data)-400):])
	}
	st, err := os.Stat(sidecarPath(path))
	if err != nil || st.Mode().Perm() != 0o600 || readSidecar(path) != "[archived] Parser fix" {
		t.Errorf("sidecar %v %v %q", st, err, readSidecar(path))
	}
	p := mustList(t, svc, listOf(cwd, "", map[string]any{"archived": All}))
	if len(p.Sessions) != 1 || p.Sessions[0].Title != "Parser fix" || !p.Sessions[0].Fields().Archived {
		t.Errorf("list %+v", p)
	}
}

// includeWorktrees lists the same subdirectory of the linked worktrees,
// found from <git-common-dir>/worktrees/*/gitdir.
func TestIncludeWorktrees(t *testing.T) {
	cfg, base := t.TempDir(), canonical(t.TempDir())
	main, wt := filepath.Join(base, "repo"), filepath.Join(base, "wt1")
	for _, d := range []string{filepath.Join(main, ".git", "worktrees", "wt1"), filepath.Join(main, "pkg"), filepath.Join(wt, "pkg")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	_ = os.WriteFile(filepath.Join(wt, ".git"), []byte("gitdir: "+filepath.Join(main, ".git", "worktrees", "wt1")+"\n"), 0o644)
	_ = os.WriteFile(filepath.Join(main, ".git", "worktrees", "wt1", "gitdir"), []byte(filepath.Join(wt, ".git")+"\n"), 0o644)
	writeSessions(t, cfg, filepath.Join(main, "pkg"), 1)
	other := writeSessionsAt(t, cfg, filepath.Join(wt, "pkg"), "b0000000-0000-4000-8000-000000000001")
	svc := NewService(cfg, nil, nil)
	defer svc.Close()
	if p := mustList(t, svc, listOf(filepath.Join(main, "pkg"), "", nil)); len(p.Sessions) != 1 {
		t.Errorf("without worktrees: %+v", p)
	}
	p := mustList(t, svc, listOf(filepath.Join(main, "pkg"), "", map[string]any{"includeWorktrees": true}))
	if len(p.Sessions) != 2 || p.Sessions[0].SessionID != other || p.Sessions[0].Cwd != filepath.Join(wt, "pkg") {
		t.Errorf("with worktrees: %+v", p)
	}
}

func writeSessionsAt(t *testing.T, cfg, cwd, id string) string {
	user, answer := "Worktree task", "OK."
	sc := &scenario.Scenario{Sessions: []scenario.Transcript{{SessionID: id, Modified: "2026-02-01T00:00:00Z",
		Rows: []scenario.TranscriptRow{{User: &user}, {Assistant: &answer}}}}}
	if err := sc.WriteSessions(cfg, cwd, nil); err != nil {
		t.Fatal(err)
	}
	return id
}

// lastField and firstField find what the pattern finds; lastTitles what
// lastField finds of both title keys.
func TestFieldsMatchThePattern(t *testing.T) {
	for _, text := range []string{
		`{"customTitle":"a"}` + "\n" + `{"customTitle": "b\"c"}`,
		`{"customTitle":"a"}` + "\n" + `{"x":"\"customTitle\":\"no\""}`,
		`{"customTitle":"a"}` + "\n" + `{"customTitle":"torn`,
		`{"customTitle":null}` + "\n" + `{"customTitle":  "two spaces"}` + "\n" + `{"customTitle":` + "\t" + `"tab"}`,
		`{"customTitle":"line\\` + "\n" + `"}` + "\n" + `{"customTitle":"raw` + "\n" + `newline"}`,
		`{"customTitle":""}`,
		`{"customTitle":"\u00e9\\"}`,
		`{"aiTitle":"a"}` + "\n" + `{"customTitle":"b","aiTitle":"c"}` + "\n" + `{"xaiTitle":"no","sessionTitle":"no"}`,
		`{"aiTitle":"x\"customTitle\":\"no"}` + "\n" + `{"aiTitle": null,"customTitle":"Title\":"}`,
		`{"aiTitle":"torn`,
		`no field`,
	} {
		if got, want := lastTitles(text), (windowTitles{lastField(text, "customTitle"), lastField(text, "aiTitle")}); got != want {
			t.Errorf("lastTitles(%q) = %+v, lastField gives %+v", text, got, want)
		}
		vals := stringFields(text, "customTitle")
		first, last := "", ""
		if len(vals) > 0 {
			first, last = vals[0], vals[len(vals)-1]
		}
		if got := lastField(text, "customTitle"); got != last {
			t.Errorf("lastField(%q) = %q, the pattern's last match %q", text, got, last)
		}
		if got := firstField(text, "customTitle"); got != first {
			t.Errorf("firstField(%q) = %q, the pattern's first match %q", text, got, first)
		}
	}
}

// The pages of the early-stopping walk, put together, are exactly the
// sorted rows of every transcript, whatever the limit and the filter,
// also when order keys lag far behind the mtimes.
func TestPagesMatchTheFullOrder(t *testing.T) {
	cfg, cwd := t.TempDir(), canonical(t.TempDir())
	ids := writeSessions(t, cfg, cwd, 60)
	svc := NewService(cfg, nil, nil)
	defer svc.Close()
	for i, id := range ids {
		path := scenario.SessionFile(cfg, cwd, id)
		if i%7 == 0 {
			if err := svc.Archive(id, true, nil, false); err != nil {
				t.Fatal(err)
			}
		}
		// mtimes in another order than the prompts: the walk must read on.
		at := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC).Add(-time.Duration((i*37)%60) * time.Hour)
		if i%5 == 0 { // older than its records: updatedAt and the key are capped at it
			at = time.Date(2025, 12, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration((i*13)%60) * time.Minute)
		}
		if err := os.Chtimes(path, at, at); err != nil {
			t.Fatal(err)
		}
	}
	for _, filter := range []string{Unarchived, Archived, All} {
		var want []string
		for _, r := range svc.Index.rowsOf(svc.Index.candidates(scopeDirs(cfg, []string{cwd}))) {
			if keep(r, filter) {
				want = append(want, r.sessionID)
			}
		}
		for _, limit := range []int{1, 3, 7, 50} {
			var got []string
			cursor := ""
			for {
				p := mustList(t, svc, listOf(cwd, cursor, map[string]any{"limit": limit, "archived": filter}))
				for _, s := range p.Sessions {
					got = append(got, s.SessionID)
				}
				if cursor = p.NextCursor; cursor == "" {
					break
				}
			}
			if strings.Join(got, ",") != strings.Join(want, ",") {
				t.Errorf("%s, limit %d: pages %v, want %v", filter, limit, got, want)
			}
		}
	}
}

// treeState is every path under root with its size and mtime.
func treeState(t *testing.T, root string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.Walk(root, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, "%s %d %d\n", p, info.Size(), info.ModTime().UnixNano())
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// Every unsafe form of a real session's id (a path separator, `..`, NUL, a
// drive or UNC prefix, a suffix) is refused by every Service method that
// takes an id, and nothing under the config directory or beside it
// changes: the id never reaches the file system.
func TestUnsafeIDVariantsNeverReachTheFileSystem(t *testing.T) {
	root := t.TempDir()
	cfg, cwd := filepath.Join(root, "config"), canonical(t.TempDir())
	u := writeSessions(t, cfg, cwd, 1)[0]
	svc := NewService(cfg, nil, nil)
	defer svc.Close()
	before := treeState(t, root)
	variants := []string{"../" + u, u + "/..", "..", ".", "a/b", u[:8] + "/" + u[9:], u + "\x00", "\x00" + u,
		u[:8] + "\x00" + u[9:], "C:" + u, `C:\` + u, "c:/" + u, `\\srv\share\` + u, "/" + u, u + "/", u + ".jsonl",
		`..\` + u, u + " ", " " + u, u[:35], u + "0"}
	for _, id := range variants {
		if err := svc.Delete(id, false); err == nil {
			t.Errorf("delete %q accepted", id)
		}
		if _, err := svc.Rename(id, "t", nil); err == nil {
			t.Errorf("rename %q accepted", id)
		}
		for _, archived := range []bool{true, false} {
			if err := svc.Archive(id, archived, nil, false); err == nil {
				t.Errorf("archive(%v) %q accepted", archived, id)
			}
		}
		_ = svc.ArchiveInsteadOfDelete(id)
	}
	if after := treeState(t, root); after != before {
		t.Errorf("the file system changed:\nbefore\n%s\nafter\n%s", before, after)
	}
}

// A cursor is accepted exactly in the scope it was issued for, over every
// pair of scopes (cwd, includeWorktrees, archived), whatever the limit.
func TestCursorAcceptedOnlyInItsScope(t *testing.T) {
	type scope struct {
		cwd       string
		worktrees bool
		archived  string
	}
	var scopes []scope
	for _, cwd := range []string{"/ws/app", "/ws/app-v2", "/ws/app.v2"} {
		for _, wt := range []bool{false, true} {
			for _, a := range []string{Unarchived, Archived, All} {
				scopes = append(scopes, scope{cwd, wt, a})
			}
		}
	}
	for i, from := range scopes {
		req := ListRequest{Cwd: from.cwd, IncludeWorktrees: from.worktrees, Archived: from.archived}
		cur := encodeCursor(Position{OrderAtMs: int64(1000 + i), SessionID: fmt.Sprintf("a0000000-0000-4000-8000-%012d", i)}, req)
		for _, to := range scopes {
			params := listOf(to.cwd, cur, map[string]any{"includeWorktrees": to.worktrees, "archived": to.archived, "limit": 1 + i%200})
			r, err := ParseListRequest(params)
			if (err == nil) != (from == to) {
				t.Fatalf("cursor of %+v in %+v: %v", from, to, err)
			}
			if err == nil && (r.After == nil || r.After.OrderAtMs != int64(1000+i)) {
				t.Fatalf("cursor of %+v: position %+v", from, r.After)
			}
		}
	}
}

// ValidID accepts exactly what the UUID pattern of the SDK accepts.
func TestValidIDIsTheUUIDPattern(t *testing.T) {
	re := regexp.MustCompile(`(?i)^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)
	u := "a0B1c2D3-e4F5-4a6b-8c7d-0123456789ab"
	ids := []string{u, "", u + "\n", "\n" + u, strings.Replace(u, "-", "_", 1), strings.Replace(u, "a", "g", 1)}
	for i := range len(u) {
		for _, c := range []byte{'-', '0', 'f', 'F', 'g', '/', '.', 0} {
			ids = append(ids, u[:i]+string(c)+u[i+1:])
		}
	}
	for _, id := range ids {
		if ValidID(id) != re.MatchString(id) {
			t.Errorf("ValidID(%q) = %v", id, ValidID(id))
		}
	}
}

func TestTimestampRE(t *testing.T) {
	if got, want := timestampRE.String(), fieldExpr("timestamp"); got != want {
		t.Errorf("timestampRE = %s, fieldExpr(\"timestamp\") = %s", got, want)
	}
}
