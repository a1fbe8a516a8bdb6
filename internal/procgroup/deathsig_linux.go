//go:build linux && !airwire_portable

package procgroup

import "syscall"

// deathGuard is empty on Linux: the kernel's parent-death signal needs no
// helper.
type deathGuard struct{}

// newDeathGuard has the kernel signal the leader when this process dies:
// SIGTERM, or SIGKILL when no grace was asked for.
func newDeathGuard(attr *syscall.SysProcAttr, o options) (deathGuard, error) {
	if o.parentDeath {
		attr.Pdeathsig = syscall.SIGTERM
		if o.deathGrace == 0 {
			attr.Pdeathsig = syscall.SIGKILL
		}
	}
	return deathGuard{}, nil
}

func (deathGuard) watch(pgid int) {}

func (deathGuard) release() {}
