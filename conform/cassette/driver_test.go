package cassette_test

import (
	"bufio"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/airwire/airwire/internal/procgroup"
)

// runDirs is one isolated run directory: the adapter's cwd, HOME,
// CLAUDE_CONFIG_DIR and TMPDIR all live under root.
type runDirs struct{ root, cwd, home, config, tmp string }

func newRunDirs() runDirs {
	GinkgoHelper()
	root, err := filepath.EvalSymlinks(GinkgoT().TempDir())
	Expect(err).NotTo(HaveOccurred())
	d := runDirs{root: root, cwd: filepath.Join(root, "work"), home: filepath.Join(root, "home"), tmp: filepath.Join(root, "tmp")}
	d.config = filepath.Join(d.home, ".claude")
	for _, p := range []string{d.cwd, d.config, d.tmp} {
		Expect(os.MkdirAll(p, 0o755)).To(Succeed())
	}
	return d
}

func (d runDirs) env(extra ...string) []string {
	return append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + d.home, "CLAUDE_CONFIG_DIR=" + d.config,
		"TMPDIR=" + d.tmp, "IS_SANDBOX=1", "TZ=UTC", "LANG=C.UTF-8", "DISABLE_TELEMETRY=1",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1"}, extra...)
}

// acp is a minimal ACP client on an adapter's stdio. It answers
// session/request_permission with the first allow option and records every
// agent → editor message.
type acp struct {
	stdin io.WriteCloser
	mu    sync.Mutex
	msgs  []map[string]any
	next  int
	waits map[float64]chan map[string]any
	done  chan struct{}
}

func startACP(cmd *exec.Cmd) *acp {
	GinkgoHelper()
	c := &acp{waits: map[float64]chan map[string]any{}, done: make(chan struct{})}
	var err error
	c.stdin, err = cmd.StdinPipe()
	Expect(err).NotTo(HaveOccurred())
	out, err := cmd.StdoutPipe()
	Expect(err).NotTo(HaveOccurred())
	cmd.Stderr = GinkgoWriter
	g, err := procgroup.Start(cmd)
	Expect(err).NotTo(HaveOccurred())
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	DeferCleanup(func() {
		_ = c.stdin.Close()
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			_ = g.Kill()
			<-exited
		}
		g.Release(0)
	})
	go c.read(out)
	return c
}

func (c *acp) read(r io.Reader) {
	defer GinkgoRecover()
	defer close(c.done)
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var m map[string]any
		if json.Unmarshal(sc.Bytes(), &m) != nil {
			continue
		}
		c.mu.Lock()
		c.msgs = append(c.msgs, m)
		id, isNum := m["id"].(float64)
		ch := c.waits[id]
		c.mu.Unlock()
		switch {
		case m["method"] == "session/request_permission":
			c.send(map[string]any{"jsonrpc": "2.0", "id": m["id"], "result": map[string]any{
				"outcome": map[string]any{"outcome": "selected", "optionId": allowOption(m)}}})
		case m["method"] != nil && m["id"] != nil:
			c.send(map[string]any{"jsonrpc": "2.0", "id": m["id"], "error": map[string]any{"code": -32601, "message": "not supported"}})
		case isNum && ch != nil && m["method"] == nil:
			ch <- m
		}
	}
}

func allowOption(m map[string]any) string {
	params, _ := m["params"].(map[string]any)
	opts, _ := params["options"].([]any)
	for _, o := range opts {
		om, _ := o.(map[string]any)
		if om["kind"] == "allow_once" {
			id, _ := om["optionId"].(string)
			return id
		}
	}
	return "allow"
}

func (c *acp) send(m map[string]any) {
	b, _ := json.Marshal(m)
	c.mu.Lock()
	defer c.mu.Unlock()
	_, _ = c.stdin.Write(append(b, '\n'))
}

// call sends a request and waits for its result.
func (c *acp) call(method string, params any) map[string]any {
	GinkgoHelper()
	c.mu.Lock()
	c.next++
	id := float64(c.next)
	ch := make(chan map[string]any, 1)
	c.waits[id] = ch
	c.mu.Unlock()
	c.send(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	select {
	case m := <-ch:
		Expect(m).NotTo(HaveKey("error"), "%s failed", method)
		res, _ := m["result"].(map[string]any)
		return res
	case <-c.done:
		Fail(method + ": the adapter closed its stdout before answering")
	case <-time.After(40 * time.Second):
		Fail(method + ": no answer within 40 s")
	}
	return nil
}

// messages returns a copy of every agent → editor message so far.
func (c *acp) messages() []map[string]any {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]map[string]any(nil), c.msgs...)
}

// closeAndWait closes the adapter's stdin and waits for its stdout to end.
func (c *acp) closeAndWait() {
	GinkgoHelper()
	_ = c.stdin.Close()
	Eventually(c.done).WithTimeout(15 * time.Second).Should(BeClosed())
}

// startMockAPI runs `airwire mock-api` on a free loopback port with the
// model script; it returns the base URL. The server stops when the spec ends.
func startMockAPI(script map[string]any) string {
	GinkgoHelper()
	b, err := json.Marshal(script)
	Expect(err).NotTo(HaveOccurred())
	path := filepath.Join(GinkgoT().TempDir(), "model.json")
	Expect(os.WriteFile(path, b, 0o644)).To(Succeed())
	cmd := exec.Command(airwireBin, "mock-api", "--script", path)
	cmd.Stderr = GinkgoWriter
	stdout, err := cmd.StdoutPipe()
	Expect(err).NotTo(HaveOccurred())
	Expect(cmd.Start()).To(Succeed())
	DeferCleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	line, err := bufio.NewReader(stdout).ReadString('\n')
	Expect(err).NotTo(HaveOccurred(), "mock-api printed no address")
	base, ok := strings.CutPrefix(strings.TrimSpace(line), "mock-api listening on ")
	Expect(ok).To(BeTrue(), "mock-api's first line: %q", line)
	go func() { _, _ = io.Copy(GinkgoWriter, stdout) }()
	return base
}
