package mockapi

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/airwire/airwire/cmd/cmdutil"
	"github.com/airwire/airwire/cmd/factory"
	"github.com/airwire/airwire/conform/mockapi"
)

func TestNewCmdMockAPI(t *testing.T) {
	tests := []struct {
		name    string
		argv    string
		want    MockAPIOptions
		flagErr string
	}{
		{name: "defaults", argv: "--script s.yaml", want: MockAPIOptions{Script: "s.yaml", Addr: "127.0.0.1:0"}},
		{name: "fixed port", argv: "--script s.yaml --addr 127.0.0.1:18181", want: MockAPIOptions{Script: "s.yaml", Addr: "127.0.0.1:18181"}},
		{name: "no script", argv: "", flagErr: "--script is required"},
		{name: "all interfaces", argv: "--script s.yaml --addr 0.0.0.0:8080", flagErr: "only 127.0.0.1"},
		{name: "empty host", argv: "--script s.yaml --addr :8080", flagErr: "only 127.0.0.1"},
		{name: "no port", argv: "--script s.yaml --addr 127.0.0.1", flagErr: "want 127.0.0.1:PORT"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := factory.New("test", factory.WithIO(&bytes.Buffer{}, &bytes.Buffer{}, &bytes.Buffer{}), factory.WithEnv(nil))
			var got *MockAPIOptions
			cmd := NewCmdMockAPI(f, func(o *MockAPIOptions) error { got = o; return nil })
			cmd.SetArgs(strings.Fields(tt.argv))
			cmd.SetOut(&bytes.Buffer{})
			cmd.SetErr(&bytes.Buffer{})
			err := cmd.Execute()
			if tt.flagErr != "" {
				var fe *cmdutil.FlagError
				if !errors.As(err, &fe) || !strings.Contains(err.Error(), tt.flagErr) {
					t.Fatalf("got %v, want a FlagError containing %q", err, tt.flagErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.Script != tt.want.Script || got.Addr != tt.want.Addr {
				t.Errorf("got %+v, want %+v", *got, tt.want)
			}
		})
	}
}

// syncBuffer is a bytes.Buffer safe to read while the command writes it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}
func (s *syncBuffer) String() string { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

const scenarioFile = `name: demo
covers: [Text]
model:
  turns:
    - when: {text: "Say hello"}
      reply: [{text: "Hello!"}]
`

func TestRunMockAPI(t *testing.T) {
	path := filepath.Join(t.TempDir(), "scenario.yaml")
	if err := os.WriteFile(path, []byte(scenarioFile), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errOut syncBuffer
	opts := &MockAPIOptions{IO: factory.IOStreams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut}, ReadFile: os.ReadFile, Script: path, Addr: "127.0.0.1:0"}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- runMockAPI(ctx, opts) }()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("runMockAPI after cancel: %v", err)
		}
	}()

	base := waitListening(t, &out)
	body := `{"model":"m","max_tokens":10,"tools":[{"name":"Bash"}],"messages":[{"role":"user","content":"Say hello."}]}`
	resp, err := http.Post(base+"/v1/messages", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	data, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	var m struct {
		Content []struct{ Text string } `json:"content"`
	}
	if err := json.Unmarshal(data, &m); err != nil || resp.StatusCode != 200 || len(m.Content) != 1 || m.Content[0].Text != "Hello!" {
		t.Errorf("answer: %d %s", resp.StatusCode, data)
	}
	if log := errOut.String(); !strings.Contains(log, "#1 POST /v1/messages → turn 0, 200") {
		t.Errorf("stderr log: %q", log)
	}
}

// waitListening waits for the first stdout line and returns the base URL.
func waitListening(t *testing.T, out *syncBuffer) string {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		if line, _, ok := strings.Cut(out.String(), "\n"); ok {
			base, found := strings.CutPrefix(line, "mock-api listening on ")
			if !found || !strings.HasPrefix(base, "http://127.0.0.1:") {
				t.Fatalf("first stdout line: %q", line)
			}
			return base
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("mock-api never printed its address")
	return ""
}

func TestRunMockAPIBadScript(t *testing.T) {
	opts := &MockAPIOptions{
		IO:       factory.IOStreams{Out: &bytes.Buffer{}, ErrOut: &bytes.Buffer{}},
		ReadFile: func(string) ([]byte, error) { return []byte("model:\n  turns:\n    - when: {txt: hi}\n"), nil },
		Script:   "bad.yaml", Addr: "127.0.0.1:0",
	}
	err := runMockAPI(context.Background(), opts)
	if err == nil || !strings.Contains(err.Error(), "bad.yaml") || !strings.Contains(err.Error(), "txt") {
		t.Errorf("got %v, want an error naming the file and the unknown key", err)
	}
}

// TestHelpExampleParses keeps the script in --help valid.
func TestHelpExampleParses(t *testing.T) {
	f := factory.New("test", factory.WithEnv(nil))
	ex := NewCmdMockAPI(f, nil).Example
	_, rest, ok := strings.Cut(ex, "# script.yaml\n")
	script, _, ok2 := strings.Cut(rest, "\n\n")
	if !ok || !ok2 {
		t.Fatalf("no script in the example:\n%s", ex)
	}
	var lines []string
	for _, l := range strings.Split(script, "\n") {
		lines = append(lines, strings.TrimPrefix(l, "  "))
	}
	s, err := mockapi.ParseFile([]byte(strings.Join(lines, "\n")))
	if err != nil || len(s.Turns) != 3 || s.Side.Title != "Fix the build" {
		t.Errorf("example script: %+v, %v", s, err)
	}
}
