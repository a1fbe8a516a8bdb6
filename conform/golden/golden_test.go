package golden_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sebdah/goldie/v2"

	"github.com/airwire/airwire/conform/golden"
)

func TestMatch(t *testing.T) {
	const base = "client agent->editor {\"id\":1,\"result\":{\"stopReason\":\"end_turn\",\"usage\":{\"inputTokens\":10}}}\ncli:1 agent->cli {\"type\":\"user\"}\n"
	tests := map[string]struct {
		golden   string // "" = no file
		got      string
		wantErr  error
		wantText []string
	}{
		"equal":   {golden: base, got: base},
		"missing": {got: base, wantErr: golden.ErrMissing},
		"changed field": {
			golden:   base,
			got:      strings.Replace(base, `"end_turn"`, `"cancelled"`, 1),
			wantErr:  golden.ErrMismatch,
			wantText: []string{"line 1 (client agent->editor)", `JSON path $.result.stopReason: expected "end_turn", got "cancelled"`, "--- Expected", "+++ Actual"},
		},
		"added key": {
			golden:   base,
			got:      strings.Replace(base, `{"inputTokens":10}`, `{"inputTokens":10,"outputTokens":2}`, 1),
			wantErr:  golden.ErrMismatch,
			wantText: []string{"$.result.usage.outputTokens: expected (absent), got 2"},
		},
		"extra line": {
			golden:   base,
			got:      base + "cli:run spawn {\"argv\":[]}\n",
			wantErr:  golden.ErrMismatch,
			wantText: []string{"first difference on line 3"},
		},
		"tag differs": {
			golden:   base,
			got:      strings.Replace(base, "cli:1 agent->cli", "cli:2 agent->cli", 1),
			wantErr:  golden.ErrMismatch,
			wantText: []string{"line 2:", "expected: cli:1 agent->cli"},
		},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			g := golden.New(dir, golden.WithUpdate(false))
			if tt.golden != "" {
				f := g.File("scn/air")
				if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(f, []byte(tt.golden), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			err := g.Match("scn/air", []byte(tt.got))
			if !errors.Is(err, tt.wantErr) || (tt.wantErr == nil && err != nil) {
				t.Fatalf("Match() = %v, want %v", err, tt.wantErr)
			}
			for _, s := range tt.wantText {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error text lacks %q:\n%s", s, err)
				}
			}
		})
	}
}

// TestLayoutIsGoldies pins the file name to goldie's own naming.
func TestLayoutIsGoldies(t *testing.T) {
	dir := t.TempDir()
	gd := goldie.New(t, goldie.WithFixtureDir(dir))
	if got, want := golden.New(dir).File("bash-foreground/air"), gd.GoldenFileName(t, "bash-foreground/air"); got != want {
		t.Errorf("File = %s, goldie says %s", got, want)
	}
}

func TestUpdateWritesThenCompares(t *testing.T) {
	dir := t.TempDir()
	g := golden.New(dir, golden.WithUpdate(true))
	if err := g.Match("a/plain", []byte("x {}\n")); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "a", "plain.golden"))
	if err != nil || string(b) != "x {}\n" {
		t.Fatalf("golden = %q, %v", b, err)
	}
	if err := golden.New(dir, golden.WithUpdate(false)).Match("a/plain", []byte("x {}\n")); err != nil {
		t.Fatal(err)
	}
}
