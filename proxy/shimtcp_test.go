package proxy

import (
	"encoding/json"
	"errors"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/airwire/airwire/internal/journal"
)

// TestShimFallsBackToLoopbackWithAToken: where no unix socket can be bound
// (Wine, Windows before 10), the recorder listens on 127.0.0.1 and hears
// only a shim that sends its token first: a local process without it, or
// with a wrong one, is dropped and leaves nothing in the journal.
func TestShimFallsBackToLoopbackWithAToken(t *testing.T) {
	saved := listenUnix
	listenUnix = func(string) (net.Listener, error) { return nil, errors.New("address family not supported") }
	defer func() { listenUnix = saved }()

	r, path := newTestRecorder(t)
	l, err := ListenShim(r)
	if err != nil {
		t.Fatal(err)
	}
	addr, ok := strings.CutPrefix(l.Path(), tcpPrefix)
	if !ok || !strings.HasPrefix(addr, "127.0.0.1:") || len(l.Token()) != 64 {
		t.Fatalf("listener at %q with a %d-character token", l.Path(), len(l.Token()))
	}

	if c, err := dialShim(l.Path(), "not-the-token"); err == nil {
		c.send(frameHello, 0, hello(t, 4242))
		c.close()
		t.Error("a wrong token was accepted")
	}
	raw, err := net.Dial("tcp", addr) // no token at all
	if err != nil {
		t.Fatal(err)
	}
	stranger := &shimClient{conn: raw}
	stranger.send(frameHello, 0, hello(t, 4343))
	if !stranger.dead {
		t.Error("a hello without the token was acknowledged")
	}
	stranger.close()

	c, err := dialShim(l.Path(), l.Token())
	if err != nil {
		t.Fatal(err)
	}
	c.send(frameHello, 0, hello(t, 4444))
	c.send(frameData, streamFromCLI, []byte(`{"type":"system","subtype":"init"}`+"\n"))
	x, _ := json.Marshal(journal.Exit{Code: 0})
	c.send(frameExit, 0, x)
	c.close()
	l.Close(time.Second)

	var pids []int
	var msgs int
	for _, e := range closeAndRead(t, r, path) {
		switch {
		case e.Kind == journal.KindSpawn:
			pids = append(pids, e.Pid)
		case e.Kind == journal.KindMsg && e.Lane == journal.LaneCLI:
			msgs++
		case e.Kind == journal.KindNote:
			t.Errorf("a note: %s", e.TextOf())
		}
	}
	if len(pids) != 1 || pids[0] != 4444 || msgs != 1 {
		t.Errorf("spawns of pids %v and %d CLI messages; want only the shim with the token's (4444), and its one message", pids, msgs)
	}
	if env := shimChildEnv([]string{EnvShimToken + "=" + l.Token(), "A=b"}, ""); len(env) != 1 || env[0] != "A=b" {
		t.Errorf("the real CLI's environment: %q; the token is the shim's alone", env)
	}
}

func hello(t *testing.T, pid int) []byte {
	t.Helper()
	b, err := json.Marshal(shimHello{Argv: []string{"claude", "--output-format", "stream-json"}, Pid: pid})
	if err != nil {
		t.Fatal(err)
	}
	return b
}
