//go:build unix

package privatefile

import (
	"os"

	"golang.org/x/sys/unix"
)

// CreateNew creates path for writing, which must not exist (an error that
// matches fs.ErrExist if it does, a symlink included: O_NOFOLLOW with
// O_EXCL never follows one), with mode 0600. The handle is not inherited
// by child processes.
func CreateNew(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o600)
}
