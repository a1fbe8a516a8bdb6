package fakecli

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/airwire/airwire/cmd/cmdutil"
	"github.com/airwire/airwire/cmd/factory"
	"github.com/airwire/airwire/conform"
	"github.com/airwire/airwire/conform/cassette"
	"github.com/airwire/airwire/internal/deps"
)

func TestNewCmdFakeCLI(t *testing.T) {
	tests := []struct {
		name string
		argv []string
	}{
		{name: "no args", argv: []string{}},
		{name: "version flag is not cobra's", argv: []string{"--version"}},
		{name: "help flag is not cobra's", argv: []string{"--help"}},
		{name: "adapter argv", argv: []string{"--output-format", "stream-json", "--verbose", "--input-format", "stream-json", "--permission-prompt-tool=stdio", "--replay-user-messages", ""}},
		{name: "subcommand", argv: []string{"auth", "status", "--json"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := factory.New("test", factory.WithIO(strings.NewReader(""), &bytes.Buffer{}, &bytes.Buffer{}), factory.WithEnv(nil))
			var got *FakeCLIOptions
			cmd := NewCmdFakeCLI(f, func(o *FakeCLIOptions) error { got = o; return nil })
			cmd.SetArgs(tt.argv)
			if err := cmd.Execute(); err != nil {
				t.Fatal(err)
			}
			if got == nil {
				t.Fatal("runF not called")
			}
			if !reflect.DeepEqual(got.Args, tt.argv) && !(len(got.Args) == 0 && len(tt.argv) == 0) {
				t.Errorf("args = %q, want %q untouched", got.Args, tt.argv)
			}
		})
	}
}

func TestRunFakeCLI(t *testing.T) {
	tests := []struct {
		name     string
		args     []string
		wantOut  string
		wantErr  string
		wantCode int
	}{
		{name: "version", args: []string{"--version"}, wantOut: "2.1.318 (Claude Code)\n"},
		{name: "auth status: logged in with an API key", args: []string{"auth", "status", "--json"}, wantOut: `"authMethod": "api_key"`},
		{name: "bad option exits 1", args: []string{"--nope"}, wantErr: "unknown option '--nope'", wantCode: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			opts := &FakeCLIOptions{
				IO:     factory.IOStreams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut},
				Getenv: func(k string) string { return map[string]string{"HOME": t.TempDir()}[k] },
				Getwd:  func() (string, error) { return t.TempDir(), nil },
				Args:   tt.args,
			}
			err := runFakeCLI(context.Background(), opts)
			var exit *cmdutil.ExitError
			switch {
			case tt.wantCode == 0 && err != nil:
				t.Fatalf("err = %v", err)
			case tt.wantCode != 0 && (!errors.As(err, &exit) || exit.Code != tt.wantCode):
				t.Fatalf("err = %v, want exit %d", err, tt.wantCode)
			}
			if !strings.Contains(out.String(), tt.wantOut) {
				t.Errorf("stdout = %q, want %q", out.String(), tt.wantOut)
			}
			if !strings.Contains(errOut.String(), tt.wantErr) {
				t.Errorf("stderr = %q, want %q", errOut.String(), tt.wantErr)
			}
		})
	}
}

func TestNewCmdFakeCLIReplay(t *testing.T) {
	tests := []struct {
		name       string
		argv       []string
		wantReplay string
		wantArgs   []string
	}{
		{name: "flag and value", argv: []string{"--replay", "c.jsonl", "--verbose"}, wantReplay: "c.jsonl", wantArgs: []string{"--verbose"}},
		{name: "flag=value", argv: []string{"--replay=c.jsonl", "auth", "status"}, wantReplay: "c.jsonl", wantArgs: []string{"auth", "status"}},
		{name: "only leading", argv: []string{"--verbose", "--replay", "c.jsonl"}, wantArgs: []string{"--verbose", "--replay", "c.jsonl"}},
		{name: "not a CLI option", argv: []string{"--replay-user-messages"}, wantArgs: []string{"--replay-user-messages"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := factory.New("test", factory.WithIO(strings.NewReader(""), &bytes.Buffer{}, &bytes.Buffer{}), factory.WithEnv(nil))
			var got *FakeCLIOptions
			cmd := NewCmdFakeCLI(f, func(o *FakeCLIOptions) error { got = o; return nil })
			cmd.SetArgs(tt.argv)
			if err := cmd.Execute(); err != nil {
				t.Fatal(err)
			}
			if got.Replay != tt.wantReplay || !reflect.DeepEqual(got.Args, tt.wantArgs) {
				t.Errorf("replay %q args %q, want %q %q", got.Replay, got.Args, tt.wantReplay, tt.wantArgs)
			}
		})
	}
}

func TestRunFakeCLIReplayBadCassette(t *testing.T) {
	var errOut bytes.Buffer
	opts := &FakeCLIOptions{
		IO:     factory.IOStreams{In: strings.NewReader(""), Out: &bytes.Buffer{}, ErrOut: &errOut},
		Getenv: func(string) string { return "" },
		Getwd:  func() (string, error) { return t.TempDir(), nil },
		Args:   []string{"--version"},
		Replay: "/nonexistent/c.jsonl",
	}
	var exit *cmdutil.ExitError
	if err := runFakeCLI(context.Background(), opts); !errors.As(err, &exit) || exit.Code != 6 {
		t.Fatalf("err = %v, want exit 6", err)
	}
	if !strings.Contains(errOut.String(), "fake-cli replay: open /nonexistent/c.jsonl") {
		t.Errorf("stderr = %q", errOut.String())
	}
}

func TestRunFakeCLIReplayDocumentRunIsNotPaced(t *testing.T) {
	// `auth status --json` prints a document of many lines; the pace of a
	// stream-json process (a pause per line) must not hold it.
	root, err := deps.ModuleRoot(".")
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(root, "goldens", "text-and-thinking", "zed.cassette")
	c, err := cassette.Load(file)
	if err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	env := map[string]string{"HOME": home, "TMPDIR": t.TempDir()}
	var out, errOut bytes.Buffer
	opts := &FakeCLIOptions{
		IO:     factory.IOStreams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut},
		Getenv: func(k string) string { return env[k] },
		Getwd:  func() (string, error) { return t.TempDir(), nil },
		Args:   []string{"auth", "status", "--json"},
		Replay: file,
	}
	start := time.Now()
	if err := runFakeCLI(context.Background(), opts); err != nil {
		t.Fatalf("err = %v; stderr %s", err, errOut.String())
	}
	took := time.Since(start)
	lines := strings.Count(out.String(), "\n")
	if lines < 3 || !strings.Contains(c.Runs[0].Stdout, `"loggedIn": true`) || !strings.Contains(out.String(), `"loggedIn": true`) {
		t.Fatalf("output %q is not the recorded document", out.String())
	}
	if paced := time.Duration(lines-1) * conform.DefaultPace; took >= paced {
		t.Errorf("%d lines took %s: paced line by line (%s)", lines, took, paced)
	}
}
