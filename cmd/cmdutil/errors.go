// Package cmdutil holds the typed errors and small checks that every airwire
// command shares. It never prints: cli.Main is the one place that does.
package cmdutil

import (
	"errors"
	"fmt"
	"strings"
	"syscall"
)

// FlagError is a usage mistake: a bad flag, a missing argument or a flag
// conflict. cli.Main prints it with where the command's help is and exits 2.
type FlagError struct{ Err error }

func (e *FlagError) Error() string { return e.Err.Error() }
func (e *FlagError) Unwrap() error { return e.Err }

// FlagErrorf builds a FlagError from a format string.
func FlagErrorf(format string, args ...any) error {
	return &FlagError{Err: fmt.Errorf(format, args...)}
}

// ExitError carries a child's exit status out of a command (airwire record
// exits with its agent's code). cli.Main exits with Code and prints nothing.
type ExitError struct{ Code int }

func (e *ExitError) Error() string { return fmt.Sprintf("exit status %d", e.Code) }

// ErrMismatch means a check ran and failed (conformance mismatch, validation
// errors). It maps to exit code 1, apart from usage errors (2). Build one
// with Mismatchf, whose text is the reason alone.
var ErrMismatch = errors.New("check failed")

// RequireArgsAfterDash is a helper for commands of the form `verb [flags] -- CMD ARGS…`.
func RequireArgsAfterDash(what string, args []string) error {
	if len(args) == 0 || strings.TrimSpace(args[0]) == "" {
		return FlagErrorf("missing %s: put it after --, e.g. airwire record -- node agent.js", what)
	}
	return nil
}

// SignalError is the cause of the root context's cancellation when SIGINT
// or SIGTERM arrives. cli.Main exits with Code (130 or 143, as a shell
// reports a process that the signal ended) when a command returns the
// context's error.
type SignalError struct{ Signal syscall.Signal }

func (e *SignalError) Error() string {
	switch e.Signal {
	case syscall.SIGINT:
		return "interrupted by SIGINT"
	case syscall.SIGTERM:
		return "interrupted by SIGTERM"
	}
	return "interrupted by signal " + e.Signal.String()
}

// Code is 128 + the signal's number.
func (e *SignalError) Code() int { return 128 + int(e.Signal) }
