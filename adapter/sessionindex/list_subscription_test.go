package sessionindex

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/airwire/airwire/conform/scenario"
)

// recorder collects the `_session/list/changes` a service sends.
type recorder struct {
	mu  sync.Mutex
	got []Changes
	at  []time.Time
}

func (r *recorder) notify(method string, params any) error {
	if method != MethodChanges {
		return nil
	}
	r.mu.Lock()
	r.got, r.at = append(r.got, params.(Changes)), append(r.at, time.Now())
	r.mu.Unlock()
	return nil
}

func (r *recorder) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.got)
}

// wait returns the notifications once n arrived (fails after 3 s).
func (r *recorder) wait(t *testing.T, n int) []Changes {
	t.Helper()
	for deadline := time.Now().Add(3 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if r.count() >= n {
			r.mu.Lock()
			defer r.mu.Unlock()
			return append([]Changes(nil), r.got...)
		}
	}
	t.Fatalf("%d notifications, want %d", r.count(), n)
	return nil
}

func subscribe(t *testing.T, svc *Service, cwd string) string {
	t.Helper()
	raw, _ := json.Marshal(map[string]string{"cwd": cwd})
	id, err := svc.Subscribe(raw)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// Real file writes: a new transcript, a burst of appends (one
// notification, debounced), a rename through the index, and a delete.
func TestSubscriptionSeesWrites(t *testing.T) {
	cfg, cwd := t.TempDir(), canonical(t.TempDir())
	ids := writeSessions(t, cfg, cwd, 1)
	rec := &recorder{}
	svc := NewService(cfg, nil, rec.notify)
	defer svc.Close()
	sub := subscribe(t, svc, cwd)

	created := writeSessionsAt(t, cfg, cwd, "c0000000-0000-4000-8000-000000000001")
	got := rec.wait(t, 1)
	if got[0].SubscriptionID != sub || len(got[0].Sessions) != 1 || got[0].Sessions[0].SessionID != created {
		t.Fatalf("create: %+v", got[0])
	}

	path := scenario.SessionFile(cfg, cwd, ids[0])
	var lastWrite time.Time
	for range 5 { // a burst: one notification after it
		_ = scenario.AppendRow(path, map[string]any{"type": "user", "timestamp": time.Now().UTC().Format(time.RFC3339Nano),
			"message": map[string]any{"role": "user", "content": "Another prompt"}})
		lastWrite = time.Now()
		time.Sleep(20 * time.Millisecond)
	}
	got = rec.wait(t, 2)
	// Debounced: the one notification of the burst comes after its last
	// write (the count check below proves there is only one).
	if rec.at[1].Before(lastWrite) || len(got[1].Sessions) != 1 || got[1].Sessions[0].SessionID != ids[0] {
		t.Fatalf("append burst notified %v before its last write: %+v", lastWrite.Sub(rec.at[1]), got[1])
	}
	time.Sleep(300 * time.Millisecond)
	if rec.count() != 2 {
		t.Fatalf("the burst sent %d notifications", rec.count()-1)
	}

	if _, err := svc.Rename(ids[0], "Renamed", nil); err != nil {
		t.Fatal(err)
	}
	got = rec.wait(t, 3)
	if got[2].Sessions[0].Title != "Renamed" || rec.at[2].Sub(rec.at[1]) < perSessionEvery {
		t.Fatalf("rename (%v after the last row): %+v", rec.at[2].Sub(rec.at[1]), got[2])
	}

	if err := os.Remove(scenario.SessionFile(cfg, cwd, created)); err != nil {
		t.Fatal(err)
	}
	got = rec.wait(t, 4)
	if len(got[3].Removed) != 1 || got[3].Removed[0] != created {
		t.Fatalf("delete: %+v", got[3])
	}

	svc.Unsubscribe(json.RawMessage(`{"subscriptionId":"` + sub + `"}`))
	svc.Unsubscribe(json.RawMessage(`{"subscriptionId":"` + sub + `"}`))
	_, _ = svc.Rename(ids[0], "After", nil)
	time.Sleep(400 * time.Millisecond)
	if rec.count() != 4 {
		t.Fatal("a change after unsubscribe was sent")
	}
}

func TestSubscribeLimits(t *testing.T) {
	svc := NewService(t.TempDir(), nil, nil)
	defer svc.Close()
	if _, err := svc.Subscribe(json.RawMessage(`{"cwd":"relative/path"}`)); err == nil ||
		err.Error() != "Invalid params: params require an absolute cwd" {
		t.Fatalf("relative cwd: %v", err)
	}
	cwd := t.TempDir()
	for range maxSubs {
		subscribe(t, svc, cwd)
	}
	_, err := svc.Subscribe(json.RawMessage(`{"cwd":"` + cwd + `"}`))
	e, ok := err.(*Error)
	if !ok || e.Code != CodeInvalidParams || e.Message != "Invalid params: At most 128 session list subscriptions per connection" {
		t.Fatalf("129th subscribe: %v", err)
	}
	if data, _ := json.Marshal(e.Data); string(data) != `{"max":128,"reason":"too_many_subscriptions"}` {
		t.Errorf("129th subscribe: data %s", data)
	}
}

// appendPrompt appends a prompt record stamped now (a row change: its
// lastPromptAt moves).
func appendPrompt(t *testing.T, path string) {
	t.Helper()
	err := scenario.AppendRow(path, map[string]any{"type": "user", "timestamp": time.Now().UTC().Format(time.RFC3339Nano),
		"message": map[string]any{"role": "user", "content": "Another prompt"}})
	if err != nil {
		t.Fatal(err)
	}
}

// Real file writes against the timing rules (contract: "List
// subscription"): a change is sent no sooner than 150 ms after it; writes
// that never pause are still sent, the first at most 1 s after the burst
// began; a session is sent at most once a second; a transcript moved out
// of the directory is removed and moved back is sent again; one created by
// an atomic rename is sent, and its delete removed.
func TestSubscriptionTimingWithFileWrites(t *testing.T) {
	const slack = 400 * time.Millisecond // a loaded machine schedules late, never early
	cfg, cwd := t.TempDir(), canonical(t.TempDir())
	id := writeSessions(t, cfg, cwd, 1)[0]
	path := scenario.SessionFile(cfg, cwd, id)
	rec := &recorder{}
	svc := NewService(cfg, nil, rec.notify)
	defer svc.Close()
	subscribe(t, svc, cwd)

	wrote := time.Now()
	appendPrompt(t, path)
	rec.wait(t, 1)
	if d := rec.at[0].Sub(wrote); d < debounce {
		t.Errorf("a single write was sent %v after it, before the %v debounce", d, debounce)
	}
	appendPrompt(t, path) // right after a row: held back to a second after it
	rec.wait(t, 2)
	if d := rec.at[1].Sub(rec.at[0]); d < perSessionEvery-10*time.Millisecond {
		t.Errorf("a second row of the session %v after the first, under the once-a-second limit", d)
	}

	start := time.Now()
	for time.Since(start) < 2600*time.Millisecond { // never a 150 ms pause
		appendPrompt(t, path)
		time.Sleep(40 * time.Millisecond)
	}
	time.Sleep(maxDelay + slack)
	rec.mu.Lock()
	at := append([]time.Time(nil), rec.at...)
	rec.mu.Unlock()
	if len(at) < 4 {
		t.Fatalf("%d notifications for 2.6 s of writes that never pause: the 1 s cap does not hold", len(at)-2)
	}
	if d := at[2].Sub(start); d > max(maxDelay, at[1].Add(perSessionEvery).Sub(start))+slack {
		t.Errorf("the first row of the burst came %v after it began", d)
	}
	for i := 2; i < len(at); i++ {
		if gap := at[i].Sub(at[i-1]); gap < perSessionEvery-10*time.Millisecond {
			t.Errorf("rows %d and %d of one session %v apart, under the once-a-second limit", i-1, i, gap)
		}
	}

	n := len(at)
	moved := filepath.Join(filepath.Dir(path), id+".jsonl.bak")
	if err := os.Rename(path, moved); err != nil {
		t.Fatal(err)
	}
	if got := rec.wait(t, n+1); len(got[n].Removed) != 1 || got[n].Removed[0] != id {
		t.Fatalf("moved out: %+v", got[n])
	}
	if err := os.Rename(moved, path); err != nil {
		t.Fatal(err)
	}
	if got := rec.wait(t, n+2); len(got[n+1].Sessions) != 1 || got[n+1].Sessions[0].SessionID != id {
		t.Fatalf("moved back: %+v", got[n+1])
	}

	created := "c1000000-0000-4000-8000-000000000001"
	tmp := t.TempDir()
	writeSessionsAt(t, tmp, cwd, created)
	if err := os.Rename(scenario.SessionFile(tmp, cwd, created), scenario.SessionFile(cfg, cwd, created)); err != nil {
		t.Fatal(err)
	}
	if got := rec.wait(t, n+3); len(got[n+2].Sessions) != 1 || got[n+2].Sessions[0].SessionID != created {
		t.Fatalf("created by a rename: %+v", got[n+2])
	}
	if err := os.Remove(scenario.SessionFile(cfg, cwd, created)); err != nil {
		t.Fatal(err)
	}
	if got := rec.wait(t, n+4); len(got[n+3].Removed) != 1 || got[n+3].Removed[0] != created {
		t.Fatalf("deleted: %+v", got[n+3])
	}
}
