package main

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/airwire/airwire/conform/suitedata"
	"github.com/airwire/airwire/internal/testroot"
)

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

// TestBuiltinSuiteIsTheCheckout: every scenario, golden, cassette and
// declaration file of the checkout is built into the binary, byte for byte,
// and nothing else.
func TestBuiltinSuiteIsTheCheckout(t *testing.T) {
	root := testroot.Root(t)
	dirs, err := suitedata.Unpack(t.TempDir(), builtinSuite())
	if err != nil {
		t.Fatal(err)
	}
	sameTree(t, filepath.Join(root, "scenarios"), dirs.Scenarios, func(p string) bool { return filepath.Ext(p) == ".yaml" })
	sameTree(t, filepath.Join(root, "goldens"), dirs.Goldens, func(string) bool { return true })
}
