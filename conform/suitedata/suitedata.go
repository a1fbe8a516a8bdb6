package suitedata

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/airwire/airwire/internal/replacefile"
)

// Dirs are the unpacked directories.
type Dirs struct {
	// Scenarios holds the *.yaml scenario files.
	Scenarios string
	// Goldens holds <scenario>/<profile>.golden and .cassette and the
	// declaration files.
	Goldens string
}

// Data is the conformance data built into an airwire binary: Scenarios
// holds scenarios/*.yaml under a directory "scenarios", Goldens the tree
// under a directory "goldens", as the module's root package embeds them.
// cmd/airwire hands them in; tests use os.DirFS of the checkout.
type Data struct {
	Scenarios fs.FS
	Goldens   fs.FS
}

// source is one built-in tree and the name of its directory.
type source struct {
	name string
	fsys fs.FS
}

// sources are data's trees, by the name of their directory.
func (d Data) sources() []source {
	return []source{{"scenarios", d.Scenarios}, {"goldens", d.Goldens}}
}

// Unpack returns data under cache (the user cache directory), writing it
// there first unless a copy of the same content is there.
func Unpack(cache string, data Data) (Dirs, error) {
	id, err := contentID(data)
	if err != nil {
		return Dirs{}, err
	}
	parent := filepath.Join(cache, "airwire", "suite")
	dir := filepath.Join(parent, id)
	dirs := Dirs{Scenarios: filepath.Join(dir, "scenarios"), Goldens: filepath.Join(dir, "goldens")}
	if _, err := os.Stat(dir); err == nil {
		return dirs, nil
	}
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return Dirs{}, err
	}
	tmp, err := os.MkdirTemp(parent, ".unpack-")
	if err != nil {
		return Dirs{}, err
	}
	defer os.RemoveAll(tmp)
	for _, src := range data.sources() {
		sub, err := fs.Sub(src.fsys, src.name)
		if err != nil {
			return Dirs{}, err
		}
		if err := os.CopyFS(filepath.Join(tmp, src.name), sub); err != nil {
			return Dirs{}, fmt.Errorf("unpacking the built-in %s: %w", src.name, err)
		}
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		return Dirs{}, err
	}
	if err := replacefile.Rename(tmp, dir); err != nil {
		// Another airwire unpacked the same content meanwhile.
		if _, serr := os.Stat(dir); serr == nil {
			return dirs, nil
		}
		return Dirs{}, err
	}
	return dirs, nil
}

// contentID is the first 16 hex digits of a sha256 over every built-in
// file's path and bytes, in fs.WalkDir order.
func contentID(data Data) (string, error) {
	h := sha256.New()
	for _, src := range data.sources() {
		err := fs.WalkDir(src.fsys, src.name, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			f, err := src.fsys.Open(p)
			if err != nil {
				return err
			}
			defer f.Close()
			fmt.Fprintf(h, "%s\x00", p)
			n, err := io.Copy(h, f)
			fmt.Fprintf(h, "\x00%d\x00", n)
			return err
		})
		if err != nil {
			return "", err
		}
	}
	return hex.EncodeToString(h.Sum(nil))[:16], nil
}

// ErrNoCache means there is no user cache directory to unpack into.
var ErrNoCache = errors.New("no user cache directory for the built-in scenarios and goldens: pass --scenarios DIR and --goldens DIR")

// Fill returns scenarios and goldens, each replaced by the built-in copy's
// directory when "" (built unpacks it, and is called only then).
func Fill(scenarios, goldens string, built func() (Dirs, error)) (string, string, error) {
	if scenarios != "" && goldens != "" {
		return scenarios, goldens, nil
	}
	d, err := built()
	if err != nil {
		return "", "", err
	}
	return cmp.Or(scenarios, d.Scenarios), cmp.Or(goldens, d.Goldens), nil
}
