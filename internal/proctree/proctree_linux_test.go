package proctree

import (
	"os"
	"os/exec"
	"slices"
	"testing"
)

func TestChildrenListsAStartedProcess(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc")
	}
	cmd := exec.Command("sleep", "5")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	if kids := Children(os.Getpid()); !slices.Contains(kids, cmd.Process.Pid) {
		t.Errorf("Children(self) = %v, lacks %d", kids, cmd.Process.Pid)
	}
	if kids := Children(cmd.Process.Pid); len(kids) != 0 {
		t.Errorf("Children(sleep) = %v", kids)
	}
}
