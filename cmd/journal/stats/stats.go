// Package stats implements `airwire journal stats`: message counts per lane
// and method, bytes, processes and duration of a journal.
package stats

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/airwire/airwire/cmd/cmdutil"
	"github.com/airwire/airwire/cmd/factory"
	"github.com/airwire/airwire/internal/journal"
)

// StatsOptions are the inputs of `airwire journal stats`.
type StatsOptions struct {
	IO   factory.IOStreams
	Path string
	JSON bool
}

// NewCmdStats builds `airwire journal stats`.
func NewCmdStats(f *factory.Factory, runF func(*StatsOptions) error) *cobra.Command {
	opts := &StatsOptions{IO: f.IO}
	cmd := &cobra.Command{
		Use:   "stats FILE",
		Short: "Count a journal's messages per lane and method",
		Long: `Count a journal's messages per lane and method, their bytes, the
processes and how they ended, and the recording's duration.

A torn last line (the recorder was killed mid-write) is skipped with a
warning on stderr (and "torn" in --json); a broken line anywhere else is an
error naming it.`,
		Example: "  airwire journal stats s.jsonl\n  airwire journal stats s.jsonl --json | jq '.lanes.client'",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Path = args[0]
			if runF != nil {
				return runF(opts)
			}
			return runStats(cmd.Context(), opts)
		},
	}
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print the numbers as JSON")
	return cmd
}

// Count is the number and size of frames in one group.
type Count struct {
	Messages int   `json:"messages"`
	Bytes    int64 `json:"bytes"`
}

// Stats are the numbers of one journal.
type Stats struct {
	Entries    int                          `json:"entries"`
	DurationNs int64                        `json:"duration_ns"`
	Lanes      map[string]*Count            `json:"lanes"`
	Methods    map[string]map[string]*Count `json:"methods"` // lane → method → count
	NonJSON    int                          `json:"non_json"`
	Stderr     int                          `json:"stderr_lines"`
	Processes  []Process                    `json:"processes"`
	Redacted   int                          `json:"redacted_values"`
	// Torn names a torn last line that was skipped (see journal.TornError).
	Torn string `json:"torn,omitempty"`
}

// Process is one spawned process and how it ended.
type Process struct {
	Proc string        `json:"proc"`
	Argv []string      `json:"argv,omitempty"`
	Exit *journal.Exit `json:"exit,omitempty"`
}

// Compute reads a journal and counts it. Messages and texts are checked
// but not kept, so memory stays near the longest line. A torn last line is skipped
// and named in Torn. It stops with ctx's error when ctx ends.
func Compute(ctx context.Context, path string) (*Stats, error) {
	r, err := cmdutil.OpenJournal(ctx, path, journal.WithoutBodies())
	if err != nil {
		return nil, err
	}
	defer r.Close()
	s := &Stats{Lanes: map[string]*Count{}, Methods: map[string]map[string]*Count{}}
	procs := map[string]int{}
	for {
		e, err := r.Next()
		if errors.Is(err, io.EOF) {
			if t := r.Torn(); t != nil {
				s.Torn = t.Error()
			}
			return s, nil
		}
		if err != nil {
			return s, err
		}
		s.add(&e, procs)
	}
}

// add counts one entry; procs maps a process name to its index in Processes.
func (s *Stats) add(e *journal.Entry, procs map[string]int) {
	s.Entries++
	s.DurationNs = e.TNs
	s.Redacted += e.Redacted
	switch e.Kind {
	case journal.KindMsg, journal.KindNonJSON:
		s.addFrame(e)
	case journal.KindStderr:
		s.Stderr++
	case journal.KindSpawn:
		procs[e.Proc] = len(s.Processes)
		s.Processes = append(s.Processes, Process{Proc: e.Proc, Argv: e.Argv})
	case journal.KindExit:
		if i, ok := procs[e.Proc]; ok {
			s.Processes[i].Exit = e.Exit
		} else {
			s.Processes = append(s.Processes, Process{Proc: e.Proc, Exit: e.Exit})
		}
	}
}

// addFrame counts a msg or non_json entry under its lane and method.
func (s *Stats) addFrame(e *journal.Entry) {
	lane := string(e.Lane)
	if s.Lanes[lane] == nil {
		s.Lanes[lane] = &Count{}
		s.Methods[lane] = map[string]*Count{}
	}
	s.Lanes[lane].Messages++
	s.Lanes[lane].Bytes += int64(e.Bytes)
	m := e.Method
	if e.Kind == journal.KindNonJSON {
		m = "(non-JSON)"
		s.NonJSON++
	} else if m == "" {
		m = "(unpaired reply)"
	}
	c := s.Methods[lane][m]
	if c == nil {
		c = &Count{}
		s.Methods[lane][m] = c
	}
	c.Messages++
	c.Bytes += int64(e.Bytes)
}

func runStats(ctx context.Context, opts *StatsOptions) error {
	s, err := Compute(ctx, opts.Path)
	if err != nil {
		return err
	}
	if s.Torn != "" {
		fmt.Fprintf(opts.IO.ErrOut, "airwire journal stats: warning: %s\n", s.Torn)
	}
	if opts.JSON {
		enc := json.NewEncoder(opts.IO.Out)
		enc.SetIndent("", "  ")
		return enc.Encode(s)
	}
	w := tabwriter.NewWriter(opts.IO.Out, 2, 4, 2, ' ', 0)
	fmt.Fprintf(w, "entries\t%d\nduration\t%.3fs\nnon-JSON frames\t%d\nstderr lines\t%d\nredacted values\t%d\n\n",
		s.Entries, float64(s.DurationNs)/1e9, s.NonJSON, s.Stderr, s.Redacted)
	for _, lane := range sortedKeys(s.Lanes) {
		fmt.Fprintf(w, "lane %s\t%d messages\t%d bytes\n", lane, s.Lanes[lane].Messages, s.Lanes[lane].Bytes)
		for _, m := range sortedKeys(s.Methods[lane]) {
			c := s.Methods[lane][m]
			fmt.Fprintf(w, "  %s\t%d\t%d bytes\n", m, c.Messages, c.Bytes)
		}
	}
	if len(s.Processes) > 0 {
		fmt.Fprintln(w, "\nprocesses")
		for _, p := range s.Processes {
			fmt.Fprintf(w, "  %s\t%s\n", processLabel(p), exitMeaning(p))
		}
	}
	return w.Flush()
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}
