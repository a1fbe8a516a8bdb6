//go:build linux && !airwire_portable && (amd64 || arm64 || riscv64)

package sessionindex

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// fstatatName stats name in the open directory fd, following a symlink.
// name is followed by a NUL in memory (statBatch.pick puts one after
// each path), so it is passed as it is: unix.Fstatat would copy each of
// the 10,000 names of a cold listing to add one.
func fstatatName(fd int, name string, st *unix.Stat_t) error {
	_, _, e := unix.Syscall6(unix.SYS_NEWFSTATAT, uintptr(fd), uintptr(unsafe.Pointer(unsafe.StringData(name))),
		uintptr(unsafe.Pointer(st)), 0, 0, 0)
	if e != 0 {
		return e
	}
	return nil
}
