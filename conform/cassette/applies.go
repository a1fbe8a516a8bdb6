package cassette

import (
	"fmt"
	"strings"
)

// NotApplicable starts the stderr line with which the player refuses a
// spawn the recording never saw: the adapter started the CLI with other
// arguments, or sent a control request the recorded process never got.
// What follows it names the difference; conform reads the line from the
// run's journal and reports "cassette does not apply" for the run.
const NotApplicable = "fake-cli replay: cassette does not apply: "

// LiveHint is what a "cassette does not apply" verdict suggests.
const LiveHint = "this adapter starts the CLI differently from the recording, so replaying it would be meaningless; run this scenario with --live (the real CLI)"

// refuse prints the NotApplicable line and returns ExitNotApplicable.
func refuse(o Options, format string, args ...any) int {
	fmt.Fprintf(o.ErrOut, NotApplicable+format+"\n", args...)
	return ExitNotApplicable
}

// argvDiff says how a spawn's argv (placeholders in) differs from the
// recorded one, option by option ("" when they hold the same options; the
// order does not matter). An option with its value as the next argument
// ("--permission-mode default") counts as "--permission-mode=default".
// On Windows, separators and a stand-in's .exe do not count (windowsArg).
func argvDiff(got, recorded []string) string {
	extra, missing := options(got), options(recorded)
	if OnWindows {
		for _, opts := range [][]string{extra, missing} {
			for i, a := range opts {
				opts[i] = windowsArg(a)
			}
		}
	}
	for i := 0; i < len(extra); {
		if j := indexOf(missing, extra[i]); j >= 0 {
			missing = append(missing[:j], missing[j+1:]...)
			extra = append(extra[:i], extra[i+1:]...)
			continue
		}
		i++
	}
	switch {
	case len(extra) == 0 && len(missing) == 0:
		return ""
	case len(missing) == 0:
		return fmt.Sprintf("the CLI was started with %s, which the recording does not have", quoteAll(extra))
	case len(extra) == 0:
		return fmt.Sprintf("the CLI was started without %s, which the recording has", quoteAll(missing))
	}
	return fmt.Sprintf("the CLI was started with %s where the recording has %s", quoteAll(extra), quoteAll(missing))
}

// options groups argv into options: "--flag=value" (also written as
// "--flag value": a value that does not start with "-" joins its flag) or
// a lone argument.
func options(argv []string) []string {
	var out []string
	for i := 0; i < len(argv); i++ {
		a := argv[i]
		if strings.HasPrefix(a, "--") && !strings.Contains(a, "=") && i+1 < len(argv) && !strings.HasPrefix(argv[i+1], "-") {
			a += "=" + argv[i+1]
			i++
		}
		out = append(out, a)
	}
	return out
}

func indexOf(ss []string, s string) int {
	for i, x := range ss {
		if x == s {
			return i
		}
	}
	return -1
}

func quoteAll(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = "`" + s + "`"
	}
	return strings.Join(q, ", ")
}
