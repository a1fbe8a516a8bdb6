package cassette

import (
	"os"

	"golang.org/x/sys/windows"
)

// lockRange is the byte range lockFile locks: the whole of any file (the
// spawn counter is a few bytes; a lock may cover bytes past the end).
const lockRange = ^uint32(0)

// lockFile takes an exclusive lock on f, waiting for it (LockFileEx
// without LOCKFILE_FAIL_IMMEDIATELY): the CLI processes of one replayed
// run count their spawns in one file. Unlike flock the lock is mandatory,
// which the counter, read and written only under it, does not mind.
func lockFile(f *os.File) error {
	var ol windows.Overlapped
	return windows.LockFileEx(windows.Handle(f.Fd()), windows.LOCKFILE_EXCLUSIVE_LOCK, 0, lockRange, lockRange, &ol)
}

// unlockFile releases the lock of lockFile.
func unlockFile(f *os.File) error {
	var ol windows.Overlapped
	return windows.UnlockFileEx(windows.Handle(f.Fd()), 0, lockRange, lockRange, &ol)
}
