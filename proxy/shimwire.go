package proxy

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/airwire/airwire/internal/journal"
	"github.com/airwire/airwire/internal/jsonrpc"
	"github.com/airwire/airwire/internal/owntemp"
)

// Environment variables shared by `airwire record --cli-lane` and its shim.
const (
	// EnvShimSocket is where the shim reports to: the unix socket's path,
	// or tcpPrefix and a 127.0.0.1 address where no unix socket can be
	// bound (see ListenShim).
	EnvShimSocket = "AIRWIRE_SHIM_SOCKET"
	// EnvShimToken is the secret a shim proves itself with on a loopback
	// TCP socket, which any local process can reach.
	EnvShimToken = "AIRWIRE_SHIM_TOKEN"
	// EnvRealCLI is the Claude CLI the shim starts.
	EnvRealCLI = "AIRWIRE_REAL_CLI"
	// EnvOrigExecutable keeps the agent's original CLAUDE_CODE_EXECUTABLE
	// (empty when it had none); the shim restores it for the real CLI.
	EnvOrigExecutable = "AIRWIRE_ORIG_CLAUDE_CODE_EXECUTABLE"
	// EnvClaudeExecutable is how Claude Code adapters find their CLI.
	EnvClaudeExecutable = "CLAUDE_CODE_EXECUTABLE"
	// EnvModelProxy is the model-lane proxy's base URL (--model-lane); the
	// shim points its CLI's ANTHROPIC_BASE_URL at it, under the CLI's
	// process name.
	EnvModelProxy = "AIRWIRE_MODEL_PROXY"
	// EnvAnthropicBaseURL is where the Claude CLI sends model API requests.
	EnvAnthropicBaseURL = "ANTHROPIC_BASE_URL"
)

// Shim wire frames: type (1 byte), stream (1 byte), length (4 bytes, big
// endian), payload. The recorder answers every frame with one ack byte once
// the frame is queued to the journal; the shim forwards only after the ack,
// which keeps the journal's order causal across processes.
const (
	frameToken byte = 'T' // first on a TCP socket: payload EnvShimToken's value
	frameName  byte = 'N' // before the CLI starts; payload: cliRoute JSON; the ack is followed by a length byte and the process name
	frameHello byte = 'H' // payload: shimHello JSON
	frameData  byte = 'D' // payload: bytes of stream
	frameEOF   byte = 'E' // stream ended
	frameExit  byte = 'X' // payload: journal.Exit JSON
	ackByte    byte = 'k'

	streamToCLI   byte = 0 // agent → CLI (the CLI's stdin)
	streamFromCLI byte = 1 // CLI → agent (stdout)
	streamStderr  byte = 2
)

type shimHello struct {
	Argv    []string `json:"argv"`
	Pid     int      `json:"pid"`      // the real CLI
	ShimPid int      `json:"shim_pid"` // the shim itself
	// Secrets are values a redacting recording treats as secrets from
	// this CLI's spawn entry on: its custom headers' (shimroute.go).
	Secrets []string `json:"secrets,omitempty"`
}

// shimClient is the shim's side of the socket. A nil *shimClient (no
// recorder reachable) makes every call a no-op, so the agent keeps working.
type shimClient struct {
	mu   sync.Mutex
	conn net.Conn
	hdr  [6]byte
	ack  [1]byte
	dead bool
}

// dialShim connects to the recorder at addr (EnvShimSocket's value) and,
// on a TCP socket, gives it the token first.
func dialShim(addr, token string) (*shimClient, error) {
	network := "unix"
	if a, ok := strings.CutPrefix(addr, tcpPrefix); ok {
		network, addr = "tcp", a
	}
	c, err := net.Dial(network, addr)
	if err != nil {
		return nil, err
	}
	sc := &shimClient{conn: c}
	if network == "tcp" {
		sc.send(frameToken, 0, []byte(token))
		if sc.dead {
			c.Close()
			return nil, errors.New("the recorder refused the shim's token")
		}
	}
	return sc, nil
}

// send writes one frame and waits for its ack. After a failure the client
// goes quiet: recording is lost from then on, forwarding is not.
func (c *shimClient) send(typ, stream byte, payload []byte) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.dead {
		return
	}
	c.hdr[0], c.hdr[1] = typ, stream
	binary.BigEndian.PutUint32(c.hdr[2:], uint32(len(payload)))
	if _, err := c.conn.Write(c.hdr[:]); err != nil {
		c.dead = true
		return
	}
	if _, err := c.conn.Write(payload); err != nil {
		c.dead = true
		return
	}
	if _, err := io.ReadFull(c.conn, c.ack[:]); err != nil {
		c.dead = true
	}
}

// name asks the recorder for this CLI's process name (cli-N) before the
// CLI starts, telling it the CLI's model API (route); "" when the recorder
// cannot be reached.
func (c *shimClient) name(route cliRoute) string {
	if c == nil {
		return ""
	}
	payload, _ := json.Marshal(route)
	c.send(frameName, 0, payload)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.dead {
		return ""
	}
	var n [1]byte
	if _, err := io.ReadFull(c.conn, n[:]); err != nil {
		c.dead = true
		return ""
	}
	b := make([]byte, n[0])
	if _, err := io.ReadFull(c.conn, b); err != nil {
		c.dead = true
		return ""
	}
	return string(b)
}

func (c *shimClient) close() {
	if c != nil {
		c.conn.Close()
	}
}

// ShimListener accepts shim connections for a Recorder.
type ShimListener struct {
	r    *Recorder
	ln   net.Listener
	dir  string
	wg   sync.WaitGroup
	mu   sync.Mutex
	cons map[net.Conn][]int // open connections → pids to kill if they overstay
	// token is what a shim must send first on a TCP socket; "" on a unix
	// socket, whose private directory already keeps others out.
	token string
}

// maxSocketPath is the longest unix socket path every platform binds
// (macOS allows 103 bytes, Linux 107).
const maxSocketPath = 103

// tcpPrefix marks EnvShimSocket's value as a TCP address; a socket path
// is absolute, so it never starts so.
const tcpPrefix = "tcp:"

// listenUnix binds the unix socket; a test makes it fail.
var listenUnix = func(path string) (net.Listener, error) { return net.Listen("unix", path) }

// ListenShim opens a unix socket in a private temporary directory: below
// $TMPDIR, or below /tmp where $TMPDIR is too deep for a socket path.
// Where no unix socket can be bound (Windows before 10, Wine), it listens
// on 127.0.0.1 instead, and a shim must first send the listener's Token,
// which only the recorded agent's environment holds.
func ListenShim(r *Recorder) (*ShimListener, error) {
	dir, err := shimDir()
	if err != nil {
		return nil, err
	}
	l := &ShimListener{r: r, dir: dir, cons: map[net.Conn][]int{}}
	l.ln, err = listenUnix(filepath.Join(dir, "recorder.sock"))
	if err != nil {
		if l.ln, err = net.Listen("tcp", "127.0.0.1:0"); err != nil {
			os.RemoveAll(dir)
			return nil, fmt.Errorf("the recorder's socket for the CLI shim: %w", err)
		}
		var b [32]byte
		_, _ = rand.Read(b[:])
		l.token = hex.EncodeToString(b[:])
	}
	l.wg.Add(1)
	go l.accept()
	return l, nil
}

// Path is where shims reach the listener, as EnvShimSocket holds it.
func (l *ShimListener) Path() string {
	if l.token != "" {
		return tcpPrefix + l.ln.Addr().String()
	}
	return l.ln.Addr().String()
}

// Token is what a shim must send first (EnvShimToken); "" on a unix socket.
func (l *ShimListener) Token() string { return l.token }

// Dir is the private directory holding the socket (and the shim script).
func (l *ShimListener) Dir() string { return l.dir }

func (l *ShimListener) accept() {
	defer l.wg.Done()
	for {
		c, err := l.ln.Accept()
		if err != nil {
			return
		}
		l.mu.Lock()
		l.cons[c] = nil
		l.mu.Unlock()
		l.wg.Add(1)
		go func() {
			defer l.wg.Done()
			l.serve(c, func(pids ...int) { l.mu.Lock(); l.cons[c] = pids; l.mu.Unlock() })
			l.mu.Lock()
			delete(l.cons, c)
			l.mu.Unlock()
		}()
	}
}

// Close stops accepting and waits for open shims to report their CLI's
// exit, for up to grace. A CLI (and its shim) still running after that is
// killed, so no process outlives the recording; its connection is then
// given a moment to deliver what it still had.
func (l *ShimListener) Close(grace time.Duration) {
	l.ln.Close()
	done := make(chan struct{})
	go func() { l.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(grace):
		l.mu.Lock()
		for c, pids := range l.cons {
			for _, pid := range pids {
				if p, err := os.FindProcess(pid); pid > 0 && err == nil {
					_ = p.Kill()
					_ = p.Release()
				}
			}
			c.SetReadDeadline(time.Now().Add(time.Second))
		}
		l.mu.Unlock()
		<-done
	}
	os.RemoveAll(l.dir)
}

// serve records one CLI process.
func (l *ShimListener) serve(c net.Conn, track func(pids ...int)) {
	defer c.Close()
	ss := &shimSession{l: l, c: c, track: track, trusted: l.token == ""}
	defer ss.end()
	var hdr [6]byte
	for {
		if _, err := io.ReadFull(c, hdr[:]); err != nil {
			return
		}
		n := binary.BigEndian.Uint32(hdr[2:])
		typ, sid := hdr[0], hdr[1]
		var s *Stream
		if ss.hello {
			s = ss.stream(sid)
		}
		reply := ackReply
		if typ == frameData && s != nil && n <= chunkSize {
			buf := s.Buffer()
			if _, err := io.ReadFull(c, (*buf)[:n]); err != nil {
				s.release(buf)
				return
			}
			s.Submit(buf, int(n))
		} else {
			var ok bool
			if reply, ok = ss.control(typ, sid, s, n); !ok {
				return
			}
		}
		if _, err := c.Write(reply); err != nil {
			return
		}
	}
}

// ackReply is the reply to every shim frame but the name request.
var ackReply = []byte{ackByte}

// shimSession is the state of one CLI process's shim connection.
type shimSession struct {
	l       *ShimListener
	c       net.Conn
	track   func(pids ...int)
	proc    string
	conn    Conn
	stderr  *Stream
	open    [3]bool
	hello   bool
	exited  bool
	trusted bool // a unix socket, or a TCP peer that sent the token
	payload []byte
}

func (ss *shimSession) stream(id byte) *Stream {
	switch id {
	case streamToCLI:
		return ss.conn.Up
	case streamFromCLI:
		return ss.conn.Down
	case streamStderr:
		return ss.stderr
	}
	return nil
}

// closeStreams closes the streams still open.
func (ss *shimSession) closeStreams() {
	for i, o := range ss.open {
		if o {
			ss.stream(byte(i)).Close()
			ss.open[i] = false
		}
	}
}

// end closes what the connection left open and notes a CLI that never
// reported its exit.
func (ss *shimSession) end() {
	if ss.proc == "" {
		return
	}
	ss.closeStreams()
	if !ss.exited {
		ss.l.r.Note(journal.LaneCLI, ss.proc, "the CLI shim's connection ended before it reported an exit")
	}
}

// control reads the n-byte payload of a frame other than stream data and
// acts on it. It returns the reply to write, or false to drop the
// connection (not a shim, or a broken one).
func (ss *shimSession) control(typ, sid byte, s *Stream, n uint32) ([]byte, bool) {
	if n > 1<<20 {
		return nil, false // not a shim
	}
	if cap(ss.payload) < int(n) {
		ss.payload = make([]byte, n)
	}
	ss.payload = ss.payload[:n]
	if _, err := io.ReadFull(ss.c, ss.payload); err != nil {
		return nil, false
	}
	if !ss.trusted {
		// Not the recorded agent's shim: it is not heard, nor noted.
		ss.trusted = typ == frameToken && subtle.ConstantTimeCompare(ss.payload, []byte(ss.l.token)) == 1
		return ackReply, ss.trusted
	}
	switch {
	case typ == frameName && ss.proc == "":
		ss.proc = ss.l.r.NextProc()
		ss.l.r.setRoute(ss.proc, ss.payload)
		return append([]byte{ackByte, byte(len(ss.proc))}, ss.proc...), true
	case typ == frameHello && !ss.hello:
		var h shimHello
		if json.Unmarshal(ss.payload, &h) != nil {
			return nil, false
		}
		ss.start(h)
	case typ == frameEOF && s != nil && ss.open[sid]:
		s.Close()
		ss.open[sid] = false
	case typ == frameExit && ss.hello:
		var x journal.Exit
		if json.Unmarshal(ss.payload, &x) != nil {
			return nil, false
		}
		ss.closeStreams()
		ss.l.r.Event(journal.Entry{Kind: journal.KindExit, Lane: journal.LaneCLI, Proc: ss.proc, Exit: &x})
		ss.exited = true
	default:
		ss.l.r.Note(journal.LaneCLI, ss.proc, fmt.Sprintf("unexpected shim frame %q", typ))
		return nil, false
	}
	return ackReply, true
}

// start journals the CLI's spawn and opens its streams. A CLI that does not
// speak stream-json (auth status, --version) is journaled whole, labelled
// by its run.
func (ss *shimSession) start(h shimHello) {
	ss.track(h.Pid) // the shim ends when its CLI does
	if ss.l.r.red != nil {
		ss.l.r.red.Add(h.Secrets...)
	}
	ss.hello = true
	if ss.proc == "" {
		ss.proc = ss.l.r.NextProc()
	}
	ss.l.r.Event(journal.Entry{Kind: journal.KindSpawn, Lane: journal.LaneCLI, Proc: ss.proc, Argv: h.Argv, Pid: h.Pid})
	ss.conn = ss.l.r.NewConn(journal.LaneCLI, ss.proc, journal.DirAgent, journal.DirCLI)
	ss.stderr = ss.l.r.NewStderr(journal.LaneCLI, ss.proc)
	if !jsonrpc.ArgvSpeaksStreamJSON(h.Argv) {
		ss.conn.Up.whole, ss.conn.Down.whole = true, true
		ss.conn.Up.label, ss.conn.Down.label = runLabel(h.Argv), runLabel(h.Argv)
	}
	ss.open = [3]bool{true, true, true}
}

// runLabel names a CLI run by its leading words ("auth status") or, when it
// starts with a flag, by that flag ("--version").
func runLabel(argv []string) string {
	var words []string
	for _, a := range argv[min(1, len(argv)):] {
		if len(a) > 0 && a[0] == '-' {
			if len(words) == 0 {
				return a
			}
			break
		}
		words = append(words, a)
	}
	return strings.Join(words, " ")
}

// shimDir makes the socket's directory in the first place where the
// socket's path fits maxSocketPath: the temporary directory, then (on
// Unix) /tmp.
func shimDir() (string, error) {
	bases := []string{os.TempDir()}
	if runtime.GOOS != "windows" && os.TempDir() != "/tmp" {
		bases = append(bases, "/tmp")
	}
	for i, base := range bases {
		dir, err := owntemp.Dir(base, "airwire-shim-") // a killed recorder's goes at the next start
		if err != nil {
			return "", err
		}
		if len(dir+"/recorder.sock") <= maxSocketPath || i == len(bases)-1 {
			return dir, nil
		}
		os.RemoveAll(dir)
	}
	return "", errors.New("no directory for the recorder's socket")
}
