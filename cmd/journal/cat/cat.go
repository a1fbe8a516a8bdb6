// Package cat implements `airwire journal cat`: a readable listing of a
// journal, filtered by lane, direction, method, session or kind.
package cat

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/airwire/airwire/cmd/cmdutil"
	"github.com/airwire/airwire/cmd/factory"
	"github.com/airwire/airwire/internal/journal"
)

// CatOptions are the inputs of `airwire journal cat`.
type CatOptions struct {
	IO      factory.IOStreams
	Path    string
	Lane    string
	Dir     string
	Method  string
	Session string
	Kind    string
	Width   int
	Raw     bool
}

// NewCmdCat builds `airwire journal cat`.
func NewCmdCat(f *factory.Factory, runF func(*CatOptions) error) *cobra.Command {
	opts := &CatOptions{IO: f.IO}
	cmd := &cobra.Command{
		Use:   "cat FILE",
		Short: "List a journal's entries, one per line",
		Long: `List a journal's entries, one per line:

  SEQ  +SECONDS  LANE  FROM→TO  PROC  METHOD  [id]  MESSAGE

Replies show the method of the request they answer. Filters combine with AND;
--method matches a prefix ("session/" lists every session method), --session
matches a session id exactly. Control characters in the listing (terminal
escapes in an agent's stderr, a CR) are shown escaped (\x1b, \r, \u009b).

--raw prints the matching journal lines themselves, byte for byte, after the
journal's header line: the output is a journal too, for jq or another
airwire command.

A torn last line (the recorder was killed mid-write) is skipped with a
warning on stderr; a broken line anywhere else is an error naming it.`,
		Example: `  airwire journal cat s.jsonl --lane client --method session/prompt
  airwire journal cat s.jsonl --lane cli --kind stderr
  airwire journal cat s.jsonl --session 0190… --raw | jq 'select(.seq) | .msg'`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Path = args[0]
			if opts.Width < 0 {
				return cmdutil.FlagErrorf("--width must be 0 (never cut) or positive, got %d", opts.Width)
			}
			if err := checkEnum("--lane", opts.Lane, "client", "cli", "model"); err != nil {
				return err
			}
			if err := checkEnum("--dir", opts.Dir, "editor", "agent", "cli", "model"); err != nil {
				return err
			}
			if err := checkEnum("--kind", opts.Kind, "msg", "non_json", "stderr", "spawn", "exit", "note"); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return runCat(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVar(&opts.Lane, "lane", "", "only this lane: client, cli or model")
	cmd.Flags().StringVar(&opts.Dir, "dir", "", "only frames sent by: editor, agent, cli or model")
	cmd.Flags().StringVar(&opts.Method, "method", "", "only methods starting with this (cli lane: type/subtype)")
	cmd.Flags().StringVar(&opts.Session, "session", "", "only entries of this session id")
	cmd.Flags().StringVar(&opts.Kind, "kind", "", "only entries of this kind: msg, non_json, stderr, spawn, exit, note")
	cmd.Flags().IntVar(&opts.Width, "width", 160, "cut messages to this many characters (0: never)")
	cmd.Flags().BoolVar(&opts.Raw, "raw", false, "print the header and the matching journal lines byte for byte")
	return cmd
}

func checkEnum(flag, v string, allowed ...string) error {
	if v == "" {
		return nil
	}
	for _, a := range allowed {
		if v == a {
			return nil
		}
	}
	return cmdutil.FlagErrorf("%s must be one of %s, not %q", flag, strings.Join(allowed, ", "), v)
}

// Match reports whether e passes the filters.
func (o *CatOptions) Match(e *journal.Entry) bool {
	return (o.Lane == "" || string(e.Lane) == o.Lane) &&
		(o.Dir == "" || string(e.Dir) == o.Dir) &&
		(o.Method == "" || strings.HasPrefix(e.Method, o.Method)) &&
		(o.Session == "" || e.Session == o.Session) &&
		(o.Kind == "" || string(e.Kind) == o.Kind)
}

func runCat(ctx context.Context, opts *CatOptions) error {
	r, err := cmdutil.OpenJournal(ctx, opts.Path)
	if err != nil {
		return err
	}
	defer r.Close()
	out := bufio.NewWriter(opts.IO.Out)
	defer out.Flush()
	if opts.Raw {
		out.Write(r.HeaderLine())
	} else {
		h := r.Header()
		fmt.Fprintf(out, "# airwire %s journal, started %s, agent: %s\n", h.Airwire, h.Start.Format("2006-01-02 15:04:05Z07:00"), escape(strings.Join(h.AgentCmd, " ")))
	}
	for {
		e, err := r.Next()
		if errors.Is(err, io.EOF) {
			if t := r.Torn(); t != nil {
				fmt.Fprintf(opts.IO.ErrOut, "airwire journal cat: warning: %v\n", t)
			}
			return nil
		}
		if err != nil {
			return err
		}
		if !opts.Match(&e) {
			continue
		}
		if opts.Raw {
			out.Write(r.Line()) // the journal's own bytes, for jq
			continue
		}
		writeEntry(out, &e, opts.Width)
		out.WriteByte('\n')
	}
}

// writeEntry writes one entry's listing line, without its newline. Control
// characters in what the agent or the CLI sent (terminal escapes, a CR) are
// shown escaped, never passed to the terminal; a message or text longer
// than width characters is cut (width 0: never). Only what is shown is
// copied, so a huge message costs no more than its cut.
func writeEntry(w io.Writer, e *journal.Entry, width int) {
	fmt.Fprintf(w, "%6d %+10.3fs %-6s %-12s %-6s", e.Seq, float64(e.TNs)/1e9, escape(string(e.Lane)), arrow(e), escape(e.Proc))
	switch e.Kind {
	case journal.KindMsg:
		method := e.Method
		if method == "" {
			method = "-"
		}
		fmt.Fprintf(w, " %s", escape(method))
		if len(e.ID) > 0 {
			fmt.Fprintf(w, " [%s]", escape(string(e.ID)))
		}
		if e.Redacted > 0 {
			fmt.Fprintf(w, " (%d redacted)", e.Redacted)
		}
		io.WriteString(w, "  ")
		writeCut(w, bytesView(e.Msg), width)
	case journal.KindNonJSON:
		fmt.Fprintf(w, " NON-JSON (%s)  ", escape(e.Reason))
		writeText(w, e, width)
	case journal.KindStderr:
		io.WriteString(w, " stderr  ")
		writeText(w, e, width)
	case journal.KindSpawn:
		fmt.Fprintf(w, " SPAWN pid %d  ", e.Pid)
		writeCut(w, strings.Join(e.Argv, " "), width)
	case journal.KindExit:
		if e.Exit != nil && e.Exit.Signal != "" {
			fmt.Fprintf(w, " EXIT by %s", escape(e.Exit.Signal))
		} else if e.Exit != nil {
			fmt.Fprintf(w, " EXIT code %d", e.Exit.Code)
		}
	case journal.KindNote:
		io.WriteString(w, " NOTE  ")
		writeText(w, e, 0)
	}
}

func writeText(w io.Writer, e *journal.Entry, width int) {
	if e.B64 != nil {
		fmt.Fprintf(w, "<%d bytes, not UTF-8>", len(e.B64))
		return
	}
	writeCut(w, e.TextOf(), width)
}

func arrow(e *journal.Entry) string {
	switch {
	case e.Lane == journal.LaneClient && e.Dir == journal.DirEditor:
		return "editor→agent"
	case e.Lane == journal.LaneClient && e.Dir == journal.DirAgent:
		return "agent→editor"
	case e.Lane == journal.LaneCLI && e.Dir == journal.DirAgent:
		return "agent→cli"
	case e.Lane == journal.LaneCLI && e.Dir == journal.DirCLI:
		return "cli→agent"
	case e.Lane == journal.LaneModel && e.Dir == journal.DirCLI:
		return "cli→model"
	case e.Lane == journal.LaneModel && e.Dir == journal.DirModel:
		return "model→cli"
	case e.Kind == journal.KindStderr:
		return "stderr"
	}
	return "-"
}
