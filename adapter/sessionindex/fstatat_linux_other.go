//go:build linux && !airwire_portable && !(amd64 || arm64 || riscv64)

package sessionindex

import "golang.org/x/sys/unix"

// fstatatName stats name in the open directory fd, following a symlink.
func fstatatName(fd int, name string, st *unix.Stat_t) error {
	return unix.Fstatat(fd, name, st, 0)
}
