//go:build !unix

package agent

import "io"

// pollable is in unchanged: only Unix descriptors are switched to the
// runtime's poller (stdin_unix.go).
func pollable(in io.Reader) (io.Reader, func()) { return in, func() {} }
