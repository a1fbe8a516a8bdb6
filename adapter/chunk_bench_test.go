package adapter

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"testing"
	"time"

	"github.com/airwire/airwire/adapter/claude"
	"github.com/airwire/airwire/internal/jsonrpc"
)

// chunkLines are n text_delta stream_event lines as the real CLI prints
// them (the field order of goldens/text-and-thinking/zed.cassette).
func chunkLines(n int) []byte {
	var b bytes.Buffer
	for i := range n {
		fmt.Fprintf(&b, `{"type":"stream_event","event":{"delta":{"text":"w%d <b>","type":"text_delta"},"index":0,"type":"content_block_delta"},"session_id":"5f0c3a52-8a3e-4a55-9f3c-6c1f4a4f7b10","parent_tool_use_id":null,"uuid":"fc003c17-8052-48e8-b515-1bb048b%05d","api_message_id":"msg_01XFDUDYJgAACzvnptvVoYEL"}`+"\n", i, i)
	}
	return b.Bytes()
}

// discardSession is a Session whose editor connection writes to w.
func discardSession(w io.Writer) (*Session, func()) {
	a := NewAgent(Options{})
	r, pw := io.Pipe()
	a.conn = jsonrpc.NewConn(context.Background(), r, w, jsonrpc.JSONRPC{}, a)
	s := a.newSessionState("5f0c3a52-8a3e-4a55-9f3c-6c1f4a4f7b10", "/project", false)
	return s, func() { pw.Close(); <-a.conn.Done() }
}

// feedCLI runs lines through a CLI-side Conn as claude.Process does
// (stream-json framing and codec, the agent's backlog hook, claude.DecodeFrame,
// then the session) and returns when every line was handled.
func feedCLI(s *Session, lines []byte) {
	h := jsonrpc.HandlerFunc(func(_ context.Context, req *jsonrpc.Request) (any, error) {
		if f, err := claude.DecodeFrame(req.Params); err == nil {
			s.HandleMessage(f)
		}
		return nil, nil
	})
	c := jsonrpc.NewConn(context.Background(), bytes.NewReader(lines), io.Discard, jsonrpc.StreamJSON{}, h,
		jsonrpc.WithBacklog(holdEditor(s.agent)))
	<-c.Done()
}

// BenchmarkTextChunks streams 10,000 text_delta lines from the CLI side
// to a discarding editor, as in conform/agentbench's turn, and compares
// the time with decoding the same lines once with json.Unmarshal into a
// map (the baseline, measured in the same run): ours/unmarshal is the
// cost of a streamed chunk in units of one plain decode of its line.
func BenchmarkTextChunks(b *testing.B) {
	const n = 10000
	lines := chunkLines(n)
	s, stop := discardSession(io.Discard)
	defer stop()
	s.tr.text.messageID = "msg_01XFDUDYJgAACzvnptvVoYEL"
	var ours, base time.Duration
	b.ResetTimer()
	for range b.N {
		start := time.Now()
		feedCLI(s, lines)
		ours += time.Since(start)
		base += unmarshalLines(b, lines)
	}
	b.ReportMetric(float64(ours.Nanoseconds())/float64(b.N*n), "ours-ns/chunk")
	b.ReportMetric(float64(base.Nanoseconds())/float64(b.N*n), "unmarshal-ns/line")
	b.ReportMetric(float64(ours)/float64(base), "ours/unmarshal")
}

// unmarshalLines is the time of decoding each line once with
// json.Unmarshal into a map: the baseline of the adapter benchmarks,
// measured in the same run as what it is compared with.
func unmarshalLines(b *testing.B, lines []byte) time.Duration {
	start := time.Now()
	for line := range bytes.Lines(lines) {
		var m map[string]any
		if json.Unmarshal(line, &m) != nil {
			b.Fatal("bad line")
		}
	}
	return time.Since(start)
}
