package procgroup

import (
	"errors"
	"os"
	"os/exec"
	"sync"
	"time"

	"github.com/airwire/airwire/internal/poll"
)

// Group is a child started in a process group of its own (a Job Object
// on Windows): the child and whatever it starts, stopped and killed
// together.
type Group struct {
	cmd *exec.Cmd
	sys sysGroup
	// mu orders Release against the other methods: once released, the
	// group id (a pid that may be reused, a closed handle) names nothing of
	// ours, and they do nothing.
	mu       sync.Mutex
	released bool
}

// options are what Start was asked for.
type options struct {
	parentDeath bool
	deathGrace  time.Duration
}

// Option changes how Start starts a group.
type Option func(*options)

// WithParentDeath ends the group when this process dies, even by SIGKILL,
// so that a recorder or a driver killed mid-run leaves no child behind: the
// group gets SIGTERM, and SIGKILL after grace where the platform lets the
// group be watched (the portable watchdog). On Linux the kernel sends the
// leader SIGTERM (SIGKILL when grace is 0) and nothing after; on Windows
// every group already ends with this process (the job is closed).
func WithParentDeath(grace time.Duration) Option {
	return func(o *options) { o.parentDeath, o.deathGrace = true, grace }
}

// Start starts cmd in a group of its own. It adds what it needs to
// cmd.SysProcAttr; cmd must not have been started.
func Start(cmd *exec.Cmd, opts ...Option) (*Group, error) {
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	g := &Group{cmd: cmd}
	if err := g.start(o); err != nil {
		return nil, err
	}
	return g, nil
}

// Terminate asks every process of the group to end: SIGTERM on Unix,
// CTRL_BREAK_EVENT on Windows (which reaches only processes sharing this
// process's console; Kill is the sure end).
func (g *Group) Terminate() error { return g.locked(g.terminate) }

// Signal passes sig on to the leader alone, as a shell passes on a
// signal it got. Windows cannot send a process a signal: there any signal
// becomes Terminate.
func (g *Group) Signal(sig os.Signal) error {
	return g.locked(func() error { return g.signal(sig) })
}

// Kill ends every process still in the group at once.
func (g *Group) Kill() error { return g.locked(g.kill) }

// Alive reports whether any process of the group is still running (a
// leader not yet waited for, or a zombie not yet reaped, counts).
func (g *Group) Alive() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return !g.released && g.alive()
}

// errReleased is what a released group's Terminate and Kill return.
var errReleased = errors.New("procgroup: the group was released")

// locked runs f unless the group was released.
func (g *Group) locked(f func() error) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.released {
		return errReleased
	}
	return f()
}

// Stop ends the group gracefully: Terminate, then Kill once exited is
// closed or grace has passed, whichever comes first, so that children
// which ignore the request end too.
func (g *Group) Stop(exited <-chan struct{}, grace time.Duration) {
	_ = g.Terminate()
	select {
	case <-exited:
	case <-time.After(grace):
	}
	_ = g.Kill()
}

// Release lets go of the group once its leader has been waited for:
// processes the leader left in the group get up to grace to end, then are
// killed, and the parent-death guard is given up. Later calls do nothing.
func (g *Group) Release(grace time.Duration) {
	poll.Until(grace, 10*time.Millisecond, func() bool { return !g.Alive() })
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.released {
		return
	}
	if g.alive() {
		_ = g.kill()
	}
	g.released = true
	g.release()
}
