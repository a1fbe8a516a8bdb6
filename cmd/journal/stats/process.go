package stats

import (
	"fmt"
	"path"
	"strings"
)

// maxCommand bounds the command shown for a process: the rest of a long
// argv is cut at a word and marked with "…".
const maxCommand = 64

// processLabel names a process by its role and command, the way a person
// reads it: "cli-2: claude --output-format stream-json …". Paths are cut to
// their base name, so no folder of the recording machine is shown.
func processLabel(p Process) string {
	if len(p.Argv) == 0 {
		return p.Proc
	}
	return p.Proc + ": " + shortCommand(p.Argv)
}

// shortCommand joins argv with each path cut to its base name, at most
// maxCommand characters (words are not split).
func shortCommand(argv []string) string {
	var b strings.Builder
	for i, a := range argv {
		w := baseName(a)
		if i > 0 && b.Len()+1+len(w) > maxCommand {
			b.WriteString(" …")
			break
		}
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(w)
	}
	return b.String()
}

// baseName is a path's last element (either separator), or a with a path
// after "=" cut the same way (--settings=/a/b.json); other words stay.
func baseName(a string) string {
	if k, v, ok := strings.Cut(a, "="); ok && strings.HasPrefix(k, "-") {
		return k + "=" + baseName(v)
	}
	if !strings.ContainsAny(a, `/\`) || strings.ContainsAny(a, " \t\n") {
		return a
	}
	s := strings.ReplaceAll(a, `\`, "/")
	if b := path.Base(strings.TrimRight(s, "/")); b != "." && b != "/" && b != "" {
		return b
	}
	return a
}

// signalNames are the signals a shell reports as exit status 128+N.
var signalNames = [...]string{1: "SIGHUP", 2: "SIGINT", 3: "SIGQUIT", 6: "SIGABRT", 9: "SIGKILL", 11: "SIGSEGV",
	13: "SIGPIPE", 15: "SIGTERM"}

// exitMeaning says how a process ended and what its status means.
func exitMeaning(p Process) string {
	switch {
	case p.Exit == nil:
		return "still running at the end"
	case p.Exit.Signal != "":
		return "killed by " + p.Exit.Signal
	}
	c := p.Exit.Code
	switch {
	case c == 0:
		return "exit 0 (ok)"
	case c == 1:
		return "exit 1 (error)"
	case c == 2:
		return "exit 2 (usage error)"
	case c > 128 && c-128 < len(signalNames) && signalNames[c-128] != "":
		return fmt.Sprintf("exit %d (terminated by %s)", c, signalNames[c-128])
	case c > 128:
		return fmt.Sprintf("exit %d (terminated by signal %d)", c, c-128)
	case c < 0:
		return fmt.Sprintf("exit %d (killed)", c)
	}
	return fmt.Sprintf("exit %d (error)", c)
}
