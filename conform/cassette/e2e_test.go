package cassette_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/airwire/airwire/conform"
	"github.com/airwire/airwire/conform/cassette"
	"github.com/airwire/airwire/internal/deps"
)

// editorSteps drives one editor session: initialize, session/new,
// session/set_mode default, a text prompt and a prompt that makes the model
// write a file (permission allowed). It returns the stop reasons of the two
// prompts.
func editorSteps(c *acp, cwd string) []string {
	GinkgoHelper()
	c.call("initialize", map[string]any{"protocolVersion": 1, "clientInfo": map[string]any{"name": "airwire-test", "version": "0"},
		"clientCapabilities": map[string]any{"fs": map[string]any{"readTextFile": false, "writeTextFile": false}, "terminal": false}})
	sess := c.call("session/new", map[string]any{"cwd": cwd, "mcpServers": []any{}})
	sid, _ := sess["sessionId"].(string)
	Expect(sid).NotTo(BeEmpty())
	// The reference starts in auto mode, where the CLI asks nothing: ask
	// for the default mode so the Write needs a permission.
	c.call("session/set_mode", map[string]any{"sessionId": sid, "modeId": "default"})
	var stops []string
	for _, text := range []string{"Say hello", "PLEASE_WRITE the file hello.txt"} {
		res := c.call("session/prompt", map[string]any{"sessionId": sid, "prompt": []any{map[string]any{"type": "text", "text": text}}})
		stop, _ := res["stopReason"].(string)
		stops = append(stops, stop)
	}
	return stops
}

type refDeps struct{ node, adapter, cli string }

// referenceDeps returns the reference adapter's paths; without them the
// spec skips, or fails under CI.
func referenceDeps() refDeps {
	GinkgoHelper()
	p, err := deps.Paths()
	var d refDeps
	for _, f := range []struct {
		dst *string
		get func() (string, error)
	}{{&d.node, p.RequireNode}, {&d.adapter, p.RequireReferenceAdapter}, {&d.cli, p.RequireReferenceCLI}} {
		if err == nil {
			*f.dst, err = f.get()
		}
	}
	if errors.Is(err, deps.ErrMissing) {
		deps.Unavailable(GinkgoT(), "the reference adapter, Node and the real CLI (run make deps): %v", err)
	}
	Expect(err).NotTo(HaveOccurred())
	return d
}

// modelScript is the model of editorSteps' two prompts, for airwire
// mock-api: a greeting, then a Write of target that the tool result ends.
func modelScript(target string) map[string]any {
	return map[string]any{
		"turns": []any{
			map[string]any{"when": map[string]any{"text": "Say hello"}, "reply": []any{map[string]any{"text": "Hello from mock."}}},
			map[string]any{"when": map[string]any{"text": "PLEASE_WRITE"}, "reply": []any{map[string]any{"toolUse": map[string]any{
				"id": "toolu_write", "name": "Write", "input": map[string]any{"file_path": target, "content": "hello from mock\n"}}}}},
			map[string]any{"when": map[string]any{"toolResult": "toolu_write"}, "reply": []any{map[string]any{"text": "Wrote it."}}},
		},
		"side": map[string]any{"title": "Say hello", "default": "ok"},
	}
}

var _ = Describe("record a real run, replay it", Label("reference"), func() {
	It("replays the real CLI's side to the reference adapter", func(ctx SpecContext) {
		d := referenceDeps()

		By("recording the reference adapter with the real CLI against the mock API")
		live := newRunDirs()
		base := startMockAPI(modelScript(filepath.Join(live.cwd, "hello.txt")))
		jpath := filepath.Join(live.root, "live.jsonl")
		cmd := exec.Command(airwireBin, "record", "-q", "--cli-lane", "--no-redact", "--journal", jpath, "--", d.node, d.adapter)
		cmd.Dir = live.cwd
		cmd.Env = live.env("CLAUDE_CODE_EXECUTABLE="+d.cli, "ANTHROPIC_BASE_URL="+base, "ANTHROPIC_API_KEY=sk-test")
		c := startACP(cmd)
		liveStops := editorSteps(c, live.cwd)
		c.closeAndWait()
		Expect(liveStops).To(Equal([]string{"end_turn", "end_turn"}))
		Expect(filepath.Join(live.cwd, "hello.txt")).To(BeAnExistingFile(), "the real CLI did not run the Write tool")
		Expect(methods(c.messages())).To(ContainElement("session/request_permission"), "the real CLI did not ask for the Write")

		By("building the cassette")
		cas, err := cassette.FromJournalFile(jpath, cassette.Substitutions{Cwd: live.cwd, Home: live.home, ConfigDir: live.config, TmpDir: live.tmp})
		Expect(err).NotTo(HaveOccurred())
		Expect(cas.Processes).To(HaveLen(1))
		store := GinkgoT().TempDir()
		cpath := filepath.Join(store, "run.cassette.jsonl")
		Expect(cas.Save(cpath)).To(Succeed())
		saved, err := os.ReadFile(cpath)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(saved)).NotTo(ContainSubstring(live.root))
		Expect(string(saved)).To(ContainSubstring(cassette.PlaceholderCwd))

		By("replaying it to the reference adapter in another directory")
		re := newRunDirs()
		wrapper := filepath.Join(store, "claude")
		script := fmt.Sprintf("#!/bin/sh\nexec '%s' fake-cli --replay '%s' \"$@\" 2>>'%s'\n", airwireBin, cpath, filepath.Join(store, "replay.stderr"))
		Expect(os.WriteFile(wrapper, []byte(script), 0o755)).To(Succeed())
		cmd = exec.Command(airwireBin, "record", "-q", "--cli-lane", "--no-redact", "--journal", filepath.Join(store, "replay.jsonl"), "--", d.node, d.adapter)
		cmd.Dir = re.cwd
		cmd.Env = re.env("CLAUDE_CODE_EXECUTABLE="+wrapper, "ANTHROPIC_BASE_URL=http://127.0.0.1:9", "ANTHROPIC_API_KEY=sk-test")
		r := startACP(cmd)
		replayStops := editorSteps(r, re.cwd)
		r.closeAndWait()
		stderr, _ := os.ReadFile(filepath.Join(store, "replay.stderr"))
		GinkgoWriter.Printf("fake-cli stderr:\n%s\n", stderr)
		Expect(string(stderr)).NotTo(ContainSubstring("unexpected"))
		Expect(string(stderr)).NotTo(ContainSubstring("timed out"))
		Expect(replayStops).To(Equal(liveStops))
		Expect(methods(r.messages())).To(ContainElement("session/request_permission"))
		Expect(os.ReadFile(filepath.Join(re.cwd, "hello.txt"))).To(Equal([]byte("hello from mock\n")), "the player re-creates the Write")
		got, want := editorLane(r.messages(), re), editorLane(c.messages(), live)
		if keep := os.Getenv("AIRWIRE_CASSETTE_KEEP"); keep != "" {
			Expect(os.WriteFile(keep+".live", []byte(strings.Join(want, "\n")), 0o644)).To(Succeed())
			Expect(os.WriteFile(keep+".replay", []byte(strings.Join(got, "\n")), 0o644)).To(Succeed())
			b, _ := os.ReadFile(filepath.Join(store, "replay.jsonl"))
			Expect(os.WriteFile(keep+".replay.jsonl", b, 0o644)).To(Succeed())
			b, _ = os.ReadFile(jpath)
			Expect(os.WriteFile(keep+".live.jsonl", b, 0o644)).To(Succeed())
		}
		Expect(strings.Join(got, "\n")).To(Equal(strings.Join(want, "\n")))
	}, NodeTimeout(120e9))
})

// editorLane renders the agent → editor messages of a run, normalized by
// the conformance suite's Normalizer, one per line. Session title updates
// are published whenever the adapter's title lookup ends (timing, as
// conform.FloatRules says): they go to the end, in their own order.
func editorLane(msgs []map[string]any, d runDirs) []string {
	GinkgoHelper()
	nz := conform.NewNormalizer(conform.Paths{Root: d.root, Cwd: d.cwd, Home: d.home, ConfigDir: d.config})
	var out, titles []string
	for _, m := range msgs {
		b, err := json.Marshal(m)
		Expect(err).NotTo(HaveOccurred())
		line, err := nz.Line(b)
		Expect(err).NotTo(HaveOccurred())
		if strings.Contains(string(line), `"sessionUpdate":"session_info_update","title"`) {
			titles = append(titles, "(title) "+string(line))
		} else {
			out = append(out, string(line))
		}
	}
	return append(out, titles...)
}

// methods lists the methods of the agent's requests and notifications.
func methods(msgs []map[string]any) []string {
	var out []string
	for _, m := range msgs {
		if method, ok := m["method"].(string); ok {
			out = append(out, method)
		}
	}
	return out
}
