package sessionindex

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/airwire/airwire/conform"
	"github.com/airwire/airwire/conform/goldentest"
	"github.com/airwire/airwire/conform/scenario"

	"github.com/airwire/airwire/internal/testroot"
)

// stage writes a scenario's stored sessions into a fresh config dir and
// cwd, as conform does before a run.
func stage(t *testing.T, name string) (sc *scenario.Scenario, configDir, cwd string) {
	t.Helper()
	root := testroot.Root(t)
	sc, err := scenario.Load(filepath.Join(root, "scenarios", name+".yaml"))
	if err != nil {
		t.Fatal(err)
	}
	configDir, cwd = t.TempDir(), canonical(t.TempDir())
	if err := sc.WriteSessions(configDir, cwd, map[string]string{"cwd": cwd}); err != nil {
		t.Fatal(err)
	}
	return sc, configDir, cwd
}

// goldenAnswers are the agent's answers in the air golden, by request id.
func goldenAnswers(t *testing.T, name string) map[int]json.RawMessage {
	t.Helper()
	out := map[int]json.RawMessage{}
	for _, msg := range goldentest.AgentMessages(t, goldentest.Path(t, name, "air")) {
		var m struct {
			ID *int `json:"id"`
		}
		if json.Unmarshal(msg, &m) == nil && m.ID != nil {
			out[*m.ID] = msg
		}
	}
	return out
}

// placeholders numbers session ids in order of first appearance, as the
// goldens write them.
type placeholders map[string]string

// storedPlaceholders numbers the scenario's stored sessions first, in
// scenario order, as the goldens do (conform.StoredSessions).
func storedPlaceholders(sc *scenario.Scenario) placeholders {
	p := placeholders{}
	for _, id := range conform.StoredSessions(sc) {
		p.of(strings.ToLower(id))
	}
	return p
}

func (p placeholders) of(id string) string {
	if v, ok := p[id]; ok {
		return v
	}
	p[id] = "<session-" + strconv.Itoa(len(p)+1) + ">"
	return p[id]
}

type goldenRow struct {
	SessionID string  `json:"sessionId"`
	Title     string  `json:"title"`
	Cwd       string  `json:"cwd"`
	Meta      rowWire `json:"_meta"`
}

// checkPage compares a page with the golden answer: the same rows in the
// same order, with the same title, cwd, archive state, model and state,
// and a cursor exactly when the golden has one.
func checkPage(t *testing.T, got Page, golden json.RawMessage, ph placeholders, cwd string) {
	t.Helper()
	var g struct {
		Result struct {
			Sessions   []goldenRow `json:"sessions"`
			NextCursor string      `json:"nextCursor"`
		} `json:"result"`
	}
	if err := json.Unmarshal(golden, &g); err != nil {
		t.Fatal(err)
	}
	if len(got.Sessions) != len(g.Result.Sessions) || (got.NextCursor == "") != (g.Result.NextCursor == "") {
		t.Fatalf("page %+v, golden %s", got, golden)
	}
	for i, r := range got.Sessions {
		w := g.Result.Sessions[i]
		gf, wf := r.Fields(), w.Meta.JetBrains.AIR
		if ph.of(r.SessionID) != w.SessionID || r.Title != w.Title || strings.Replace(r.Cwd, cwd, "<cwd>", 1) != w.Cwd ||
			gf.Archived != wf.Archived || gf.Model != wf.Model || gf.State != wf.State {
			t.Errorf("row %d: got %+v %+v, golden %+v", i, r, gf, w)
		}
		if !strings.HasPrefix(wf.LastPromptAt, "<") && gf.LastPromptAt != wf.LastPromptAt {
			t.Errorf("row %d lastPromptAt %q, golden %q", i, gf.LastPromptAt, wf.LastPromptAt)
		}
	}
}

// listOf builds the params of a scenario's session/list step.
func listOf(cwd, cursor string, list map[string]any) json.RawMessage {
	p := map[string]any{"cwd": cwd, "_meta": map[string]any{"jetbrains": map[string]any{"air": map[string]any{"version": 1, "list": list}}}}
	if cursor != "" {
		p["cursor"] = cursor
	}
	b, _ := json.Marshal(p)
	return b
}

func mustList(t *testing.T, svc *Service, params json.RawMessage) Page {
	t.Helper()
	r, err := ParseListRequest(params)
	if err != nil {
		t.Fatal(err)
	}
	return svc.List(r)
}

// checkError compares a refusal of the list parameters with the golden's
// error object: code, message and data.
func checkError(t *testing.T, err error, golden json.RawMessage) {
	t.Helper()
	var g struct {
		Error struct {
			Code    int             `json:"code"`
			Message string          `json:"message"`
			Data    json.RawMessage `json:"data"`
		} `json:"error"`
	}
	_ = json.Unmarshal(golden, &g)
	e, ok := err.(*Error)
	if !ok {
		t.Fatalf("err %v, golden %s", err, golden)
	}
	data, _ := json.Marshal(e.Data)
	if e.Code != g.Error.Code || e.Message != g.Error.Message || string(data) != string(g.Error.Data) {
		t.Errorf("error %d %q %s, golden %s", e.Code, e.Message, data, golden)
	}
}

func TestGoldenPaging(t *testing.T) {
	sc, cfg, cwd := stage(t, "session-list-paging")
	answers := goldenAnswers(t, "session-list-paging")
	svc := NewService(cfg, nil, nil)
	defer svc.Close()
	ph := storedPlaceholders(sc)
	cursor := ""
	for id := 1; id <= 3; id++ {
		page := mustList(t, svc, listOf(cwd, cursor, map[string]any{"limit": 2}))
		checkPage(t, page, answers[id], ph, cwd)
		cursor = page.NextCursor
	}
	_, err := ParseListRequest(listOf(cwd, "", map[string]any{"limit": 0}))
	checkError(t, err, answers[4])
}

func TestGoldenArchivedFilter(t *testing.T) {
	sc, cfg, cwd := stage(t, "session-list-archived-filter")
	answers := goldenAnswers(t, "session-list-archived-filter")
	svc := NewService(cfg, nil, nil)
	defer svc.Close()
	ph := storedPlaceholders(sc)
	for id, filter := range []string{Unarchived, Archived, All} {
		checkPage(t, mustList(t, svc, listOf(cwd, "", map[string]any{"archived": filter})), answers[id+1], ph, cwd)
	}
	_, err := ParseListRequest(listOf(cwd, "", map[string]any{"archived": true}))
	checkError(t, err, answers[4])
}

func TestGoldenArchiveUnarchive(t *testing.T) {
	sc, cfg, cwd := stage(t, "session-archive-unarchive")
	answers := goldenAnswers(t, "session-archive-unarchive")
	svc := NewService(cfg, nil, nil)
	defer svc.Close()
	id := sc.Sessions[0].SessionID
	ph := storedPlaceholders(sc)
	ph.of(id)
	for range 2 {
		if err := svc.Archive(id, true, nil, false); err != nil {
			t.Fatal(err)
		}
	}
	checkPage(t, mustList(t, svc, listOf(cwd, "", map[string]any{"archived": Archived})), answers[3], ph, cwd)
	if err := svc.Archive(id, false, nil, false); err != nil {
		t.Fatal(err)
	}
	checkPage(t, mustList(t, svc, listOf(cwd, "", map[string]any{"archived": All})), answers[5], ph, cwd)
	err := svc.Archive("d4444444-0000-4000-8000-00000000ffff", true, nil, false)
	if e, ok := err.(*Error); !ok || e.Code != CodeNotFound || e.Message != "Session not found: d4444444-0000-4000-8000-00000000ffff" {
		t.Fatalf("unknown session: %v (golden %s)", err, answers[6])
	}
	// Archive twice appended the records once: the second found the state.
	data, _ := os.ReadFile(scenario.SessionFile(cfg, cwd, id))
	if n := strings.Count(string(data), `"customTitle":"[archived] Parser fix"`); n != 1 {
		t.Errorf("%d archived title records, want 1", n)
	}
}

func TestGoldenDeleteWithSessionIndex(t *testing.T) {
	sc, cfg, cwd := stage(t, "session-delete-with-session-index")
	answers := goldenAnswers(t, "session-delete-with-session-index")
	svc := NewService(cfg, nil, nil)
	defer svc.Close()
	id := sc.Sessions[0].SessionID
	if err := writeSidecar(scenario.SessionFile(cfg, cwd, id), "x"); err != nil {
		t.Fatal(err)
	}
	if err := svc.Delete(id, false); err != nil {
		t.Fatal(err)
	}
	checkPage(t, mustList(t, svc, listOf(cwd, "", map[string]any{"archived": All})), answers[2], storedPlaceholders(sc), cwd)
	if exists(filepath.Join(filepath.Dir(scenario.SessionFile(cfg, cwd, id)), id)) {
		t.Error("the session directory is left")
	}
	err := svc.Delete(id, false)
	if e, ok := err.(*Error); !ok || e.Code != CodeNotFound {
		t.Fatalf("second delete: %v, golden %s", err, answers[3])
	}
}

func TestGoldenDeleteAIRWithoutIndex(t *testing.T) {
	sc, cfg, cwd := stage(t, "session-delete-air-without-index")
	svc := NewService(cfg, nil, nil)
	defer svc.Close()
	id := sc.Sessions[0].SessionID
	if err := svc.ArchiveInsteadOfDelete(id); err != nil {
		t.Fatal(err)
	}
	if !exists(scenario.SessionFile(cfg, cwd, id)) {
		t.Fatal("the transcript was deleted")
	}
	// The golden's plain list after it is empty: the session is hidden.
	if !svc.HiddenArchived(&cwd)[id] {
		t.Error("the archived session is not hidden from the plain list")
	}
}
