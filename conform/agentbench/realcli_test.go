package agentbench

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/airwire/airwire/conform"
	"github.com/airwire/airwire/conform/mockapi"
	"github.com/airwire/airwire/internal/deps"
)

// EnvRealCLI, set to 1, runs both adapters of every benchmark on the real
// Claude CLI that make deps installs (the reference's own), against an
// airwire mock model API on 127.0.0.1, instead of on the fake CLI.
const EnvRealCLI = "AIRWIRE_BENCH_REAL_CLI"

// deltaRunes is the length, in runes, of each text delta of a real-CLI
// turn: the mock model API streams a text as pieces of at most 40 runes.
const deltaRunes = 40

// realCLI reports whether the benchmarks run on the real CLI.
func realCLI() bool { return os.Getenv(EnvRealCLI) == "1" }

// useRealCLI makes bn's adapters run the real CLI against a mock model API
// that answers every prompt with one text block streamed as deltas
// text_delta events. The API stops with the benchmark.
func (bn *bench) useRealCLI(b testing.TB, p deps.Installed, deltas int) {
	b.Helper()
	cli, err := p.RequireReferenceCLI()
	if err != nil {
		b.Fatalf("%s=1 needs the real Claude CLI: %v", EnvRealCLI, err)
	}
	base, stop, err := mockapi.New(RealCLIScript(deltas)).Start("127.0.0.1:0")
	if err != nil {
		b.Fatalf("starting the mock model API: %v", err)
	}
	b.Cleanup(func() { _ = stop() })
	bn.cliEnv = append([]string{"CLAUDE_CODE_EXECUTABLE=" + cli}, conform.ModelEnv(base)...)
}

// RealCLIScript is the mock model API script of a real-CLI benchmark: every
// prompt is answered by one text block of deltas pieces of deltaRunes
// runes, each the i-th Delta padded with spaces, so that the CLI streams
// it as deltas text_delta events.
func RealCLIScript(deltas int) *mockapi.Script {
	var text strings.Builder
	for i := range deltas {
		fmt.Fprintf(&text, "%-*s", deltaRunes, Delta(i))
	}
	return &mockapi.Script{
		Turns: []mockapi.Turn{{When: mockapi.When{Text: benchPrompt}, Reply: []mockapi.Block{{Text: text.String()}}}},
		Side:  mockapi.Side{Title: "Benchmark", Suggestion: "again"},
	}
}

func TestRealCLIScriptStreamsOneDeltaPerChunk(t *testing.T) {
	const n = 50
	base, stop, err := mockapi.New(RealCLIScript(n)).Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	body, _ := json.Marshal(map[string]any{"model": "claude-test", "max_tokens": 1024, "stream": true,
		"tools":    []any{map[string]any{"name": "Bash"}},
		"messages": []any{map[string]any{"role": "user", "content": []any{map[string]any{"type": "text", "text": benchPrompt}}}}})
	resp, err := http.Post(base+"/v1/messages?beta=true", "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var deltas []string
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		var ev struct {
			Delta struct{ Type, Text string } `json:"delta"`
		}
		data, ok := strings.CutPrefix(sc.Text(), "data: ")
		if ok && json.Unmarshal([]byte(data), &ev) == nil && ev.Delta.Type == "text_delta" {
			deltas = append(deltas, ev.Delta.Text)
		}
	}
	if len(deltas) != n {
		t.Fatalf("%d text_delta events, want %d (status %d)", len(deltas), n, resp.StatusCode)
	}
	for i, d := range deltas {
		if strings.TrimRight(d, " ") != strings.TrimRight(Delta(i), " ") || len(d) != deltaRunes {
			t.Errorf("delta %d is %q, want %q padded to %d", i, d, Delta(i), deltaRunes)
		}
	}
}

func TestIsDeltaTellsDeltasFromNotices(t *testing.T) {
	for text, want := range map[string]bool{
		Delta(7): true, fmt.Sprintf("%-*s", deltaRunes, Delta(7)): true, Delta(12345): true,
		"**Warning:** this session's requests go through a gateway": false, "w7x ": false, "w": false, "": false,
	} {
		if got := isDelta(text); got != want {
			t.Errorf("isDelta(%q) = %v, want %v", text, got, want)
		}
	}
}
