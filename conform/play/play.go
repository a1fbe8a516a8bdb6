// Package play is `airwire play`: a stand-in agent that plays one scenario's
// agent side to a real editor. The editor launches it as its ACP agent;
// play runs airwire's own agent behind `airwire record --cli-lane` in a
// stand-in (conform.NewStandIn: the scenario's workspace, stored sessions
// and CLI side, never the caller's CLI or model), passes every frame
// through unchanged, checks each editor frame against the ACP schema, the
// AIR contract and the editor's obligations as it passes (findings go to
// stderr at once, never onto the protocol stream), and writes a client
// report at the end.
package play

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/airwire/airwire/conform"
	"github.com/airwire/airwire/conform/scenario"
	"github.com/airwire/airwire/internal/procgroup"
	checks "github.com/airwire/airwire/schemas/validate"
)

// JournalFile is the play's journal in its directory (Result.Dir).
const JournalFile = "play-journal.jsonl"

// ExitGrace is how long play waits for the agent to end after the editor
// closed its stdin, before it stops the agent's process group.
const ExitGrace = 5 * time.Second

// Options are the inputs of one play.
type Options struct {
	// Airwire is the airwire binary: it records, is the agent, and plays
	// the CLI.
	Airwire string
	// Scenario is the scenario played; Profile the profile whose recording
	// answers ("" takes it from the editor's initialize: ProfileOf).
	Scenario *scenario.Scenario
	Profile  scenario.Profile
	// Goldens is the goldens directory holding the scenario's cassettes.
	Goldens string
	// Root is the directory play lays the stand-in out in: its HOME
	// (Root/home), TMPDIR (Root/tmp) and, without Workspace, the workspace
	// (Root/work), where files already there must hold the scenario's
	// content. "" makes a temporary one, removed by the caller (Result.Dir,
	// Result.Owned).
	Root string
	// Workspace is the session directory ("" is Root/work; play says where
	// on ErrOut when it made it).
	Workspace string
	// Live plays a model scenario with RealCLI against a mock model API.
	Live    bool
	RealCLI string
	// Validator checks the conversation (nil: not checked).
	Validator *checks.Validator

	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer
}

// Result is what a play saw.
type Result struct {
	Scenario string
	Profile  scenario.Profile
	// Journal is the play's journal, in Dir (gone with it when Owned and
	// not kept).
	Journal string
	Dir     string
	// Owned says play made Dir: the caller removes it.
	Owned bool
	// Findings are the validator's findings, both sides, in order, with
	// those about editor requests never answered last.
	Findings []checks.Finding
	// Prompts counts the editor's session/prompt requests; Turns is how
	// many prompts the scenario holds.
	Prompts, Turns int
	// Notes are what the report tells besides findings: each prompt past
	// the scenario's last turn.
	Notes []string
	// AgentExit is how the agent process ended.
	AgentExit string
	Started   time.Time
	Duration  time.Duration
}

// EditorBroke reports whether a finding about the editor's side is an
// error: a broken obligation or a message the schema refuses.
func (r *Result) EditorBroke() bool {
	for _, f := range r.Findings {
		if f.Dir == checks.DirEditor && f.Severity == checks.SeverityError {
			return true
		}
	}
	return false
}

// Run plays until the editor closes stdin or ctx ends; every process it
// started has ended when it returns.
func Run(ctx context.Context, o Options) (*Result, error) {
	if o.Airwire == "" || o.Scenario == nil {
		return nil, errors.New("play.Run: Airwire and Scenario are required")
	}
	in := bufio.NewReaderSize(o.In, 1<<16)
	first, err := in.ReadBytes('\n')
	if len(first) == 0 && err != nil {
		return nil, errors.New("the editor closed stdin before it sent anything")
	}
	if o.Profile == "" {
		o.Profile = ProfileFor(o.Scenario, first)
		fmt.Fprintf(o.ErrOut, "airwire play: profile %s, from the editor's initialize\n", o.Profile)
	}
	if !hasProfile(o.Scenario, o.Profile) {
		err := fmt.Errorf("the scenario %s is not recorded for the profile %s (it has %s)", o.Scenario.Name, o.Profile, profileList(o.Scenario))
		answerError(o.Out, first, err.Error())
		return nil, err
	}
	dir, owned := o.Root, false
	if dir == "" {
		if dir, err = os.MkdirTemp("", "airwire-play-"); err != nil {
			return nil, err
		}
		owned = true
	} else if o.Workspace == "" {
		o.Workspace = filepath.Join(dir, "work")
	}
	res := &Result{Scenario: o.Scenario.Name, Profile: o.Profile, Dir: dir, Owned: owned, Journal: filepath.Join(dir, JournalFile),
		Turns: scenarioPrompts(o.Scenario), Started: time.Now()}
	err = o.play(ctx, res, io.MultiReader(strings.NewReader(string(first)), in))
	if err != nil && res.AgentExit == "" {
		// the agent never started: the editor's first request still gets
		// an answer (stderr has the whole reason, paths included)
		answerError(o.Out, first, "airwire play could not start the scenario's agent; its stderr says why")
	}
	res.Duration = time.Since(res.Started)
	return res, err
}

// play sets up the stand-in and runs the agent in it.
func (o Options) play(ctx context.Context, res *Result, in io.Reader) error {
	standIn, err := conform.NewStandIn(conform.StandInOptions{Airwire: o.Airwire, Scenario: o.Scenario, Profile: o.Profile,
		Dir: res.Dir, Workspace: o.Workspace, Live: o.Live, RealCLI: o.RealCLI,
		Cassette: conform.CassetteFile(o.Goldens, o.Scenario, o.Profile)})
	if err != nil {
		return err
	}
	defer standIn.Close()
	if o.Workspace == "" {
		fmt.Fprintf(o.ErrOut, "airwire play: the scenario's workspace is %s (open it as the project for its files)\n", standIn.Paths.Cwd)
	}
	cmd := exec.Command(o.Airwire, "record", "--quiet", "--cli-lane", "--journal", res.Journal, "--", o.Airwire, "agent")
	cmd.Dir, cmd.Env, cmd.Stderr = standIn.Paths.Cwd, standIn.Env, o.ErrOut
	err = o.pump(ctx, cmd, res, in)
	for _, p := range standIn.ModelProblems() {
		fmt.Fprintf(o.ErrOut, "airwire play: note: %s\n", p)
	}
	return err
}

// pump runs cmd and passes the frames both ways, checking each.
func (o Options) pump(ctx context.Context, cmd *exec.Cmd, res *Result, in io.Reader) error {
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	group, err := procgroup.Start(cmd, procgroup.WithParentDeath(0))
	if err != nil {
		return fmt.Errorf("starting the agent: %w", err)
	}
	defer group.Release(0)
	c := &checker{v: o.Validator, errOut: o.ErrOut, res: res}
	toEditor := make(chan error, 1)
	go func() { toEditor <- c.copy(o.Out, stdout, checks.DirAgent) }()
	fromEditor := make(chan error, 1)
	go func() { fromEditor <- c.copy(stdin, in, checks.DirEditor); stdin.Close() }()
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	var waitErr error
	select {
	case <-ctx.Done():
		group.Stop(nil, 0)
		waitErr = <-waited
	case waitErr = <-waited:
	case <-fromEditor:
		waitErr = stopWithin(group, waited, ExitGrace)
	}
	<-toEditor
	if cmd.ProcessState != nil {
		res.AgentExit = endingText(procgroup.EndingOf(cmd.ProcessState))
	}
	c.end()
	if waitErr != nil && ctx.Err() == nil && !isExit(waitErr) {
		return waitErr
	}
	return nil
}

// answerError answers the editor's first frame, when it is a request,
// with a JSON-RPC internal error carrying msg (-32603).
func answerError(w io.Writer, first []byte, msg string) {
	var req struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(first, &req) != nil || len(req.ID) == 0 || string(req.ID) == "null" {
		return
	}
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": req.ID, "error": map[string]any{"code": -32603, "message": msg}})
	_, _ = w.Write(append(b, '\n'))
}

// stopWithin waits grace for the agent, then ends its group.
func stopWithin(group *procgroup.Group, waited <-chan error, grace time.Duration) error {
	select {
	case err := <-waited:
		return err
	case <-time.After(grace):
	}
	exited := make(chan struct{})
	var err error
	go func() { err = <-waited; close(exited) }()
	group.Stop(exited, time.Second)
	<-exited
	return err
}

func isExit(err error) bool {
	var ee *exec.ExitError
	return errors.As(err, &ee)
}

// checker checks the frames of both directions as they pass.
type checker struct {
	mu     sync.Mutex
	v      *checks.Validator
	errOut io.Writer
	res    *Result
	seq    uint64
}

// copy passes r's lines to w unchanged, checking each one sent by dir.
func (c *checker) copy(w io.Writer, r io.Reader, dir string) error {
	br := bufio.NewReaderSize(r, 1<<16)
	for {
		line, err := br.ReadBytes('\n')
		if len(line) > 0 {
			c.check(line, dir)
			if _, werr := w.Write(line); werr != nil {
				return werr
			}
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
	}
}

// check validates one frame and prints its findings at once.
func (c *checker) check(line []byte, dir string) {
	trimmed := strings.TrimSpace(string(line))
	if trimmed == "" {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.seq++
	if dir == checks.DirEditor && isPrompt(trimmed) {
		c.res.Prompts++
		if c.res.Prompts > c.res.Turns {
			note := fmt.Sprintf("prompt %d is past the scenario's %d; it gets a short text turn", c.res.Prompts, c.res.Turns)
			c.res.Notes = append(c.res.Notes, note)
			fmt.Fprintf(c.errOut, "airwire play: note: %s\n", note)
		}
	}
	if c.v == nil {
		return
	}
	c.report(c.v.Check(checks.Message{Seq: c.seq, Lane: checks.LaneACP, Dir: dir, Msg: json.RawMessage(trimmed)}))
}

// end reports what only the end of the conversation shows.
func (c *checker) end() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.v != nil {
		c.report(c.v.End())
	}
}

func (c *checker) report(fs []checks.Finding) {
	for _, f := range fs {
		c.res.Findings = append(c.res.Findings, f)
		fmt.Fprintf(c.errOut, "airwire play: %s\n", FindingLine(f))
	}
}

// FindingLine is one finding in a line: whose message, the rule, the
// contract section, where and why.
func FindingLine(f checks.Finding) string {
	who := "editor"
	if f.Dir == checks.DirAgent {
		who = "agent"
	}
	what := who + " broke " + f.Rule
	if f.Severity != checks.SeverityError {
		what = who + " " + f.Severity.String() + " " + f.Rule
	}
	where := fmt.Sprintf("message %d", f.Seq)
	if f.Method != "" {
		where += " (" + f.Method + ")"
	}
	if f.Pointer != "" {
		where += " at " + f.Pointer
	}
	return fmt.Sprintf("%s [%s], %s: %s", what, f.Section, where, f.Message)
}

func isPrompt(line string) bool {
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	return json.Unmarshal([]byte(line), &m) == nil && m.Method == "session/prompt" && len(m.ID) > 0
}
