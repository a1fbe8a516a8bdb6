package procgroup

import "testing"

func TestSignalName(t *testing.T) {
	for _, tc := range []struct {
		goos string
		n    int
		want string
	}{
		{"linux", 9, "SIGKILL"},
		{"linux", 15, "SIGTERM"},
		{"linux", 10, "SIGUSR1"},
		{"linux", 12, "SIGUSR2"},
		{"linux", 7, "SIGBUS"},
		{"linux", 31, "signal 31"},
		{"linux", 0, "signal 0"},
		{"linux", -1, "signal -1"},
		{"darwin", 30, "SIGUSR1"},
		{"darwin", 31, "SIGUSR2"},
		{"darwin", 10, "SIGBUS"},
		{"darwin", 12, "signal 12"}, // SIGSYS: Node names it, the CLI never dies by it
		{"darwin", 15, "SIGTERM"},
		{"windows", 2, "SIGINT"},
		{"windows", 9, "SIGKILL"},
		{"windows", 10, "signal 10"}, // no SIGUSR1 on Windows
		{"windows", 12, "signal 12"},
		{"freebsd", 30, "SIGUSR1"},
	} {
		if got := signalName(tc.goos, tc.n); got != tc.want {
			t.Errorf("signalName(%s, %d) = %q, want %q", tc.goos, tc.n, got, tc.want)
		}
	}
}

func TestEnding(t *testing.T) {
	for _, tc := range []struct {
		name     string
		goos     string
		code     int
		signaled bool
		sig      int
		want     Ending
	}{
		{"exit 0", "linux", 0, false, -1, Ending{Code: 0, ShellCode: 0}},
		{"exit 3", "darwin", 3, false, -1, Ending{Code: 3, ShellCode: 3}},
		{"SIGKILL", "linux", -1, true, 9, Ending{Code: -1, Signal: "SIGKILL", ShellCode: 137}},
		{"SIGTERM on macOS", "darwin", -1, true, 15, Ending{Code: -1, Signal: "SIGTERM", ShellCode: 143}},
		{"SIGUSR1 on Linux", "linux", -1, true, 10, Ending{Code: -1, Signal: "SIGUSR1", ShellCode: 138}},
		{"SIGUSR1 on macOS", "darwin", -1, true, 30, Ending{Code: -1, Signal: "SIGUSR1", ShellCode: 158}},
		// TerminateJobObject(job, 1): an exit code, never a signal.
		{"job terminated on Windows", "windows", 1, false, -1, Ending{Code: 1, ShellCode: 1}},
	} {
		if got := ending(tc.goos, tc.code, tc.signaled, tc.sig); got != tc.want {
			t.Errorf("%s: ending = %+v, want %+v", tc.name, got, tc.want)
		}
	}
}
