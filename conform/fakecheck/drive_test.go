package fakecheck

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"testing"
	"time"
)

// referenceHooks is initialize.hooks as the reference adapter registers
// them (peer-capture/real-cli-stream-json-stdin.jsonl).
func referenceHooks() map[string]any {
	ids := func(names ...string) []any {
		var l []any
		for _, n := range names {
			l = append(l, n)
		}
		return []any{map[string]any{"hookCallbackIds": l}}
	}
	return map[string]any{
		"SubagentStart": ids("hook_0"), "SubagentStop": ids("hook_1"), "PostToolUseFailure": ids("hook_2"),
		"PreToolUse": ids("hook_3"), "PostToolUse": ids("hook_4", "hook_5"), "PostModelSwitch": ids("hook_6", "hook_7"),
		"PostCompact": ids("hook_8"), "TaskCreated": ids("hook_9"), "TaskCompleted": ids("hook_10"),
	}
}

// session drives one CLI process over stream-json the way the reference's
// SDK does: initialize with the reference's hooks, one user message per
// turn, every can_use_tool allowed, every hook answered {continue: true}.
type session struct {
	t      *testing.T
	name   string
	in     io.WriteCloser
	frames chan map[string]any
	// out queues lines for stdin, so that answering a request never blocks
	// reading stdout (over in-process pipes the CLI may be writing an echo
	// while the host writes its answer).
	out  chan []byte
	done sync.WaitGroup
}

func newSession(t *testing.T, name string, in io.WriteCloser, out io.Reader) *session {
	s := &session{t: t, name: name, in: in, frames: make(chan map[string]any, 4096), out: make(chan []byte, 1024)}
	s.done.Add(1)
	go func() {
		defer s.done.Done()
		for b := range s.out {
			if _, err := in.Write(b); err != nil {
				return
			}
		}
	}()
	go s.read(out)
	return s
}

func (s *session) send(f map[string]any) {
	b, _ := json.Marshal(f)
	defer func() { recover() }() // the session was closed: the answer is moot
	s.out <- append(b, '\n')
}

// close ends stdin once every queued line is written.
func (s *session) close() {
	close(s.out)
	s.done.Wait()
	s.in.Close()
}

// read answers the CLI's control requests and passes every frame on.
func (s *session) read(out io.Reader) {
	defer close(s.frames)
	r := bufio.NewReaderSize(out, 1<<20)
	for {
		line, err := r.ReadBytes('\n')
		var f map[string]any
		if len(line) > 0 && json.Unmarshal(line, &f) == nil {
			if f["type"] == "control_request" {
				s.answer(f)
			}
			s.frames <- f
		}
		if err != nil {
			return
		}
	}
}

func (s *session) answer(f map[string]any) {
	req, _ := f["request"].(map[string]any)
	var body map[string]any
	switch req["subtype"] {
	case "can_use_tool":
		body = map[string]any{"behavior": "allow", "updatedInput": req["input"], "toolUseID": req["tool_use_id"]}
	case "hook_callback":
		body = map[string]any{"continue": true}
	default:
		body = map[string]any{}
	}
	s.send(map[string]any{"type": "control_response", "response": map[string]any{"subtype": "success", "request_id": f["request_id"], "response": body}})
}

// until collects frames until one satisfies stop (included) or the
// timeout passes; ok is false on timeout or end of output.
func (s *session) until(stop func(map[string]any) bool, timeout time.Duration) ([]map[string]any, bool) {
	var got []map[string]any
	deadline := time.After(timeout)
	for {
		select {
		case f, open := <-s.frames:
			if !open {
				return got, false
			}
			got = append(got, f)
			if stop(f) {
				return got, true
			}
		case <-deadline:
			return got, false
		}
	}
}

func isIdle(f map[string]any) bool {
	return f["type"] == "system" && f["subtype"] == "session_state_changed" && f["state"] == "idle"
}

// run initializes the CLI and plays the prompts. Each turn's frames run
// from the user message to idle, plus the prompt suggestion the CLI sends
// after idle when it comes within suggestWait.
func (s *session) run(prompts []string) (map[string]any, [][]map[string]any, error) {
	s.send(map[string]any{"type": "control_request", "request_id": "init_1", "request": map[string]any{
		"subtype": "initialize", "hooks": referenceHooks(), "promptSuggestions": true, "forwardSubagentText": true,
		"supportedDialogKinds": []any{"refusal_fallback_prompt"}}})
	fs, ok := s.until(func(f map[string]any) bool {
		r, _ := f["response"].(map[string]any)
		return f["type"] == "control_response" && r["request_id"] == "init_1"
	}, 30*time.Second)
	if !ok {
		return nil, nil, fmt.Errorf("%s: no initialize response", s.name)
	}
	initResp := fs[len(fs)-1]
	var turns [][]map[string]any
	for i, p := range prompts {
		s.send(map[string]any{"type": "user", "session_id": "", "parent_tool_use_id": nil,
			"uuid": fmt.Sprintf("00000000-0000-4000-8000-%012d", i+1), "origin": map[string]any{"kind": "human"},
			"message": map[string]any{"role": "user", "content": []any{map[string]any{"type": "text", "text": p}}}})
		turn, ok := s.until(isIdle, 30*time.Second)
		if !ok {
			return initResp, turns, fmt.Errorf("%s: turn %d (%q) did not go idle", s.name, i+1, p)
		}
		more, _ := s.until(func(f map[string]any) bool { return f["type"] == "prompt_suggestion" }, suggestWait)
		turns = append(turns, append(turn, more...))
	}
	return initResp, turns, nil
}

// suggestWait bounds the wait for the prompt suggestion after a turn.
const suggestWait = 4 * time.Second
