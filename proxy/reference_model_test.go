package proxy_test

import (
	"bufio"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/airwire/airwire/internal/deps"
	"github.com/airwire/airwire/internal/journal"
)

const mockAnswer = "Hello from the mock model!"

// mockModelAPI is a minimal Messages API on 127.0.0.1: every /v1/messages
// call gets one text turn (streamed when asked), count_tokens a count, the
// rest a 404 in the API's error shape. It remembers the credentials and
// paths it saw.
type mockModelAPI struct {
	mu    sync.Mutex
	keys  []string
	paths []string
}

func (m *mockModelAPI) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	var body struct {
		Model  string `json:"model"`
		Stream bool   `json:"stream"`
	}
	_ = json.NewDecoder(req.Body).Decode(&body)
	m.mu.Lock()
	m.keys, m.paths = append(m.keys, req.Header.Get("X-Api-Key")), append(m.paths, req.URL.Path)
	m.mu.Unlock()
	switch {
	case req.Method == "POST" && req.URL.Path == "/v1/messages/count_tokens":
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"input_tokens":42}`)
	case req.Method == "POST" && req.URL.Path == "/v1/messages" && body.Stream:
		w.Header().Set("Content-Type", "text/event-stream")
		sse := func(event string, data any) {
			b, _ := json.Marshal(data)
			fmt.Fprintf(w, "event: %s\ndata: %s\n\n", event, b)
			w.(http.Flusher).Flush()
		}
		usage := map[string]int{"input_tokens": 10, "output_tokens": 1}
		sse("message_start", map[string]any{"type": "message_start", "message": map[string]any{"id": "msg_mock_1", "type": "message", "role": "assistant",
			"model": body.Model, "content": []any{}, "stop_reason": nil, "stop_sequence": nil, "usage": usage}})
		sse("content_block_start", map[string]any{"type": "content_block_start", "index": 0, "content_block": map[string]any{"type": "text", "text": ""}})
		for _, part := range []string{mockAnswer[:9], mockAnswer[9:]} {
			sse("content_block_delta", map[string]any{"type": "content_block_delta", "index": 0, "delta": map[string]any{"type": "text_delta", "text": part}})
		}
		sse("content_block_stop", map[string]any{"type": "content_block_stop", "index": 0})
		sse("message_delta", map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": "end_turn", "stop_sequence": nil}, "usage": map[string]int{"output_tokens": 12}})
		sse("message_stop", map[string]any{"type": "message_stop"})
	case req.Method == "POST" && req.URL.Path == "/v1/messages":
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"id": "msg_mock_2", "type": "message", "role": "assistant", "model": body.Model,
			"content": []any{map[string]string{"type": "text", "text": "Mock side answer"}}, "stop_reason": "end_turn", "stop_sequence": nil,
			"usage": map[string]int{"input_tokens": 10, "output_tokens": 3}})
	default:
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(404)
		_, _ = io.WriteString(w, `{"type":"error","error":{"type":"not_found_error","message":"mock: no handler"}}`)
	}
}

// acpSession drives an adapter over stdio, line by line.
type acpSession struct {
	stdin io.WriteCloser
	lines chan map[string]any
}

func startACP(cmd *exec.Cmd) *acpSession {
	GinkgoHelper()
	stdin, err := cmd.StdinPipe()
	Expect(err).NotTo(HaveOccurred())
	stdout, err := cmd.StdoutPipe()
	Expect(err).NotTo(HaveOccurred())
	Expect(cmd.Start()).To(Succeed())
	DeferCleanup(func() { _ = cmd.Process.Signal(syscall.SIGKILL); _ = cmd.Wait() })
	s := &acpSession{stdin: stdin, lines: make(chan map[string]any, 256)}
	go func() {
		defer close(s.lines)
		sc := bufio.NewScanner(stdout)
		sc.Buffer(nil, 64<<20)
		for sc.Scan() {
			var m map[string]any
			if json.Unmarshal(sc.Bytes(), &m) == nil {
				s.lines <- m
			}
		}
	}()
	return s
}

// await returns the first message pred accepts; seen gets every message read.
func (s *acpSession) await(pred func(map[string]any) bool, what string, seen func(map[string]any)) map[string]any {
	GinkgoHelper()
	deadline := time.After(60 * time.Second)
	for {
		select {
		case m, ok := <-s.lines:
			Expect(ok).To(BeTrue(), "adapter closed stdout waiting for "+what)
			if seen != nil {
				seen(m)
			}
			if pred(m) {
				return m
			}
		case <-deadline:
			Fail("timed out waiting for " + what)
		}
	}
}

func replyTo(id float64) func(map[string]any) bool {
	return func(m map[string]any) bool { return m["id"] == id && m["method"] == nil }
}

// agentText collects the text of agent_message_chunk updates.
func agentText(sb *strings.Builder) func(map[string]any) {
	return func(m map[string]any) {
		if m["method"] != "session/update" {
			return
		}
		p, _ := m["params"].(map[string]any)
		u, _ := p["update"].(map[string]any)
		c, _ := u["content"].(map[string]any)
		if u["sessionUpdate"] == "agent_message_chunk" && c["type"] == "text" {
			sb.WriteString(fmt.Sprint(c["text"]))
		}
	}
}

var _ = Describe("airwire record --cli-lane --model-lane with the reference adapter", Label("reference"), func() {
	It("journals editor, CLI and model API traffic of one prompt in one gapless seq", func(ctx SpecContext) {
		p, err := deps.Paths()
		if errors.Is(err, deps.ErrMissing) || (err == nil && (p.Node == "" || p.ReferenceAdapter == "" || p.ReferenceCLI == "")) {
			Skip("the reference adapter and CLI are not installed (run make deps)")
		}
		Expect(err).NotTo(HaveOccurred())
		api := &mockModelAPI{}
		srv := httptest.NewServer(api)
		DeferCleanup(srv.Close)
		dir := GinkgoT().TempDir()
		home, cwd := filepath.Join(dir, "home"), filepath.Join(dir, "cwd")
		Expect(os.MkdirAll(cwd, 0o755)).To(Succeed())
		jpath := filepath.Join(dir, "j.jsonl")
		rnd := make([]byte, 12)
		_, _ = rand.Read(rnd)
		apiKey := "sk-test-" + hex.EncodeToString(rnd)

		cmd := exec.Command(bins.Airwire, "record", "-q", "--cli-lane", "--model-lane", "--journal", jpath, "--", p.Node, p.ReferenceAdapter)
		cmd.Env = append(os.Environ(), "HOME="+home, "CLAUDE_CONFIG_DIR="+filepath.Join(home, ".claude"), "IS_SANDBOX=1",
			"CLAUDE_CODE_EXECUTABLE="+p.ReferenceCLI, "ANTHROPIC_API_KEY="+apiKey, "ANTHROPIC_BASE_URL="+srv.URL,
			"DISABLE_TELEMETRY=1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1")
		cmd.Stderr = GinkgoWriter
		s := startACP(cmd)
		fmt.Fprintln(s.stdin, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1,"clientInfo":{"name":"airwire-test","version":"0"},"clientCapabilities":{"fs":{"readTextFile":true,"writeTextFile":true},"terminal":true}}}`)
		Expect(s.await(replyTo(0), "initialize response", nil)).To(HaveKey("result"))
		fmt.Fprintf(s.stdin, `{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":%q,"mcpServers":[]}}`+"\n", cwd)
		sn := s.await(replyTo(1), "session/new response", nil)
		Expect(sn).To(HaveKey("result"), "session/new failed: %v", sn["error"])
		sessionID := sn["result"].(map[string]any)["sessionId"].(string)
		fmt.Fprintf(s.stdin, `{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":%q,"prompt":[{"type":"text","text":"Say hello"}]}}`+"\n", sessionID)
		var text strings.Builder
		pr := s.await(replyTo(2), "session/prompt response", agentText(&text))
		Expect(pr).To(HaveKey("result"), "session/prompt failed: %v", pr["error"])
		Expect(text.String()).To(ContainSubstring(mockAnswer), "the editor must get the model's text")
		s.stdin.Close()
		Eventually(func() bool { _, ok := <-s.lines; return !ok }).WithTimeout(30 * time.Second).Should(BeTrue())
		Expect(cmd.Wait()).To(Succeed())

		api.mu.Lock()
		Expect(api.keys).NotTo(BeEmpty(), "no request reached the model API")
		for i, k := range api.keys {
			Expect(k).To(Equal(apiKey), "the key must reach the model API unchanged")
			Expect(api.paths[i]).NotTo(HavePrefix("/cli-"), "the proxy must strip its prefix")
		}
		api.mu.Unlock()
		raw, err := os.ReadFile(jpath)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(raw)).NotTo(ContainSubstring(apiKey))
		_, entries, err := journal.ReadAll(jpath)
		Expect(err).NotTo(HaveOccurred())
		expectGapless(entries)
		expectModelLane(entries)
	}, NodeTimeout(150*time.Second))
})

// expectModelLane checks that all three lanes are there, that every model
// entry belongs to a CLI spawned before it, and that the prompt's SSE
// events (the mock's text) were journaled.
func expectModelLane(entries []journal.Entry) {
	GinkgoHelper()
	lanes := map[journal.Lane]int{}
	spawned := map[string]uint64{}
	events := map[string]int{}
	var deltas strings.Builder
	for _, e := range entries {
		lanes[e.Lane]++
		if e.Lane == journal.LaneCLI && e.Kind == journal.KindSpawn {
			spawned[e.Proc] = e.Seq
		}
		if e.Lane != journal.LaneModel {
			continue
		}
		at, ok := spawned[e.Proc]
		Expect(ok).To(BeTrue(), "model entry %d names %q, which has no spawn entry before it", e.Seq, e.Proc)
		Expect(at).To(BeNumerically("<", e.Seq))
		if name, ok := strings.CutPrefix(e.Method, "POST /v1/messages "); ok && e.Kind == journal.KindMsg {
			events[name]++
			if name == "content_block_delta" {
				deltas.Write(e.Msg)
			}
		}
	}
	Expect(lanes[journal.LaneClient]).To(BeNumerically(">", 4))
	Expect(lanes[journal.LaneCLI]).To(BeNumerically(">", 4))
	Expect(lanes[journal.LaneModel]).To(BeNumerically(">", 4))
	Expect(events).To(HaveKey("message_start"))
	Expect(events).To(HaveKey("message_stop"))
	Expect(deltas.String()).To(ContainSubstring(mockAnswer[:9]))
	Expect(deltas.String()).To(ContainSubstring(mockAnswer[9:]))
}
