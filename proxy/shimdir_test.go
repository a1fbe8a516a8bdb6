package proxy

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestShimSocketFitsUnderADeepTempDir: with a $TMPDIR too deep for a unix
// socket path (a macOS per-user TMPDIR under a stand-in's own directory),
// the recorder's socket goes below /tmp instead of failing to bind.
func TestShimSocketFitsUnderADeepTempDir(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the fallback to /tmp is Unix's")
	}
	deep := filepath.Join(t.TempDir(), strings.Repeat("d", 60), strings.Repeat("e", 40))
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TMPDIR", deep)
	l, err := ListenShim(NewRecorder(nil))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close(0)
	if len(l.Path()) > maxSocketPath {
		t.Errorf("socket path of %d bytes: %s", len(l.Path()), l.Path())
	}
	if strings.HasPrefix(l.Dir(), deep) {
		t.Errorf("the socket stayed below the deep TMPDIR: %s", l.Dir())
	}
	t.Setenv("TMPDIR", t.TempDir())
	short, err := ListenShim(NewRecorder(nil))
	if err != nil {
		t.Fatal(err)
	}
	defer short.Close(0)
	if !strings.HasPrefix(short.Dir(), os.TempDir()) {
		t.Errorf("a short TMPDIR was not used: %s", short.Dir())
	}
}
