package deps

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

func tree(t *testing.T, env string) (root, sub string) {
	t.Helper()
	root = t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "go.mod"), []byte("module x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sub = filepath.Join(root, "a", "b")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if env != "" {
		if err := os.MkdirAll(filepath.Join(root, ".deps"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, PathsFile), []byte(env), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root, sub
}

func noEnv(string) string { return "" }

func TestLookup(t *testing.T) {
	tests := []struct {
		name   string
		file   string
		env    map[string]string
		schema string
	}{
		{name: "file found from a subdirectory", file: "# c\nAIRWIRE_ACP_SCHEMA_DIR=/s/v1\nAIRWIRE_NODE=\"/n/node\"\n", schema: "/s/v1"},
		{name: "environment wins", file: "AIRWIRE_ACP_SCHEMA_DIR=/s/v1\n", env: map[string]string{EnvACPSchemaDir: "/env/v1"}, schema: "/env/v1"},
		{name: "no file", schema: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, sub := tree(t, tt.file)
			p, err := Lookup(func(k string) string { return tt.env[k] }, sub)
			if err != nil {
				t.Fatal(err)
			}
			if p.ACPSchemaDir != tt.schema {
				t.Errorf("ACPSchemaDir = %q, want %q", p.ACPSchemaDir, tt.schema)
			}
		})
	}
}

func TestQuotedValueAndRequire(t *testing.T) {
	root, sub := tree(t, "")
	dir := filepath.Join(root, "schema")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	_ = os.MkdirAll(filepath.Join(root, ".deps"), 0o755)
	_ = os.WriteFile(filepath.Join(root, PathsFile), []byte("AIRWIRE_ACP_SCHEMA_DIR='"+dir+"'\n"), 0o644)
	p, err := Lookup(noEnv, sub)
	if err != nil {
		t.Fatal(err)
	}
	got, err := p.RequireACPSchemaDir()
	if err != nil || got != dir {
		t.Fatalf("RequireACPSchemaDir = %q, %v", got, err)
	}
	if _, err := p.RequireNode(); !errors.Is(err, ErrMissing) {
		t.Fatalf("missing node: err = %v, want ErrMissing", err)
	}
	p.Node = filepath.Join(root, "nope")
	if _, err := p.RequireNode(); !errors.Is(err, ErrMissing) {
		t.Fatalf("absent file: err = %v, want ErrMissing", err)
	}
}

func TestPathsFromThisModule(t *testing.T) {
	t.Setenv(EnvACPSchemaDir, "/from/env")
	p, err := Paths()
	if err != nil {
		t.Fatal(err)
	}
	if p.ACPSchemaDir != "/from/env" {
		t.Fatalf("ACPSchemaDir = %q", p.ACPSchemaDir)
	}
}

func TestACPClients(t *testing.T) {
	root, sub := tree(t, "")
	dir := filepath.Join(root, "clients")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	_ = os.MkdirAll(filepath.Join(root, ".deps"), 0o755)
	_ = os.WriteFile(filepath.Join(root, PathsFile), []byte("AIRWIRE_NODE=/n/node\nAIRWIRE_ACP_CLIENTS="+dir+"\n"), 0o644)
	p, err := Lookup(noEnv, sub)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := p.RequireACPClients(); err != nil || got != dir {
		t.Fatalf("RequireACPClients = %q, %v; want %q", got, err, dir)
	}
	p, err = Lookup(func(k string) string { return map[string]string{EnvACPClients: "/env/clients"}[k] }, sub)
	if err != nil || p.ACPClients != "/env/clients" {
		t.Fatalf("environment: ACPClients = %q, %v", p.ACPClients, err)
	}
	if _, err := p.RequireACPClients(); !errors.Is(err, ErrMissing) {
		t.Fatalf("absent directory: err = %v, want ErrMissing", err)
	}
	p.ACPClients = ""
	if _, err := p.RequireACPClients(); !errors.Is(err, ErrMissing) {
		t.Fatalf("unset: err = %v, want ErrMissing", err)
	}
}

// fakeTB records how Unavailable ended a test.
type fakeTB struct{ skipped, failed string }

func (f *fakeTB) Helper()                           {}
func (f *fakeTB) Skipf(format string, args ...any)  { f.skipped = fmt.Sprintf(format, args...) }
func (f *fakeTB) Fatalf(format string, args ...any) { f.failed = fmt.Sprintf(format, args...) }

func TestUnavailableFailsUnderCI(t *testing.T) {
	for _, tc := range []struct {
		ci   string
		fail bool
	}{{"", false}, {"false", false}, {"0", false}, {"true", true}, {"1", true}} {
		t.Setenv("CI", tc.ci)
		var f fakeTB
		Unavailable(&f, "no %s", "node")
		if got := f.failed != ""; got != tc.fail || (f.failed+f.skipped) != "no node" {
			t.Errorf("CI=%q: failed %q, skipped %q; want failed=%v", tc.ci, f.failed, f.skipped, tc.fail)
		}
	}
}
