package conform

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/airwire/airwire/conform/golden"
)

// TestMeasuredRunKeepsWhatItCompared: a live run (its durations measured
// anew) keeps its transcript as compared, whether it matches its golden
// (durations apart) or not, as a replayed run does; the JSON report's
// transcript, which "airwire diff" compares, comes from it.
func TestMeasuredRunKeepsWhatItCompared(t *testing.T) {
	dir := t.TempDir()
	want := "client agent->editor {\"jsonrpc\":\"2.0\",\"method\":\"x\",\"params\":{\"duration_ms\":100}}\n"
	if err := os.MkdirAll(filepath.Join(dir, "s"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "s", "air.golden"), []byte(want), 0o644); err != nil {
		t.Fatal(err)
	}
	g := golden.New(dir, golden.WithUpdate(false))
	for _, tc := range []struct {
		canon string
		fails bool
	}{
		{"client agent->editor {\"jsonrpc\":\"2.0\",\"method\":\"x\",\"params\":{\"duration_ms\":250}}\n", false},
		{"client agent->editor {\"jsonrpc\":\"2.0\",\"method\":\"y\",\"params\":{\"duration_ms\":250}}\n", true},
	} {
		for _, measured := range []bool{true, false} {
			out := &Outcome{}
			err := out.match(g, "s/air", []byte(tc.canon), nil, measured)
			if fails := err != nil; fails != (tc.fails || !measured) || err != nil && !errors.Is(err, golden.ErrMismatch) {
				t.Errorf("measured %v, %q: err = %v", measured, tc.canon, err)
			}
			if string(out.Compared) != tc.canon {
				t.Errorf("measured %v, %q: compared %q", measured, tc.canon, out.Compared)
			}
		}
	}
}
