package mockapi_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/airwire/airwire/cmd/cli"
	"github.com/airwire/airwire/cmd/factory"
)

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}
func (l *lockedBuffer) String() string { l.mu.Lock(); defer l.mu.Unlock(); return l.b.String() }

// TestStopsCleanly runs the registered verb through cli.Run; cancelling the
// root context is what SIGINT and SIGTERM do in cli.Main. It must exit 0.
func TestStopsCleanly(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.yaml")
	if err := os.WriteFile(path, []byte("turns:\n  - when: {text: hi}\n    reply: [{text: hello}]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errOut lockedBuffer
	f := factory.New("test", factory.WithIO(strings.NewReader(""), &out, &errOut), factory.WithEnv(nil))
	ctx, cancel := context.WithCancel(context.Background())
	code := make(chan cli.ExitCode, 1)
	go func() { code <- cli.Run(ctx, f, []string{"mock-api", "--script", path}) }()
	deadline := time.Now().Add(5 * time.Second)
	for !strings.HasPrefix(out.String(), "mock-api listening on http://127.0.0.1:") {
		if time.Now().After(deadline) {
			cancel()
			t.Fatalf("no listening line; stdout %q stderr %q", out.String(), errOut.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	select {
	case c := <-code:
		if c != cli.ExitOK {
			t.Errorf("exit code %d, want 0; stderr %q", c, errOut.String())
		}
	case <-time.After(5 * time.Second):
		t.Fatal("mock-api did not stop")
	}
}

func TestRefusesNonLoopbackWithUsage(t *testing.T) {
	var out, errOut lockedBuffer
	f := factory.New("test", factory.WithIO(strings.NewReader(""), &out, &errOut), factory.WithEnv(nil))
	if c := cli.Run(context.Background(), f, []string{"mock-api", "--script", "x.yaml", "--addr", "0.0.0.0:9"}); c != cli.ExitUsage {
		t.Errorf("exit code %d, want %d", c, cli.ExitUsage)
	}
	if !strings.Contains(errOut.String(), "only 127.0.0.1 is allowed") {
		t.Errorf("stderr: %q", errOut.String())
	}
}
