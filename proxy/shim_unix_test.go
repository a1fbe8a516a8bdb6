//go:build unix

package proxy

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airwire/airwire/internal/clisearch"
	"github.com/airwire/airwire/internal/clistart"
	"github.com/airwire/airwire/internal/envlist"
)

// TestShimSearchesAsTheAgentDoes: a shim given no real CLI searches the
// agent's environment as the bare agent does: nothing there gets the bare
// agent's reason, a CLI in ~/.local/bin runs.
func TestShimSearchesAsTheAgentDoes(t *testing.T) {
	if _, err := os.Stat("/usr/local/bin/claude"); err == nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("/usr/local/bin/claude exists: the search would find it")
		}
		t.Skip("/usr/local/bin/claude exists: the search would find it")
	}
	dir := t.TempDir()
	installed := filepath.Join(dir, "installed")
	local := filepath.Join(installed, ".local", "bin")
	if err := os.MkdirAll(local, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(local, "claude"), []byte("#!/bin/sh\necho \"ran $*\"\nexit 4\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	env := func(home string) []string {
		return []string{"HOME=" + home, "PATH=" + filepath.Join(dir, "empty"), "npm_config_prefix=", "PREFIX=",
			EnvClaudeExecutable + "=" + filepath.Join(dir, "the-shim"), EnvOrigExecutable + "="}
	}

	var stdout, stderr bytes.Buffer
	nowhere := env(filepath.Join(dir, "empty-home"))
	code, err := RunShim(context.Background(), ShimOptions{Args: []string{"--version"}, Env: nowhere,
		Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr})
	_, agentErr := clisearch.ResolveExecutable(clisearch.Locator{Getenv: func(k string) string {
		v, _ := envlist.Lookup(shimChildEnv(nowhere, ""), k)
		return v
	}})
	var nf *clisearch.NotFoundError
	if !errors.As(agentErr, &nf) {
		t.Fatalf("the agent's search: %v", agentErr)
	}
	first, _, _ := strings.Cut(stderr.String(), "\n")
	if err != nil || code != 127 || first != clistart.ShimLine(nf.Reason()) || !strings.Contains(first, "~/.local/bin") {
		t.Errorf("nothing anywhere: code %d, err %v, first stderr line %q; want 127 and %q", code, err, first, clistart.ShimLine(nf.Reason()))
	}

	stdout.Reset()
	stderr.Reset()
	code, err = RunShim(context.Background(), ShimOptions{Args: []string{"--version"}, Env: env(installed),
		Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr})
	if err != nil || code != 4 || stdout.String() != "ran --version\n" {
		t.Errorf("a CLI in ~/.local/bin: code %d, err %v, stdout %q, stderr %q", code, err, stdout.String(), stderr.String())
	}
}
