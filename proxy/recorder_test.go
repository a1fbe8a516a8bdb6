package proxy

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airwire/airwire/internal/journal"
	"github.com/airwire/airwire/proxy/redact"
)

func newTestRecorder(t *testing.T, opts ...RecorderOption) (*Recorder, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "j.jsonl")
	w, err := journal.Create(path, journal.Header{})
	if err != nil {
		t.Fatal(err)
	}
	return NewRecorder(w, opts...), path
}

func closeAndRead(t *testing.T, r *Recorder, path string) []journal.Entry {
	t.Helper()
	r.Close()
	if err := r.Journal().Close(); err != nil {
		t.Fatal(err)
	}
	_, entries, err := journal.ReadAll(path)
	if err != nil {
		t.Fatal(err)
	}
	return entries
}

// writeInPieces submits data in chunks of the given sizes, cycling.
func writeInPieces(s *Stream, data []byte, sizes ...int) {
	for i := 0; len(data) > 0; i++ {
		n := min(sizes[i%len(sizes)], len(data))
		s.Write(data[:n])
		data = data[n:]
	}
}

func TestRecorderCutsFramesAcrossChunks(t *testing.T) {
	stream := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}` + "\n" +
		`{"jsonrpc":"2.0","id":2,"method":"session/new","params":{"cwd":"/w"}}` + "\n" +
		"oops\n" + strings.Repeat("x", 3*chunkSize) + "\n" + `{"tail":true}`
	for _, sizes := range [][]int{{1}, {7, 3}, {chunkSize}, {len(stream)}} {
		r, path := newTestRecorder(t)
		c := r.NewConn(journal.LaneClient, "agent", journal.DirEditor, journal.DirAgent)
		writeInPieces(c.Up, []byte(stream), sizes...)
		c.Up.Close()
		entries := closeAndRead(t, r, path)
		var rebuilt bytes.Buffer
		var kinds []string
		for _, e := range entries {
			rebuilt.Write(e.Frame())
			kinds = append(kinds, string(e.Kind)+":"+e.Method)
		}
		if rebuilt.String() != stream {
			t.Fatalf("sizes %v: frames do not rebuild the stream", sizes)
		}
		want := "msg:initialize msg:session/new non_json: non_json: non_json:"
		if strings.Join(kinds, " ") != want {
			t.Fatalf("sizes %v: kinds %q, want %q", sizes, strings.Join(kinds, " "), want)
		}
		if entries[4].Reason != journal.ReasonTruncated {
			t.Fatalf("last frame reason %q", entries[4].Reason)
		}
	}
}

func TestRecorderOversizedLine(t *testing.T) {
	r, path := newTestRecorder(t, WithMaxLine(1000))
	c := r.NewConn(journal.LaneClient, "agent", journal.DirEditor, journal.DirAgent)
	data := "a\n" + strings.Repeat("y", 5000) + "\n" + "b\n"
	writeInPieces(c.Up, []byte(data), 300)
	c.Up.Close()
	entries := closeAndRead(t, r, path)
	if len(entries) != 3 {
		t.Fatalf("%d entries", len(entries))
	}
	e := entries[1]
	if e.Kind != journal.KindNonJSON || e.Reason != journal.ReasonTooLong || e.Bytes != 5001 || len(e.TextOf()) != 256 {
		t.Fatalf("oversized entry: kind %s reason %q bytes %d text %d", e.Kind, e.Reason, e.Bytes, len(e.TextOf()))
	}
	if entries[2].TextOf() != "b" {
		t.Fatalf("the frame after an oversized line was lost: %+v", entries[2])
	}
}

func TestRecorderPairsRepliesAndSessions(t *testing.T) {
	r, path := newTestRecorder(t)
	c := r.NewConn(journal.LaneClient, "agent", journal.DirEditor, journal.DirAgent)
	c.Up.Write([]byte(`{"jsonrpc":"2.0","id":5,"method":"session/prompt","params":{"sessionId":"S1"}}` + "\n"))
	c.Down.Write([]byte(`{"jsonrpc":"2.0","id":0,"method":"session/request_permission","params":{"sessionId":"S1"}}` + "\n"))
	c.Up.Write([]byte(`{"jsonrpc":"2.0","id":0,"result":{"outcome":{"outcome":"cancelled"}}}` + "\n"))
	c.Down.Write([]byte(`{"jsonrpc":"2.0","id":5,"result":{"stopReason":"end_turn"}}` + "\n"))
	c.Down.Write([]byte(`{"jsonrpc":"2.0","id":9,"result":{}}` + "\n"))
	cli := r.NewConn(journal.LaneCLI, "cli-1", journal.DirAgent, journal.DirCLI)
	cli.Down.Write([]byte(`{"type":"control_request","request_id":"c1","request":{"subtype":"can_use_tool"}}` + "\n"))
	cli.Up.Write([]byte(`{"type":"control_response","response":{"subtype":"success","request_id":"c1","response":{}}}` + "\n"))
	cli.Down.Write([]byte(`{"type":"system","subtype":"init","session_id":"S1"}` + "\n"))
	entries := closeAndRead(t, r, path)
	var got []string
	for _, e := range entries {
		got = append(got, e.Method+"@"+e.Session)
	}
	want := []string{"session/prompt@S1", "session/request_permission@S1", "session/request_permission@S1", "session/prompt@S1", "@",
		"control_request/can_use_tool@", "control_response/can_use_tool@", "system/init@S1"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("got  %q\nwant %q", got, want)
	}
}

func TestRecorderDocumentAndRedaction(t *testing.T) {
	r, path := newTestRecorder(t, WithRedactor(redact.New()))
	c := r.NewConn(journal.LaneCLI, "cli-1", journal.DirAgent, journal.DirCLI)
	c.Down.whole, c.Down.label = true, "auth status"
	doc := "{\n  \"loggedIn\": true,\n  \"apiKey\": \"sk-test-abcdef\"\n}\n"
	writeInPieces(c.Down, []byte(doc), 5)
	c.Down.Close()
	entries := closeAndRead(t, r, path)
	if len(entries) != 1 {
		t.Fatalf("%d entries", len(entries))
	}
	e := entries[0]
	if e.Kind != journal.KindMsg || e.Method != "auth status" || !json.Valid(e.Msg) || strings.Contains(e.TextOf(), "sk-test") || e.Redacted == 0 {
		t.Fatalf("document entry %+v", e)
	}
}

// Item 3 of issue 11: a frame nested as deep as JSON allows is journaled as
// msg, and the journal reads back although the entry adds a level.
func TestRecorderDeepMessageReadsBack(t *testing.T) {
	r, path := newTestRecorder(t)
	c := r.NewConn(journal.LaneClient, "agent", journal.DirEditor, journal.DirAgent)
	deep := `{"jsonrpc":"2.0","method":"x","params":` + strings.Repeat("[", 9999) + strings.Repeat("]", 9999) + "}"
	c.Up.Write([]byte(deep + "\n"))
	c.Up.Close()
	entries := closeAndRead(t, r, path)
	if len(entries) != 1 || entries[0].Kind != journal.KindMsg || string(entries[0].Msg) != deep {
		t.Fatalf("entries %d, kind %s", len(entries), entries[0].Kind)
	}
}
