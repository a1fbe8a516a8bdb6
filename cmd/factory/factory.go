// Package factory is the only place in cmd/ that touches the real world:
// standard streams, the environment, the clock and process spawning. Tests
// build a Factory from buffers and fakes with New and the With options.
package factory

import (
	"context"
	"io"
	"os"
	"os/exec"
	"time"
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
	for _, o := range opts {
		o(f)
	}
	return f
}
