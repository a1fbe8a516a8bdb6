package cassette

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
)

// Version is the cassette format version this package writes and reads.
const Version = 1

// ErrUnsupportedVersion is returned by Read for a header of another version.
var ErrUnsupportedVersion = errors.New("unsupported cassette version")

// ErrNotCassette is returned by Read when the first line is not a cassette header.
var ErrNotCassette = errors.New("not an airwire cassette")

// Direction of a recorded stream-json event.
const (
	// DirAgent is a frame the agent (the adapter) wrote to the CLI's stdin.
	DirAgent = "agent"
	// DirCLI is a frame the CLI wrote to its stdout.
	DirCLI = "cli"
	// DirStderr is one line the CLI wrote to its stderr.
	DirStderr = "stderr"
)

// Cassette is the CLI side of one recorded run.
type Cassette struct {
	// Source is free text naming where the cassette came from (airwire
	// version, journal start time); it is never read back.
	Source string
	// Processes are the stream-json CLI processes, in spawn order.
	Processes []Process
	// Runs are the CLI runs that printed one document (auth status --json,
	// --version), in spawn order.
	Runs []Run
}

// Process is one stream-json CLI process.
type Process struct {
	// Argv is the argv after the program name, with placeholders.
	Argv []string
	// Events are its frames and stderr lines in recorded order.
	Events []Event
	// Exit is how it ended (nil when the recording has no exit entry).
	Exit *Exit
}

// Event is one frame or stderr line of a Process.
type Event struct {
	// Dir is DirAgent, DirCLI or DirStderr.
	Dir string
	// Msg is the JSON frame with placeholders (nil for text events).
	Msg json.RawMessage
	// Text is a stderr line or a frame that is not JSON, without its
	// newline; for a DirFile event, the file's content.
	Text string
	// Path is the file of a DirFile event, with placeholders.
	Path string
}

// Run is one non-stream-json CLI run.
type Run struct {
	Argv []string
	// Stdout is the exact output, with placeholders.
	Stdout string
	// Stderr holds its stderr lines.
	Stderr []string
	Exit   *Exit
}

// Exit is a process's exit status.
type Exit struct {
	Code   int    `json:"code"`
	Signal string `json:"signal,omitempty"`
}

// header is line 1 of a cassette file.
type header struct {
	Cassette string `json:"cassette"` // always "airwire"
	Version  int    `json:"version"`
	Source   string `json:"source,omitempty"`
}

// line is every other line of a cassette file. Exactly one of the groups is
// set: a process start (proc, argv), a process event (proc, dir, msg|text;
// a file the process wrote: proc, dir "file", file, text), a process end
// (proc, exit), or a run (run, argv, stdout, stderr, exit).
type line struct {
	Proc   int             `json:"proc,omitempty"`
	Run    int             `json:"run,omitempty"`
	Argv   []string        `json:"argv,omitempty"`
	Dir    string          `json:"dir,omitempty"`
	Msg    json.RawMessage `json:"msg,omitempty"`
	Text   *string         `json:"text,omitempty"`
	File   string          `json:"file,omitempty"`
	Stdout *string         `json:"stdout,omitempty"`
	Stderr []string        `json:"stderr,omitempty"`
	Exit   *Exit           `json:"exit,omitempty"`
}

// Write encodes c as JSON Lines.
func (c *Cassette) Write(w io.Writer) error {
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(header{Cassette: "airwire", Version: Version, Source: c.Source}); err != nil {
		return err
	}
	for i, p := range c.Processes {
		n := i + 1
		if err := enc.Encode(line{Proc: n, Argv: nonNil(p.Argv)}); err != nil {
			return err
		}
		for _, e := range p.Events {
			l := line{Proc: n, Dir: e.Dir, Msg: e.Msg, File: e.Path}
			if e.Msg == nil {
				l.Text = &e.Text
			}
			if err := enc.Encode(l); err != nil {
				return fmt.Errorf("process %d: %w", n, err)
			}
		}
		if p.Exit != nil {
			if err := enc.Encode(line{Proc: n, Exit: p.Exit}); err != nil {
				return err
			}
		}
	}
	for i, r := range c.Runs {
		if err := enc.Encode(line{Run: i + 1, Argv: nonNil(r.Argv), Stdout: &r.Stdout, Stderr: r.Stderr, Exit: r.Exit}); err != nil {
			return err
		}
	}
	return bw.Flush()
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// Save writes c to path (mode 0644: a cassette is meant to be committed).
func (c *Cassette) Save(path string) error {
	var buf bytes.Buffer
	if err := c.Write(&buf); err != nil {
		return err
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}

// Load reads the cassette at path.
func Load(path string) (*Cassette, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	c, err := Read(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return c, nil
}

// Read decodes a cassette. It fails with ErrNotCassette or
// ErrUnsupportedVersion (wrapped), or names the bad line.
func Read(r io.Reader) (*Cassette, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<30)
	if !sc.Scan() {
		if err := sc.Err(); err != nil {
			return nil, err
		}
		return nil, fmt.Errorf("%w: empty file", ErrNotCassette)
	}
	var h header
	if json.Unmarshal(sc.Bytes(), &h) != nil || h.Cassette != "airwire" {
		return nil, fmt.Errorf("%w: the first line is not a cassette header", ErrNotCassette)
	}
	if h.Version != Version {
		return nil, fmt.Errorf("%w %d (this airwire reads version %d)", ErrUnsupportedVersion, h.Version, Version)
	}
	c := &Cassette{Source: h.Source}
	for n := 2; sc.Scan(); n++ {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var l line
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			return nil, fmt.Errorf("cassette line %d: %v", n, err)
		}
		if err := c.add(&l); err != nil {
			return nil, fmt.Errorf("cassette line %d: %w", n, err)
		}
	}
	return c, sc.Err()
}

// add appends one decoded line to c.
func (c *Cassette) add(l *line) error {
	switch {
	case l.Run > 0:
		if l.Run != len(c.Runs)+1 {
			return fmt.Errorf("run %d out of order", l.Run)
		}
		r := Run{Argv: l.Argv, Stderr: l.Stderr, Exit: l.Exit}
		if l.Stdout != nil {
			r.Stdout = *l.Stdout
		}
		c.Runs = append(c.Runs, r)
	case l.Proc > 0 && l.Argv != nil:
		if l.Proc != len(c.Processes)+1 {
			return fmt.Errorf("process %d out of order", l.Proc)
		}
		c.Processes = append(c.Processes, Process{Argv: l.Argv})
	case l.Proc > 0 && l.Proc <= len(c.Processes):
		p := &c.Processes[l.Proc-1]
		switch {
		case l.Exit != nil:
			p.Exit = l.Exit
		case l.Dir == DirFile:
			if l.File == "" || l.Text == nil {
				return errors.New("a file event needs file and text")
			}
			p.Events = append(p.Events, Event{Dir: DirFile, Path: l.File, Text: *l.Text})
		case l.Dir == DirAgent || l.Dir == DirCLI || l.Dir == DirStderr:
			e := Event{Dir: l.Dir, Msg: l.Msg}
			if l.Text != nil {
				e.Text = *l.Text
			}
			if e.Msg == nil && l.Text == nil {
				return errors.New("an event has neither msg nor text")
			}
			p.Events = append(p.Events, e)
		default:
			return fmt.Errorf("unknown dir %q", l.Dir)
		}
	default:
		return errors.New("a line names no known process or run")
	}
	return nil
}
