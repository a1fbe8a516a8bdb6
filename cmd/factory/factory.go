// Package factory is the only place in cmd/ that touches the real world:
// standard streams, the environment, the clock, process spawning, the
// pinned ACP schema and the conformance data built into the binary. Tests
// build a Factory from buffers and fakes with New and the With options.
package factory

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"time"

	"github.com/airwire/airwire/conform/suitedata"
	"github.com/airwire/airwire/schemas/acp"
)

// IOStreams are the three standard streams of a command.
type IOStreams struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer
}

// Factory holds a command's dependencies.
type Factory struct {
	IO IOStreams
	// Getenv reads one environment variable.
	Getenv func(string) string
	// Environ lists the whole environment as KEY=VALUE.
	Environ func() []string
	// Now is the wall clock.
	Now func() time.Time
	// Command builds a child process bound to ctx.
	Command func(ctx context.Context, name string, args ...string) *exec.Cmd
	// Executable is the path of the running airwire binary, for commands that
	// re-enter it (the CLI shim of airwire record).
	Executable func() (string, error)
	// ACPSchemaDir finds the directory of the pinned ACP schema
	// (acp.Locator): flag (the --acp-schema value) when not "", else
	// $AIRWIRE_ACP_SCHEMA_DIR, else the user cache directory, where it is
	// fetched with npm pack when missing. It says on IO.ErrOut what it
	// fetches.
	ACPSchemaDir func(ctx context.Context, flag string) (string, error)
	// Suite unpacks the scenarios and goldens built into airwire into the
	// user cache directory (conform/suitedata) and returns where.
	Suite func() (suitedata.Dirs, error)
	// Version is the airwire version string.
	Version string
}

// Option changes a Factory built by New.
type Option func(*Factory)

// WithIO replaces the standard streams.
func WithIO(in io.Reader, out, errOut io.Writer) Option {
	return func(f *Factory) { f.IO = IOStreams{In: in, Out: out, ErrOut: errOut} }
}

// WithEnv replaces the environment with a fixed list of KEY=VALUE pairs.
func WithEnv(env []string) Option {
	return func(f *Factory) {
		m := map[string]string{}
		for _, kv := range env {
			for i := 0; i < len(kv); i++ {
				if kv[i] == '=' {
					m[kv[:i]] = kv[i+1:]
					break
				}
			}
		}
		f.Getenv = func(k string) string { return m[k] }
		f.Environ = func() []string { return append([]string(nil), env...) }
	}
}

// errNoSuite is Suite's answer when no WithSuiteData handed in the data.
var errNoSuite = errors.New("no built-in scenarios and goldens: pass --scenarios DIR and --goldens DIR")

// WithSuiteData makes Suite unpack data, the scenarios and goldens built
// into the binary (cmd/airwire hands them in), into the user cache
// directory.
func WithSuiteData(data suitedata.Data) Option {
	return func(f *Factory) {
		f.Suite = func() (suitedata.Dirs, error) {
			cache, err := os.UserCacheDir()
			if err != nil {
				return suitedata.Dirs{}, fmt.Errorf("%w (%v)", suitedata.ErrNoCache, err)
			}
			return suitedata.Unpack(cache, data)
		}
	}
}

// New returns the real-world Factory, changed by opts.
func New(version string, opts ...Option) *Factory {
	f := &Factory{
		IO:         IOStreams{In: os.Stdin, Out: os.Stdout, ErrOut: os.Stderr},
		Getenv:     os.Getenv,
		Environ:    os.Environ,
		Now:        time.Now,
		Command:    exec.CommandContext,
		Executable: os.Executable,
		Version:    version,
	}
	f.ACPSchemaDir = func(ctx context.Context, flag string) (string, error) {
		return acp.Locator{Flag: flag, Getenv: f.Getenv, CacheDir: os.UserCacheDir, Log: f.IO.ErrOut}.Locate(ctx)
	}
	f.Suite = func() (suitedata.Dirs, error) { return suitedata.Dirs{}, errNoSuite }
	for _, o := range opts {
		o(f)
	}
	return f
}
