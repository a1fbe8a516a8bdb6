package proxy_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/airwire/airwire/internal/deps"
	"github.com/airwire/airwire/internal/journal"
)

// The real reference adapter from `make deps`, with its real bundled Claude
// Code CLI, recorded on both lanes.
var _ = Describe("airwire record --cli-lane with the reference adapter", Label("reference"), func() {
	It("journals initialize (AIR client) and session/new on both lanes, gapless", func(ctx SpecContext) {
		p, err := deps.Paths()
		Expect(err).NotTo(HaveOccurred(), "run make deps")
		Expect(p.Node).NotTo(BeEmpty())
		Expect(p.ReferenceCLI).To(BeAnExistingFile())
		dir := GinkgoT().TempDir()
		home, cwd := filepath.Join(dir, "home"), filepath.Join(dir, "cwd")
		Expect(os.MkdirAll(cwd, 0o755)).To(Succeed())
		jpath := filepath.Join(dir, "j.jsonl")
		const apiKey = "sk-test-reference-0001"

		cmd := exec.Command(bins.Airwire, "record", "-q", "--cli-lane", "--journal", jpath, "--", p.Node, p.ReferenceAdapter)
		cmd.Env = append(os.Environ(), "HOME="+home, "CLAUDE_CONFIG_DIR="+filepath.Join(home, ".claude"), "IS_SANDBOX=1",
			"CLAUDE_CODE_EXECUTABLE="+p.ReferenceCLI, "ANTHROPIC_API_KEY="+apiKey, "ANTHROPIC_BASE_URL=http://127.0.0.1:9",
			"DISABLE_TELEMETRY=1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1")
		cmd.Stderr = GinkgoWriter
		stdin, _ := cmd.StdinPipe()
		stdout, _ := cmd.StdoutPipe()
		Expect(cmd.Start()).To(Succeed())
		DeferCleanup(func() { _ = cmd.Process.Signal(syscall.SIGKILL); _ = cmd.Wait() })
		lines := make(chan map[string]any, 64)
		go func() {
			defer close(lines)
			sc := bufio.NewScanner(stdout)
			sc.Buffer(nil, 64<<20)
			for sc.Scan() {
				var m map[string]any
				if json.Unmarshal(sc.Bytes(), &m) == nil {
					lines <- m
				}
			}
		}()
		await := func(pred func(map[string]any) bool, what string) map[string]any {
			GinkgoHelper()
			deadline := time.After(30 * time.Second)
			for {
				select {
				case m, ok := <-lines:
					Expect(ok).To(BeTrue(), "adapter closed stdout waiting for "+what)
					if pred(m) {
						return m
					}
				case <-deadline:
					Fail("timed out waiting for " + what)
				}
			}
		}
		idIs := func(id float64) func(map[string]any) bool {
			return func(m map[string]any) bool { return m["id"] == id && m["method"] == nil }
		}
		fmt.Fprintln(stdin, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1,"clientInfo":{"name":"airwire-test","version":"0"},"clientCapabilities":{"fs":{"readTextFile":true,"writeTextFile":true},"terminal":true,"_meta":{"jetbrains":{"air":{"version":1,"capabilities":["diffPatch","sessionFailure","agentFileChangeReport"]}}}}}}`)
		init := await(idIs(0), "initialize response")
		Expect(init).To(HaveKey("result"))
		await(func(m map[string]any) bool { return m["method"] == "_auth/status_update" }, "_auth/status_update")
		fmt.Fprintf(stdin, `{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":%q,"mcpServers":[]}}`+"\n", cwd)
		sn := await(idIs(1), "session/new response")
		Expect(sn).To(HaveKey("result"), "session/new failed: %v", sn["error"])
		sessionID := sn["result"].(map[string]any)["sessionId"].(string)
		await(func(m map[string]any) bool { return m["method"] == "session/update" }, "session/update after session/new")
		stdin.Close()
		Eventually(func() bool { _, err := io.Copy(io.Discard, stdout); return err == nil }).Should(BeTrue())
		Expect(cmd.Wait()).To(Succeed())

		h, entries, err := journal.ReadAll(jpath)
		Expect(err).NotTo(HaveOccurred())
		expectGapless(entries)
		Expect(h.CLICmd).To(ContainElement("stream-json"))
		seen := map[string]bool{}
		lanes := map[journal.Lane]int{}
		for _, e := range entries {
			lanes[e.Lane]++
			key := fmt.Sprintf("%s %s %s", e.Lane, e.Dir, e.Method)
			seen[key] = true
			if e.Lane == journal.LaneCLI && e.Kind == journal.KindSpawn && len(e.Argv) > 2 && e.Argv[1] == "auth" {
				seen["spawn auth status"] = true
			}
		}
		Expect(lanes[journal.LaneClient]).To(BeNumerically(">", 4))
		Expect(lanes[journal.LaneCLI]).To(BeNumerically(">", 4))
		for _, k := range []string{
			"client editor initialize", "client agent initialize", "client agent _auth/status_update",
			"client editor session/new", "client agent session/new",
			"cli agent control_request/initialize", "cli cli control_response/initialize",
			"cli cli auth status", "spawn auth status",
		} {
			Expect(seen).To(HaveKey(k))
		}
		sessions := 0
		for _, e := range entries {
			if e.Session == sessionID {
				sessions++
			}
		}
		Expect(sessions).To(BeNumerically(">=", 2), "entries should name the new session")
		raw, _ := os.ReadFile(jpath)
		Expect(string(raw)).NotTo(ContainSubstring(apiKey))
	}, NodeTimeout(90*time.Second))
})
