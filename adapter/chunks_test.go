package adapter

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode/utf16"

	"github.com/airwire/airwire/adapter/caps"
	"github.com/airwire/airwire/adapter/claude"
	"github.com/airwire/airwire/adapter/claude/claudetest"
	"github.com/airwire/airwire/adapter/toolcall"
	"github.com/airwire/airwire/adapter/usage"
	"github.com/airwire/airwire/conform/cassette"
)

// cliStreams are the CLI stdout lines of every golden cassette, one slice
// per CLI process, control frames left out.
func cliStreams(t *testing.T) map[string][][]byte {
	t.Helper()
	root, _ := os.Getwd()
	for _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil; _, err = os.Stat(filepath.Join(root, "go.mod")) {
		root = filepath.Dir(root)
	}
	files, _ := filepath.Glob(filepath.Join(root, "goldens", "*", "*.cassette"))
	if len(files) == 0 {
		t.Fatal("no cassettes")
	}
	out := map[string][][]byte{}
	for _, f := range files {
		c, err := cassette.Load(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, p := range c.Processes {
			var lines [][]byte
			for _, ev := range p.Events {
				if ev.Dir == "cli" && !bytes.Contains(ev.Msg, []byte(`"type":"control_`)) {
					lines = append(lines, ev.Msg)
				}
			}
			out[f+"#"+string(rune('0'+i))] = lines
		}
	}
	return out
}

func isTextDeltaLine(line []byte) bool {
	return bytes.Contains(line, []byte(`"text_delta"`)) || bytes.Contains(line, []byte(`"thinking_delta"`))
}

// TestTextDeltasCarryNoToolCallsOrUsage is why the short path may skip
// toolcall and usage: fed every recorded CLI stream in order, neither
// reports anything for a text or thinking delta.
func TestTextDeltasCarryNoToolCallsOrUsage(t *testing.T) {
	deltas := 0
	for name, lines := range cliStreams(t) {
		tools := toolcall.NewSession(caps.Client{}, "/project")
		tracker := usage.NewTracker(usage.Window{Size: usage.DefaultWindow}, false)
		for _, line := range lines {
			got := tools.Frame(line)
			u, ok := tracker.Frame(claudetest.Frame(line), false)
			if !isTextDeltaLine(line) {
				continue
			}
			deltas++
			if len(got) > 0 || ok {
				t.Errorf("%s: %s gave tool calls %v or usage %s", name, line, got, u)
			}
		}
	}
	if deltas < 100 {
		t.Fatalf("only %d text deltas in the cassettes", deltas)
	}
}

// TestShortPathSendsWhatMessageSends runs every recorded CLI stream
// through a session twice, by HandleMessage (text deltas on the short
// path) and by message alone, and compares the editor's bytes.
func TestShortPathSendsWhatMessageSends(t *testing.T) {
	for name, lines := range cliStreams(t) {
		short := replay(t, lines, func(s *Session, f *claude.Frame) { s.HandleMessage(f) })
		full := replay(t, lines, func(s *Session, f *claude.Frame) { s.tr.message(f) })
		if short != full {
			t.Errorf("%s: the short path wrote\n%s\nmessage alone wrote\n%s", name, short, full)
		}
		if strings.Count(short, "_chunk") == 0 && bytes.Contains(bytes.Join(lines, nil), []byte(`"text_delta"`)) {
			t.Errorf("%s: no chunk sent for its text deltas", name)
		}
	}
}

func replay(t *testing.T, lines [][]byte, handle func(*Session, *claude.Frame)) string {
	t.Helper()
	var out lockedBuffer
	s, stop := discardSession(&out)
	s.titles.settled = true // no title requests: the session has no CLI
	for _, line := range lines {
		m, err := claude.DecodeFrame(append([]byte(nil), line...))
		if err != nil {
			t.Fatal(err)
		}
		handle(s, m)
	}
	stop()
	return out.String()
}

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestChunkParamsAreTheMapForm checks the chunk bytes against json.Marshal
// of the map form the rest of the agent sends.
func TestChunkParamsAreTheMapForm(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	pool := []string{"a", " ", `"`, `\`, "<", ">", "&", "\n", "\t", "\x00", "é", "🎉", "\u2028", "\xff"}
	for i := range 5000 {
		var b strings.Builder
		for range r.IntN(10) {
			b.WriteString(pool[r.IntN(len(pool))])
		}
		text, id := b.String(), ""
		if i%2 == 0 {
			id = "msg_" + text
		}
		kind := []string{"agent_message_chunk", "agent_thought_chunk"}[i%2]
		want, _ := json.Marshal(map[string]any{"sessionId": "s<" + text, "update": textUpdate(kind, text, id)})
		if got := appendChunkParams(nil, "s<"+text, kind, text, id); !bytes.Equal(got, want) {
			t.Fatalf("chunk of %q:\n got %s\nwant %s", text, got, want)
		}
	}
}

// TestTitleContextEncodesAsUTF16Encode feeds the title context the way
// streamed chunks do, with text utf16.Encode treats specially (invalid
// UTF-8, astral runes), and checks it against the plain computation.
func TestTitleContextEncodesAsUTF16Encode(t *testing.T) {
	s := &Session{}
	var want []uint16
	pieces := []string{"héllo ", "🎉", "bad \xff\xc3 utf8", strings.Repeat("long text ", 60), "\u2028 end"}
	for i := range 40 {
		p := pieces[i%len(pieces)]
		s.titles.answer(p)
		want = append(want, utf16.Encode([]rune(p))...)
		if len(want) > maxTitleContext {
			want = want[len(want)-maxTitleContext:]
		}
		if !slices.Equal(s.titles.context, want) {
			t.Fatalf("after %d pieces the context differs", i+1)
		}
	}
}

// countingWriter counts Writes and keeps their bytes.
type countingWriter struct {
	lockedBuffer
	n int
}

func (c *countingWriter) Write(p []byte) (int, error) {
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
	return c.lockedBuffer.Write(p)
}

// TestABacklogOfDeltasGoesOutInFewerWrites: text deltas that queue up
// behind the one being handled (all of them are read at once here) reach
// the editor in fewer Writes than frames (the agent holds its editor Conn
// over a CLI backlog, holdEditor), with the same bytes in the same order as
// when each line is handled alone.
func TestABacklogOfDeltasGoesOutInFewerWrites(t *testing.T) {
	const n = 2000
	lines := chunkLines(n)
	held := &countingWriter{}
	s, stop := discardSession(held)
	s.titles.settled = true
	s.tr.text.messageID = "msg_01XFDUDYJgAACzvnptvVoYEL"
	feedCLI(s, lines)
	stop()
	var split [][]byte
	for line := range bytes.Lines(lines) {
		split = append(split, line)
	}
	alone := replay(t, split, func(s *Session, f *claude.Frame) {
		s.tr.text.messageID = "msg_01XFDUDYJgAACzvnptvVoYEL"
		s.HandleMessage(f)
	})
	if got := held.String(); got != alone {
		t.Fatalf("the held stream differs from the line-by-line one:\n%.300s\nvs\n%.300s", got, alone)
	}
	if frames := strings.Count(alone, "\n"); frames != n || held.n >= frames/2 {
		t.Fatalf("%d chunk frames went out in %d writes; want %d frames in fewer than half as many writes", frames, held.n, n)
	}
}

// TestV2ChunksAreTheMappingsBytes: an ACP v2 client's streamed chunks,
// written without the v2 mapping when it would not change them
// (acpv2.Updates.ChunkAsIs), are byte for byte what the mapping writes;
// a replayed message's first chunk still goes through it (its clear).
func TestV2ChunksAreTheMappingsBytes(t *testing.T) {
	const n = 50
	const msg = "msg_01XFDUDYJgAACzvnptvVoYEL"
	var direct lockedBuffer
	s, stop := discardSession(&direct)
	s.titles.settled = true
	s.agent.v2.Store(&v2Conn{a: s.agent})
	s.tr.text.messageID = msg
	feedCLI(s, chunkLines(n))
	stop()

	var mapped lockedBuffer
	m, stopMapped := discardSession(&mapped)
	c := &v2Conn{a: m.agent}
	for i := range n {
		c.notify(m.agent.conn, m.ID, textUpdate("agent_message_chunk", fmt.Sprintf("w%d <b>", i), msg))
	}
	stopMapped()
	if got, want := direct.String(), mapped.String(); got != want || strings.Count(want, "\n") != n {
		t.Fatalf("the v2 chunks differ from the mapping's %d frames:\n%.400s\nvs\n%.400s", n, got, want)
	}

	var replayed lockedBuffer
	r, stopReplayed := discardSession(&replayed)
	v2 := &v2Conn{a: r.agent}
	r.agent.v2.Store(v2)
	v2.updates.Replaying(r.ID, true)
	r.tr.text.messageID = msg
	feedCLI(r, chunkLines(2))
	stopReplayed()
	if got := replayed.String(); strings.Count(got, "\n") != 3 || !strings.Contains(got, `"content":[],"messageId":"`+msg+`","sessionUpdate":"agent_message"`) {
		t.Fatalf("a replayed message's chunks lost the clear before them:\n%s", got)
	}
}
