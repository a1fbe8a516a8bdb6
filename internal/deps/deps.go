package deps

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Environment variable names, as written to .deps/paths.env by `make deps`.
// A variable set in the environment wins over the file.
const (
	EnvNode             = "AIRWIRE_NODE"
	EnvReferenceAdapter = "AIRWIRE_REFERENCE_ADAPTER"
	EnvReferenceCLI     = "AIRWIRE_REFERENCE_CLI"
	EnvACPSchemaDir     = "AIRWIRE_ACP_SCHEMA_DIR"
	// EnvACPClients is the npm prefix holding the third-party ACP clients
	// (node_modules/@agentclientprotocol/sdk and node_modules/acpx) that
	// drive `airwire play` in its tests.
	EnvACPClients = "AIRWIRE_ACP_CLIENTS"
)

// PathsFile is the file `make deps` writes, relative to the module root.
const PathsFile = ".deps/paths.env"

// ErrMissing means a dependency is not installed. Its message tells the user
// to run `make deps`.
var ErrMissing = errors.New("dependency not installed: run make deps")

// Installed holds the locations of the installed dependencies. An empty field
// was found neither in the environment nor in .deps/paths.env.
type Installed struct {
	Node             string
	ReferenceAdapter string
	ReferenceCLI     string
	ACPSchemaDir     string
	ACPClients       string
}

// Lookup reads the paths with getenv (os.Getenv when nil), falling back to
// .deps/paths.env found by walking up from dir to the directory holding go.mod.
// A missing paths.env is no error: the fields stay empty.
func Lookup(getenv func(string) string, dir string) (Installed, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	file := map[string]string{}
	if root, err := ModuleRoot(dir); err == nil {
		file, err = readEnvFile(filepath.Join(root, PathsFile))
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return Installed{}, err
		}
	}
	get := func(k string) string {
		if v := getenv(k); v != "" {
			return v
		}
		return file[k]
	}
	return Installed{
		Node:             get(EnvNode),
		ReferenceAdapter: get(EnvReferenceAdapter),
		ReferenceCLI:     get(EnvReferenceCLI),
		ACPSchemaDir:     get(EnvACPSchemaDir),
		ACPClients:       get(EnvACPClients),
	}, nil
}

// Paths is Lookup from the working directory with the real environment. It
// fails with an error wrapping ErrMissing when nothing is installed at all;
// use the Require methods for the one dependency a caller needs.
func Paths() (Installed, error) {
	wd, err := os.Getwd()
	if err != nil {
		return Installed{}, err
	}
	p, err := Lookup(os.Getenv, wd)
	if err != nil {
		return p, err
	}
	if p == (Installed{}) {
		return p, fmt.Errorf("no %s and no AIRWIRE_* variables: %w", PathsFile, ErrMissing)
	}
	return p, nil
}

// RequireACPSchemaDir returns the directory of the pinned ACP v1 schema
// files, or an error wrapping ErrMissing when it is not installed.
func (p Installed) RequireACPSchemaDir() (string, error) {
	return require(EnvACPSchemaDir, p.ACPSchemaDir)
}

// RequireACPClients returns the directory of the third-party ACP clients
// (an npm prefix: node_modules/ inside), or an error wrapping ErrMissing.
func (p Installed) RequireACPClients() (string, error) {
	return require(EnvACPClients, p.ACPClients)
}

// RequireNode returns the Node binary or an error wrapping ErrMissing.
func (p Installed) RequireNode() (string, error) { return require(EnvNode, p.Node) }

// RequireReferenceAdapter returns the reference adapter entry point or an
// error wrapping ErrMissing.
func (p Installed) RequireReferenceAdapter() (string, error) {
	return require(EnvReferenceAdapter, p.ReferenceAdapter)
}

// RequireReferenceCLI returns the reference Claude CLI or an error wrapping
// ErrMissing.
func (p Installed) RequireReferenceCLI() (string, error) {
	return require(EnvReferenceCLI, p.ReferenceCLI)
}

func require(name, path string) (string, error) {
	if path == "" {
		return "", fmt.Errorf("%s is not set and %s has no entry: %w", name, PathsFile, ErrMissing)
	}
	if _, err := os.Stat(path); err != nil {
		return "", fmt.Errorf("%s=%s: %v: %w", name, path, err, ErrMissing)
	}
	return path, nil
}

// ModuleRoot walks up from dir to the first directory that holds go.mod.
func ModuleRoot(dir string) (string, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no go.mod above %s", dir)
		}
		dir = parent
	}
}

// readEnvFile parses KEY=VALUE lines; blank lines and # comments are skipped,
// and one pair of surrounding quotes is removed from a value.
func readEnvFile(path string) (map[string]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		line = strings.TrimPrefix(line, "export ")
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		v = strings.TrimSpace(v)
		if len(v) >= 2 && (v[0] == '"' && v[len(v)-1] == '"' || v[0] == '\'' && v[len(v)-1] == '\'') {
			v = v[1 : len(v)-1]
		}
		out[strings.TrimSpace(k)] = v
	}
	return out, sc.Err()
}
