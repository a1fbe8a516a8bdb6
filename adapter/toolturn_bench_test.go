package adapter

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/airwire/airwire/adapter/turns"
)

// toolTurnLines are the CLI stdout lines of the recorded Bash turn of
// goldens/bash-foreground/zed.cassette, from the prompt's echo to the
// result and what follows it: a replayed user line, streamed text, an
// assistant text and tool_use, the tool_result user line, a second
// streamed message and the result (control frames left out: the CLI Conn
// answers those, not the translator). echo is the uuid of the prompt's
// replayed user line.
func toolTurnLines(tb testing.TB) (lines []byte, echo string) {
	f, err := os.Open("../goldens/bash-foreground/zed.cassette")
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	var out bytes.Buffer
	for sc.Scan() {
		var e struct {
			Dir string          `json:"dir"`
			Msg json.RawMessage `json:"msg"`
		}
		var head struct {
			Type     string `json:"type"`
			UUID     string `json:"uuid"`
			IsReplay bool   `json:"isReplay"`
		}
		if json.Unmarshal(sc.Bytes(), &e) != nil || e.Dir != "cli" || json.Unmarshal(e.Msg, &head) != nil {
			continue
		}
		if head.Type == "user" && head.IsReplay && echo == "" {
			echo = head.UUID
		}
		if echo == "" || head.Type == "control_request" || head.Type == "control_response" {
			continue
		}
		out.Write(e.Msg)
		out.WriteByte('\n')
	}
	if echo == "" {
		tb.Fatal("no replayed prompt in the cassette")
	}
	return out.Bytes(), echo
}

// BenchmarkToolCallTurn runs one recorded turn with a tool call (a Bash
// tool_use and its tool_result between two streamed messages) from the
// CLI side through a fresh session to a discarding editor: the CPU time
// and allocations of a tool-call turn, the session's setup not counted,
// and ours/unmarshal: that time in units of decoding each line of the turn
// once with json.Unmarshal (the baseline, measured in the same run).
func BenchmarkToolCallTurn(b *testing.B) {
	lines, echo := toolTurnLines(b)
	var ours, base time.Duration
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		s, stop := discardSession(io.Discard)
		if err := s.enqueue(&turn{events: turns.V1Prompt{Conn: s.agent.conn, ID: json.RawMessage(`1`)}}); err != nil {
			b.Fatal(err)
		}
		s.tr.sent(echo)
		s.titles.settled = true // no title generation: the session has no CLI
		b.StartTimer()
		start := time.Now()
		feedCLI(s, lines)
		ours += time.Since(start)
		b.StopTimer()
		stop()
		base += unmarshalLines(b, lines)
		b.StartTimer()
	}
	b.ReportMetric(float64(ours.Microseconds())/float64(b.N), "ours-µs/turn")
	b.ReportMetric(float64(base.Microseconds())/float64(b.N), "unmarshal-µs/turn")
	b.ReportMetric(float64(ours)/float64(base), "ours/unmarshal")
}

// TestToolCallTurnLines checks what BenchmarkToolCallTurn measures: the
// turn's lines make a tool call and its result, and answer the prompt.
func TestToolCallTurnLines(t *testing.T) {
	lines, echo := toolTurnLines(t)
	var out lockedBuffer
	s, stop := discardSession(&out)
	if err := s.enqueue(&turn{events: turns.V1Prompt{Conn: s.agent.conn, ID: json.RawMessage(`1`)}}); err != nil {
		t.Fatal(err)
	}
	s.tr.sent(echo)
	s.titles.settled = true
	feedCLI(s, lines)
	stop()
	got := out.String()
	for _, want := range []string{`"sessionUpdate":"tool_call"`, `"sessionUpdate":"tool_call_update"`,
		`"status":"completed"`, `"stopReason":"end_turn"`} {
		if !strings.Contains(got, want) {
			t.Errorf("the turn sent no %s:\n%s", want, got)
		}
	}
}
