//go:build unix

package notdir

import (
	"errors"
	"syscall"
)

// Is reports whether err says a path went through a file as if it
// were a directory (ENOTDIR): the path does not exist either.
func Is(err error) bool { return errors.Is(err, syscall.ENOTDIR) }
