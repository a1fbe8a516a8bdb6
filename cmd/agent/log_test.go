package agent

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airwire/airwire/cmd/factory"
)

// failAfter is a log file whose writes fail after n of them.
type failAfter struct {
	n      int
	writes int
	buf    bytes.Buffer
}

func (f *failAfter) Write(p []byte) (int, error) {
	f.writes++
	if f.writes > f.n {
		return 0, errors.New("no space left on device")
	}
	return f.buf.Write(p)
}

func (f *failAfter) Close() error { return nil }

// runAgentLog runs `airwire agent --log FILE` on stdin until EOF, with
// open as the log opener (nil: the real one).
func runAgentLog(t *testing.T, file, stdin string, open func(string) (io.WriteCloser, error)) (string, error) {
	t.Helper()
	var out, errOut bytes.Buffer
	f := factory.New("test", factory.WithIO(strings.NewReader(stdin), &out, &errOut))
	cmd := NewCmdAgent(f, func(o *AgentOptions) error {
		if open != nil {
			o.OpenLog = open
		}
		return agentRun(nil, o)
	})
	cmd.SetArgs([]string{"--log", file})
	cmd.SetOut(io.Discard)
	cmd.SetErr(io.Discard)
	err := cmd.Execute()
	return errOut.String(), err
}

// TestLogThatTakesNoLines: a --log that opens but takes no line fails the
// start with the reason, instead of losing every line.
func TestLogThatTakesNoLines(t *testing.T) {
	_, err := runAgentLog(t, "the.log", "", func(string) (io.WriteCloser, error) { return &failAfter{n: 0}, nil })
	if err == nil || !strings.Contains(err.Error(), "--log the.log: cannot write to it: no space left on device") {
		t.Fatalf("err = %v", err)
	}
}

// TestLogWriteFailureReportedOnce: a log that fails later is reported on
// stderr once, and the agent goes on.
func TestLogWriteFailureReportedOnce(t *testing.T) {
	log := &failAfter{n: 1}
	init := `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1}}` + "\n"
	stderr, err := runAgentLog(t, "the.log", init+"not json\nnot json either\n", func(string) (io.WriteCloser, error) { return log, nil })
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(log.buf.String(), `msg="airwire agent started"`) || log.writes < 3 {
		t.Fatalf("%d writes; the log holds %q", log.writes, log.buf.String())
	}
	if n := strings.Count(stderr, "cannot write to the log the.log: no space left on device"); n != 1 {
		t.Errorf("the failure is reported %d times on stderr:\n%s", n, stderr)
	}
}

// TestLogDirectory: a directory is refused at the start (portable).
func TestLogDirectory(t *testing.T) {
	// Not t.TempDir: the Wine the Windows tests run under cannot remove a
	// directory with files in it the way the testing package does.
	dir, err := os.MkdirTemp("", "airwire-log-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	_, err = runAgentLog(t, dir, "", nil)
	if err == nil || !strings.Contains(err.Error(), "--log") {
		t.Fatalf("err = %v", err)
	}
	ok := filepath.Join(dir, "agent.log")
	if _, err := runAgentLog(t, ok, "", nil); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(ok); !strings.Contains(string(b), "airwire agent started") {
		t.Errorf("the log holds %q", b)
	}
}
