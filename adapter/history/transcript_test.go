package history

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airwire/airwire/adapter/caps"
	"github.com/airwire/airwire/adapter/toolcall"
	"github.com/airwire/airwire/conform/goldentest"
)

// row is a transcript row for tests; parent "" is a root.
func row(typ, uuid, parent string, extra string) string {
	p := "null"
	if parent != "" {
		p = fmt.Sprintf("%q", parent)
	}
	s := fmt.Sprintf(`{"type":%q,"uuid":%q,"parentUuid":%s,"sessionId":"s","timestamp":"2026-01-01T00:00:00.%03dZ"`, typ, uuid, p, len(uuid))
	if extra != "" {
		s += "," + extra
	}
	return s + "}"
}

func userRow(uuid, parent, text string) string {
	return row("user", uuid, parent, fmt.Sprintf(`"message":{"role":"user","content":%q}`, text))
}

func assistantRow(uuid, parent, msgID, content string) string {
	return row("assistant", uuid, parent, fmt.Sprintf(`"message":{"id":%q,"role":"assistant","model":"claude-test","content":%s}`, msgID, content))
}

func writeFile(t *testing.T, lines ...string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "s.jsonl")
	if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func uuids(t *testing.T, path string) string {
	t.Helper()
	msgs, err := ReadMessages(path)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, m := range msgs {
		ids = append(ids, m.UUID)
	}
	return strings.Join(ids, " ")
}

func TestReadMessagesSkipsBadLines(t *testing.T) {
	p := writeFile(t,
		"", "not json", `{"type":"user"`, `[1,2]`, `{"type":"user","message":{"role":"user","content":"no uuid"}}`,
		userRow("a", "", "hi"),
		`{"type":"queue-operation","operation":"enqueue"}`,
		"\x00\xff garbage",
		assistantRow("b", "a", "m1", `[{"type":"text","text":"hello"}]`),
		`{"type":"last-prompt","lastPrompt":"hi"}`,
		`   `,
		userRow("c", "b", "again")+"   ",
	)
	if got := uuids(t, p); got != "a b c" {
		t.Errorf("messages %q, want a b c", got)
	}
}

func TestReadMessagesActiveBranch(t *testing.T) {
	// b1 was answered, then the user went back to a and asked again (b2):
	// the latest leaf wins. Sidechain, meta and progress rows stay out.
	p := writeFile(t,
		userRow("a", "", "q"),
		assistantRow("b1", "a", "m1", `[{"type":"text","text":"old"}]`),
		userRow("c1", "b1", "old follow-up"),
		row("user", "side", "c1", `"isSidechain":true,"message":{"role":"user","content":"sub"}`),
		assistantRow("b2", "a", "m2", `[{"type":"text","text":"new"}]`),
		row("user", "meta", "b2", `"isMeta":true,"message":{"role":"user","content":"caveat"}`),
		row("progress", "p", "meta", ""),
		userRow("c2", "p", "new follow-up"),
		row("attachment", "att", "c2", `"attachment":{"type":"date"}`),
	)
	if got := uuids(t, p); got != "a b2 c2" {
		t.Errorf("messages %q, want a b2 c2", got)
	}
}

func TestReadMessagesParallelToolResults(t *testing.T) {
	// The CLI writes one row per content block; the result of the first
	// tool hangs off the first block, off the branch that the leaf walks.
	p := writeFile(t,
		userRow("a", "", "read both"),
		assistantRow("t1", "a", "m1", `[{"type":"tool_use","id":"toolu_1","name":"Read","input":{"file_path":"/x"}}]`),
		assistantRow("t2", "t1", "m1", `[{"type":"tool_use","id":"toolu_2","name":"Read","input":{"file_path":"/y"}}]`),
		row("user", "r1", "t1", `"sourceToolAssistantUUID":"t1","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"x"}]}`),
		row("user", "r2", "t2", `"sourceToolAssistantUUID":"t2","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_2","content":"y"}]}`),
		assistantRow("z", "r2", "m2", `[{"type":"text","text":"done"}]`),
	)
	if got := uuids(t, p); got != "a t1 t2 r1 r2 z" && got != "a t1 t2 r2 r1 z" {
		t.Fatalf("messages %q", got)
	}
	msgs, _ := ReadMessages(p)
	var kinds []string
	for _, u := range Replay(msgs, toolcall.Renderer{Cwd: "/"}, toolcall.NewSession(caps.Client{}, "/")) {
		var v struct {
			SessionUpdate string `json:"sessionUpdate"`
			ToolCallID    string `json:"toolCallId"`
			Status        string `json:"status"`
		}
		_ = json.Unmarshal(u, &v)
		kinds = append(kinds, strings.TrimSpace(v.SessionUpdate+" "+v.ToolCallID+" "+v.Status))
	}
	want := "user_message_chunk|tool_call toolu_1 pending|tool_call toolu_2 pending|" +
		"tool_call_update toolu_1 completed|tool_call_update toolu_2 completed|agent_message_chunk"
	if got := strings.Join(kinds, "|"); got != want {
		t.Errorf("replay\n got %s\nwant %s", got, want)
	}
}

func TestReadMessagesLargeTranscriptFromLastCompaction(t *testing.T) {
	var b bytes.Buffer
	b.WriteString(userRow("old", "", "before the compaction") + "\n")
	filler := strings.Repeat("x", 1<<20)
	for i := 0; i < 6; i++ {
		b.WriteString(assistantRow(fmt.Sprintf("f%d", i), "old", fmt.Sprintf("mf%d", i), fmt.Sprintf(`[{"type":"text","text":%q}]`, filler)) + "\n")
	}
	b.WriteString(row("system", "cb", "", `"subtype":"compact_boundary","logicalParentUuid":"f5","compactMetadata":{"trigger":"auto"}`) + "\n")
	b.WriteString(row("user", "sum", "cb", `"isCompactSummary":true,"message":{"role":"user","content":"Summary of the earlier talk"}`) + "\n")
	b.WriteString(userRow("new", "sum", "after") + "\n")
	p := filepath.Join(t.TempDir(), "big.jsonl")
	if err := os.WriteFile(p, b.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	if b.Len() <= LargeTranscript {
		t.Fatalf("test transcript too small: %d", b.Len())
	}
	if got := uuids(t, p); got != "sum new" {
		t.Errorf("messages %q, want sum new", got)
	}
	f, _ := os.Open(p)
	defer f.Close()
	entries, err := readEntries(f, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 3 {
		t.Errorf("kept %d rows in memory, want the 3 after the compaction", len(entries))
	}
}

func TestReadMessagesPreservedSegment(t *testing.T) {
	// A partial compaction keeps a segment (k1..k2) and relinks it under
	// the summary: the replay shows the summary, the segment, then the rest.
	p := writeFile(t,
		userRow("a", "", "dropped"),
		userRow("k1", "a", "kept 1"),
		userRow("k2", "k1", "kept 2"),
		row("system", "cb", "", `"subtype":"compact_boundary","compactMetadata":{"preservedSegment":{"headUuid":"k1","anchorUuid":"sum","tailUuid":"k2"}}`),
		row("user", "sum", "cb", `"isCompactSummary":true,"message":{"role":"user","content":"summary"}`),
		userRow("n", "sum", "next"),
	)
	if got := uuids(t, p); got != "sum k1 k2 n" {
		t.Errorf("messages %q, want sum k1 k2 n", got)
	}
}

func TestReplayChunks(t *testing.T) {
	p := writeFile(t,
		userRow("u1", "", "<command-name>/model</command-name><command-args>opus</command-args>"),
		userRow("u2", "u1", "<local-command-stdout>Set model</local-command-stdout>"),
		userRow("u3", "u2", "<command-name>/review</command-name><command-args>pr 1</command-args>"),
		row("user", "u4", "u3", `"message":{"role":"user","content":[{"type":"text","text":"look<system-reminder>secret</system-reminder>"},{"type":"image","source":{"type":"base64","media_type":"image/png","data":"AAA"}}]}`),
		assistantRow("a1", "u4", "msg_1", `[{"type":"thinking","thinking":"hmm","signature":"s"},{"type":"thinking","thinking":"","signature":"s"},{"type":"text","text":""},{"type":"text","text":"Looks fine."}]`),
		row("user", "n1", "a1", `"origin":{"kind":"task-notification"},"message":{"role":"user","content":"<task-notification>done</task-notification>"}`),
		row("assistant", "a2", "n1", `"message":{"id":"msg_2","role":"assistant","model":"<synthetic>","content":[{"type":"text","text":"Not logged in · Please run /login"}]}`),
		row("assistant", "a3", "a2", `"message":{"id":"msg_3","role":"assistant","model":"<synthetic>","content":[{"type":"text","text":"You've hit your limit · run /login to switch"}]}`),
		row("user", "p1", "a3", `"isMeta":true,"origin":{"kind":"peer"},"message":{"role":"user","content":"from a peer"}`),
	)
	msgs, err := ReadMessages(p)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, u := range Replay(msgs, toolcall.Renderer{Cwd: "/"}, toolcall.NewSession(caps.Client{}, "/")) {
		got = append(got, canonical(t, string(u)))
	}
	want := []string{
		`{"content":{"text":"/review pr 1","type":"text"},"messageId":"u3","sessionUpdate":"user_message_chunk"}`,
		`{"content":{"text":"look","type":"text"},"messageId":"u4","sessionUpdate":"user_message_chunk"}`,
		`{"content":{"data":"AAA","mimeType":"image/png","type":"image"},"messageId":"u4","sessionUpdate":"user_message_chunk"}`,
		`{"content":{"text":"hmm","type":"text"},"messageId":"msg_1","sessionUpdate":"agent_thought_chunk"}`,
		`{"content":{"text":"Looks fine.","type":"text"},"messageId":"msg_1","sessionUpdate":"agent_message_chunk"}`,
		`{"content":{"text":"You've hit your limit · run /login to switch","type":"text"},"messageId":"msg_3","sessionUpdate":"agent_message_chunk"}`,
	}
	goldentest.CompareLines(t, "update", got, want)
	if m := Model(msgs); m != "claude-test" {
		t.Errorf("model %q, want the last real one", m)
	}
}

func TestStripMarkers(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"a<system-reminder>x</system-reminder>b<system-reminder>y</system-reminder>c", "abc"},
		{"<command-name>/x</command-name>hi", "hi"},
		{"open <system-reminder> never closed", "open <system-reminder> never closed"},
		{"<other>kept</other>", "<other>kept</other>"},
	} {
		if got := stripMarkers(tt.in); got != tt.want {
			t.Errorf("stripMarkers(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
