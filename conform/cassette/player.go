package cassette

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/airwire/airwire/internal/lazyre"
	"github.com/airwire/airwire/internal/projectdir"
)

// Environment variables of the player (`airwire fake-cli --replay`).
const (
	// EnvReplay names the cassette to play (the flag --replay wins).
	EnvReplay = "AIRWIRE_FAKE_CLI_REPLAY"
	// EnvReplayTimeout is how long the player waits for an agent frame the
	// recording needs before it fails (a Go duration; 0 waits forever).
	EnvReplayTimeout = "AIRWIRE_FAKE_CLI_REPLAY_TIMEOUT"
	// EnvReplayState names the spawn counter file (see Options.Spawn).
	EnvReplayState = "AIRWIRE_FAKE_CLI_REPLAY_STATE"
	// EnvReplayPace is the pause `airwire fake-cli --replay` holds each CLI
	// frame of a stream-json process for until the agent has been quiet on
	// stdin (a Go duration; the default is conform.DefaultPace; 0 writes as
	// fast as it can). A stream_event delta that continues a content block
	// waits only conform.StreamPace (conform.Pacer.StreamWriter).
	EnvReplayPace = "AIRWIRE_FAKE_CLI_REPLAY_PACE"
	// EnvReplayLoose set to 1 plays in loose mode (see Options.Loose), for
	// a human at an editor (`airwire play`).
	EnvReplayLoose = "AIRWIRE_FAKE_CLI_REPLAY_LOOSE"
	// EnvModelAPI is the host:port of the replaying run's model API, which
	// fills the recording's PlaceholderModelAPI.
	EnvModelAPI = "AIRWIRE_FAKE_CLI_MODEL_API"
)

// DefaultTimeout is the player's wait for an agent frame the recording needs.
const DefaultTimeout = 10 * time.Second

// Exit codes of the player besides the recorded ones.
const (
	// ExitUnexpected: the agent sent a frame the cassette has no unmatched
	// recorded frame for.
	ExitUnexpected = 3
	// ExitTimeout: the agent did not send a frame the recording needs.
	ExitTimeout = 4
	// ExitNoMatch: the spawn counter cannot be read.
	ExitNoMatch = 5
	// ExitBadCassette: the cassette cannot be read.
	ExitBadCassette = 6
	// ExitNotApplicable: the agent started the CLI with other arguments,
	// or sent a control request, than the recording has: the cassette does
	// not apply to it (NotApplicable).
	ExitNotApplicable = 7
)

// Options are the inputs of one player process.
type Options struct {
	Cassette *Cassette
	// Args is the argv after the program name.
	Args   []string
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer
	Getenv func(string) string
	// Cwd is the process's working directory (the session cwd).
	Cwd string
	// Timeout is the wait for a needed agent frame (0: DefaultTimeout, in
	// loose mode forever; negative: forever).
	Timeout time.Duration
	// Loose plays for a human at an editor instead of a scenario's script:
	// a prompt matches the next recorded prompt whatever its text; recorded
	// agent frames the live agent never sends are skipped; a control
	// request the recording lacks is answered with success (an interrupt
	// ends the recorded turn being played); a prompt past the recording's
	// last gets a synthesized turn saying NoMoreTurns; a spawn with other
	// arguments plays the recorded process anyway, and one past the
	// recorded processes a minimal process. It never fails on the agent.
	Loose bool
	// Spawn returns the 1-based number of this stream-json spawn among the
	// run's spawns; the N-th plays the cassette's N-th process.
	Spawn func() (int, error)
	// Runs returns the 1-based number of this run among the run's
	// non-stream-json runs of the same argv; the N-th plays the cassette's
	// N-th run of that argv (the last, past them). Nil counts every run
	// the first.
	Runs func(argv []string) (int, error)
}

// Play answers one CLI spawn from the cassette and returns the exit code.
// A non-stream-json run prints its recorded output; a stream-json process
// plays its recorded frames (see the package doc for the rules).
func Play(ctx context.Context, o Options) int {
	live := liveSubstitutions(o.Getenv, o.Cwd)
	toCas, toLive := live.pairs(), live.placeholders()
	if !IsStreamJSON(o.Args) {
		return playRun(o, newReplacer(toCas), newReplacer(toLive))
	}
	n, err := o.Spawn()
	if err != nil {
		fmt.Fprintf(o.ErrOut, "fake-cli replay: cannot count spawns: %v\n", err)
		return ExitNoMatch
	}
	if o.Loose && n > len(o.Cassette.Processes) && len(o.Cassette.Processes) > 0 {
		return playMinimal(ctx, o, n, toCas, toLive)
	}
	if n < 1 || n > len(o.Cassette.Processes) {
		return refuse(o, "stream-json spawn #%d, but the recording has %d", n, len(o.Cassette.Processes))
	}
	proc := &o.Cassette.Processes[n-1]
	bindSessions(proc.Argv, o.Args, toCas, toLive)
	bindModelAPI(proc.Argv, o.Args, toCas, toLive)
	p := newPlayer(proc, toCas, toLive, o)
	if d := argvDiff(p.toCas.strs(o.Args), proc.Argv); d != "" {
		if !o.Loose {
			return refuse(o, "stream-json spawn #%d: %s", n, d)
		}
		fmt.Fprintf(o.ErrOut, "fake-cli replay: note: stream-json spawn #%d: %s; playing the recorded process anyway (loose mode)\n", n, d)
	}
	return p.run(ctx, o.In)
}

// playMinimal plays stream-json spawn #n past the recorded processes in
// loose mode: a process with no recorded events whose frames copy the
// first recorded process (its initialize answer included).
func playMinimal(ctx context.Context, o Options, n int, toCas, toLive map[string]string) int {
	tmpl := &o.Cassette.Processes[0]
	bindSessions(tmpl.Argv, o.Args, toCas, toLive)
	if _, ok := toLive["{{session_id_1}}"]; !ok {
		for _, kv := range argvSessions(o.Args) {
			toLive["{{session_id_1}}"] = kv[1]
		}
	}
	proc := &Process{Argv: tmpl.Argv, Exit: tmpl.Exit}
	if killed(tmpl.Exit) {
		proc.Exit = nil
	}
	fmt.Fprintf(o.ErrOut, "fake-cli replay: note: stream-json spawn #%d is past the recording's %d; playing a minimal process (loose mode)\n", n, len(o.Cassette.Processes))
	p := newPlayer(proc, toCas, toLive, o)
	p.lo.tmpl = tmpl
	return p.run(ctx, o.In)
}

// playRun answers a non-stream-json run (auth status --json, --version)
// with the recorded run of the same argv that comes in its place (a
// session's own probe, in its folder and environment, can print otherwise
// than the agent's first).
func playRun(o Options, toCas, toLive *replacer) int {
	args := toCas.strs(o.Args)
	var same []Run
	for _, r := range o.Cassette.Runs {
		if slices.Equal(r.Argv, args) {
			same = append(same, r)
		}
	}
	if len(same) > 0 {
		n := 1
		if o.Runs != nil {
			var err error
			if n, err = o.Runs(args); err != nil {
				fmt.Fprintf(o.ErrOut, "fake-cli replay: cannot count runs: %v\n", err)
				return ExitNoMatch
			}
		}
		r := same[min(max(n, 1), len(same))-1]
		io.WriteString(o.Out, toLive.document(r.Stdout))
		for _, l := range r.Stderr {
			fmt.Fprintln(o.ErrOut, toLive.str(l))
		}
		return exitCode(r.Exit)
	}
	var known []string
	for _, r := range o.Cassette.Runs {
		if a := fmt.Sprintf("%q", r.Argv); !slices.Contains(known, a) {
			known = append(known, a)
		}
	}
	return refuse(o, "the CLI was run with %q, which the recording never ran; it has: %s", args, strings.Join(known, ", "))
}

func exitCode(e *Exit) int {
	if e == nil || e.Code < 0 {
		return 0
	}
	return e.Code
}

// liveSubstitutions are this process's own values for the placeholders.
func liveSubstitutions(getenv func(string) string, cwd string) Substitutions {
	s := Substitutions{Cwd: cwd, Home: getenv("HOME"), ConfigDir: getenv("CLAUDE_CONFIG_DIR"), TmpDir: getenv("TMPDIR"), ModelAPI: getenv(EnvModelAPI)}
	if s.ConfigDir == "" && s.Home != "" {
		s.ConfigDir = filepath.Join(s.Home, ".claude")
	}
	if s.TmpDir == "" {
		s.TmpDir = os.TempDir()
	}
	return s
}

// placeholders maps each placeholder to the value of s.
func (s Substitutions) placeholders() map[string]string {
	out := map[string]string{}
	set := func(ph, v string) {
		if v != "" && v != "/" {
			out[ph] = filepath.Clean(v)
		}
	}
	set(PlaceholderCwd, s.Cwd)
	set(PlaceholderHome, s.Home)
	set(PlaceholderConfigDir, s.ConfigDir)
	set(PlaceholderTmpDir, s.TmpDir)
	if s.ModelAPI != "" {
		out[PlaceholderModelAPI] = s.ModelAPI
	}
	if cwd := out[PlaceholderCwd]; cwd != "" {
		if real, err := filepath.EvalSymlinks(cwd); err == nil {
			cwd = real
		}
		out[PlaceholderProjectDir] = projectdir.Name(cwd)
	}
	return out
}

// loopbackRE is a loopback host:port, the form of a model API's address.
var loopbackRE = lazyre.New(`127\.0\.0\.1:[0-9]+`)

// bindModelAPI takes the model API's address from the spawn's own argv
// when the run did not give it (EnvModelAPI) and the recorded argv holds
// PlaceholderModelAPI: an editor named its own model API as its gateway
// (airwire play behind a driver that serves the listing), and the agent
// passed the address on to the CLI.
func bindModelAPI(recorded, live []string, toCas, toLive map[string]string) {
	if _, ok := toLive[PlaceholderModelAPI]; ok || !slices.ContainsFunc(recorded, func(a string) bool { return strings.Contains(a, PlaceholderModelAPI) }) {
		return
	}
	for _, a := range live {
		if addr := loopbackRE.FindString(a); addr != "" {
			toCas[addr], toLive[PlaceholderModelAPI] = PlaceholderModelAPI, addr
			return
		}
	}
}

// bindSessions maps the session placeholders of the recorded argv to the
// session ids the agent passed with the same flags, in order.
func bindSessions(recorded, live []string, toCas, toLive map[string]string) {
	lv := argvSessions(live)
	used := make([]bool, len(lv))
	for _, rp := range argvSessions(recorded) {
		for j, l := range lv {
			if used[j] || l[0] != rp[0] {
				continue
			}
			used[j] = true
			if strings.HasPrefix(rp[1], "{{session_id_") {
				toLive[rp[1]], toCas[l[1]] = l[1], rp[1]
			}
			break
		}
	}
}
