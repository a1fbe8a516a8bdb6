//go:build !windows

package replacefile

import "os"

// Rename renames oldpath to newpath, replacing a file at newpath.
func Rename(oldpath, newpath string) error { return os.Rename(oldpath, newpath) }
