package replacefile

import (
	"errors"
	"os"
	"time"

	"golang.org/x/sys/windows"
)

// retryFor is how long Rename retries while a name is held open: a scanner
// holds a new file for some milliseconds, rarely a second.
const retryFor = 2 * time.Second

// Rename renames oldpath to newpath, replacing a file at newpath, and
// retries while either name is held open by another process.
func Rename(oldpath, newpath string) error {
	deadline := time.Now().Add(retryFor)
	for wait := time.Millisecond; ; wait = min(2*wait, 100*time.Millisecond) {
		err := os.Rename(oldpath, newpath)
		if err == nil || !heldOpen(err) || isDir(newpath) || time.Now().After(deadline) {
			return err
		}
		time.Sleep(wait)
	}
}

// isDir reports whether path is a directory, which MoveFileEx never
// replaces (ERROR_ACCESS_DENIED too, but no wait changes it).
func isDir(path string) bool {
	st, err := os.Lstat(path)
	return err == nil && st.IsDir()
}

// heldOpen reports whether err is how MoveFileEx says another handle is
// in the way.
func heldOpen(err error) bool {
	return errors.Is(err, windows.ERROR_ACCESS_DENIED) || errors.Is(err, windows.ERROR_SHARING_VIOLATION)
}
