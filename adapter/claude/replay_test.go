package claude

import (
	"context"
	"encoding/json"
	"errors"
	"github.com/airwire/airwire/internal/testroot"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/airwire/airwire/conform/cassette"
	"github.com/airwire/airwire/internal/uuid"
)

// replayer is the smallest session layer: it answers the CLI's requests as
// the reference did in the recording and keeps the lines it got.
type replayer struct {
	answers map[string]json.RawMessage // CLI request id -> recorded control_response body

	mu    sync.Mutex
	kinds []string
	got   chan struct{}
	exit  error
}

func (r *replayer) HandleMessage(f *Frame) {
	r.mu.Lock()
	r.kinds = append(r.kinds, f.Type+"/"+f.Subtype)
	r.mu.Unlock()
	r.got <- struct{}{}
}

func (r *replayer) HandleControl(ctx context.Context, req *IncomingRequest, reply Reply) {
	var a struct {
		Subtype  string
		Response json.RawMessage
		Error    string
	}
	if err := json.Unmarshal(r.answers[req.ID], &a); err != nil {
		reply(nil, errors.New("no recorded answer"))
		return
	}
	if a.Subtype == "error" {
		reply(nil, errors.New(a.Error))
		return
	}
	reply(a.Response, nil)
}

func (r *replayer) HandleExit(err error) { r.exit = err }

// recordedKinds lists type/subtype of the recorded CLI lines that are not
// control frames, and the reference's answers to the CLI's requests.
func recordedKinds(p cassette.Process) (kinds []string, answers map[string]json.RawMessage) {
	answers = map[string]json.RawMessage{}
	for _, ev := range p.Events {
		var f struct {
			Type, Subtype string
			Response      json.RawMessage
		}
		_ = json.Unmarshal(ev.Msg, &f)
		switch {
		case ev.Dir == "agent" && f.Type == "control_response":
			var id struct {
				RequestID string `json:"request_id"`
			}
			_ = json.Unmarshal(f.Response, &id)
			answers[id.RequestID] = f.Response
		case ev.Dir == "cli" && f.Type != "control_request" && f.Type != "control_response" && f.Type != "control_cancel_request":
			kinds = append(kinds, f.Type+"/"+f.Subtype)
		}
	}
	return kinds, answers
}

// TestReplayCassettes drives `airwire fake-cli --replay` with the frames
// of recorded runs, built with this package's types: the spawned CLI
// plays every recorded line, in order, and answers every request.
func TestReplayCassettes(t *testing.T) {
	if testing.Short() {
		t.Skip("builds cmd/airwire")
	}
	bin := testroot.Binary(t)
	for _, name := range []string{"set-mode/zed", "write-new/zed", "permission-denied/plain", "edit-rejected/air",
		"text-and-thinking/plain", "two-prompts-queued/zed", "cancel-mid-permission/air"} {
		t.Run(name, func(t *testing.T) { replayOne(t, bin, name) })
	}
}

func replayOne(t *testing.T, bin, name string) {
	path := filepath.Join(testroot.Root(t), "goldens", name+".cassette")
	c, err := cassette.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	want, answers := recordedKinds(c.Processes[0])
	tmp := t.TempDir()
	work := filepath.Join(tmp, "work")
	if err := os.Mkdir(work, 0o755); err != nil {
		t.Fatal(err)
	}
	o, err := ReferenceOptions(SessionStart{SessionID: uuid.New(), PermissionMode: "auto", AllowBypass: true, FormElicitation: true})
	if err != nil {
		t.Fatal(err)
	}
	logs := &syncBuffer{}
	r := &replayer{answers: answers, got: make(chan struct{}, len(want)+64)}
	env := Env([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + tmp, "CLAUDE_CONFIG_DIR=" + filepath.Join(tmp, "config"),
		"TMPDIR=" + tmp, "AIRWIRE_FAKE_CLI_REPLAY_PACE=0", "AIRWIRE_FAKE_CLI_REPLAY_STATE=" + filepath.Join(tmp, "state")}, EnvOptions{})
	p, err := Start(Config{Path: bin, Args: append([]string{"fake-cli", "--replay", path}, Args(o)...), Env: env, Dir: work,
		Handler: r, KillGrace: time.Second, Log: slog.New(slog.NewTextHandler(logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	errs := drive(t, p, c.Processes[0])
	deadline := time.After(20 * time.Second)
	for range want {
		select {
		case <-r.got:
		case <-deadline:
			r.mu.Lock()
			t.Fatalf("got %d of %d lines: %v", len(r.kinds), len(want), r.kinds)
		}
	}
	for i := range cap(errs) {
		if err := <-errs; err != nil {
			t.Errorf("request %d: %v", i, err)
		}
	}
	_ = p.Close()
	if !slices.Equal(r.kinds, want) {
		t.Errorf("lines\n got %v\nwant %v", r.kinds, want)
	}
	if strings.Contains(logs.String(), "fake-cli replay:") {
		t.Errorf("the player saw frames it did not expect:\n%s", logs)
	}
	if !errors.Is(r.exit, ErrClosed) {
		t.Errorf("exit %v", r.exit)
	}
}

// drive sends the recorded agent frames: initialize (waited for, with one
// HookContinue func per recorded hook), then every control request (not
// waited for; their errors arrive on the channel) and user message.
func drive(t *testing.T, p *Process, proc cassette.Process) chan error {
	t.Helper()
	var reqs []ControlRequest
	var users []UserInput
	for _, ev := range proc.Events {
		var f struct {
			Type    string
			Request json.RawMessage
		}
		if ev.Dir != "agent" || json.Unmarshal(ev.Msg, &f) != nil {
			continue
		}
		switch f.Type {
		case "control_request":
			var sub struct{ Subtype string }
			_ = json.Unmarshal(f.Request, &sub)
			if sub.Subtype == "initialize" {
				init := initializeOf(t, f.Request)
				for i := range init.Hooks {
					for j := range init.Hooks[i].Matchers {
						for k := range init.Hooks[i].Matchers[j].Hooks {
							init.Hooks[i].Matchers[j].Hooks[k] = func(_ context.Context, _ *HookCallback, reply Reply) { reply(HookContinue, nil) }
						}
					}
				}
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				if _, err := p.Initialize(ctx, init); err != nil {
					t.Fatalf("initialize: %v", err)
				}
				cancel()
				continue
			}
			reqs = append(reqs, typedRequest(t, sub.Subtype, f.Request))
		case "user":
			var u UserInput
			if err := json.Unmarshal(ev.Msg, &u); err != nil {
				t.Fatal(err)
			}
			users = append(users, u)
		}
	}
	errs := make(chan error, len(reqs))
	for _, req := range reqs {
		go func() {
			ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
			defer cancel()
			errs <- p.Request(ctx, req, nil)
		}()
	}
	for _, u := range users {
		if err := p.Send(u); err != nil {
			t.Fatal(err)
		}
	}
	return errs
}
