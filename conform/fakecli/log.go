package fakecli

import (
	"encoding/json"
	"os"
	"sync"
)

// logger appends one JSON line per event to the AIRWIRE_FAKE_CLI_LOG file.
// Each line is written with a single write on an O_APPEND file, so several
// fake processes can share one log.
type logger struct {
	mu      sync.Mutex
	f       *os.File
	pid     int
	seq     int
	session string
	// role is the process's mode (stream, auth-status, version, ...), so a
	// reader can tell the short-lived probes from the session process.
	role string
}

func openLog(path string) *logger {
	l := &logger{pid: os.Getpid()}
	if path == "" {
		return l
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err == nil {
		l.f = f
	}
	return l
}

// event logs kind ("start", "in", "out", "eof", "signal", "exit", "note")
// with fields.
func (l *logger) event(kind string, fields map[string]any) {
	if l == nil || l.f == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.seq++
	rec := map[string]any{"kind": kind, "pid": l.pid, "seq": l.seq}
	if l.session != "" {
		rec["session"] = l.session
	}
	if l.role != "" {
		rec["role"] = l.role
	}
	for k, v := range fields {
		rec[k] = v
	}
	b, err := json.Marshal(rec)
	if err != nil {
		return
	}
	_, _ = l.f.Write(append(b, '\n'))
}

func (l *logger) close() {
	if l != nil && l.f != nil {
		_ = l.f.Close()
	}
}
