package suitedata_test

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/airwire/airwire/conform/suitedata"

	"github.com/airwire/airwire/internal/testroot"
)

func repoRoot(t *testing.T) string {
	t.Helper()
	return testroot.Root(t)
}

// sameTree fails unless dir holds exactly the files of want (keep selects
// which files of want count), byte for byte.
func sameTree(t *testing.T, want, dir string, keep func(string) bool) {
	t.Helper()
	n := 0
	err := filepath.WalkDir(want, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !keep(p) {
			return err
		}
		rel, _ := filepath.Rel(want, p)
		a, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		b, err := os.ReadFile(filepath.Join(dir, rel))
		if err != nil {
			t.Errorf("%s is not built in: %v", rel, err)
			return nil
		}
		if !bytes.Equal(a, b) {
			t.Errorf("%s differs from the checkout", rel)
		}
		n++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	m := 0
	filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			m++
		}
		return err
	})
	if n == 0 || m != n {
		t.Errorf("%s: %d files unpacked, the checkout has %d", dir, m, n)
	}
}

// TestUnpackIsTheCheckout: every scenario, golden, cassette and declaration
// file of the checkout is built in, byte for byte, and nothing else.
func TestUnpackIsTheCheckout(t *testing.T) {
	root := repoRoot(t)
	dirs, err := suitedata.Unpack(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	sameTree(t, filepath.Join(root, "scenarios"), dirs.Scenarios, func(p string) bool { return filepath.Ext(p) == ".yaml" })
	sameTree(t, filepath.Join(root, "goldens"), dirs.Goldens, func(string) bool { return true })
}

// TestUnpackOnce: a second Unpack, or several at once, reuse one copy.
func TestUnpackOnce(t *testing.T) {
	cache := t.TempDir()
	var wg sync.WaitGroup
	got := make([]suitedata.Dirs, 3)
	errs := make([]error, 3)
	for i := range got {
		wg.Add(1)
		go func() { defer wg.Done(); got[i], errs[i] = suitedata.Unpack(cache) }()
	}
	wg.Wait()
	for i := range got {
		if errs[i] != nil || got[i] != got[0] {
			t.Fatalf("Unpack %d: %+v, %v (first %+v)", i, got[i], errs[i], got[0])
		}
	}
	mark := filepath.Join(got[0].Goldens, "mark")
	if err := os.WriteFile(mark, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	again, err := suitedata.Unpack(cache)
	if err != nil || again != got[0] {
		t.Fatalf("again: %+v, %v", again, err)
	}
	if _, err := os.Stat(mark); err != nil {
		t.Fatal("the second Unpack wrote the copy again")
	}
	left, err := os.ReadDir(filepath.Join(cache, "airwire", "suite"))
	if err != nil || len(left) != 1 {
		t.Fatalf("cache holds %v (%v)", left, err)
	}
}
