//go:build unix

package procgroup

import (
	"errors"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// sysGroup is a Unix process group: its id is the leader's pid.
type sysGroup struct {
	pgid  int
	guard deathGuard
}

func (g *Group) start(o options) error {
	if g.cmd.SysProcAttr == nil {
		g.cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	g.cmd.SysProcAttr.Setpgid = true
	guard, err := newDeathGuard(g.cmd.SysProcAttr, o)
	if err != nil {
		return err
	}
	if err := g.cmd.Start(); err != nil {
		guard.release()
		return err
	}
	g.sys = sysGroup{pgid: g.cmd.Process.Pid, guard: guard}
	guard.watch(g.sys.pgid)
	return nil
}

func (g *Group) terminate() error { return unix.Kill(-g.sys.pgid, unix.SIGTERM) }

func (g *Group) signal(sig os.Signal) error { return g.cmd.Process.Signal(sig) }

func (g *Group) kill() error { return unix.Kill(-g.sys.pgid, unix.SIGKILL) }

func (g *Group) alive() bool { return signalZero(-g.sys.pgid) }

func (g *Group) release() { g.sys.guard.release() }

// Running reports whether a process with this pid exists (kill(pid, 0);
// EPERM: it exists, owned by someone else).
func Running(pid int) bool {
	return pid > 0 && signalZero(pid)
}

func signalZero(pid int) bool {
	err := unix.Kill(pid, 0)
	return err == nil || errors.Is(err, unix.EPERM)
}
