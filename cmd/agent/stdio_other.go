//go:build !unix

package agent

import "os"

// pollableFile leaves f as it is: only Unix descriptors are switched to
// the runtime's poller (stdio_unix.go).
func pollableFile(f *os.File) (*os.File, func(), bool) { return f, func() {}, false }
