//go:build unix

package adapter

import (
	"errors"
	"syscall"
)

// isNotDir reports whether err says a path went through a file as if it
// were a directory (ENOTDIR): the path does not exist either.
func isNotDir(err error) bool { return errors.Is(err, syscall.ENOTDIR) }
