package procgroup

import (
	"errors"
	"fmt"
	"os"
	"syscall"
	"unsafe"

	"golang.org/x/sys/windows"
)

// sysGroup is a Job Object that holds the child and all it starts.
type sysGroup struct{ job windows.Handle }

// ntResumeProcess resumes every thread of a process: os/exec keeps no
// handle to the main thread of a child created suspended.
var ntResumeProcess = windows.NewLazySystemDLL("ntdll.dll").NewProc("NtResumeProcess")

// stillActive is STILL_ACTIVE, the exit code of a running process.
const stillActive = 259

// start creates the child suspended, puts it in a kill-on-close job, then
// resumes it: nothing it starts can escape the job. Every group dies with
// this process (the job's only handle is ours), with or without
// WithParentDeath.
func (g *Group) start(o options) error {
	job, err := newJob()
	if err != nil {
		return err
	}
	if g.cmd.SysProcAttr == nil {
		g.cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	g.cmd.SysProcAttr.CreationFlags |= windows.CREATE_SUSPENDED | windows.CREATE_NEW_PROCESS_GROUP
	if err := g.cmd.Start(); err != nil {
		windows.CloseHandle(job)
		return err
	}
	if err := assignAndResume(job, uint32(g.cmd.Process.Pid)); err != nil {
		_ = g.cmd.Process.Kill()
		_ = g.cmd.Wait()
		windows.CloseHandle(job)
		return err
	}
	g.sys = sysGroup{job: job}
	return nil
}

// newJob is a job that kills its processes when its last handle closes.
func newJob() (windows.Handle, error) {
	job, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return 0, fmt.Errorf("create a job object: %w", err)
	}
	info := windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION{}
	info.BasicLimitInformation.LimitFlags = windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
	if _, err := windows.SetInformationJobObject(job, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info))); err != nil {
		windows.CloseHandle(job)
		return 0, fmt.Errorf("set up a job object: %w", err)
	}
	return job, nil
}

func assignAndResume(job windows.Handle, pid uint32) error {
	h, err := windows.OpenProcess(windows.PROCESS_SET_QUOTA|windows.PROCESS_TERMINATE|windows.PROCESS_SUSPEND_RESUME, false, pid)
	if err != nil {
		return fmt.Errorf("open the child: %w", err)
	}
	defer windows.CloseHandle(h)
	if err := windows.AssignProcessToJobObject(job, h); err != nil {
		return fmt.Errorf("put the child in its job: %w", err)
	}
	if st, _, _ := ntResumeProcess.Call(uintptr(h)); st != 0 {
		return fmt.Errorf("resume the child: NTSTATUS %#x", st)
	}
	return nil
}

func (g *Group) terminate() error {
	return windows.GenerateConsoleCtrlEvent(windows.CTRL_BREAK_EVENT, uint32(g.cmd.Process.Pid))
}

func (g *Group) signal(os.Signal) error { return g.terminate() }

func (g *Group) kill() error { return windows.TerminateJobObject(g.sys.job, 1) }

// jobAccounting is JOBOBJECT_BASIC_ACCOUNTING_INFORMATION.
type jobAccounting struct {
	TotalUserTime, TotalKernelTime                     int64
	ThisPeriodTotalUserTime, ThisPeriodTotalKernelTime int64
	TotalPageFaultCount, TotalProcesses                uint32
	ActiveProcesses, TotalTerminatedProcesses          uint32
}

func (g *Group) alive() bool {
	var info jobAccounting
	err := windows.QueryInformationJobObject(g.sys.job, windows.JobObjectBasicAccountingInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info)), nil)
	return err == nil && info.ActiveProcesses > 0
}

// release closes the job: whatever is left in it ends.
func (g *Group) release() { windows.CloseHandle(g.sys.job) }

// Running reports whether a process with this pid is running: it can be
// opened (or exists but is denied to us) and has no exit code yet.
func Running(pid int) bool {
	if pid <= 0 {
		return false
	}
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, uint32(pid))
	if errors.Is(err, windows.ERROR_ACCESS_DENIED) {
		return true
	}
	if err != nil {
		return false
	}
	defer windows.CloseHandle(h)
	var code uint32
	return windows.GetExitCodeProcess(h, &code) == nil && code == stillActive
}
