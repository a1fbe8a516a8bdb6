package adapter

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"syscall"
	"testing"
)

// TestIndexErrorKeepsPathsPrivate: a session store failure reaches the
// client as an internal error that says what failed, without the private
// path of the file.
func TestIndexErrorKeepsPathsPrivate(t *testing.T) {
	for _, err := range []error{
		fmt.Errorf("delete: %w", &fs.PathError{Op: "unlinkat", Path: "/home/alice/.claude/projects/x/s.jsonl", Err: syscall.EPERM}),
		&os.LinkError{Op: "rename", Old: "/home/alice/.claude/a", New: "/home/alice/.claude/b", Err: syscall.EXDEV},
	} {
		msg := indexError(err).Error()
		if strings.Contains(msg, "alice") || !strings.Contains(msg, "Internal error: ") {
			t.Errorf("%v → %q", err, msg)
		}
	}
	if msg := indexError(errors.New("the index is closed")).Error(); !strings.Contains(msg, "Internal error: the index is closed") {
		t.Errorf("plain error → %q", msg)
	}
}
