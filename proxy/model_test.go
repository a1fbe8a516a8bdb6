package proxy_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/airwire/airwire/internal/journal"
	"github.com/airwire/airwire/proxy"
	"github.com/airwire/airwire/proxy/redact"
)

const (
	modelKey    = "sk-test-modellane-7f3a9c"
	modelBearer = "tok-modellane-bearer-55e1"
)

// modelRig is a Recorder, a ModelProxy in front of an upstream on
// 127.0.0.1, and one registered CLI process.
type modelRig struct {
	jpath string
	rec   *proxy.Recorder
	w     *journal.Writer
	mp    *proxy.ModelProxy
	up    *httptest.Server
	proc  string
}

func newModelRig(upstream http.HandlerFunc, redactOn bool, opts ...proxy.ModelOption) *modelRig {
	GinkgoHelper()
	r := &modelRig{jpath: filepath.Join(GinkgoT().TempDir(), "j.jsonl")}
	var err error
	r.w, err = journal.Create(r.jpath, journal.Header{})
	Expect(err).NotTo(HaveOccurred())
	var red *redact.Redactor
	if redactOn {
		red = redact.New(redact.WithEnv([]string{"ANTHROPIC_API_KEY=" + modelKey}))
	}
	r.rec = proxy.NewRecorder(r.w, proxy.WithRedactor(red))
	r.up = httptest.NewServer(upstream)
	r.proc = r.rec.NextProc()
	r.rec.Event(journal.Entry{Kind: journal.KindSpawn, Lane: journal.LaneCLI, Proc: r.proc, Argv: []string{"claude"}, Pid: 1})
	r.mp, err = proxy.ListenModel(r.rec, r.up.URL, opts...)
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(r.stop)
	return r
}

func (r *modelRig) stop() {
	r.mp.Close()
	r.up.Close()
	r.rec.Close()
	_ = r.w.Close()
}

// finish stops everything and returns the journal's entries and bytes.
func (r *modelRig) finish() ([]journal.Entry, string) {
	GinkgoHelper()
	r.stop()
	_, entries, err := journal.ReadAll(r.jpath)
	Expect(err).NotTo(HaveOccurred())
	raw, err := os.ReadFile(r.jpath)
	Expect(err).NotTo(HaveOccurred())
	return entries, string(raw)
}

func (r *modelRig) post(ctx context.Context, path string, body []byte) *http.Response {
	GinkgoHelper()
	req, err := http.NewRequestWithContext(ctx, "POST", r.mp.URL()+"/"+r.proc+path, bytes.NewReader(body))
	Expect(err).NotTo(HaveOccurred())
	req.Header.Set("X-Api-Key", modelKey)
	req.Header.Set("Authorization", "Bearer "+modelBearer)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	Expect(err).NotTo(HaveOccurred())
	return resp
}

func sseBlock(name string, i int) string {
	return fmt.Sprintf("event: %s\ndata: {\"type\":%q,\"n\":%d}\n\n", name, name, i)
}

// slowSSE answers with n events, gap apart; after `drop` events (if > 0)
// it breaks the connection; it closes cancelled when its client went away.
func slowSSE(n int, gap time.Duration, drop int, cancelled chan struct{}) http.HandlerFunc {
	return func(w http.ResponseWriter, req *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Header().Set("Request-Id", "req_1")
		w.WriteHeader(200)
		for i := 0; i < n; i++ {
			if drop > 0 && i == drop {
				panic(http.ErrAbortHandler)
			}
			_, _ = io.WriteString(w, sseBlock("content_block_delta", i))
			w.(http.Flusher).Flush()
			select {
			case <-time.After(gap):
			case <-req.Context().Done():
				if cancelled != nil {
					close(cancelled)
				}
				return
			}
		}
	}
}

// readEvents reads event blocks, noting when each arrived, until err.
func readEvents(body io.Reader, max int) (blocks []string, at []time.Time, err error) {
	br := bufio.NewReader(body)
	var cur strings.Builder
	for len(blocks) < max {
		line, rerr := br.ReadString('\n')
		cur.WriteString(line)
		if line == "\n" {
			blocks, at = append(blocks, cur.String()), append(at, time.Now())
			cur.Reset()
		}
		if rerr != nil {
			return blocks, at, rerr
		}
	}
	return blocks, at, nil
}

func modelEntries(entries []journal.Entry) []journal.Entry {
	var out []journal.Entry
	for _, e := range entries {
		if e.Lane == journal.LaneModel {
			out = append(out, e)
		}
	}
	return out
}

var _ = Describe("airwire record --model-lane", func() {
	It("points only the CLI child's ANTHROPIC_BASE_URL at the proxy, under its process name", func() {
		dir := GinkgoT().TempDir()
		cli := filepath.Join(dir, "fake-claude")
		Expect(os.WriteFile(cli, []byte("#!/bin/sh\necho \"cli: base=$ANTHROPIC_BASE_URL proxy=${AIRWIRE_MODEL_PROXY:-unset}\" >&2\n"), 0o755)).To(Succeed())
		cmd := exec.Command(bins.Airwire, "record", "-q", "--cli-lane", "--model-lane", "--journal", filepath.Join(dir, "j.jsonl"),
			"--", bins.Agent, "env-spawn", "--output-format", "stream-json")
		cmd.Env = append(os.Environ(), "CLAUDE_CODE_EXECUTABLE="+cli, "ANTHROPIC_BASE_URL=http://127.0.0.1:9/upstream")
		out, err := cmd.CombinedOutput()
		Expect(err).NotTo(HaveOccurred(), string(out))
		Expect(string(out)).To(ContainSubstring("agent: base=http://127.0.0.1:9/upstream\n"), "the agent's environment must stay as it was")
		Expect(string(out)).To(MatchRegexp(`cli: base=http://127\.0\.0\.1:\d+/cli-1 proxy=unset\n`))
	})

	It("records a gateway's traffic: the CLI's flag settings route to the proxy, the proxy to the gateway, its headers' values unwritten", func() {
		const gwKey = "gw-secret-value-4e7d"
		var mu sync.Mutex
		var got http.Header
		gateway := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
			mu.Lock()
			got = req.Header.Clone()
			mu.Unlock()
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, `{"gateway":true}`)
		}))
		defer gateway.Close()
		own := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
			http.Error(w, "not the gateway", http.StatusTeapot)
		}))
		defer own.Close()
		dir := GinkgoT().TempDir()
		cli := filepath.Join(dir, "fake-claude")
		Expect(os.WriteFile(cli, []byte("#!/bin/sh\nexec '"+bins.Agent+"' model-post \"$@\"\n"), 0o755)).To(Succeed())
		settings := `{"model":"m","env":{"ANTHROPIC_BASE_URL":"` + gateway.URL + `","ANTHROPIC_CUSTOM_HEADERS":"X-Gateway-Key: ` + gwKey + `"}}`
		record := func(flags ...string) ([]journal.Entry, string) {
			jpath := filepath.Join(dir, fmt.Sprintf("j%d.jsonl", len(flags)))
			args := append(append([]string{"record", "-q"}, flags...), "--cli-lane", "--journal", jpath,
				"--", bins.Agent, "env-spawn", "--output-format", "stream-json", "--settings", settings)
			cmd := exec.Command(bins.Airwire, args...)
			cmd.Env = append(os.Environ(), "CLAUDE_CODE_EXECUTABLE="+cli, "ANTHROPIC_BASE_URL="+own.URL)
			out, err := cmd.CombinedOutput()
			Expect(err).NotTo(HaveOccurred(), string(out))
			Expect(string(out)).To(ContainSubstring(`cli: status=200 body={"gateway":true}`), "the request reaches the gateway, not the recording's own model API")
			mu.Lock()
			Expect(got.Get("X-Gateway-Key")).To(Equal(gwKey), "the gateway gets its header as the CLI sent it")
			mu.Unlock()
			_, entries, err := journal.ReadAll(jpath)
			Expect(err).NotTo(HaveOccurred())
			raw, err := os.ReadFile(jpath)
			Expect(err).NotTo(HaveOccurred())
			return entries, string(raw)
		}

		entries, _ := record("--no-redact", "--model-lane")
		var heads []string
		for _, e := range modelEntries(entries) {
			Expect(e.Proc).To(Equal("cli-1"))
			if e.Kind == journal.KindMsg && e.Dir == journal.DirCLI && bytes.Contains(e.Msg, []byte(`"headers"`)) {
				heads = append(heads, string(e.Msg))
			}
		}
		Expect(heads).To(HaveLen(1), "the model lane journals the exchange")
		Expect(heads[0]).To(ContainSubstring(`"X-Gateway-Key":["`+proxy.RedactedHeader+`"]`), "a custom header's value is never journaled")
		for _, e := range entries {
			if e.Kind == journal.KindSpawn {
				Expect(e.Argv).To(ContainElement(settings), "without redaction the journal keeps the settings the agent gave")
			}
		}

		// The header and the client lane hold the agent's command line,
		// which here (not in use: an agent gets no settings) carries the
		// CLI's arguments; the CLI's and the model's lanes hold no value.
		_, raw := record("--model-lane")
		var lanes []string
		for _, line := range strings.Split(raw, "\n") {
			if strings.Contains(line, `"lane":"cli"`) || strings.Contains(line, `"lane":"model"`) {
				lanes = append(lanes, line)
			}
		}
		Expect(strings.Join(lanes, "\n")).NotTo(ContainSubstring(gwKey), "a redacting recording holds the gateway's header value on no lane of the CLI")
		Expect(strings.Join(lanes, "\n")).To(ContainSubstring(`"X-Gateway-Key":["` + proxy.RedactedHeader + `"]`))
		// Without the model lane the CLI reaches the gateway itself, and its
		// spawn entry still holds no value.
		cliOnly, _ := record()
		Expect(modelEntries(cliOnly)).To(BeEmpty())
		for _, e := range cliOnly {
			if e.Kind == journal.KindSpawn && e.Lane == journal.LaneCLI {
				Expect(strings.Join(e.Argv, " ")).NotTo(ContainSubstring(gwKey))
				Expect(e.Redacted).To(BeNumerically(">", 0))
			}
		}
	})

	It("refuses --model-lane without --cli-lane with a usage error", func() {
		out, err := exec.Command(bins.Airwire, "record", "--model-lane", "--", bins.Agent, "echo").CombinedOutput()
		Expect(err).To(HaveOccurred())
		Expect(err.(*exec.ExitError).ExitCode()).To(Equal(2))
		Expect(string(out)).To(ContainSubstring("--model-lane needs --cli-lane"))
	})
})

var _ = Describe("the model-lane proxy", func() {
	DescribeTable("streams SSE event by event, byte for byte, journaled in order with credentials never on disk",
		func(ctx SpecContext, redactOn bool) {
			const events, gap = 5, 150 * time.Millisecond
			var gotKey, gotPath, gotBody string
			rig := newModelRig(func(w http.ResponseWriter, req *http.Request) {
				gotKey, gotPath = req.Header.Get("X-Api-Key"), req.URL.RequestURI()
				b, _ := io.ReadAll(req.Body)
				gotBody = string(b)
				slowSSE(events, gap, 0, nil)(w, req)
			}, redactOn)
			body := []byte(`{"model":"claude-test","stream":true,"messages":[{"role":"user","content":"héllo"}]}`)
			start := time.Now()
			resp := rig.post(ctx, "/v1/messages?beta=true&x=%2F", body)
			defer resp.Body.Close()
			Expect(resp.StatusCode).To(Equal(200))
			Expect(resp.Header.Get("Request-Id")).To(Equal("req_1"))
			blocks, at, err := readEvents(resp.Body, events)
			Expect(err).NotTo(HaveOccurred())
			rest, _ := io.ReadAll(resp.Body)
			Expect(rest).To(BeEmpty())
			var want strings.Builder
			for i := 0; i < events; i++ {
				want.WriteString(sseBlock("content_block_delta", i))
			}
			Expect(strings.Join(blocks, "")).To(Equal(want.String()), "bytes differ")
			Expect(at[0].Sub(start)).To(BeNumerically("<", gap*2), "the first event waited for the stream")
			Expect(at[events-1].Sub(at[0])).To(BeNumerically(">=", gap*(events-1)*8/10), "events arrived bunched")
			Expect(gotKey).To(Equal(modelKey), "the credential must be forwarded unchanged")
			Expect(gotPath).To(Equal("/v1/messages?beta=true&x=%2F"), "the cli-N prefix must be stripped, the rest kept as sent")
			Expect(gotBody).To(Equal(string(body)))

			entries, raw := rig.finish()
			expectGapless(entries)
			Expect(raw).NotTo(ContainSubstring(modelKey))
			Expect(raw).NotTo(ContainSubstring(modelBearer))
			m := modelEntries(entries)
			var shape []string
			for _, e := range m {
				Expect(e.Proc).To(Equal(rig.proc))
				Expect(string(e.ID)).To(Equal("1"))
				shape = append(shape, fmt.Sprintf("%s %s %s %s", e.Dir, e.Kind, e.Method, e.Reason))
			}
			ev := "model msg POST /v1/messages content_block_delta "
			Expect(shape).To(Equal([]string{"cli msg POST /v1/messages ", "cli msg POST /v1/messages ", "model msg POST /v1/messages ",
				ev, ev, ev, ev, ev, "model note POST /v1/messages complete"}))
			var head struct {
				Method, Path string
				Headers      map[string][]string
			}
			Expect(json.Unmarshal(m[0].Msg, &head)).To(Succeed())
			Expect(head.Path).To(Equal("/v1/messages?beta=true&x=%2F"))
			Expect(head.Headers["X-Api-Key"]).To(Equal([]string{proxy.RedactedHeader}))
			Expect(head.Headers["Authorization"]).To(Equal([]string{proxy.RedactedHeader}))
			Expect(m[0].Redacted).To(BeNumerically(">=", 2))
			Expect(string(m[1].Msg)).To(Equal(string(body)), "the request body is journaled verbatim")
			Expect(string(m[2].Msg)).To(ContainSubstring(`"status":200`))
			for i := 0; i < events; i++ {
				e := m[3+i]
				Expect(string(e.Msg)).To(Equal(fmt.Sprintf(`{"type":"content_block_delta","n":%d}`, i)))
				if i > 0 {
					Expect(e.TNs-m[2+i].TNs).To(BeNumerically(">=", int64(gap)*8/10), "event times not kept")
				}
			}
			Expect(m[8].Bytes).To(Equal(len(want.String())))
		},
		Entry("with redaction", true, NodeTimeout(20*time.Second)),
		Entry("with --no-redact (credential headers are never written)", false, NodeTimeout(20*time.Second)),
	)

	It("cuts the CLI's connection when the model API drops mid-stream, and journals the drop", func(ctx SpecContext) {
		rig := newModelRig(slowSSE(5, 50*time.Millisecond, 2, nil), true)
		resp := rig.post(ctx, "/v1/messages", []byte(`{}`))
		defer resp.Body.Close()
		blocks, _, err := readEvents(resp.Body, 5)
		Expect(blocks).To(HaveLen(2))
		Expect(err).To(HaveOccurred())
		Expect(err).NotTo(Equal(io.EOF), "a drop must not look like a clean end")
		entries, _ := rig.finish()
		m := modelEntries(entries)
		last := m[len(m)-1]
		Expect(last.Kind).To(Equal(journal.KindNote))
		Expect(last.Reason).To(Equal(journal.ReasonDropped))
		Expect(m[len(m)-2].Method).To(Equal("POST /v1/messages content_block_delta"))
	}, NodeTimeout(20*time.Second))

	It("cancels the upstream request when the CLI goes away, and journals it", func(ctx SpecContext) {
		cancelled := make(chan struct{})
		rig := newModelRig(slowSSE(100, 100*time.Millisecond, 0, cancelled), true)
		cctx, cancel := context.WithCancel(ctx)
		resp := rig.post(cctx, "/v1/messages", []byte(`{}`))
		blocks, _, _ := readEvents(resp.Body, 1)
		Expect(blocks).To(HaveLen(1))
		cancel()
		resp.Body.Close()
		Eventually(cancelled).WithTimeout(3 * time.Second).Should(BeClosed())
		entries, _ := rig.finish()
		m := modelEntries(entries)
		Expect(m[len(m)-1].Reason).To(Equal(journal.ReasonCancelled))
	}, NodeTimeout(20*time.Second))

	It("journals a JSON body as one entry and an oversized one as its first bytes, forwarding both whole", func(ctx SpecContext) {
		var got []string
		rig := newModelRig(func(w http.ResponseWriter, req *http.Request) {
			b, _ := io.ReadAll(req.Body)
			got = append(got, string(b))
			w.Header().Set("Content-Type", "application/json")
			_, _ = fmt.Fprintf(w, "{\n  \"input_tokens\": %d\n}\n", len(b))
		}, true, proxy.WithModelMaxBody(1024))
		big := []byte(`{"text":"` + strings.Repeat("x", 10<<10) + `"}`)
		for _, body := range [][]byte{[]byte(`{"a":1}`), big} {
			resp := rig.post(ctx, "/v1/messages/count_tokens", body)
			out, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			Expect(err).NotTo(HaveOccurred())
			Expect(string(out)).To(Equal(fmt.Sprintf("{\n  \"input_tokens\": %d\n}\n", len(body))), "response bytes must pass unchanged")
		}
		Expect(got).To(Equal([]string{`{"a":1}`, string(big)}))
		entries, _ := rig.finish()
		var bodies []journal.Entry
		for _, e := range modelEntries(entries) {
			if e.Kind != journal.KindNote && !strings.Contains(string(e.Msg), `"headers"`) {
				bodies = append(bodies, e)
			}
		}
		Expect(bodies).To(HaveLen(4))
		Expect(string(bodies[0].Msg)).To(Equal(`{"a":1}`))
		Expect(string(bodies[1].Msg)).To(Equal(`{"input_tokens":7}`), "a pretty body is compacted onto the line")
		Expect(bodies[1].Bytes).To(Equal(len("{\n  \"input_tokens\": 7\n}\n")))
		Expect(bodies[2].Kind).To(Equal(journal.KindNonJSON))
		Expect(bodies[2].Reason).To(Equal(journal.ReasonBodyTooLong))
		Expect(bodies[2].Bytes).To(Equal(len(big)))
		Expect(len(bodies[2].TextOf())).To(BeNumerically("<=", 256))
		Expect(bodies[3].Dir).To(Equal(journal.DirModel))
	}, NodeTimeout(20*time.Second))

	It("streams a content-encoded response through as it arrives, journaled as sent", func(ctx SpecContext) {
		parts := [][]byte{[]byte("\x1f\x8b\x08\x00first-part"), []byte("second-part\xff")}
		rig := newModelRig(func(w http.ResponseWriter, req *http.Request) {
			w.Header().Set("Content-Type", "text/event-stream")
			w.Header().Set("Content-Encoding", "gzip")
			for _, p := range parts {
				_, _ = w.Write(p)
				w.(http.Flusher).Flush()
				time.Sleep(300 * time.Millisecond)
			}
		}, true)
		req, _ := http.NewRequestWithContext(ctx, "POST", rig.mp.URL()+"/"+rig.proc+"/v1/messages", strings.NewReader("{}"))
		req.Header.Set("Accept-Encoding", "gzip") // so the client does not decode either
		resp, err := http.DefaultClient.Do(req)
		Expect(err).NotTo(HaveOccurred())
		defer resp.Body.Close()
		first := make([]byte, len(parts[0]))
		start := time.Now()
		_, err = io.ReadFull(resp.Body, first)
		Expect(err).NotTo(HaveOccurred())
		Expect(time.Since(start)).To(BeNumerically("<", 250*time.Millisecond), "the first part waited for the body's end")
		rest, err := io.ReadAll(resp.Body)
		Expect(err).NotTo(HaveOccurred())
		Expect(append(first, rest...)).To(Equal(bytes.Join(parts, nil)))
		entries, _ := rig.finish()
		var got []byte
		for _, e := range modelEntries(entries) {
			if e.Reason == journal.ReasonBodyEncoded {
				Expect(e.Kind).To(Equal(journal.KindNonJSON))
				got = append(got, e.B64...)
				got = append(got, e.TextOf()...)
			}
		}
		Expect(got).To(Equal(bytes.Join(parts, nil)))
	}, NodeTimeout(20*time.Second))

	It("answers 404 to a path that names no CLI process", func(ctx SpecContext) {
		forwarded := false
		rig := newModelRig(func(w http.ResponseWriter, _ *http.Request) { forwarded = true }, true)
		for _, path := range []string{"/v1/messages", "/cli-99/v1/messages", "/cli-x/v1/messages"} {
			resp, err := http.Post(rig.mp.URL()+path, "application/json", strings.NewReader("{}"))
			Expect(err).NotTo(HaveOccurred())
			resp.Body.Close()
			Expect(resp.StatusCode).To(Equal(404), path)
		}
		rig.finish()
		Expect(forwarded).To(BeFalse())
	})
})
