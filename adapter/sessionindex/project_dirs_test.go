package sessionindex

import (
	"io/fs"
	"os"
	"testing"

	"github.com/airwire/airwire/internal/pathstyle"
)

type fakeDir string

func (d fakeDir) Name() string               { return string(d) }
func (d fakeDir) IsDir() bool                { return true }
func (d fakeDir) Type() fs.FileMode          { return fs.ModeDir }
func (d fakeDir) Info() (fs.FileInfo, error) { return nil, fs.ErrNotExist }

// A cwd's project directory is found as it is spelled on disk where the
// file system ignores case, and only by its exact name elsewhere.
func TestExactDir(t *testing.T) {
	ents := []os.DirEntry{fakeDir("-Users-A-Work"), fakeDir("c--users-a-work"), fakeDir("-home-a-Work")}
	tests := []struct {
		f          pathstyle.Flavour
		name, path string
		want       string
	}{
		{pathstyle.Darwin, "-Users-a-work", "/Users/a/work", "-Users-A-Work"},
		{pathstyle.Windows, "C--Users-a-Work", `C:\Users\a\Work`, "c--users-a-work"},
		{pathstyle.Posix, "-home-a-work", "/home/a/work", "-home-a-work"},
		{pathstyle.Darwin, "-Users-b", "/Users/b", "-Users-b"},
	}
	for _, tt := range tests {
		if got := exactDir(tt.f, ents, tt.name, tt.path); got != tt.want {
			t.Errorf("exactDir(%v, %q) = %q, want %q", tt.f, tt.path, got, tt.want)
		}
	}
}
