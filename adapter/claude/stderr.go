package claude

import (
	"bufio"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"syscall"
)

// stderrTail is how much of the CLI's stderr an ExitError keeps (the SDK
// keeps 2048 characters).
const stderrTail = 2048

// tailBuffer keeps the last max bytes of the lines written to it.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	b   []byte
}

// logLines logs each line of r (never on the agent's stdout) and keeps
// the tail, until r ends.
func (t *tailBuffer) logLines(r io.Reader, log *slog.Logger) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		log.Info("cli stderr", "line", line)
		t.add(line)
	}
}

func (t *tailBuffer) add(line string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, line...)
	t.b = append(t.b, '\n')
	if over := len(t.b) - t.max; over > 0 {
		t.b = t.b[over:]
	}
}

// String returns the tail.
func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return strings.ToValidUTF8(string(t.b), "")
}

// signalNames by number: an array literal is static data, where a map
// literal would be built by init code at every start.
var signalNames = [...]string{
	syscall.SIGHUP: "SIGHUP", syscall.SIGINT: "SIGINT", syscall.SIGQUIT: "SIGQUIT", syscall.SIGILL: "SIGILL",
	syscall.SIGTRAP: "SIGTRAP", syscall.SIGABRT: "SIGABRT", syscall.SIGBUS: "SIGBUS", syscall.SIGFPE: "SIGFPE",
	syscall.SIGKILL: "SIGKILL", syscall.SIGSEGV: "SIGSEGV", syscall.SIGPIPE: "SIGPIPE", syscall.SIGALRM: "SIGALRM",
	syscall.SIGTERM: "SIGTERM", syscall.SIGUSR1: "SIGUSR1", syscall.SIGUSR2: "SIGUSR2",
}

// signalName is the SIGXXX name Node reports for a signal.
func signalName(s syscall.Signal) string {
	if s >= 0 && int(s) < len(signalNames) && signalNames[s] != "" {
		return signalNames[s]
	}
	return fmt.Sprintf("signal %d", int(s))
}
