package sessionindex

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/airwire/airwire/internal/lazyre"
	"github.com/airwire/airwire/internal/procgroup"
)

// The live Claude Code processes (contract: "List response", state): each
// CLI writes <config>/sessions/<pid>.json. A record counts with the
// liveness rules of Claude Desktop: kill(pid, 0) succeeds or fails with
// EPERM (on Windows: the process opens and has no exit code yet), a
// recorded procStart matches the process, no foreign pidDomain, and a record older than 24 hours only with a matching procStart. The
// `.key` files are never read and nothing there is written.

const (
	registryTTL   = 5 * time.Second
	staleRecordMs = 24 * 60 * 60 * 1000
)

var recordNameRE = lazyre.New(`^(\d+)\.json$`)

// liveRecord is the part of a registry record the list reads.
type liveRecord struct {
	PID             int      `json:"pid"`
	SessionID       string   `json:"sessionId"`
	Kind            string   `json:"kind"`
	Entrypoint      string   `json:"entrypoint"`
	Status          string   `json:"status"`
	StatusUpdatedAt *float64 `json:"statusUpdatedAt"`
	UpdatedAt       *float64 `json:"updatedAt"`
	StartedAt       *float64 `json:"startedAt"`
	ProcStart       *string  `json:"procStart"`
	PIDDomain       *string  `json:"pidDomain"`
}

func (r liveRecord) statusAt() float64 {
	if r.StatusUpdatedAt == nil {
		return 0
	}
	return *r.StatusUpdatedAt
}

// registry reads the live records, cached for registryTTL.
type registry struct {
	dir string

	mu     sync.Mutex
	at     time.Time
	cached map[string]liveRecord
}

func newRegistry(configDir string) *registry {
	return &registry{dir: filepath.Join(configDir, "sessions")}
}

// snapshot is the live record of each held session (the newest status
// when several processes hold it).
func (r *registry) snapshot() map[string]liveRecord {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.cached != nil && time.Since(r.at) < registryTTL {
		return r.cached
	}
	r.cached, r.at = r.read(), time.Now()
	return r.cached
}

// invalidate makes the next snapshot read the directory again.
func (r *registry) invalidate() {
	r.mu.Lock()
	r.cached = nil
	r.mu.Unlock()
}

func (r *registry) read() map[string]liveRecord {
	out := map[string]liveRecord{}
	ents, err := os.ReadDir(r.dir)
	if err != nil {
		return out
	}
	domain := pidDomain()
	for _, e := range ents {
		rec, ok := r.record(e.Name(), domain)
		if !ok {
			continue
		}
		if prev, seen := out[rec.SessionID]; !seen || rec.statusAt() > prev.statusAt() {
			out[rec.SessionID] = rec
		}
	}
	return out
}

// record is the live record of one registry file name.
func (r *registry) record(name, domain string) (liveRecord, bool) {
	m := recordNameRE.FindStringSubmatch(name)
	if m == nil {
		return liveRecord{}, false
	}
	pid, _ := strconv.Atoi(m[1])
	var rec liveRecord
	data, err := os.ReadFile(filepath.Join(r.dir, name))
	if err != nil || json.Unmarshal(data, &rec) != nil || rec.PID != pid || rec.SessionID == "" {
		return liveRecord{}, false
	}
	if rec.PIDDomain != nil && *rec.PIDDomain != domain {
		return liveRecord{}, false
	}
	if !procgroup.Running(pid) {
		return liveRecord{}, false
	}
	matches := false
	if rec.ProcStart != nil {
		actual := procStart(pid)
		want := strings.Join(strings.Fields(*rec.ProcStart), " ")
		if actual != "" && actual != want {
			return liveRecord{}, false
		}
		matches = actual == want
	}
	lastSeen := max(deref(rec.UpdatedAt), deref(rec.StatusUpdatedAt), deref(rec.StartedAt))
	if float64(time.Now().UnixMilli())-lastSeen > staleRecordMs && !matches {
		return liveRecord{}, false
	}
	return rec, true
}

func deref(f *float64) float64 {
	if f == nil {
		return 0
	}
	return *f
}

// procStart is the start time of pid as the CLI records it
// (`LC_ALL=C TZ=UTC ps -o lstart=`); "" when unknown.
func procStart(pid int) string {
	cmd := exec.Command("ps", "-o", "lstart=", "-p", strconv.Itoa(pid))
	cmd.Env = append(os.Environ(), "LC_ALL=C", "TZ=UTC")
	out, err := cmd.Output()
	if err != nil {
		return ""
	}
	return strings.Join(strings.Fields(string(out)), " ")
}

var (
	domainOnce sync.Once
	domainVal  string
)

// pidDomain is the pid domain the CLI records: the platform, and on Linux
// the machine id and the pid namespace.
func pidDomain() string {
	domainOnce.Do(func() {
		if runtime.GOOS != "linux" {
			domainVal = runtime.GOOS
			return
		}
		id, _ := os.ReadFile("/etc/machine-id")
		ns, _ := os.Readlink("/proc/self/ns/pid")
		domainVal = "linux:" + strings.TrimSpace(string(id)) + ":" + ns
	})
	return domainVal
}
