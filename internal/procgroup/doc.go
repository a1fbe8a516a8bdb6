// Package procgroup starts a child process in a group of its own, so that
// the child and everything it starts can be stopped and killed together,
// and optionally ties the group's life to this process ("dies with me").
//
// It owns the platform side of a process's lifetime for the recorder
// (`airwire record`), the adapter's Claude CLIs and the conformance driver:
//
//   - Unix: a process group (setpgid). Terminate sends SIGTERM to the
//     group, Kill SIGKILL.
//   - Linux: "dies with me" is the kernel's parent-death signal
//     (Pdeathsig), sent to the group's leader.
//   - The portable twin (macOS, other Unix, and Linux built with the tag
//     airwire_portable) has no parent-death signal: a watchdog process,
//     a small /bin/sh script, holds the read end of a pipe whose write end
//     only this process holds. When this process dies, by any signal, the
//     kernel closes the write end; the watchdog reads EOF, sends SIGTERM
//     to the group and SIGKILL after the grace.
//   - Windows: a Job Object with JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE holds
//     the child and every process it starts. The child is created
//     suspended, assigned to the job, then resumed, so no grandchild starts
//     outside it; the job's only handle is this process's, so the group
//     ends when this process ends, however it ends. Terminate sends
//     CTRL_BREAK_EVENT to the child's console process group; Kill
//     terminates the job.
//
// It also names signals and exit statuses the way Node (and so the
// reference adapter) reports them, per platform.
//
// It implements no section of the wire contract; it is the lifetime
// underneath the sections that start processes.
//
// It must never reap processes it did not start, never signal a group it
// did not create, and never block its caller past the grace it was given.
package procgroup
