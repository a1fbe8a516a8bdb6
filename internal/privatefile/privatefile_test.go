package privatefile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// A new file is created private (checkPrivate: mode 0600 on Unix, an
// owner-only protected DACL on Windows); an existing one is refused with
// fs.ErrExist and left as it was.
func TestCreateNewIsPrivateAndNeverClobbers(t *testing.T) {
	path := filepath.Join(t.TempDir(), "j.jsonl")
	f, err := CreateNew(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString("precious\n"); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	checkPrivate(t, path)
	if _, err := CreateNew(path); !errors.Is(err, fs.ErrExist) {
		t.Fatalf("CreateNew over an existing file: %v, want ErrExist", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "precious\n" {
		t.Fatalf("existing file changed: %q", b)
	}
}

// A symlink is never written through: neither to an existing file nor to
// a missing one, which is not created.
func TestCreateNewRefusesSymlinks(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "precious.txt")
	if err := os.WriteFile(target, []byte("keep me"), 0o644); err != nil {
		t.Fatal(err)
	}
	link, dangling := filepath.Join(dir, "link"), filepath.Join(dir, "dangling")
	symlink(t, target, link)
	symlink(t, filepath.Join(dir, "nowhere"), dangling)
	for _, p := range []string{link, dangling} {
		if f, err := CreateNew(p); err == nil {
			f.Close()
			t.Errorf("CreateNew(%s) wrote through a symlink", filepath.Base(p))
		}
	}
	if b, _ := os.ReadFile(target); string(b) != "keep me" {
		t.Fatalf("symlink target overwritten: %q", b)
	}
	if _, err := os.Lstat(filepath.Join(dir, "nowhere")); err == nil {
		t.Fatal("a dangling symlink's target was created")
	}
}

// symlink makes a symlink, or skips the test where this user may not (a
// Windows account without the privilege or developer mode), except in CI.
func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal(err)
		}
		t.Skipf("no symlinks here: %v", err)
	}
}
