package claude

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestResolveExecutable(t *testing.T) {
	dir := t.TempDir()
	onPath := filepath.Join(dir, "claude")
	if err := os.WriteFile(onPath, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	env := func(v string) func(string) string {
		return func(k string) string {
			if k == "CLAUDE_CODE_EXECUTABLE" {
				return v
			}
			return ""
		}
	}
	tests := []struct {
		name    string
		l       Locator
		want    string
		wantErr bool
	}{
		{"flag wins", Locator{Flag: "/opt/flag/claude", Getenv: env("/opt/env/claude")}, "/opt/flag/claude", false},
		{"env next", Locator{Getenv: env("/opt/env/claude")}, "/opt/env/claude", false},
		{"PATH last", Locator{Getenv: env("")}, onPath, false},
		{"none", Locator{Getenv: env(""), LookPath: func(string) (string, error) { return "", errors.New("not found") }}, "", true},
	}
	t.Setenv("PATH", dir)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ResolveExecutable(tt.l)
			if tt.wantErr {
				if !errors.Is(err, ErrNoExecutable) {
					t.Fatalf("err = %v, want ErrNoExecutable", err)
				}
				for _, where := range []string{"--claude-path", "CLAUDE_CODE_EXECUTABLE", "PATH"} {
					if !strings.Contains(err.Error(), where) {
						t.Errorf("error %q does not name %s", err, where)
					}
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("got %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}
