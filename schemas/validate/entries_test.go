package validate_test

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airwire/airwire/internal/journal"
	"github.com/airwire/airwire/schemas/validate"
)

// entriesOf feeds the client-lane messages of the air-session journal,
// followed by extra raw entry lines, to validate.Entries.
func entriesOf(t *testing.T, extra ...string) validate.Report {
	t.Helper()
	a, s := schemas(t)
	_, entries, err := journal.ReadAll("testdata/air-session.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range extra {
		var e journal.Entry
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatal(err)
		}
		entries = append(entries, e)
	}
	i := 0
	next := func() (journal.Entry, error) {
		if i == len(entries) {
			return journal.Entry{}, io.EOF
		}
		i++
		return entries[i-1], nil
	}
	rep, err := validate.Entries(next, validate.New(a, s, validate.WithSide(validate.SideAgent)))
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// lastSeq is the seq of the air-session journal's last entry.
func lastSeq(t *testing.T) uint64 {
	_, entries, err := journal.ReadAll("testdata/air-session.jsonl")
	if err != nil || len(entries) == 0 {
		t.Fatalf("%d entries, %v", len(entries), err)
	}
	return entries[len(entries)-1].Seq
}

// TestJournalEntryFindings: what the journal format forbids (docs/journal.md,
// "Entries") is an error naming the entry, whatever side is checked, and a
// client-lane message whose sender is unknown or missing is not checked as
// if the editor sent it.
func TestJournalEntryFindings(t *testing.T) {
	n := lastSeq(t)
	at := func(seq uint64, rest string) string {
		return `{"seq":` + jsonNum(seq) + `,"t_ns":` + jsonNum(seq*1000000000) + "," + rest + "}"
	}
	chunk := `"kind":"msg","lane":"client","dir":"agent","msg":{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"` + sid + `","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"hi"}}}}`
	tests := []struct {
		name  string
		lines []string
		seq   uint64
		text  []string
	}{
		{name: "unknown kind", lines: []string{at(n+1, `"kind":"telegram","lane":"client","dir":"agent"`)}, seq: n + 1,
			text: []string{`kind "telegram"`}},
		{name: "duplicate seq", lines: []string{at(n+1, chunk), at(n+1, `"kind":"stderr","proc":"agent","text":"x"`)}, seq: n + 1,
			text: []string{"not above the previous entry's " + jsonNum(n+1)}},
		{name: "backwards seq", lines: []string{at(n+5, chunk), at(n+2, `"kind":"stderr","proc":"agent","text":"x"`)}, seq: n + 2,
			text: []string{"not above the previous entry's " + jsonNum(n+5)}},
		{name: "seq 0", lines: []string{`{"seq":0,"t_ns":0,"kind":"stderr","proc":"agent","text":"x"}`}, seq: 0,
			text: []string{"not above the previous entry's"}},
		{name: "negative t_ns", lines: []string{`{"seq":` + jsonNum(n+1) + `,"t_ns":-5,"kind":"stderr","proc":"agent","text":"x"}`}, seq: n + 1,
			text: []string{"t_ns -5 is negative"}},
		{name: "msg entry without msg", lines: []string{at(n+1, `"kind":"msg","lane":"client","dir":"agent"`)}, seq: n + 1,
			text: []string{"a msg entry without msg"}},
		{name: "martian sender", lines: []string{at(n+1, strings.Replace(chunk, `"dir":"agent"`, `"dir":"martian"`, 1))}, seq: n + 1,
			text: []string{`dir "martian"`, `"editor" or "agent"`}},
		{name: "no sender", lines: []string{at(n+1, strings.Replace(chunk, `"dir":"agent",`, "", 1))}, seq: n + 1,
			text: []string{`dir ""`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep := entriesOf(t, tt.lines...)
			var hit []validate.Finding
			for _, f := range rep.Findings {
				if f.Rule == "journal-entry" {
					hit = append(hit, f)
				}
			}
			if len(hit) != 1 || hit[0].Seq != tt.seq || hit[0].Severity != validate.SeverityError || hit[0].Section != validate.SectionJournal {
				t.Fatalf("want one journal-entry error at seq %d, got %v", tt.seq, hit)
			}
			for _, s := range tt.text {
				if !strings.Contains(hit[0].Message, s) {
					t.Errorf("message %q lacks %q", hit[0].Message, s)
				}
			}
		})
	}
	for _, f := range entriesOf(t, at(n+1, chunk)).Findings {
		if f.Rule == "journal-entry" {
			t.Errorf("a well-formed entry: %s", f)
		}
	}
}

func jsonNum(n uint64) string { b, _ := json.Marshal(n); return string(b) }

// TestJournalNullLine: a null line is not an entry (it once read as seq 0):
// validate refuses the journal and names the line.
func TestJournalNullLine(t *testing.T) {
	a, s := schemas(t)
	b, err := os.ReadFile("testdata/plain-session.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(b), "\n")
	p := filepath.Join(t.TempDir(), "j.jsonl")
	if err := os.WriteFile(p, []byte(lines[0]+lines[1]+"null\n"+strings.Join(lines[2:], "")), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err = validate.Journal(p, validate.New(a, s))
	if err == nil || !strings.Contains(err.Error(), "journal line 3") {
		t.Fatalf("err = %v, want one naming journal line 3", err)
	}
}

// TestDuplicateInFlightID: a request id the same sender still waits on is
// an error (its responses cannot be told apart); reusing an answered id
// is not.
func TestDuplicateInFlightID(t *testing.T) {
	list := func(id any) validate.Message {
		return editor(t, M{"jsonrpc": "2.0", "id": id, "method": "session/list", "params": M{}})
	}
	answer := func(id any) validate.Message {
		return agent(t, M{"jsonrpc": "2.0", "id": id, "result": M{"sessions": []any{}}})
	}
	tests := []struct {
		name string
		msgs []validate.Message
		want bool
	}{
		{name: "same id twice in flight", msgs: []validate.Message{list(70), list(70), answer(70)}, want: true},
		{name: "same id after its answer", msgs: []validate.Message{list(71), answer(71), list(71), answer(71)}},
		{name: "same text, other type", msgs: []validate.Message{list(72), list("72"), answer(72), answer("72")}},
		{name: "same id, other sender", msgs: []validate.Message{list(73),
			agent(t, M{"jsonrpc": "2.0", "id": 73, "method": "session/request_permission", "params": M{"sessionId": sid,
				"toolCall": M{"toolCallId": "t1"}, "options": []any{M{"optionId": "a", "name": "Allow", "kind": "allow_once"}}}}),
			answer(73), editor(t, M{"jsonrpc": "2.0", "id": 73, "result": M{"outcome": M{"outcome": "cancelled"}}})}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var hit []validate.Finding
			for _, f := range run(t, conv(t, tt.msgs...)) {
				if strings.HasPrefix(f.Rule, "jsonrpc-") {
					hit = append(hit, f)
				}
			}
			if !tt.want {
				if len(hit) != 0 {
					t.Fatalf("want no jsonrpc finding, got %v", hit)
				}
				return
			}
			if len(hit) != 1 || hit[0].Rule != "jsonrpc-duplicate-id" || hit[0].Severity != validate.SeverityError || hit[0].Pointer != "/id" {
				t.Fatalf("want one jsonrpc-duplicate-id error at /id, got %v", hit)
			}
			if !strings.Contains(hit[0].Message, "request id 70") || !strings.Contains(hit[0].Message, "session/list request of seq") {
				t.Errorf("message %q", hit[0].Message)
			}
		})
	}
}

// TestUnmatchedResponseEnvelope: a response nobody waits for is still a
// JSON-RPC response: a malformed error object, or neither result nor
// error, is an error next to the unmatched warning.
func TestUnmatchedResponseEnvelope(t *testing.T) {
	tests := []struct {
		name string
		msg  M
		ptr  string // "" = no error wanted
	}{
		{name: "code is a string", msg: M{"jsonrpc": "2.0", "id": 80, "error": M{"code": "x", "message": "no"}}, ptr: "/error/code"},
		{name: "no message", msg: M{"jsonrpc": "2.0", "id": 81, "error": M{"code": -32603}}, ptr: "/error"},
		{name: "neither result nor error", msg: M{"jsonrpc": "2.0", "id": 82}, ptr: ""},
		{name: "a well-formed error", msg: M{"jsonrpc": "2.0", "id": 83, "error": M{"code": -32603, "message": "no"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var warn, errs []validate.Finding
			for _, f := range run(t, conv(t, agent(t, tt.msg))) {
				switch {
				case f.Rule == "jsonrpc-unmatched-response":
					warn = append(warn, f)
				case f.Severity == validate.SeverityError:
					errs = append(errs, f)
				}
			}
			if len(warn) != 1 {
				t.Errorf("want the unmatched warning, got %v", warn)
			}
			wantErr := tt.ptr != "" || tt.name == "neither result nor error"
			if wantErr != (len(errs) > 0) {
				t.Fatalf("errors wanted: %v, got %v", wantErr, errs)
			}
			if tt.ptr != "" && !strings.HasPrefix(errs[0].Pointer, tt.ptr) {
				t.Errorf("pointer %q, want under %q", errs[0].Pointer, tt.ptr)
			}
		})
	}
}

// TestAIRVersionPrintsJSON: version "1" is reported as "1", not 1.
func TestAIRVersionPrintsJSON(t *testing.T) {
	meta := airMeta(M{})
	meta["jetbrains"].(M)["air"].(M)["version"] = "1"
	msg := update(M{"sessionUpdate": "tool_call", "toolCallId": "v1", "title": "Read", "kind": "read", "status": "pending", "_meta": meta})
	var hit []validate.Finding
	for _, f := range run(t, conv(t, agent(t, msg))) {
		if f.Rule == "air-version" {
			hit = append(hit, f)
		}
	}
	if len(hit) != 1 || !strings.Contains(hit[0].Message, `must be 1, got "1"`) {
		t.Fatalf("want one air-version finding saying got \"1\", got %v", hit)
	}
}

// TestCheckUnknownSender: a Message of no known sender is one
// journal-entry error, not checked as if the editor sent it.
func TestCheckUnknownSender(t *testing.T) {
	a, s := schemas(t)
	for _, side := range []validate.Side{validate.SideBoth, validate.SideClient} {
		v := validate.New(a, s, validate.WithSide(side))
		got := v.Check(validate.Message{Seq: 4, Lane: "client", Dir: "martian", Msg: json.RawMessage(`{"jsonrpc":"2.0","id":0,"result":{}}`)})
		if len(got) != 1 || got[0].Rule != validate.RuleJournal || got[0].Dir != "martian" || v.Stats().Errors != 1 {
			t.Errorf("--side %s: %v, %+v", side, got, v.Stats())
		}
	}
}
