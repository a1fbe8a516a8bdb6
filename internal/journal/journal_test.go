package journal

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
)

func TestRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "j.jsonl")
	w, err := Create(path, Header{Airwire: "test", AgentCmd: []string{"agent", "--x"}, Env: []string{"HOME"}})
	if err != nil {
		t.Fatal(err)
	}
	text := "not json \x01 \"quoted\""
	entries := []Entry{
		{Kind: KindMsg, Lane: LaneClient, Dir: DirEditor, Proc: "agent", Method: "initialize", ID: json.RawMessage(`0`), Msg: json.RawMessage(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"n":1e400}}`), Trail: "\r"},
		{Kind: KindNonJSON, Lane: LaneClient, Dir: DirAgent, Reason: "invalid JSON", Text: &text},
		{Kind: KindNonJSON, Lane: LaneCLI, Dir: DirCLI, Reason: "invalid UTF-8", B64: []byte{0xff, 0xfe}},
		{Kind: KindSpawn, Proc: "cli-1", Argv: []string{"claude", "--x"}, Pid: 42},
		{Kind: KindExit, Proc: "cli-1", Exit: &Exit{Code: -1, Signal: "killed"}},
	}
	for i := range entries {
		if err := w.Append(&entries[i]); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.SetCLICmd([]string{"claude", "--output-format", "stream-json"}); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Stat(path); runtime.GOOS != "windows" && st.Mode().Perm() != 0o600 {
		t.Fatalf("journal mode %v, want 0600", st.Mode().Perm()) // Windows: privatefile tests the DACL
	}
	h, got, err := ReadAll(path)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(h.CLICmd, " ") != "claude --output-format stream-json" || h.Version != Version || h.AgentCmd[1] != "--x" {
		t.Fatalf("header %+v", h)
	}
	if len(got) != len(entries) {
		t.Fatalf("%d entries, want %d", len(got), len(entries))
	}
	for i, e := range got {
		if e.Seq != uint64(i+1) {
			t.Fatalf("entry %d has seq %d", i, e.Seq)
		}
		if i > 0 && e.TNs < got[i-1].TNs {
			t.Fatalf("t_ns runs backwards at %d", i)
		}
	}
	if string(got[0].Frame()) != `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"n":1e400}}`+"\r\n" {
		t.Fatalf("msg not verbatim: %q", got[0].Frame())
	}
	if got[1].TextOf() != text || string(got[2].B64) != "\xff\xfe" || got[4].Exit.Signal != "killed" {
		t.Fatalf("entries differ: %+v", got)
	}
}

func TestConcurrentAppendIsGapless(t *testing.T) {
	path := filepath.Join(t.TempDir(), "j.jsonl")
	w, err := Create(path, Header{})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 500; i++ {
				_ = w.Append(&Entry{Kind: KindMsg, Lane: LaneCLI, Msg: json.RawMessage(`{}`)})
			}
		}()
	}
	wg.Wait()
	w.Close()
	_, got, err := ReadAll(path)
	if err != nil || len(got) != 4000 {
		t.Fatalf("read %d entries, err %v", len(got), err)
	}
	for i, e := range got {
		if e.Seq != uint64(i+1) {
			t.Fatalf("gap at %d: seq %d", i, e.Seq)
		}
	}
}

func TestOpenRejects(t *testing.T) {
	dir := t.TempDir()
	write := func(name, s string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(s), 0o600)
		return p
	}
	if _, err := Open(write("v2", `{"journal":"airwire","version":2}`+"\n")); !errors.Is(err, ErrUnsupportedVersion) {
		t.Fatalf("version 2: %v", err)
	}
	if _, err := Open(write("other", `{"hello":1}`+"\n")); !errors.Is(err, ErrNotJournal) {
		t.Fatalf("not a journal: %v", err)
	}
	if _, err := Open(write("empty", "")); !errors.Is(err, ErrNotJournal) {
		t.Fatalf("empty: %v", err)
	}
}

func TestAppendStringMatchesEncodingJSON(t *testing.T) {
	for _, s := range []string{"", "plain", "quote\" back\\ nl\n cr\r tab\t", "\x00\x1f\x7f", "é ✓ 😀", "bad \xff utf8", "\u2028"} {
		var got string
		if err := json.Unmarshal(AppendString(nil, s), &got); err != nil {
			t.Fatalf("%q: invalid JSON %s", s, AppendString(nil, s))
		}
		want, _ := json.Marshal(s)
		var wantS string
		json.Unmarshal(want, &wantS)
		if got != wantS {
			t.Fatalf("%q decodes to %q, encoding/json gives %q", s, got, wantS)
		}
	}
}
