package acp_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airwire/airwire/internal/deps"
	"github.com/airwire/airwire/schemas/acp"
)

func TestPinned(t *testing.T) {
	b, err := os.ReadFile("PIN")
	if err != nil {
		t.Fatal(err)
	}
	p := acp.Pinned()
	if !strings.Contains(string(b), "package "+p.Package+"\n") || p.Sums[p.Tarball] == "" || !strings.Contains(string(b), p.Sums[p.Tarball]+"  "+p.Tarball) {
		t.Fatalf("Pinned() = %+v does not match PIN:\n%s", p, b)
	}
	for _, bad := range []string{"", "package x\n", "package x\nzz  a.tgz\n", "package x\n" + strings.Repeat("a", 64) + "  a.tgz\n"} {
		if _, err := acp.ParsePin([]byte(bad)); err == nil {
			t.Errorf("ParsePin(%q) accepted", bad)
		}
	}
}

// pinnedTarball is the package tarball `make deps` fetched; the test is
// skipped without it.
func pinnedTarball(t *testing.T) []byte {
	t.Helper()
	p, err := deps.Paths()
	if err != nil || p.ACPSchemaDir == "" {
		deps.Unavailable(t, "ACP schema not installed (make deps): %v", err)
	}
	b, err := os.ReadFile(filepath.Join(p.ACPSchemaDir, "..", "..", acp.Pinned().Tarball))
	if err != nil {
		deps.Unavailable(t, "no pinned tarball: %v", err)
	}
	return b
}

// fakePack writes tgz where npm pack would, and counts its calls.
func fakePack(tgz []byte, calls *int) func(context.Context, string, string) error {
	return func(_ context.Context, dir, spec string) error {
		*calls++
		if spec != acp.Pinned().Package {
			return errors.New("wrong spec " + spec)
		}
		return os.WriteFile(filepath.Join(dir, acp.Pinned().Tarball), tgz, 0o644)
	}
}

func noEnv(string) string { return "" }

func TestLocateFetchesIntoTheCache(t *testing.T) {
	tgz := pinnedTarball(t)
	cache := t.TempDir()
	var log bytes.Buffer
	calls := 0
	l := acp.Locator{Getenv: noEnv, CacheDir: func() (string, error) { return cache, nil }, Pack: fakePack(tgz, &calls), Log: &log}
	dir, err := l.Locate(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(cache, "airwire", "acp-schema", "agentclientprotocol-sdk-2.4.0", "v1"); dir != want {
		t.Fatalf("dir = %s, want %s", dir, want)
	}
	if _, err := acp.LoadDir(dir, true); err != nil {
		t.Fatal(err)
	}
	// The v2 draft is its sibling.
	v2, err := acp.LoadDir(acp.V2Dir(dir), true)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := v2.Method("auth/login"); !ok {
		t.Fatalf("%s holds no v2 schema", acp.V2Dir(dir))
	}
	if calls != 1 || !strings.Contains(log.String(), "fetching it with npm pack") || !strings.Contains(log.String(), "ACP schema ready in "+dir) {
		t.Fatalf("%d packs, log:\n%s", calls, log.String())
	}
	// The second run finds it in the cache, silently.
	log.Reset()
	if again, err := l.Locate(context.Background()); err != nil || again != dir || calls != 1 || log.Len() > 0 {
		t.Fatalf("second Locate: %s, %v, %d packs, log %q", again, err, calls, log.String())
	}
	// A cached file that was changed is fetched again.
	if err := os.WriteFile(filepath.Join(dir, acp.StableFile), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := l.Locate(context.Background()); err != nil || calls != 2 || !strings.Contains(log.String(), "differs from its pin") {
		t.Fatalf("stale cache: %v, %d packs, log %q", err, calls, log.String())
	}
	if _, err := acp.LoadDir(dir, false); err != nil {
		t.Fatal(err)
	}
	// So is a changed or missing v2 file.
	if err := os.Remove(filepath.Join(acp.V2Dir(dir), acp.UnstableFile)); err != nil {
		t.Fatal(err)
	}
	log.Reset()
	if _, err := l.Locate(context.Background()); err != nil || calls != 3 || !strings.Contains(log.String(), "fetching it with npm pack") {
		t.Fatalf("cache without v2: %v, %d packs, log %q", err, calls, log.String())
	}
	if _, err := acp.LoadDir(acp.V2Dir(dir), true); err != nil {
		t.Fatal(err)
	}
}

func TestLocateRefusesBytesThatDifferFromThePin(t *testing.T) {
	tgz := pinnedTarball(t)
	cache := t.TempDir()
	calls := 0
	bad := append(append([]byte(nil), tgz...), 0) // one byte more: another tarball
	l := acp.Locator{Getenv: noEnv, CacheDir: func() (string, error) { return cache, nil }, Pack: fakePack(bad, &calls)}
	_, err := l.Locate(context.Background())
	if !errors.Is(err, acp.ErrPinMismatch) {
		t.Fatalf("err = %v, want ErrPinMismatch", err)
	}
	left, _ := filepath.Glob(filepath.Join(cache, "airwire", "acp-schema", "*"))
	if len(left) != 0 {
		t.Fatalf("a refused fetch left %v", left)
	}
}

func TestLocateWithoutNPM(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	var log bytes.Buffer
	l := acp.Locator{Getenv: noEnv, CacheDir: func() (string, error) { return t.TempDir(), nil }, Log: &log}
	_, err := l.Locate(context.Background())
	if !errors.Is(err, acp.ErrNoNPM) {
		t.Fatalf("err = %v, want ErrNoNPM", err)
	}
	for _, want := range []string{"@agentclientprotocol/sdk@2.4.0", "install Node.js with npm", "--acp-schema DIR", acp.EnvSchemaDir, "schema/v1"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q: %v", want, err)
		}
	}
}

func TestLocateOrder(t *testing.T) {
	mk := func(content string) string {
		dir := t.TempDir()
		for _, f := range []string{acp.StableFile, acp.UnstableFile} {
			if err := os.WriteFile(filepath.Join(dir, f), []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return dir
	}
	flagDir, envDir := mk("{}"), mk("{}")
	env := func(k string) string {
		if k == acp.EnvSchemaDir {
			return envDir
		}
		return ""
	}
	noCache := func() (string, error) { return "", errors.New("no cache in this test") }
	tests := []struct {
		name    string
		l       acp.Locator
		want    string
		wantErr string
	}{
		{name: "the flag first", l: acp.Locator{Flag: flagDir, Getenv: env, CacheDir: noCache}, want: flagDir},
		{name: "then the environment", l: acp.Locator{Getenv: env, CacheDir: noCache}, want: envDir},
		{name: "then the cache", l: acp.Locator{Getenv: noEnv, CacheDir: noCache}, wantErr: "no user cache directory"},
		{name: "a flag without the files", l: acp.Locator{Flag: t.TempDir(), Getenv: env}, wantErr: "--acp-schema"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var log bytes.Buffer
			tt.l.Log = &log
			got, err := tt.l.Locate(context.Background())
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("Locate = %s, %v; want %s", got, err, tt.want)
			}
			// These files are not the pinned ones: used, with a warning.
			if !strings.Contains(log.String(), "is not the pinned @agentclientprotocol/sdk@2.4.0") {
				t.Errorf("no warning for unpinned files: %q", log.String())
			}
		})
	}
}
