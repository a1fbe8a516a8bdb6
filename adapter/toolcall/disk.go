package toolcall

import (
	"io/fs"
	"os"
)

// Disk is what the AIR rendering reads from the file system: the file an
// Edit or a Write changes (contract: "Diff patch"), the plan file of an
// ExitPlanMode ("Plan file") and the SKILL.md of a skill ("AIR metadata
// keys"). The package reads nothing itself: a Session without a Disk
// falls back to the standard diff, the inline plan and no skill path.
type Disk struct {
	// ReadFile reads a whole file.
	ReadFile func(path string) ([]byte, error)
	// Stat describes a file.
	Stat func(path string) (fs.FileInfo, error)
	// Home is the user's home directory ("" when unknown).
	Home string
}

// OSDisk is the Disk of the running process.
func OSDisk() *Disk {
	home, _ := os.UserHomeDir()
	return &Disk{ReadFile: os.ReadFile, Stat: os.Stat, Home: home}
}

// isFile reports whether path names a regular file.
func (d *Disk) isFile(path string) bool {
	if d == nil || d.Stat == nil || path == "" {
		return false
	}
	info, err := d.Stat(path)
	return err == nil && info.Mode().IsRegular()
}
