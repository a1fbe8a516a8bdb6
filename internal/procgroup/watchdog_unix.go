//go:build (unix && !linux) || (linux && airwire_portable)

package procgroup

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"time"
)

// watchdogScript is the watchdog's whole program. Its stdin is the read
// end of a pipe whose write end only the parent holds. The first line is
// the group to guard; a second line means the parent let the group go.
// EOF instead means the parent died (the kernel closed its end, however
// it died): SIGTERM to the group, then SIGKILL once the group is still
// there after $1 tenths of a second. The watchdog ignores the signals a
// terminal or a group kill would send it.
const watchdogScript = `trap '' HUP INT QUIT TERM PIPE
read -r g || exit 0
read -r _ && exit 0
kill -s TERM -- "-$g" 2>/dev/null || exit 0
n=$1
while [ "$n" -gt 0 ] && kill -s 0 -- "-$g" 2>/dev/null; do sleep 0.1; n=$((n-1)); done
kill -s KILL -- "-$g" 2>/dev/null
exit 0`

// deathGuard is the watchdog of one group; the zero value guards nothing.
type deathGuard struct {
	w   *os.File
	cmd *exec.Cmd
}

// newDeathGuard starts the watchdog before the child, so that no instant
// exists in which the child runs unguarded once watch is called. The
// watchdog runs in a process group of its own: a terminal's Ctrl-C and
// the guarded group's kill do not reach it.
func newDeathGuard(_ *syscall.SysProcAttr, o options) (deathGuard, error) {
	if !o.parentDeath {
		return deathGuard{}, nil
	}
	r, w, err := os.Pipe() // close-on-exec: the guarded child never holds w
	if err != nil {
		return deathGuard{}, err
	}
	tenths := (o.deathGrace + 100*time.Millisecond - 1) / (100 * time.Millisecond)
	cmd := exec.Command("/bin/sh", "-c", watchdogScript, "airwire-watchdog", strconv.Itoa(int(tenths)))
	cmd.Stdin = r
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	err = cmd.Start()
	r.Close()
	if err != nil {
		w.Close()
		return deathGuard{}, fmt.Errorf("start the watchdog that ends a child with this process: %w", err)
	}
	return deathGuard{w: w, cmd: cmd}, nil
}

// watch tells the watchdog which group to guard.
func (d deathGuard) watch(pgid int) {
	if d.w != nil {
		_, _ = fmt.Fprintf(d.w, "%d\n", pgid)
	}
}

// release tells the watchdog to exit without a kill, and reaps it. Two
// lines, so that it works whether or not watch has named a group: a
// watchdog that got one takes "0" as its release line; one that did not
// takes group 0 and then the release line.
func (d deathGuard) release() {
	if d.w == nil {
		return
	}
	_, _ = d.w.WriteString("0\nrelease\n")
	d.w.Close()
	_ = d.cmd.Wait()
}
