//go:build unix

package proxy

import (
	"os"

	"golang.org/x/sys/unix"
)

// replaceFd makes f's descriptor a copy of with's: the number stays taken.
func replaceFd(with, f *os.File) error {
	return unix.Dup2(int(with.Fd()), int(f.Fd()))
}
