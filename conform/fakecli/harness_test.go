package fakecli

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/airwire/airwire/conform/scenario"
)

// proc is a fake CLI run in-process over pipes, the way the SDK drives it.
type proc struct {
	t      *testing.T
	stdin  *io.PipeWriter
	frames chan map[string]any
	code   chan int
	done   chan struct{}
	cancel context.CancelFunc
	home   string
	cwd    string
}

var streamArgv = []string{"--output-format", "stream-json", "--verbose", "--input-format", "stream-json",
	"--permission-prompt-tool=stdio", "--include-partial-messages", "--session-id=cd4c3fa8-68ad-498e-a68c-6a6117c1f314"}

const testSession = "cd4c3fa8-68ad-498e-a68c-6a6117c1f314"

// start runs the fake with argv and an optional script (YAML of a cli section).
func start(t *testing.T, argv []string, scriptYAML string) *proc {
	t.Helper()
	return startEnv(t, argv, scriptYAML, nil)
}

// startEnv is start with extra environment variables.
func startEnv(t *testing.T, argv []string, scriptYAML string, extraEnv map[string]string) *proc {
	t.Helper()
	tmp := t.TempDir()
	p := &proc{t: t, frames: make(chan map[string]any, 1024), code: make(chan int, 1), done: make(chan struct{}),
		home: filepath.Join(tmp, "home"), cwd: filepath.Join(tmp, "work")}
	os.MkdirAll(p.home, 0o755)
	os.MkdirAll(p.cwd, 0o755)
	env := map[string]string{"HOME": p.home, "CLAUDE_CONFIG_DIR": filepath.Join(p.home, ".claude"), EnvLog: filepath.Join(tmp, "log.jsonl")}
	for k, v := range extraEnv {
		env[k] = v
	}
	if scriptYAML != "" {
		path := filepath.Join(tmp, "cli.yaml")
		if err := os.WriteFile(path, []byte(scriptYAML), 0o644); err != nil {
			t.Fatal(err)
		}
		env[EnvScript] = path
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	p.stdin, p.cancel = inW, cancel
	go func() {
		code := Run(ctx, Options{Args: argv, In: inR, Out: outW, ErrOut: io.Discard,
			Getenv: func(k string) string { return env[k] }, Cwd: p.cwd})
		outW.Close()
		p.code <- code
		close(p.done)
	}()
	go func() {
		sc := bufio.NewScanner(outR)
		sc.Buffer(make([]byte, 1<<20), 16<<20)
		for sc.Scan() {
			var m map[string]any
			if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
				t.Errorf("stdout line is not JSON: %s", sc.Text())
				continue
			}
			p.frames <- m
		}
		close(p.frames)
	}()
	t.Cleanup(func() {
		cancel()
		inW.Close()
		select {
		case <-p.done:
		case <-time.After(5 * time.Second):
			t.Error("fake CLI did not stop")
		}
	})
	return p
}

func (p *proc) send(m map[string]any) {
	p.t.Helper()
	b, _ := json.Marshal(m)
	if _, err := p.stdin.Write(append(b, '\n')); err != nil {
		p.t.Fatalf("write: %v", err)
	}
}

func (p *proc) control(id string, req map[string]any) {
	p.send(map[string]any{"type": "control_request", "request_id": id, "request": req})
}

func (p *proc) prompt(text string) {
	p.send(map[string]any{"type": "user", "session_id": "", "parent_tool_use_id": nil,
		"message": map[string]any{"role": "user", "content": []any{map[string]any{"type": "text", "text": text}}}})
}

// next returns the next frame, failing after 5 s.
func (p *proc) next() map[string]any {
	p.t.Helper()
	select {
	case f, ok := <-p.frames:
		if !ok {
			p.t.Fatal("stdout closed")
		}
		return f
	case <-time.After(5 * time.Second):
		p.t.Fatal("no frame within 5s")
	}
	return nil
}

// until reads frames until pred holds and returns all frames read.
func (p *proc) until(pred func(map[string]any) bool) []map[string]any {
	p.t.Helper()
	var seen []map[string]any
	for {
		f := p.next()
		seen = append(seen, f)
		if pred(f) {
			return seen
		}
	}
}

func isIdle(f map[string]any) bool {
	return f["subtype"] == "session_state_changed" && f["state"] == "idle"
}

// response reads frames until the control_response for id.
func (p *proc) response(id string) map[string]any {
	p.t.Helper()
	fs := p.until(func(f map[string]any) bool {
		r, _ := f["response"].(map[string]any)
		return f["type"] == "control_response" && r["request_id"] == id
	})
	return fs[len(fs)-1]["response"].(map[string]any)
}

// answer replies to a CLI → host control request.
func (p *proc) answer(req map[string]any, body map[string]any) {
	p.send(map[string]any{"type": "control_response", "response": map[string]any{"subtype": "success", "request_id": req["request_id"], "response": body}})
}

// label names a frame for order checks: type/subtype/state/event/request.
func label(f map[string]any) string {
	switch f["type"] {
	case "system":
		if f["subtype"] == "session_state_changed" {
			return "state:" + f["state"].(string)
		}
		if f["subtype"] == "status" {
			if s, ok := f["status"].(string); ok {
				return "status:" + s
			}
		}
		return "system:" + f["subtype"].(string)
	case "stream_event":
		return "event:" + f["event"].(map[string]any)["type"].(string)
	case "control_request":
		r := f["request"].(map[string]any)
		if r["subtype"] == "hook_callback" {
			return "hook:" + r["input"].(map[string]any)["hook_event_name"].(string)
		}
		return "request:" + r["subtype"].(string)
	case "result":
		return "result:" + f["subtype"].(string)
	}
	return f["type"].(string)
}

func labels(fs []map[string]any) string {
	var out []string
	for _, f := range fs {
		out = append(out, label(f))
	}
	return strings.Join(out, " ")
}

func readTranscript(t *testing.T, p *proc, session string) []map[string]any {
	t.Helper()
	cwd, _ := filepath.EvalSymlinks(p.cwd)
	return readRows(scenario.SessionFile(filepath.Join(p.home, ".claude"), cwd, session))
}

// wantExit waits up to 5 s for the process to exit with code; what names
// the event in the failure.
func (p *proc) wantExit(code int, what string) {
	p.t.Helper()
	select {
	case got := <-p.code:
		if got != code {
			p.t.Errorf("%s: exit %d, want %d", what, got, code)
		}
	case <-time.After(5 * time.Second):
		p.t.Fatalf("%s: the fake CLI did not exit", what)
	}
}
