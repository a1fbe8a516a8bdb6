package history

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestReadTail(t *testing.T) {
	big := strings.Repeat("y", 3*tailChunk) // rows that straddle the backward reads
	prompt := func(uuid, mode string) string {
		return row("user", uuid, "", `"permissionMode":"`+mode+`","origin":{"kind":"human"},"message":{"role":"user","content":"`+big+`"}`)
	}
	assistant := func(uuid, model string) string {
		return row("assistant", uuid, "", `"message":{"role":"assistant","model":"`+model+`","content":[{"type":"text","text":"`+big+`"}]}`)
	}
	planExit := row("attachment", "pe", "", `"attachment":{"type":"plan_mode_exit"}`)
	for _, tt := range []struct {
		name      string
		lines     []string
		withModel bool
		want      Resumed
	}{
		{"last prompt and model", []string{prompt("1", "plan"), assistant("2", "claude-a"), prompt("3", "acceptEdits"), assistant("4", "claude-b"), "not json"}, true,
			Resumed{Model: "claude-b", PermissionMode: "acceptEdits"}},
		{"synthetic model skipped", []string{assistant("1", "claude-a"), prompt("2", "default"), assistant("3", "<synthetic>")}, true,
			Resumed{Model: "claude-a", PermissionMode: "default"}},
		{"plan left by a plan exit", []string{prompt("1", "plan"), planExit, assistant("2", "claude-a")}, true,
			Resumed{Model: "claude-a"}},
		{"human prompt without a mode ends the search", []string{prompt("1", "plan"), row("user", "2", "", `"origin":{"kind":"human"},"message":{"role":"user","content":"hi"}`)}, false,
			Resumed{}},
		{"sidechain rows do not count", []string{prompt("1", "default"), row("user", "2", "", `"isSidechain":true,"permissionMode":"bypassPermissions"`)}, false,
			Resumed{PermissionMode: "default"}},
		{"mode only", []string{assistant("1", "claude-a"), prompt("2", "auto")}, false,
			Resumed{PermissionMode: "auto"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p := writeFile(t, tt.lines...)
			got, err := ReadTail(p, tt.withModel)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("ReadTail = %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestEachLineBackwards(t *testing.T) {
	lines := []string{"first", strings.Repeat("a", tailChunk-3), "", strings.Repeat("b", 2*tailChunk+7), "last"}
	data := strings.Join(lines, "\n")
	var got []string
	if err := eachLineBackwards(strings.NewReader(data), int64(len(data)), func(l []byte) bool {
		got = append(got, string(l))
		return false
	}); err != nil {
		t.Fatal(err)
	}
	for i, l := range got {
		if want := lines[len(lines)-1-i]; l != want {
			t.Errorf("line %d from the end: %d bytes, want %d", i, len(l), len(want))
		}
	}
	if len(got) != len(lines) {
		t.Errorf("%d lines, want %d", len(got), len(lines))
	}
}

func TestFork(t *testing.T) {
	s := newStore(t)
	src := sessionID(1)
	srcPath := s.write(t, src, base,
		`{"type":"queue-operation","operation":"enqueue","sessionId":"`+src+`"}`,
		row("user", "a", "", `"cwd":"/w","isSidechain":false,"message":{"role":"user","content":"Fix the bug"}`),
		row("progress", "p", "a", ""),
		row("assistant", "b", "p", `"teamName":"t","sourceToolAssistantUUID":"a","message":{"id":"m","role":"assistant","model":"claude-a","content":[{"type":"text","text":"Done."}]}`),
		row("user", "side", "b", `"isSidechain":true,"message":{"role":"user","content":"sub"}`),
		`{"type":"tools-used","sessionId":"`+src+`","tools":["Read","",3]}`,
		`{"type":"relocated","sessionId":"`+src+`","relocatedCwd":"/moved"}`,
		`{"type":"ai-title","aiTitle":"Bug fix","sessionId":"`+src+`"}`,
	)
	now := time.Date(2026, 2, 3, 4, 5, 6, 7e6, time.UTC)
	id, err := Fork(s.configDir, src, now)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(filepath.Dir(srcPath), id+".jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var rows []map[string]any
	for _, l := range bytes.Split(bytes.TrimSpace(data), []byte("\n")) {
		var r map[string]any
		if err := json.Unmarshal(l, &r); err != nil {
			t.Fatalf("bad fork row %s", l)
		}
		rows = append(rows, r)
	}
	if len(rows) != 5 {
		t.Fatalf("%d rows, want user, assistant, tools-used, relocated, custom-title:\n%s", len(rows), data)
	}
	user, asst := rows[0], rows[1]
	if user["parentUuid"] != nil || asst["parentUuid"] != user["uuid"] || user["uuid"] == "a" {
		t.Errorf("links: user %v → %v, assistant → %v", user["uuid"], user["parentUuid"], asst["parentUuid"])
	}
	// The session index reads the source with a pattern that expects
	// sessionId first, as the SDK writes it.
	if want := `"forkedFrom":{"sessionId":"` + src + `"`; !bytes.Contains(bytes.SplitN(data, []byte("\n"), 2)[0], []byte(want)) {
		t.Errorf("first fork row lacks %s:\n%s", want, data)
	}
	for i, r := range rows[:2] {
		from, _ := r["forkedFrom"].(map[string]any)
		if r["sessionId"] != id || from["sessionId"] != src || from["messageUuid"] != []string{"a", "b"}[i] || r["isSidechain"] != false {
			t.Errorf("row %d: %v", i, r)
		}
	}
	if _, ok := asst["teamName"]; ok {
		t.Error("teamName was copied")
	}
	if _, ok := asst["sourceToolAssistantUUID"]; ok {
		t.Error("sourceToolAssistantUUID was copied")
	}
	if user["timestamp"] != "2026-01-01T00:00:00.001Z" || asst["timestamp"] != "2026-02-03T04:05:06.007Z" {
		t.Errorf("timestamps %v, %v", user["timestamp"], asst["timestamp"])
	}
	if !bytes.HasPrefix(data, []byte(`{"type":"user","uuid":"`)) {
		t.Errorf("the row's keys lost their order: %.60s", data)
	}
	if tools := rows[2]["tools"].([]any); len(tools) != 1 || tools[0] != "Read" {
		t.Errorf("tools-used %v", rows[2])
	}
	if rows[3]["relocatedCwd"] != "/moved" || rows[4]["customTitle"] != "Bug fix (fork)" || rows[4]["sessionId"] != id {
		t.Errorf("trailer %v %v", rows[3], rows[4])
	}
	if _, err := Fork(s.configDir, sessionID(7), now); err != ErrNotFound {
		t.Errorf("fork of an unknown session: %v", err)
	}
	if _, err := Fork(s.configDir, "../../etc", now); err != ErrNotFound {
		t.Errorf("fork of a bad id: %v", err)
	}
}
