package conform_test

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/airwire/airwire/conform"
)

func TestSplitCommand(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    []string
		wantErr bool
	}{
		{name: "words", in: "node  /x/index.js --flag", want: []string{"node", "/x/index.js", "--flag"}},
		{name: "double quotes", in: `node "/a b/index.js"`, want: []string{"node", "/a b/index.js"}},
		{name: "single quotes keep backslash", in: `a 'b\c'`, want: []string{"a", `b\c`}},
		{name: "escape", in: `a b\ c`, want: []string{"a", "b c"}},
		{name: "empty quoted arg", in: `a ""`, want: []string{"a", ""}},
		{name: "unterminated", in: `a "b`, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := conform.SplitCommand(tt.in)
			if (err != nil) != tt.wantErr || (!tt.wantErr && !reflect.DeepEqual(got, tt.want)) {
				t.Errorf("SplitCommand(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
			}
		})
	}
}

// TestResolveAgent: the README's `--agent "node ./dist/index.js"` works
// although each run starts the adapter in its own workspace (issue 11,
// item 14).
func TestResolveAgent(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "dist"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "dist", "index.js"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	in := func(p string) string { return filepath.Join(dir, p) }
	tests := []struct {
		name string
		argv []string
		want []string
	}{
		{name: "README example", argv: []string{"node", "./dist/index.js"}, want: []string{"node", in("dist/index.js")}},
		{name: "existing file without ./", argv: []string{"node", "dist/index.js", "--x"}, want: []string{"node", in("dist/index.js"), "--x"}},
		{name: "relative executable", argv: []string{"bin/airwire", "agent"}, want: []string{in("bin/airwire"), "agent"}},
		{name: "parent directory", argv: []string{"../agent.sh"}, want: []string{filepath.Join(filepath.Dir(dir), "agent.sh")}},
		{name: "bare name, flags, absolute and non-file values stay", argv: []string{"npx", "--yes", "@scope/pkg", "/abs/x", "--dir=./x"},
			want: []string{"npx", "--yes", "@scope/pkg", "/abs/x", "--dir=./x"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := conform.ResolveAgent(tt.argv, dir); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("ResolveAgent(%q) = %q, want %q", tt.argv, got, tt.want)
			}
		})
	}
}
