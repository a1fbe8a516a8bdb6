package proxy_test

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	mrand "math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/onsi/gomega/gbytes"

	"github.com/airwire/airwire/internal/journal"
	"github.com/airwire/airwire/internal/procgroup"
)

// randomPayload mixes every kind of frame the proxy must pass unchanged.
func randomPayload(seed uint64) []byte {
	r := mrand.New(mrand.NewPCG(seed, 7))
	var b bytes.Buffer
	for i := 0; i < 200; i++ {
		switch r.IntN(6) {
		case 0:
			fmt.Fprintf(&b, `{"jsonrpc":"2.0","id":%d,"method":"session/prompt","params":{"sessionId":"s-%d","text":"héllo ✓ 😀 %d"}}`+"\n", i, r.IntN(3), r.Int())
		case 1:
			fmt.Fprintf(&b, `{"jsonrpc":"2.0","id":%d,"result":{"n":1e400,"d":1.0}}`+"\r\n", i)
		case 2:
			b.WriteString("this is { not json\n")
		case 3:
			junk := make([]byte, 1+r.IntN(64))
			rand.Read(junk)
			b.Write(bytes.ReplaceAll(junk, []byte("\n"), []byte("x")))
			b.WriteByte('\n')
		case 4:
			b.WriteString("\n")
		case 5:
			fmt.Fprintf(&b, `  {"a":[%d,{"_meta":{"x":"\u00e9\n"}}]}  `+"\n", i)
		}
	}
	big := bytes.Repeat([]byte("A"), 10<<20) // a 10 MB line (base64-like image)
	b.WriteString(`{"jsonrpc":"2.0","method":"session/update","params":{"image":"`)
	b.Write(big)
	b.WriteString("\"}}\n")
	b.WriteString(`{"jsonrpc":"2.0","method":"tail-without-newline"}`)
	return b.Bytes()
}

// framesOf concatenates the frames of one lane and sender, rebuilt from the journal.
func framesOf(entries []journal.Entry, lane journal.Lane, dir journal.Dir) []byte {
	var b bytes.Buffer
	for _, e := range entries {
		if e.Lane == lane && e.Dir == dir && (e.Kind == journal.KindMsg || e.Kind == journal.KindNonJSON) {
			b.Write(e.Frame())
		}
	}
	return b.Bytes()
}

func expectGapless(entries []journal.Entry) {
	GinkgoHelper()
	for i, e := range entries {
		Expect(e.Seq).To(Equal(uint64(i+1)), "seq gap at entry %d", i)
		if i > 0 {
			Expect(e.TNs).To(BeNumerically(">=", entries[i-1].TNs))
		}
	}
}

func record(journalPath string, env []string, args ...string) *exec.Cmd {
	cmd := exec.Command(bins.Airwire, append([]string{"record", "-q", "--journal", journalPath, "--"}, args...)...)
	cmd.Env = append(os.Environ(), env...)
	return cmd
}

var _ = Describe("airwire record", func() {
	var dir, jpath string
	BeforeEach(func() {
		dir = GinkgoT().TempDir()
		jpath = filepath.Join(dir, "j.jsonl")
	})

	It("passes random payloads byte for byte both ways and journals every frame", func(ctx SpecContext) {
		payload := randomPayload(uint64(GinkgoRandomSeed()))
		cmd := record(jpath, nil, bins.Agent, "echo")
		cmd.Stdin = bytes.NewReader(payload)
		var out, errOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errOut
		Expect(cmd.Run()).To(Succeed(), errOut.String())
		Expect(bytes.Equal(out.Bytes(), payload)).To(BeTrue(), "editor got %d bytes, agent wrote %d", out.Len(), len(payload))
		Expect(errOut.String()).To(Equal("agent: echo starting\n"))

		h, entries, err := journal.ReadAll(jpath)
		Expect(err).NotTo(HaveOccurred())
		Expect(h.AgentCmd).To(Equal([]string{bins.Agent, "echo"}))
		expectGapless(entries)
		Expect(bytes.Equal(framesOf(entries, journal.LaneClient, journal.DirEditor), payload)).To(BeTrue(), "editor frames differ")
		Expect(bytes.Equal(framesOf(entries, journal.LaneClient, journal.DirAgent), payload)).To(BeTrue(), "agent frames differ")
		var kinds = map[journal.Kind]int{}
		var reasons = map[string]bool{}
		for _, e := range entries {
			kinds[e.Kind]++
			reasons[e.Reason] = true
		}
		Expect(kinds[journal.KindStderr]).To(Equal(1))
		Expect(kinds[journal.KindSpawn]).To(Equal(1))
		Expect(kinds[journal.KindExit]).To(Equal(1))
		Expect(reasons).To(HaveKey(journal.ReasonTruncated))
		Expect(entries[len(entries)-1].Exit).To(Equal(&journal.Exit{Code: 0}))
		st, err := os.Stat(jpath)
		Expect(err).NotTo(HaveOccurred())
		Expect(st.Mode().Perm()).To(Equal(os.FileMode(0o600)))
	}, NodeTimeout(60*time.Second))

	It("journals the agent's output when the editor sends nothing", func() {
		payload := randomPayload(42)
		src := filepath.Join(dir, "payload")
		Expect(os.WriteFile(src, payload, 0o600)).To(Succeed())
		cmd := record(jpath, nil, bins.Agent, "emit", src)
		out, err := cmd.Output()
		Expect(err).NotTo(HaveOccurred())
		Expect(bytes.Equal(out, payload)).To(BeTrue())
		_, entries, err := journal.ReadAll(jpath)
		Expect(err).NotTo(HaveOccurred())
		Expect(bytes.Equal(framesOf(entries, journal.LaneClient, journal.DirAgent), payload)).To(BeTrue())
	})

	It("keeps every message and an exit record when the agent is killed mid-stream, and exits with its status", func(ctx SpecContext) {
		cmd := record(jpath, nil, bins.Agent, "stream", "500")
		stdout, _ := cmd.StdoutPipe()
		stderr, _ := cmd.StderrPipe()
		stdin, _ := cmd.StdinPipe()
		defer stdin.Close()
		Expect(cmd.Start()).To(Succeed())
		DeferCleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
		lines := 0
		sc := bufio.NewScanner(stdout)
		for lines < 500 && sc.Scan() {
			lines++
		}
		Expect(lines).To(Equal(500))
		ready, err := bufio.NewReader(stderr).ReadString('\n')
		Expect(err).NotTo(HaveOccurred())
		pid, err := strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(ready, "ready ")))
		Expect(err).NotTo(HaveOccurred())
		agent, err := os.FindProcess(pid)
		Expect(err).NotTo(HaveOccurred())
		Expect(agent.Kill()).To(Succeed())
		err = cmd.Wait()
		var ee *exec.ExitError
		Expect(err).To(BeAssignableToTypeOf(ee))
		Expect(cmd.ProcessState.ExitCode()).To(Equal(128 + 9))
		Expect(procgroup.Running(pid)).To(BeFalse(), "the agent survived")

		_, entries, err := journal.ReadAll(jpath)
		Expect(err).NotTo(HaveOccurred())
		expectGapless(entries)
		msgs := 0
		for _, e := range entries {
			if e.Kind == journal.KindMsg && e.Dir == journal.DirAgent {
				msgs++
				Expect(e.Session).To(Equal("s"))
				Expect(e.Method).To(Equal("session/update"))
			}
		}
		Expect(msgs).To(Equal(500))
		last := entries[len(entries)-1]
		Expect(last.Kind).To(Equal(journal.KindExit))
		Expect(last.Exit).To(Equal(&journal.Exit{Code: -1, Signal: "SIGKILL"}))
	}, NodeTimeout(30*time.Second))

	It("takes the agent along when it is killed itself (SIGKILL)", func() {
		cmd, pid := startStreaming(jpath)
		DeferCleanup(func() {
			if p, err := os.FindProcess(pid); err == nil {
				_ = p.Kill()
			}
		})
		Expect(cmd.Process.Kill()).To(Succeed())
		_ = cmd.Wait()
		// Pdeathsig on Linux, the watchdog in the portable twin, the job on
		// Windows. A zombie counts as alive here, so the wait covers init
		// reaping it.
		Eventually(func() bool { return procgroup.Running(pid) }).WithTimeout(5*time.Second).
			WithPolling(20*time.Millisecond).Should(BeFalse(), "the agent outlived airwire record")
	})

	It("forwards SIGTERM to the agent and exits with its status", func() {
		cmd, pid := startStreaming(jpath)
		Expect(cmd.Process.Signal(syscall.SIGTERM)).To(Succeed())
		_ = cmd.Wait()
		Expect(cmd.ProcessState.ExitCode()).To(Equal(128 + 15))
		Expect(procgroup.Running(pid)).To(BeFalse())
		_, entries, err := journal.ReadAll(jpath)
		Expect(err).NotTo(HaveOccurred())
		Expect(entries[len(entries)-1].Exit).To(Equal(&journal.Exit{Code: -1, Signal: "SIGTERM"}))
	})

	It("redacts secrets before they reach disk, with one token per secret", func() {
		const key = "sk-test-fake-4242-secret"
		const ant = "sk-ant-api03-AAAABBBBCCCCDDDD_eeee"
		payload := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"x","params":{"text":"key %s and %s"}}`+"\n"+
			`{"jsonrpc":"2.0","id":2,"method":"y","params":{"apiKey":%q,"again":"%s"}}`+"\n"+"plain %s\n", key, ant, key, ant, key)
		cmd := record(jpath, []string{"ANTHROPIC_API_KEY=" + key}, bins.Agent, "echo")
		cmd.Stdin = strings.NewReader(payload)
		out, err := cmd.Output()
		Expect(err).NotTo(HaveOccurred())
		Expect(string(out)).To(Equal(payload), "redaction must never touch forwarded bytes")
		raw, err := os.ReadFile(jpath)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(raw)).NotTo(ContainSubstring(key))
		Expect(string(raw)).NotTo(ContainSubstring("AAAABBBBCCCCDDDD"))
		// One token per secret, none of them the unkeyed sha256 (item 4 of issue 11).
		tokens := map[string]int{}
		for _, tok := range regexp.MustCompile(`<redacted:[0-9a-f]{8}>`).FindAllString(string(raw), -1) {
			tokens[tok]++
		}
		counts := []int{}
		for _, n := range tokens {
			counts = append(counts, n)
		}
		Expect(counts).To(ConsistOf(6, 4), "each copy of the key (6) and of the sk-ant key (4), both directions")
		for _, s := range []string{key, ant} {
			sum := sha256.Sum256([]byte(s))
			Expect(tokens).NotTo(HaveKey("<redacted:"+hex.EncodeToString(sum[:4])+">"), "a dictionary finds an unkeyed token")
		}
		h, _, err := journal.ReadAll(jpath)
		Expect(err).NotTo(HaveOccurred())
		Expect(h.Env).To(ContainElement("ANTHROPIC_API_KEY"))
		Expect(h.Redaction).To(Equal("on"))
	})

	It("keeps secrets with --no-redact", func() {
		const key = "sk-test-fake-4242-secret"
		cmd := exec.Command(bins.Airwire, "record", "-q", "--no-redact", "--journal", jpath, "--", bins.Agent, "echo")
		cmd.Env = append(os.Environ(), "ANTHROPIC_API_KEY="+key)
		cmd.Stdin = strings.NewReader(`{"k":"` + key + `"}` + "\n")
		Expect(cmd.Run()).To(Succeed())
		raw, _ := os.ReadFile(jpath)
		Expect(string(raw)).To(ContainSubstring(key))
	})

	It("records the CLI lane: one process per spawn, gapless across processes, secrets redacted", func() {
		fake := fakeCLIScript(dir)
		cmd := exec.Command(bins.Airwire, "record", "-q", "--cli-lane", "--journal", jpath, "--", bins.Agent, "spawn-cli")
		cmd.Env = append(os.Environ(), "CLAUDE_CODE_EXECUTABLE="+fake)
		cmd.Stdin = strings.NewReader("auth status --json\n--output-format stream-json --verbose\n")
		var out, errOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errOut
		Expect(cmd.Run()).To(Succeed(), errOut.String())
		Expect(out.String()).To(Equal("{\n  \"loggedIn\": false\n}\n" +
			`{"type":"control_response","response":{"subtype":"success","request_id":"r1","response":{}}}` + "\n" + `{"type":"echo","n":2}` + "\n"))
		Expect(errOut.String()).To(ContainSubstring("fake-cli: exe="+fake+"\n"), "the real CLI must see the original CLAUDE_CODE_EXECUTABLE")

		h, entries, err := journal.ReadAll(jpath)
		Expect(err).NotTo(HaveOccurred())
		expectGapless(entries)
		Expect(h.CLICmd).To(Equal([]string{fake, "--output-format", "stream-json", "--verbose"}))
		var got []string
		for _, e := range entries {
			if e.Lane != journal.LaneCLI {
				continue
			}
			switch e.Kind {
			case journal.KindSpawn:
				got = append(got, e.Proc+" spawn "+strings.Join(e.Argv[1:], " "))
			case journal.KindExit:
				got = append(got, fmt.Sprintf("%s exit %d", e.Proc, e.Exit.Code))
			case journal.KindStderr:
				got = append(got, e.Proc+" stderr "+strings.Split(e.TextOf(), "=")[0])
			default:
				got = append(got, fmt.Sprintf("%s %s %s %s", e.Proc, e.Dir, e.Kind, e.Method))
			}
		}
		// Causal order only: stderr and stdout of one process race each other.
		pos := func(x string) int {
			GinkgoHelper()
			for i, g := range got {
				if g == x {
					return i
				}
			}
			Fail(fmt.Sprintf("%q not in %q", x, got))
			return -1
		}
		Expect(got).To(HaveLen(11))
		Expect(pos("cli-1 spawn auth status --json")).To(Equal(0))
		Expect(pos("cli-1 cli msg auth status")).To(BeNumerically("<", pos("cli-1 exit 1")))
		Expect(pos("cli-1 stderr fake-cli: auth done")).To(BeNumerically("<", pos("cli-1 exit 1")))
		Expect(pos("cli-1 exit 1")).To(BeNumerically("<", pos("cli-2 spawn --output-format stream-json --verbose")))
		Expect(pos("cli-2 agent msg control_request/initialize")).To(BeNumerically("<", pos("cli-2 cli msg control_response/initialize")))
		Expect(pos("cli-2 agent msg user")).To(BeNumerically("<", pos("cli-2 cli msg echo")))
		Expect(pos("cli-2 stderr fake-cli: exe")).To(BeNumerically(">", pos("cli-2 spawn --output-format stream-json --verbose")))
		Expect(pos("cli-2 exit 0")).To(Equal(10))
		raw, _ := os.ReadFile(jpath)
		Expect(string(raw)).NotTo(ContainSubstring("sk-ant-api03-abcdefghijkl"))
	})

	It("kills a CLI that outlives the agent, after --cli-grace, and journals its end", func() {
		fake := fakeCLIScript(dir)
		cmd := exec.Command(bins.Airwire, "record", "-q", "--cli-lane", "--cli-grace", "300ms", "--journal", jpath, "--", bins.Agent, "spawn-and-leave")
		cmd.Env = append(os.Environ(), "CLAUDE_CODE_EXECUTABLE="+fake)
		out, err := cmd.Output()
		Expect(err).NotTo(HaveOccurred())
		var hello struct{ Pid int }
		Expect(json.Unmarshal(out, &hello)).To(Succeed(), string(out))
		Expect(procgroup.Running(hello.Pid)).To(BeFalse(), "the lingering CLI survived airwire record")
		_, entries, err := journal.ReadAll(jpath)
		Expect(err).NotTo(HaveOccurred())
		last := entries[len(entries)-1]
		Expect(last.Proc).To(Equal("cli-1"))
		Expect(last.Exit).To(Equal(&journal.Exit{Code: -1, Signal: "SIGKILL"}))
	})

	It("holds no unbounded buffer when the editor stops reading", func() {
		cmd := record(jpath, nil, bins.Agent, "flood", "256")
		stdout, _ := cmd.StdoutPipe()
		errOut := gbytes.NewBuffer() // safe to read while the command writes
		cmd.Stderr = errOut
		stdin, _ := cmd.StdinPipe()
		defer stdin.Close()
		Expect(cmd.Start()).To(Succeed())
		DeferCleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
		// Nobody reads: the agent must end up blocked, and airwire small.
		Consistently(func() string { return string(errOut.Contents()) }, "1s", "100ms").ShouldNot(ContainSubstring("flood done"), "the agent wrote 256 MiB into nobody: something buffered it")
		status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", cmd.Process.Pid))
		Expect(err).NotTo(HaveOccurred())
		var rssKB int
		for _, l := range strings.Split(string(status), "\n") {
			if strings.HasPrefix(l, "VmRSS:") {
				rssKB, _ = strconv.Atoi(strings.Fields(l)[1])
			}
		}
		Expect(rssKB).To(BeNumerically("<", 64<<10), "airwire record holds %d KiB while its editor does not read", rssKB)
		n, err := io.Copy(io.Discard, stdout)
		Expect(err).NotTo(HaveOccurred())
		Expect(n).To(Equal(int64(256 << 20)))
		Expect(cmd.Wait()).To(Succeed())
		Expect(string(errOut.Contents())).To(ContainSubstring("flood done"))
		_, entries, err := journal.ReadAll(jpath)
		Expect(err).NotTo(HaveOccurred())
		Expect(entries).To(HaveLen(256*1024 + 3)) // spawn, frames, stderr, exit
	})

	It("fails clearly without an agent command", func() {
		out, err := exec.Command(bins.Airwire, "record", "--journal", jpath).CombinedOutput()
		Expect(err).To(HaveOccurred())
		Expect(string(out)).To(ContainSubstring("missing agent command"))
		Expect(err.(*exec.ExitError).ExitCode()).To(Equal(2))
	})

	It("exits 127 with a clear error when the agent cannot start", func() {
		out, err := exec.Command(bins.Airwire, "record", "-q", "--journal", jpath, "--", filepath.Join(dir, "missing")).CombinedOutput()
		Expect(err).To(HaveOccurred())
		Expect(string(out)).To(ContainSubstring("cannot start the agent"))
		Expect(err.(*exec.ExitError).ExitCode()).To(Equal(127))
	})
})

// startStreaming starts airwire record in front of the test agent, which
// streams one line and waits, and returns it with the agent's pid, read
// from the agent's "ready" line.
func startStreaming(jpath string) (*exec.Cmd, int) {
	cmd := record(jpath, nil, bins.Agent, "stream", "1")
	stderr, _ := cmd.StderrPipe()
	cmd.Stdout = io.Discard
	stdin, _ := cmd.StdinPipe()
	Expect(cmd.Start()).To(Succeed())
	DeferCleanup(func() { _ = stdin.Close(); _ = cmd.Process.Kill(); _ = cmd.Wait() })
	ready, err := bufio.NewReader(stderr).ReadString('\n')
	Expect(err).NotTo(HaveOccurred())
	pid, err := strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(ready, "ready ")))
	Expect(err).NotTo(HaveOccurred())
	return cmd, pid
}
