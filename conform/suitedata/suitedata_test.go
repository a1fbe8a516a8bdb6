package suitedata_test

import (
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/airwire/airwire/conform/suitedata"
)

// fixture stands for the built-in data: a scenario, and a golden with its
// cassette and a declaration file.
var fixture = suitedata.Data{
	Scenarios: fstest.MapFS{"scenarios/a.yaml": {Data: []byte("name: a\n")}},
	Goldens: fstest.MapFS{
		"goldens/a/plain.golden":      {Data: []byte("golden\n")},
		"goldens/a/plain.cassette":    {Data: []byte("cassette\n")},
		"goldens/known-findings.json": {Data: []byte("[]\n")},
	},
}

// TestUnpackCopiesTheData: Unpack writes every file of the data, byte for
// byte, under the directory of its tree.
func TestUnpackCopiesTheData(t *testing.T) {
	dirs, err := suitedata.Unpack(t.TempDir(), fixture)
	if err != nil {
		t.Fatal(err)
	}
	for tree, dir := range map[string]string{"scenarios": dirs.Scenarios, "goldens": dirs.Goldens} {
		fsys := fixture.Scenarios
		if tree == "goldens" {
			fsys = fixture.Goldens
		}
		n := 0
		for name, f := range fsys.(fstest.MapFS) {
			rel, _ := filepath.Rel(tree, filepath.FromSlash(name))
			got, err := os.ReadFile(filepath.Join(dir, rel))
			if err != nil || string(got) != string(f.Data) {
				t.Errorf("%s: %q, %v; want %q", name, got, err, f.Data)
			}
			n++
		}
		var m int
		filepath.WalkDir(dir, func(_ string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				m++
			}
			return err
		})
		if m != n {
			t.Errorf("%s: %d files unpacked, the data has %d", tree, m, n)
		}
	}
}

// TestUnpackOnce: a second Unpack, or several at once, reuse one copy.
func TestUnpackOnce(t *testing.T) {
	cache := t.TempDir()
	var wg sync.WaitGroup
	got := make([]suitedata.Dirs, 3)
	errs := make([]error, 3)
	for i := range got {
		wg.Add(1)
		go func() { defer wg.Done(); got[i], errs[i] = suitedata.Unpack(cache, fixture) }()
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
	again, err := suitedata.Unpack(cache, fixture)
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

// TestFill: flags win; the built-in copy fills what is empty and is
// unpacked only then.
func TestFill(t *testing.T) {
	calls := 0
	built := func() (suitedata.Dirs, error) {
		calls++
		return suitedata.Dirs{Scenarios: "/b/s", Goldens: "/b/g"}, nil
	}
	for _, tt := range []struct{ s, g, wantS, wantG string }{
		{"s", "g", "s", "g"}, {"", "g", "/b/s", "g"}, {"s", "", "s", "/b/g"}, {"", "", "/b/s", "/b/g"},
	} {
		s, g, err := suitedata.Fill(tt.s, tt.g, built)
		if err != nil || s != tt.wantS || g != tt.wantG {
			t.Errorf("Fill(%q, %q) = %q, %q, %v", tt.s, tt.g, s, g, err)
		}
	}
	if calls != 3 {
		t.Errorf("built-in copy unpacked %d times, want 3", calls)
	}
	if _, _, err := suitedata.Fill("", "g", func() (suitedata.Dirs, error) { return suitedata.Dirs{}, errors.New("no copy") }); err == nil {
		t.Error("an unpack error was lost")
	}
}
