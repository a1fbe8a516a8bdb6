// Package execwrap writes the stand-ins for an executable where a tool
// takes one executable path (an adapter's CLAUDE_CODE_EXECUTABLE) but
// must run a command with arguments of its own (airwire __cli-shim,
// airwire fake-cli).
//
// On Unix the stand-in is a /bin/sh script, `exec ARGV "$@"`. On Windows
// it is a launcher: argv[0], which must be airwire, linked (or copied) to
// the stand-in's name, beside a file holding the rest of argv that airwire
// reads when it starts (Args). A batch file would do for Go, but Node (the
// reference adapter, through the Claude SDK) refuses to start a .cmd
// without a shell, and cmd.exe re-parses every argument it passes on.
//
// It never runs anything.
package execwrap

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"runtime"
	"strings"
)

// ArgvSuffix names the file beside a Windows launcher that holds the
// arguments it runs with: <launcher>.exe.argv, a JSON array of strings.
const ArgvSuffix = ".argv"

// Name is the file name of a stand-in called base on this platform.
func Name(base string) string { return NameFor(runtime.GOOS, base) }

// NameFor is the file name of a stand-in called base on goos: Windows runs
// a program only by its extension.
func NameFor(goos, base string) string {
	if goos == "windows" {
		return base + ".exe"
	}
	return base
}

// Write puts at path a stand-in that runs argv followed by the stand-in's
// own arguments, in this platform's form.
func Write(path string, argv ...string) error { return WriteFor(runtime.GOOS, path, argv...) }

// WriteFor is Write for goos.
func WriteFor(goos, path string, argv ...string) error {
	if len(argv) == 0 {
		return fmt.Errorf("execwrap: no command for %s", path)
	}
	if goos != "windows" {
		return os.WriteFile(path, Script(argv...), 0o700)
	}
	tail, err := json.Marshal(argv[1:])
	if err != nil {
		return err
	}
	if err := linkOrCopy(argv[0], path); err != nil {
		return fmt.Errorf("the launcher %s: %w", path, err)
	}
	return os.WriteFile(path+ArgvSuffix, tail, 0o600)
}

// linkOrCopy makes dst the program src: a hard link, or a copy where the
// two are on different volumes.
func linkOrCopy(src, dst string) error {
	if os.Link(src, dst) == nil {
		return nil
	}
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o700)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// Args are the arguments a program started as exe runs with: the launcher
// file's beside exe first, then args, the ones it was started with. A
// program with no such file (airwire started under its own name) runs
// args unchanged; a file that is not a JSON array of strings is an error.
func Args(exe string, args []string) ([]string, error) {
	b, err := os.ReadFile(exe + ArgvSuffix)
	if errors.Is(err, fs.ErrNotExist) {
		return args, nil
	}
	if err != nil {
		return nil, err
	}
	var tail []string
	if err := json.Unmarshal(b, &tail); err != nil {
		return nil, fmt.Errorf("the launcher's arguments %s: %w", exe+ArgvSuffix, err)
	}
	return append(tail, args...), nil
}

// Script is the text of a /bin/sh script that runs argv followed by the
// script's own arguments.
func Script(argv ...string) []byte {
	var b strings.Builder
	b.WriteString("#!/bin/sh\nexec")
	for _, a := range argv {
		b.WriteString(" " + Quote(a))
	}
	b.WriteString(" \"$@\"\n")
	return []byte(b.String())
}

// Quote quotes s as one word for /bin/sh: in single quotes, each ' as '\”.
func Quote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
