package acp

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
)

// EnvSchemaDir names the directory of the pinned schema files when no
// --acp-schema flag is given.
const EnvSchemaDir = "AIRWIRE_ACP_SCHEMA_DIR"

// ErrNoNPM means the schema is in none of the places Locate looks and npm,
// which fetches it, is not on PATH.
var ErrNoNPM = errors.New("npm is not on PATH")

// ErrPinMismatch means fetched bytes differ from schemas/acp/PIN.
var ErrPinMismatch = errors.New("checksum differs from schemas/acp/PIN")

// Locator finds the directory that holds the pinned schema files
// (schema.json and schema.unstable.json of the package named in PIN).
type Locator struct {
	// Flag is the --acp-schema value ("" when not given).
	Flag string
	// Getenv reads EnvSchemaDir (os.Getenv when nil).
	Getenv func(string) string
	// CacheDir is the user cache directory (os.UserCacheDir when nil).
	CacheDir func() (string, error)
	// Pack runs `npm pack SPEC` in dir (NPMPack when nil).
	Pack func(ctx context.Context, dir, spec string) error
	// Log receives what Locate does besides looking: a fetch, a file that
	// does not match the pin (io.Discard when nil).
	Log io.Writer
}

// Locate returns the v1 schema directory: the Flag, else
// $AIRWIRE_ACP_SCHEMA_DIR, else <user cache>/airwire/acp-schema/<package>/v1.
// The ACP v2 draft's schema is its sibling (V2Dir). When none holds the files,
// it fetches the package into the cache with `npm pack`, checks the tarball
// and the files against the pin, and says so on Log. A directory given by
// the flag or the environment must hold both files; if they differ from the
// pin, Locate says so and uses them. A cached copy that differs is fetched
// again.
func (l Locator) Locate(ctx context.Context) (string, error) {
	pin := Pinned()
	getenv := l.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	for _, src := range []struct{ dir, from string }{{l.Flag, "--acp-schema"}, {getenv(EnvSchemaDir), EnvSchemaDir}} {
		if src.dir == "" {
			continue
		}
		bad, err := pin.check(src.dir, PackageDir)
		if err != nil {
			return "", fmt.Errorf("%s %s: %w", src.from, src.dir, err)
		}
		for _, f := range bad {
			fmt.Fprintf(l.log(), "airwire: warning: %s in %s (%s) is not the pinned %s: validating against it anyway\n", f, src.dir, src.from, pin.Package)
		}
		// The v2 draft beside it is optional here: without it, v1
		// connections validate and a v2 one fails (V2Dir).
		if bad, err := pin.check(V2Dir(src.dir), PackageDirV2); err == nil {
			for _, f := range bad {
				fmt.Fprintf(l.log(), "airwire: warning: %s in %s is not the pinned %s: validating against it anyway\n", f, V2Dir(src.dir), pin.Package)
			}
		}
		return src.dir, nil
	}
	dir, err := l.cacheDir(pin)
	if err != nil {
		return "", err
	}
	if bad, err := pin.checkBoth(dir); err == nil && len(bad) == 0 {
		return dir, nil
	} else if err == nil {
		fmt.Fprintf(l.log(), "airwire: the cached ACP schema in %s differs from its pin (%s): fetching it again\n", filepath.Dir(dir), strings.Join(bad, ", "))
	}
	if err := l.fetch(ctx, pin, dir); err != nil {
		return "", err
	}
	return dir, nil
}

func (l Locator) log() io.Writer {
	if l.Log == nil {
		return io.Discard
	}
	return l.Log
}

// cacheDir is <user cache>/airwire/acp-schema/<tarball name without .tgz>/v1.
func (l Locator) cacheDir(pin Pin) (string, error) {
	userCache := l.CacheDir
	if userCache == nil {
		userCache = os.UserCacheDir
	}
	base, err := userCache()
	if err != nil {
		return "", fmt.Errorf("no user cache directory to keep the ACP schema in (%v): pass --acp-schema DIR or set %s", err, EnvSchemaDir)
	}
	return filepath.Join(base, "airwire", "acp-schema", strings.TrimSuffix(pin.Tarball, ".tgz"), "v1"), nil
}

// V2Dir is the directory of the ACP v2 draft's schema files that goes with
// the v1 schema directory dir: its sibling "v2", as `make deps` and the user
// cache lay them out (.../schema/v1 and .../schema/v2).
func V2Dir(dir string) string { return filepath.Join(filepath.Dir(filepath.Clean(dir)), "v2") }

// check reports which schema files in dir differ from the pin's files of
// pkgDir (PackageDir or PackageDirV2); it fails when one cannot be read.
func (p Pin) check(dir, pkgDir string) (bad []string, err error) {
	for _, f := range []string{StableFile, UnstableFile} {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			return nil, err
		}
		if sum(b) != p.Sums[pkgDir+"/"+f] {
			bad = append(bad, path.Join(path.Base(pkgDir), f))
		}
	}
	return bad, nil
}

// checkBoth is check of the v1 directory dir and of its v2 sibling.
func (p Pin) checkBoth(dir string) ([]string, error) {
	bad, err := p.check(dir, PackageDir)
	if err != nil {
		return nil, err
	}
	bad2, err := p.check(V2Dir(dir), PackageDirV2)
	return append(bad, bad2...), err
}

// fetch packs the pinned package into a fresh directory next to the package
// directory (dir's parent), checks it and renames the schema directories (v1,
// v2) into it.
func (l Locator) fetch(ctx context.Context, pin Pin, dir string) error {
	pack := l.Pack
	if pack == nil {
		pack = NPMPack
	}
	pkg := filepath.Dir(dir)
	if err := os.MkdirAll(filepath.Dir(pkg), 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(filepath.Dir(pkg), ".fetch-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	fmt.Fprintf(l.log(), "airwire: the pinned ACP schema (%s) is not in %s yet: fetching it with npm pack, checked against schemas/acp/PIN\n", pin.Package, dir)
	if err := pack(ctx, tmp, pin.Package); err != nil {
		if errors.Is(err, ErrNoNPM) {
			return fmt.Errorf("the pinned ACP schema (%s) is not in %s and %w to fetch it: install Node.js with npm, or pass --acp-schema DIR (or set %s) for a directory holding %s and %s from that package's %s",
				pin.Package, dir, err, EnvSchemaDir, StableFile, UnstableFile, PackageDir)
		}
		return fmt.Errorf("fetching the ACP schema %s: %w", pin.Package, err)
	}
	tgz, err := os.ReadFile(filepath.Join(tmp, pin.Tarball))
	if err != nil {
		return fmt.Errorf("npm pack %s: %w", pin.Package, err)
	}
	if got := sum(tgz); got != pin.Sums[pin.Tarball] {
		return fmt.Errorf("%s: sha256 %s: %w (%s); the registry served other bytes than the pin names", pin.Tarball, got, ErrPinMismatch, pin.Sums[pin.Tarball])
	}
	out := filepath.Join(tmp, "pkg")
	if err := extract(tgz, pin, out); err != nil {
		return fmt.Errorf("%s: %w", pin.Tarball, err)
	}
	if err := os.Rename(out, pkg); err != nil {
		// pkg exists: another airwire fetched it meanwhile, or it is the
		// stale copy that made this fetch.
		if bad, cerr := pin.checkBoth(dir); cerr == nil && len(bad) == 0 {
			return nil
		}
		if err := os.RemoveAll(pkg); err != nil {
			return err
		}
		if err := os.Rename(out, pkg); err != nil {
			return err
		}
	}
	fmt.Fprintf(l.log(), "airwire: ACP schema ready in %s\n", dir)
	return nil
}

// extract writes package/schema/{v1,v2}/{schema.json,schema.unstable.json}
// of the tarball into dir/v1 and dir/v2, each checked against the pin.
func extract(tgz []byte, pin Pin, dir string) error {
	zr, err := gzip.NewReader(bytes.NewReader(tgz))
	if err != nil {
		return err
	}
	want := map[string]string{}
	for _, pd := range PackageDirs {
		if err := os.MkdirAll(filepath.Join(dir, path.Base(pd)), 0o755); err != nil {
			return err
		}
		for _, f := range []string{StableFile, UnstableFile} {
			want[path.Join("package", pd, f)] = path.Join(pd, f)
		}
	}
	tr := tar.NewReader(zr)
	for len(want) > 0 {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
		name, ok := want[h.Name]
		if !ok || h.Typeflag != tar.TypeReg {
			continue
		}
		b, err := io.ReadAll(io.LimitReader(tr, 64<<20))
		if err != nil {
			return err
		}
		if got := sum(b); got != pin.Sums[name] {
			return fmt.Errorf("%s: sha256 %s: %w", name, got, ErrPinMismatch)
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(strings.TrimPrefix(name, "schema/"))), b, 0o644); err != nil {
			return err
		}
		delete(want, h.Name)
	}
	for p := range want {
		return fmt.Errorf("%s: %w", p, fs.ErrNotExist)
	}
	return nil
}

// NPMPack runs `npm pack --silent SPEC` in dir, as `make deps` does: npm
// writes SPEC's tarball there. It fails with ErrNoNPM when npm is not on
// PATH.
func NPMPack(ctx context.Context, dir, spec string) error {
	npm, err := exec.LookPath("npm")
	if err != nil {
		return ErrNoNPM
	}
	cmd := exec.CommandContext(ctx, npm, "pack", "--silent", spec)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "npm_config_update_notifier=false", "npm_config_fund=false", "npm_config_audit=false")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("npm pack %s: %v: %s", spec, err, strings.TrimSpace(stderr.String()))
	}
	return nil
}

func sum(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}
