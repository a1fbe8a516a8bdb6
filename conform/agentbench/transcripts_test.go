package agentbench

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/airwire/airwire/internal/projectdir"
)

// Stored transcripts for the session/list benchmarks: many sessions of one
// project, in the layout and record shapes the Claude CLI writes
// (<config>/projects/<encoded cwd>/<id>.jsonl; user and assistant records
// chained by parentUuid, tool calls with their results, thinking, the
// system turn_duration record, last-prompt, custom-title, agent-name and
// ai-title records, a legacy summary head, subagent sidechains), sizes
// from a few KB to a few hundred KB. They are generated once, from a fixed
// seed, and cached under the temporary directory: a later run reuses them.

// transcriptSet is a generated set: cwd is the project's directory, and
// projects the <config>/projects directory that holds its transcripts.
type transcriptSet struct {
	cwd, projects string
	count         int
	bytes         int64
}

// genVersion names the generator's output: change it when the output
// changes, so a stale cache is not reused.
const genVersion = "v1"

// storedTranscripts returns the cached set of n transcripts, generating it
// when the cache lacks it.
func storedTranscripts(n int) (transcriptSet, error) {
	root := filepath.Join(os.TempDir(), fmt.Sprintf("airwire-agentbench-sessions-%s-%d", genVersion, n))
	set := transcriptSet{cwd: filepath.Join(root, "work"), projects: filepath.Join(root, "projects"), count: n}
	if data, err := os.ReadFile(filepath.Join(root, "complete")); err == nil {
		set.bytes, _ = strconv.ParseInt(strings.TrimSpace(string(data)), 10, 64)
		return set, nil
	}
	if err := os.RemoveAll(root); err != nil {
		return set, err
	}
	if err := os.MkdirAll(set.cwd, 0o755); err != nil {
		return set, err
	}
	dir := filepath.Join(set.projects, projectdir.Name(set.cwd))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return set, err
	}
	g := &generator{rng: rand.New(rand.NewPCG(42, uint64(n))), cwd: set.cwd, dir: dir}
	for i := range n {
		size, err := g.session(i)
		if err != nil {
			return set, err
		}
		set.bytes += size
	}
	return set, os.WriteFile(filepath.Join(root, "complete"), []byte(strconv.FormatInt(set.bytes, 10)), 0o644)
}

// generator writes the sessions of one project.
type generator struct {
	rng      *rand.Rand
	cwd, dir string
}

// benchEpoch is the end of the generated history: every session ends
// within the year before it.
var benchEpoch = time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)

// targetSize draws a transcript size: most a few KB to 40 KB, a quarter
// up to 200 KB, one in twenty up to 600 KB.
func (g *generator) targetSize() int {
	switch r := g.rng.Float64(); {
	case r < 0.70:
		return 2<<10 + g.rng.IntN(38<<10)
	case r < 0.95:
		return 40<<10 + g.rng.IntN(160<<10)
	default:
		return 200<<10 + g.rng.IntN(400<<10)
	}
}

func (g *generator) uuid() string {
	a, b := g.rng.Uint64(), g.rng.Uint64()
	return fmt.Sprintf("%08x-%04x-4%03x-8%03x-%012x", a>>32, (a>>16)&0xffff, a&0xfff, b>>52&0xfff, b&0xffffffffffff)
}

// words is filler text of about n bytes.
func (g *generator) words(n int) string {
	vocab := []string{"the", "parser", "returns", "an", "error", "when", "input", "is", "empty", "fix", "test", "function",
		"module", "config", "value", "update", "handler", "request", "response", "file", "line", "build", "cache", "index"}
	var b strings.Builder
	for b.Len() < n {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(vocab[g.rng.IntN(len(vocab))])
	}
	return b.String()
}

// transcript is one session being written.
type transcript struct {
	g      *generator
	id     string
	parent any
	at     time.Time
	lines  []string
	size   int
	model  string
}

func (t *transcript) add(rec map[string]any) {
	line, _ := json.Marshal(rec)
	t.lines = append(t.lines, string(line))
	t.size += len(line) + 1
}

// chained adds a conversation record, chained to the one before.
func (t *transcript) chained(rec map[string]any) {
	t.at = t.at.Add(time.Duration(1+t.g.rng.IntN(20000)) * time.Millisecond)
	u := t.g.uuid()
	for k, v := range map[string]any{"parentUuid": t.parent, "isSidechain": false, "userType": "external", "entrypoint": "cli",
		"cwd": t.g.cwd, "sessionId": t.id, "version": "2.1.318", "gitBranch": "main", "uuid": u,
		"timestamp": t.at.Format("2006-01-02T15:04:05.000Z")} {
		rec[k] = v
	}
	t.parent = u
	t.add(rec)
}

func (t *transcript) prompt(text string) {
	t.chained(map[string]any{"type": "user", "permissionMode": "default",
		"message": map[string]any{"role": "user", "content": text}})
}

func (t *transcript) assistant(blocks []any, stop string) {
	t.chained(map[string]any{"type": "assistant", "requestId": "req_" + t.g.uuid()[:8],
		"message": map[string]any{"id": "msg_" + t.g.uuid()[:12], "type": "message", "role": "assistant", "model": t.model,
			"content": blocks, "stop_reason": stop, "stop_sequence": nil,
			"usage": map[string]any{"input_tokens": 3 + t.g.rng.IntN(900), "output_tokens": 10 + t.g.rng.IntN(2000),
				"cache_read_input_tokens": t.g.rng.IntN(90000)}}})
}

// turn adds one prompt, its tool calls with their results, and the answer.
func (t *transcript) turn() {
	g := t.g
	t.prompt(g.words(20 + g.rng.IntN(300)))
	if g.rng.IntN(2) == 0 {
		t.assistant([]any{map[string]any{"type": "thinking", "thinking": g.words(100 + g.rng.IntN(800)), "signature": g.uuid()}}, "")
	}
	for range g.rng.IntN(5) {
		id := "toolu_" + strings.ReplaceAll(g.uuid(), "-", "")[:24]
		path := filepath.Join(g.cwd, "src", fmt.Sprintf("file%d.go", g.rng.IntN(100)))
		t.assistant([]any{map[string]any{"type": "tool_use", "id": id, "name": "Read", "input": map[string]any{"file_path": path}}}, "tool_use")
		out := g.words(200 + g.rng.IntN(6000))
		t.chained(map[string]any{"type": "user", "toolUseResult": map[string]any{"type": "text", "file": map[string]any{"filePath": path}},
			"message": map[string]any{"role": "user", "content": []any{map[string]any{"type": "tool_result", "tool_use_id": id, "content": out}}}})
	}
	t.assistant([]any{map[string]any{"type": "text", "text": g.words(50 + g.rng.IntN(1500))}}, "end_turn")
	t.chained(map[string]any{"type": "system", "subtype": "turn_duration", "durationMs": 1000 + g.rng.IntN(90000), "isMeta": false})
}

// session writes the i-th session (and, for some, a subagent sidechain)
// and returns its size.
func (g *generator) session(i int) (int64, error) {
	t := &transcript{g: g, id: g.uuid(), model: []string{"claude-opus-5-5", "claude-sonnet-5", "claude-haiku-5"}[g.rng.IntN(3)]}
	t.at = benchEpoch.Add(-time.Duration(g.rng.Int64N(int64(365 * 24 * time.Hour))))
	if g.rng.IntN(20) == 0 {
		t.add(map[string]any{"type": "summary", "summary": "Summary: " + g.words(40), "leafUuid": g.uuid()})
	}
	for target := g.targetSize(); t.size < target; {
		t.turn()
	}
	t.add(map[string]any{"type": "last-prompt", "lastPrompt": g.words(60), "sessionId": t.id})
	switch r := g.rng.IntN(100); {
	case r < 15:
		t.add(map[string]any{"type": "custom-title", "customTitle": "Task " + g.words(30), "sessionId": t.id})
	case r < 18:
		title := "[archived] Task " + g.words(30)
		t.add(map[string]any{"type": "custom-title", "customTitle": title, "sessionId": t.id})
		t.add(map[string]any{"type": "agent-name", "agentName": title, "sessionId": t.id})
	case r < 60:
		t.add(map[string]any{"type": "ai-title", "aiTitle": g.words(40), "sessionId": t.id})
	}
	path := filepath.Join(g.dir, t.id+".jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(t.lines, "\n")+"\n"), 0o600); err != nil {
		return 0, err
	}
	mtime := t.at.Add(time.Duration(g.rng.IntN(500)) * time.Millisecond)
	if err := os.Chtimes(path, mtime, mtime); err != nil {
		return 0, err
	}
	if i%25 == 0 {
		if err := g.sidechain(t.id, mtime); err != nil {
			return 0, err
		}
	}
	return int64(t.size), nil
}

// sidechain writes a subagent transcript of the session, as the CLI keeps
// it in <id>/subagents/agent-<id>.jsonl.
func (g *generator) sidechain(sessionID string, mtime time.Time) error {
	dir := filepath.Join(g.dir, sessionID, "subagents")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	t := &transcript{g: g, id: sessionID, model: "claude-haiku-5", at: mtime.Add(-time.Minute)}
	t.turn()
	for i := range t.lines {
		t.lines[i] = strings.Replace(t.lines[i], `"isSidechain":false`, `"isSidechain":true`, 1)
	}
	return os.WriteFile(filepath.Join(dir, "agent-"+g.uuid()[:8]+".jsonl"), []byte(strings.Join(t.lines, "\n")+"\n"), 0o600)
}
