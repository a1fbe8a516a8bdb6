package claude

import (
	"bufio"
	"io"
	"log/slog"
	"strings"
	"sync"
)

// stderrTail is how much of the CLI's stderr an ExitError keeps (the SDK
// keeps 2048 characters).
const stderrTail = 2048

// tailBuffer keeps the last max bytes of the lines written to it, and the
// first line that is not blank (why a CLI that ends at once ended).
type tailBuffer struct {
	mu    sync.Mutex
	max   int
	b     []byte
	first string
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
	if t.first == "" && strings.TrimSpace(line) != "" {
		t.first = strings.ToValidUTF8(line[:min(len(line), 1024)], "")
	}
	t.b = append(t.b, line...)
	t.b = append(t.b, '\n')
	if over := len(t.b) - t.max; over > 0 {
		t.b = t.b[over:]
	}
}

// First is the first line that is not blank.
func (t *tailBuffer) First() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.first
}

// String returns the tail.
func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return strings.ToValidUTF8(string(t.b), "")
}
