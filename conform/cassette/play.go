package cassette

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"
)

// player plays one recorded stream-json process.
type player struct {
	proc *Process
	// keys holds the match key of each agent event ("" for the others);
	// matched marks the agent events the live agent has sent.
	keys    []string
	matched []bool
	// next is the first event not yet played: CLI events and stderr lines
	// are played in order up to the first agent event not yet matched.
	next          int
	toCas, toLive *replacer
	// ids maps recorded ids the agent made up (its control request ids,
	// its user messages' uuids) to the live ones, as quoted JSON strings.
	ids      [][2][]byte
	out      io.Writer
	errOut   io.Writer
	timeout  time.Duration
	received int
	fx       *effects
	o        Options
	// lo is the state of loose mode (Options.Loose); nil when strict.
	lo *loose
}

// newPlayer plays proc; toCas maps live values to placeholders, toLive
// placeholders to live values.
func newPlayer(proc *Process, toCas, toLive map[string]string, o Options) *player {
	p := &player{proc: proc, keys: make([]string, len(proc.Events)), matched: make([]bool, len(proc.Events)),
		toCas: newReplacer(toCas), toLive: newReplacer(toLive), out: o.Out, errOut: o.ErrOut, timeout: o.Timeout,
		fx: newEffects(o.Args, toLive), o: o}
	switch {
	case p.timeout == 0 && o.Loose:
		p.timeout = -1 // a human at an editor takes the time they need
	case p.timeout == 0:
		p.timeout = DefaultTimeout
	}
	for i, e := range proc.Events {
		if e.Dir == DirAgent {
			p.keys[i] = key(e.Msg, e.Text, func(id string) string { return id })
		}
	}
	if o.Loose {
		p.lo = newLoose(proc)
	}
	return p
}

// run plays the process until stdin ends, ctx ends, or the agent fails a
// rule; it returns the exit code.
func (p *player) run(ctx context.Context, in io.Reader) int {
	lines := make(chan []byte)
	stop := make(chan struct{})
	defer close(stop)
	go readLines(in, lines, stop)
	last := time.Now()
	for {
		p.advance()
		p.flushQueued()
		if p.next == len(p.proc.Events) && killed(p.proc.Exit) {
			// The recorded CLI was killed mid-run (nothing the adapter
			// asked for: its shutdown ends a CLI with SIGTERM): die the same
			// way once everything it wrote has been played (SIGKILL on
			// Unix; on Windows, TerminateProcess, as a killed CLI ends).
			if self, err := os.FindProcess(os.Getpid()); err == nil {
				_ = self.Kill()
			}
		}
		if p.next == len(p.proc.Events) && failedAlone(p.proc.Exit) {
			// The recorded CLI ended on its own with an error (a resume
			// of a session it cannot find): end the same way, without
			// waiting for stdin.
			return exitCode(p.proc.Exit)
		}
		var expire <-chan time.Time
		var timer *time.Timer
		if p.next < len(p.proc.Events) && p.timeout > 0 {
			timer = time.NewTimer(p.timeout - time.Since(last))
			expire = timer.C
		}
		code, done := p.wait(ctx, lines, expire, p.holding())
		if timer != nil {
			timer.Stop()
		}
		if done {
			return code
		}
		last = time.Now()
	}
}

// failedAlone reports whether the recorded process ended with an error
// status of its own: one the adapter ends (stdin closed, SIGTERM) exits 0,
// by the signal or with 128 and the signal's number.
func failedAlone(e *Exit) bool { return e != nil && e.Signal == "" && e.Code > 0 && e.Code < 128 }

// killed reports whether the recorded process ended by SIGKILL.
func killed(e *Exit) bool { return e != nil && e.Signal == "SIGKILL" }

// wait handles one agent frame, the end of stdin, the timeout or the end
// of ctx. It returns done with the exit code when the process must end.
func (p *player) wait(ctx context.Context, lines <-chan []byte, expire, hold <-chan time.Time) (code int, done bool) {
	select {
	case <-hold:
		p.release()
		return 0, false
	case line, ok := <-lines:
		if !ok {
			return p.eof(), true
		}
		if code := p.receive(line); code != 0 {
			return code, true
		}
		return 0, false
	case <-expire:
		fmt.Fprintf(p.errOut, "fake-cli replay: timed out after %s waiting for agent→cli frame %s (recorded event %d of %d); %d agent frames received\n",
			p.timeout, displayKey(p.keys[p.next]), p.next+1, len(p.proc.Events), p.received)
		return ExitTimeout, true
	case <-ctx.Done():
		return exitCode(p.proc.Exit), true
	}
}

// readLines sends every non-empty line of in, then closes lines.
func readLines(in io.Reader, lines chan<- []byte, stop <-chan struct{}) {
	defer close(lines)
	r := bufio.NewReaderSize(in, 1<<16)
	for {
		line, err := r.ReadBytes('\n')
		if l := bytes.TrimSpace(line); len(l) > 0 {
			select {
			case lines <- l:
			case <-stop:
				return
			}
		}
		if err != nil {
			return
		}
	}
}

// advance plays every CLI event and stderr line up to the first agent
// event not yet matched.
func (p *player) advance() {
	for ; p.next < len(p.proc.Events) && !p.gated(); p.next++ {
		e := &p.proc.Events[p.next]
		switch e.Dir {
		case DirAgent:
			if !p.matched[p.next] && !p.passes(p.next) {
				return
			}
		case DirStderr:
			fmt.Fprintln(p.errOut, p.toLive.str(e.Text))
		case DirFile:
			p.fx.writeTaskOutput(p.toLive.str(e.Path), p.toLive.str(e.Text))
		default:
			if e.Msg == nil {
				_, _ = io.WriteString(p.out, p.toLive.str(e.Text)+"\n")
			} else if !p.drops(e.Msg) {
				p.emit(e.Msg)
			}
		}
	}
}

// emit writes one CLI frame (cassette form) with the live values and the
// live agent's ids in place of the recorded ones.
func (p *player) emit(msg []byte) {
	b := p.toLive.json(append([]byte(nil), msg...))
	for _, id := range p.ids {
		b = bytes.ReplaceAll(b, id[0], id[1])
	}
	p.fx.cliFrame(b)
	_, _ = p.out.Write(append(b, '\n'))
}

// receive matches one agent frame; it returns 0, or ExitUnexpected after
// reporting a frame the cassette has no unmatched recorded frame for.
func (p *player) receive(line []byte) int {
	p.received++
	if p.lo != nil {
		return p.receiveLoose(line)
	}
	raw, text := p.parseLine(line)
	k := key(raw, text, p.recordedID)
	i := p.find(k, raw, len(p.keys))
	// An interrupt is exempt: the recording may lack the one an adapter
	// sends as it shuts the CLI down (the recorder may not have read it
	// before the CLI was killed), which says nothing about the cassette.
	if i < 0 && strings.HasPrefix(k, "control_request/") && k != "control_request/interrupt" {
		return refuse(p.o, "the adapter sent control request %s (frame #%d), which the recording does not have here; it expected one of: %s",
			displayKey(k), p.received, p.expected())
	}
	if i < 0 {
		fmt.Fprintf(p.errOut, "fake-cli replay: unexpected agent→cli frame #%d: %s; the cassette expected one of: %s\n",
			p.received, displayKey(k), p.expected())
		return ExitUnexpected
	}
	p.matched[i] = true
	p.learn(raw, p.proc.Events[i].Msg)
	p.fx.agentFrame(line)
	return 0
}

// parseLine returns an agent line in cassette form: raw when it is JSON,
// else text.
func (p *player) parseLine(line []byte) (raw []byte, text string) {
	if json.Valid(line) {
		return p.toCas.json(append([]byte(nil), line...)), ""
	}
	return nil, p.toCas.str(string(line))
}

// find returns the first unmatched agent event before limit with key k
// (for a control request, the first whose request body is the same, else
// the first), or -1.
func (p *player) find(k string, raw []byte, limit int) int {
	first := -1
	for i, ek := range p.keys[:limit] {
		if ek != k || p.matched[i] || p.proc.Events[i].Dir != DirAgent {
			continue
		}
		if first < 0 {
			first = i
		}
		if !strings.HasPrefix(k, "control_request/") || sameRequest(raw, p.proc.Events[i].Msg) {
			return i
		}
	}
	return first
}

// learn records the ids the live agent made up in place of the recorded
// ones: a control request's request_id and a user message's uuid.
func (p *player) learn(live, rec []byte) {
	lf, ok1 := parseFrame(live)
	rf, ok2 := parseFrame(rec)
	if !ok1 || !ok2 {
		return
	}
	add := func(from, to string) {
		if from != "" && to != "" && from != to {
			f, _ := json.Marshal(from)
			t, _ := json.Marshal(to)
			p.ids = append(p.ids, [2][]byte{f, t})
		}
	}
	switch lf.Type {
	case "control_request":
		add(rf.RequestID, lf.RequestID)
	case "user":
		add(rf.UUID, lf.UUID)
	}
}

// recordedID translates a live id back to the recorded one.
func (p *player) recordedID(live string) string {
	q, _ := json.Marshal(live)
	for _, id := range p.ids {
		if bytes.Equal(id[1], q) {
			var s string
			_ = json.Unmarshal(id[0], &s)
			return s
		}
	}
	return live
}

// expected lists the keys of the agent frames still awaited, in recorded order.
func (p *player) expected() string {
	var out []string
	seen := map[string]bool{}
	for i, k := range p.keys {
		if p.proc.Events[i].Dir != DirAgent || p.matched[i] || seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, displayKey(k))
	}
	if len(out) == 0 {
		return "nothing more (every recorded agent frame was already sent)"
	}
	if len(out) > 8 {
		out = append(out[:8], fmt.Sprintf("(%d more)", len(out)-8))
	}
	return strings.Join(out, ", ")
}

// eof ends the process the way the recorded one ended, noting recorded
// agent frames that never came.
func (p *player) eof() int {
	if missing := p.expected(); p.next < len(p.proc.Events) {
		fmt.Fprintf(p.errOut, "fake-cli replay: note: stdin closed before the agent sent: %s\n", missing)
	}
	return exitCode(p.proc.Exit)
}

// ErrNoCassette is returned when neither --replay nor EnvReplay names a cassette.
var ErrNoCassette = errors.New("no cassette: pass --replay FILE or set " + EnvReplay)
