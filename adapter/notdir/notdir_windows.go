package notdir

import (
	"errors"

	"golang.org/x/sys/windows"
)

// Is reports whether err says a path went through a file as if it
// were a directory: Windows says ERROR_DIRECTORY ("the directory name is
// invalid") where Unix says ENOTDIR, or ERROR_PATH_NOT_FOUND, which
// fs.ErrNotExist already matches.
func Is(err error) bool { return errors.Is(err, windows.ERROR_DIRECTORY) }
