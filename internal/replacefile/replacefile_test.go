package replacefile

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// A file renamed over another replaces it, and no temporary name is left.
func TestRenameReplacesAFile(t *testing.T) {
	dir := t.TempDir()
	tmp, target := filepath.Join(dir, "title.json.tmp"), filepath.Join(dir, "title.json")
	os.WriteFile(target, []byte("old"), 0o600)
	os.WriteFile(tmp, []byte("new"), 0o600)
	if err := Rename(tmp, target); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(target); string(b) != "new" {
		t.Fatalf("target holds %q", b)
	}
	if _, err := os.Lstat(tmp); !os.IsNotExist(err) {
		t.Fatalf("the temporary file is left: %v", err)
	}
}

// A reader that holds the target open for a moment (on Windows without
// FILE_SHARE_DELETE, so MoveFileEx fails until it closes) delays the
// replacement but does not make it fail.
func TestRenameOverAFileHeldOpenForAMoment(t *testing.T) {
	dir := t.TempDir()
	tmp, target := filepath.Join(dir, "title.json.tmp"), filepath.Join(dir, "title.json")
	os.WriteFile(target, []byte("old"), 0o600)
	os.WriteFile(tmp, []byte("new"), 0o600)
	reader, err := os.Open(target)
	if err != nil {
		t.Fatal(err)
	}
	timer := time.AfterFunc(100*time.Millisecond, func() { reader.Close() })
	defer timer.Stop()
	if err := Rename(tmp, target); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(target); string(b) != "new" {
		t.Fatalf("target holds %q", b)
	}
}

// A directory renamed to a free name moves whole; onto an existing
// directory with files it fails and leaves both as they were (the suite
// data's unpacking then keeps the copy already there).
func TestRenameDirectory(t *testing.T) {
	dir := t.TempDir()
	src, dst := filepath.Join(dir, ".unpack-1"), filepath.Join(dir, "abc")
	os.MkdirAll(filepath.Join(src, "scenarios"), 0o755)
	os.WriteFile(filepath.Join(src, "scenarios", "a.yaml"), []byte("a"), 0o644)
	if err := Rename(src, dst); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(dst, "scenarios", "a.yaml")); string(b) != "a" {
		t.Fatalf("moved file holds %q", b)
	}
	other := filepath.Join(dir, ".unpack-2")
	os.MkdirAll(filepath.Join(other, "scenarios"), 0o755)
	os.WriteFile(filepath.Join(other, "scenarios", "a.yaml"), []byte("b"), 0o644)
	if err := Rename(other, dst); err == nil {
		t.Fatal("a directory was renamed over a directory with files")
	}
	if b, _ := os.ReadFile(filepath.Join(dst, "scenarios", "a.yaml")); string(b) != "a" {
		t.Fatalf("the existing copy changed: %q", b)
	}
}
