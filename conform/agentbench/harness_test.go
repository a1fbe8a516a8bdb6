package agentbench

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/airwire/airwire/internal/testroot"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/airwire/airwire/conform/fakecli"
	"github.com/airwire/airwire/conform/scenario"
	"github.com/airwire/airwire/internal/deps"
	"github.com/airwire/airwire/internal/execwrap"
	"github.com/airwire/airwire/internal/procgroup"
)

// callTimeout bounds every call of the benchmark editor; the reference's
// 10,000-chunk turn takes about half a second on an idle machine.
const callTimeout = 60 * time.Second

// bench is the shared setup of one benchmark function call: the airwire
// binary, the reference's command, and a fake CLI (wrapper and script)
// both adapters run.
type bench struct {
	// adapters are ours and the reference, in that order.
	adapters []contender
	dir      string // the call's temporary directory
	// cliEnv names the CLI both adapters run: the fake CLI (a wrapper
	// and its script), or the real one and its model API (useRealCLI).
	cliEnv []string
	// profile is the client the benchmark editor plays (plain or air).
	profile scenario.Profile
	// version is the ACP version the editor asks for in initialize: 1, or
	// 2 (the v2 draft, as a client without capabilities).
	version int
	// stored, when set, is the transcript set both adapters list: their
	// workspace is its cwd, and their config's projects directory links
	// to its projects.
	stored *transcriptSet
}

// TestMain removes the airwire the benchmarks built (testroot.Binary) when
// the test binary ends: every run would otherwise leave 40 MB in $TMPDIR.
func TestMain(m *testing.M) {
	os.Exit(testroot.RunTests(m))
}

// newBench builds the setup: it skips the benchmark when the reference
// adapter or node is not installed (make deps), and writes a fake CLI
// script of StreamScript(turns, deltas), or with EnvRealCLI runs the real
// CLI on RealCLIScript(deltas).
func newBench(b testing.TB, turns, deltas int) *bench {
	b.Helper()
	p, err := deps.Paths()
	if err != nil {
		b.Skipf("no reference adapter to compare with: %v", err)
	}
	node, err := p.RequireNode()
	if err != nil {
		b.Skipf("no reference adapter to compare with: %v", err)
	}
	ref, err := p.RequireReferenceAdapter()
	if err != nil {
		b.Skipf("no reference adapter to compare with: %v", err)
	}
	airwire := testroot.Binary(b)
	bn := &bench{adapters: []contender{{"ours", []string{airwire, "agent"}}, {"ref", []string{node, ref}}}, dir: b.TempDir(),
		profile: scenario.ProfilePlain, version: 1}
	if realCLI() {
		bn.useRealCLI(b, p, deltas)
		return bn
	}
	cli := filepath.Join(bn.dir, execwrap.Name("claude"))
	if err := execwrap.Write(cli, airwire, "fake-cli"); err != nil {
		b.Fatal(err)
	}
	script, err := StreamScript(turns, deltas)
	if err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(bn.dir, "cli.json")
	if err := scenario.WriteCLIScript(path, script); err != nil {
		b.Fatal(err)
	}
	bn.cliEnv = []string{"CLAUDE_CODE_EXECUTABLE=" + cli, fakecli.EnvScript + "=" + path}
	return bn
}

// contender is an adapter command under benchmark.
type contender struct {
	name string
	argv []string
}

// adapter is one adapter process with the benchmark editor on its stdio.
type adapter struct {
	name    string
	profile scenario.Profile
	version int
	cmd     *exec.Cmd
	group   *procgroup.Group
	stdin   io.WriteCloser
	cwd     string
	started time.Time

	wmu    sync.Mutex
	nextID int

	replies  chan reply    // responses, in arrival order
	readDone chan struct{} // closed when stdout ended
	stderr   tailBuffer

	cmu    sync.Mutex
	chunks int // agent_message_chunk notifications of a Delta so far

	// states are the v2 state_update notifications' states, in arrival
	// order: running, requires_action, or idle with its stop reason
	// ("idle end_turn").
	states chan string
}

// reply is one response of the adapter and when it was read.
type reply struct {
	id     int
	result json.RawMessage
	err    *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}
	at time.Time
}

// start launches argv as an adapter in its own HOME, CLAUDE_CONFIG_DIR and
// workspace under the bench directory, with the fake CLI. The process gets
// its own process group, so stop can reap the CLIs it started.
func (bn *bench) start(b testing.TB, name string, argv []string) *adapter {
	b.Helper()
	root, err := os.MkdirTemp(bn.dir, name+"-")
	if err != nil {
		b.Fatal(err)
	}
	a := &adapter{name: name, profile: bn.profile, version: bn.version, cwd: filepath.Join(root, "work"), replies: make(chan reply, 16),
		readDone: make(chan struct{}), states: make(chan string, 64)}
	home := filepath.Join(root, "home")
	for _, d := range []string{a.cwd, filepath.Join(home, ".claude"), filepath.Join(root, "tmp")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			b.Fatal(err)
		}
	}
	if bn.stored != nil {
		a.cwd = bn.stored.cwd
		if err := os.Symlink(bn.stored.projects, filepath.Join(home, ".claude", "projects")); err != nil {
			b.Fatal(err)
		}
	}
	a.cmd = exec.Command(argv[0], argv[1:]...)
	a.cmd.Dir = a.cwd
	a.cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "CLAUDE_CONFIG_DIR=" + filepath.Join(home, ".claude"),
		"TMPDIR=" + filepath.Join(root, "tmp"), "IS_SANDBOX=1", "TZ=UTC", "LANG=C.UTF-8"}
	a.cmd.Env = append(a.cmd.Env, bn.cliEnv...)
	if v := os.Getenv("AIRWIRE_CPUPROFILE"); v != "" && name == "ours" {
		a.cmd.Env = append(a.cmd.Env, "AIRWIRE_CPUPROFILE="+v)
	}
	a.cmd.Stderr = &a.stderr
	a.stdin, _ = a.cmd.StdinPipe()
	stdout, _ := a.cmd.StdoutPipe()
	a.started = time.Now()
	g, err := procgroup.Start(a.cmd, procgroup.WithParentDeath(0))
	if err != nil {
		b.Fatalf("%s: %v", name, err)
	}
	a.group = g
	go a.read(stdout)
	b.Cleanup(func() { a.stop(b) })
	return a
}

// read handles every line the adapter writes: it counts text chunks,
// passes responses on, and answers requests with method-not-found (the
// benchmark editor declares no capability an adapter would call).
func (a *adapter) read(stdout io.Reader) {
	defer close(a.readDone)
	r := bufio.NewReaderSize(stdout, 1<<20)
	for {
		line, err := r.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			a.handle(line)
		}
		if err != nil {
			return
		}
	}
}

func (a *adapter) handle(line []byte) {
	at := time.Now()
	var m struct {
		ID     *json.RawMessage `json:"id"`
		Method string           `json:"method"`
		Result json.RawMessage  `json:"result"`
		Error  *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
		Params struct {
			Update struct {
				SessionUpdate string `json:"sessionUpdate"`
				State         string `json:"state"`
				StopReason    string `json:"stopReason"`
				Content       struct {
					Text string `json:"text"`
				} `json:"content"`
			} `json:"update"`
		} `json:"params"`
	}
	if json.Unmarshal(line, &m) != nil {
		return
	}
	switch {
	case m.Method == "session/update" && m.Params.Update.SessionUpdate == "agent_message_chunk" && isDelta(m.Params.Update.Content.Text):
		a.cmu.Lock()
		a.chunks++
		a.cmu.Unlock()
	case m.Method == "session/update" && m.Params.Update.SessionUpdate == "state_update":
		a.states <- strings.TrimSpace(m.Params.Update.State + " " + m.Params.Update.StopReason)
	case m.ID != nil && m.Method != "":
		a.write(map[string]any{"jsonrpc": "2.0", "id": m.ID, "error": map[string]any{"code": -32601, "message": "Method not found"}})
	case m.ID != nil:
		var id int
		_ = json.Unmarshal(*m.ID, &id)
		a.replies <- reply{id: id, result: m.Result, err: m.Error, at: at}
	}
}

func (a *adapter) write(msg any) {
	data, _ := json.Marshal(msg)
	a.wmu.Lock()
	defer a.wmu.Unlock()
	_, _ = a.stdin.Write(append(data, '\n'))
}

// send writes a request and returns its id.
func (a *adapter) send(method string, params any) int {
	a.wmu.Lock()
	id := a.nextID
	a.nextID++
	a.wmu.Unlock()
	a.write(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	return id
}

// await waits for the response to request id.
func (a *adapter) await(id int) (reply, error) {
	select {
	case r := <-a.replies:
		if r.id != id {
			return r, fmt.Errorf("%s: response to id %d while waiting for %d", a.name, r.id, id)
		}
		if r.err != nil {
			return r, fmt.Errorf("%s: error %d: %s", a.name, r.err.Code, r.err.Message)
		}
		return r, nil
	case <-a.readDone:
		return reply{}, fmt.Errorf("%s exited; stderr:\n%s", a.name, a.stderr.String())
	case <-time.After(callTimeout):
		return reply{}, fmt.Errorf("%s: no response to id %d within %s; stderr:\n%s", a.name, id, callTimeout, a.stderr.String())
	}
}

// call sends a request and waits for its response.
func (a *adapter) call(method string, params any) (reply, error) {
	return a.await(a.send(method, params))
}

// errNoV2 is the error of an adapter that answers a v2 initialize with
// another protocol version.
var errNoV2 = errors.New("it does not serve ACP v2")

// initialize sends initialize as the bench's client (plain, or AIR with
// every extension it declares; for ACP v2 a client without capabilities)
// right after the spawn and returns the time from the spawn to the
// response.
func (a *adapter) initialize() (time.Duration, error) {
	if a.version == 2 {
		return a.initializeV2()
	}
	caps, err := scenario.ClientCapabilities(a.profile, nil)
	if err != nil {
		return 0, err
	}
	r, err := a.call("initialize", map[string]any{"protocolVersion": 1, "clientCapabilities": caps,
		"clientInfo": map[string]any{"name": "airwire-agentbench", "version": "1.0.0"}})
	if err != nil {
		return 0, err
	}
	return r.at.Sub(a.started), nil
}

// initializeV2 is initialize for ACP v2; an answer of another protocol
// version is errNoV2.
func (a *adapter) initializeV2() (time.Duration, error) {
	r, err := a.call("initialize", map[string]any{"protocolVersion": 2, "capabilities": map[string]any{},
		"info": map[string]any{"name": "airwire-agentbench", "version": "1.0.0"}})
	if err != nil {
		return 0, err
	}
	var res struct {
		ProtocolVersion json.RawMessage `json:"protocolVersion"`
	}
	if json.Unmarshal(r.result, &res) != nil || string(res.ProtocolVersion) != "2" {
		return 0, fmt.Errorf("%s answered the v2 initialize with protocolVersion %s: %w", a.name, res.ProtocolVersion, errNoV2)
	}
	return r.at.Sub(a.started), nil
}

// newSession opens a session in the adapter's workspace and returns its id.
func (a *adapter) newSession() (string, error) {
	r, err := a.call("session/new", map[string]any{"cwd": a.cwd, "mcpServers": []any{}})
	if err != nil {
		return "", err
	}
	var res struct {
		SessionID string `json:"sessionId"`
	}
	if err := json.Unmarshal(r.result, &res); err != nil || res.SessionID == "" {
		return "", fmt.Errorf("%s: session/new result %s has no sessionId", a.name, r.result)
	}
	return res.SessionID, nil
}

// open initializes a started adapter and opens a session.
func (a *adapter) open() (string, error) {
	if _, err := a.initialize(); err != nil {
		return "", err
	}
	return a.newSession()
}

// isDelta reports whether a chunk's text is a Delta (padded or not), not
// a notice of the CLI: the real CLI warns once per session that the mock
// model API is a gateway.
func isDelta(text string) bool {
	var i int
	_, err := fmt.Sscanf(text, "w%d ", &i)
	return err == nil && strings.TrimRight(text, " ") == strings.TrimRight(Delta(i), " ")
}

// benchPrompt is the text of every benchmark prompt.
const benchPrompt = "stream"

// prompt plays one turn and returns the agent_message_chunk notifications
// it streamed before it ended: in v1 before its response, in v2 before the
// idle state_update that follows its running one.
func (a *adapter) prompt(session string) (int, error) {
	for len(a.states) > 0 { // snapshots of earlier turns
		<-a.states
	}
	before := a.chunkCount()
	_, err := a.call("session/prompt", map[string]any{"sessionId": session,
		"prompt": []any{map[string]any{"type": "text", "text": benchPrompt}}})
	if err == nil && a.version == 2 {
		err = a.awaitIdle()
	}
	return a.chunkCount() - before, err
}

// awaitIdle waits for the idle state_update that ends the turn, after a
// running one; a turn that ends with a stop reason other than end_turn is
// an error.
func (a *adapter) awaitIdle() error {
	running := false
	for {
		select {
		case st := <-a.states:
			switch {
			case st == "running":
				running = true
			case running && strings.HasPrefix(st, "idle"):
				if st != "idle end_turn" {
					return fmt.Errorf("%s: the turn ended %q, want idle end_turn", a.name, st)
				}
				return nil
			}
		case <-a.readDone:
			return fmt.Errorf("%s exited; stderr:\n%s", a.name, a.stderr.String())
		case <-time.After(callTimeout):
			return fmt.Errorf("%s: no idle state_update within %s; stderr:\n%s", a.name, callTimeout, a.stderr.String())
		}
	}
}

func (a *adapter) chunkCount() int {
	a.cmu.Lock()
	defer a.cmu.Unlock()
	return a.chunks
}

// stop closes stdin and waits for the adapter to exit (SIGTERM, then
// SIGKILL, to its process group when it does not), then reaps what it
// started: every process that was under it when stop began and is still
// there 2 s after it exited (an adapter may put its CLI in a group of its
// own) is killed, and named as an error of the benchmark.
func (a *adapter) stop(b testing.TB) {
	if a.cmd.Process == nil || a.cmd.ProcessState != nil {
		return
	}
	pid := a.cmd.Process.Pid
	children := Descendants(pid)
	waited := make(chan error, 1)
	go func() { waited <- a.cmd.Wait() }()
	a.stdin.Close()
	for _, end := range []func() error{nil, a.group.Terminate, a.group.Kill} {
		if end != nil {
			_ = end()
		}
		select {
		case <-waited:
			a.group.Release(0)
			<-a.readDone
			if left := survivors(children, 2*time.Second); len(left) > 0 {
				b.Errorf("%s: processes %v outlived it by 2 s; killed", a.name, left)
			}
			return
		case <-time.After(5 * time.Second):
		}
	}
	b.Errorf("%s (pid %d) survived SIGKILL", a.name, pid)
}

// survivors waits up to grace for pids to exit and SIGKILLs those still
// alive then; it returns them. A zombie counts as exited.
func survivors(pids []int, grace time.Duration) []int {
	deadline := time.Now().Add(grace)
	for {
		var alive []int
		for _, pid := range pids {
			if procgroup.Running(pid) && !zombie(pid) {
				alive = append(alive, pid)
			}
		}
		if len(alive) == 0 || time.Now().After(deadline) {
			for _, pid := range alive {
				if p, err := os.FindProcess(pid); err == nil {
					_ = p.Kill()
				}
			}
			return alive
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// zombie reports whether pid has exited and waits for its parent to reap
// it, where /proc tells (elsewhere the parent, launchd, reaps at once).
func zombie(pid int) bool {
	stat, _ := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	i := bytes.LastIndexByte(stat, ')')
	return i >= 0 && bytes.HasPrefix(stat[i+1:], []byte(" Z"))
}

// tailBuffer keeps the last 8 KiB written to it.
type tailBuffer struct {
	mu  sync.Mutex
	buf []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - 8<<10; over > 0 {
		t.buf = t.buf[over:]
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}

// Both adapters stream every delta of a StreamScript turn as one
// agent_message_chunk, the count BenchmarkAgentTurnCPU relies on; as ACP v2
// clients they also answer the prompt and end the turn with an idle
// end_turn state_update, what BenchmarkAgentTurnCPUV2 relies on.
func TestEachDeltaIsOneChunk(t *testing.T) {
	for _, version := range []int{1, 2} {
		t.Run(fmt.Sprintf("v%d", version), func(t *testing.T) {
			const deltas = 300
			bn := newBench(t, 1, deltas)
			bn.version = version
			for _, ad := range bn.adapters {
				a := bn.start(t, ad.name, ad.argv)
				session, err := a.open()
				if err != nil {
					t.Fatal(err)
				}
				n, err := a.prompt(session)
				if err != nil {
					t.Fatal(err)
				}
				if n != deltas {
					t.Errorf("%s: %d agent_message_chunk notifications for %d text deltas", ad.name, n, deltas)
				}
				a.stop(t)
			}
		})
	}
}

func TestSurvivorsKillsWhatOutlivesTheGrace(t *testing.T) {
	quick := exec.Command("true")
	slow := exec.Command("sleep", "30")
	for _, c := range []*exec.Cmd{quick, slow} {
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
	}
	done := make(chan struct{})
	go func() { _ = quick.Wait(); _ = slow.Wait(); close(done) }()
	left := survivors([]int{quick.Process.Pid, slow.Process.Pid}, 200*time.Millisecond)
	if len(left) != 1 || left[0] != slow.Process.Pid {
		t.Errorf("survivors = %v, want only sleep (%d)", left, slow.Process.Pid)
	}
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Error("sleep was not killed")
	}
}
