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
matches a session id exactly. --raw prints the journal lines themselves
(JSON), for jq.`,
		Example: `  airwire journal cat s.jsonl --lane client --method session/prompt
  airwire journal cat s.jsonl --lane cli --kind stderr
  airwire journal cat s.jsonl --session 0190… --raw | jq .msg`,
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
	cmd.Flags().BoolVar(&opts.Raw, "raw", false, "print matching journal lines as JSON")
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
	if !opts.Raw {
		h := r.Header()
		fmt.Fprintf(out, "# airwire %s journal, started %s, agent: %s\n", h.Airwire, h.Start.Format("2006-01-02 15:04:05Z07:00"), strings.Join(h.AgentCmd, " "))
	}
	for {
		e, err := r.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		if !opts.Match(&e) {
			continue
		}
		if opts.Raw {
			b := journalLine(&e)
			out.Write(b)
			continue
		}
		out.WriteString(Format(&e, opts.Width))
		out.WriteByte('\n')
	}
}

// Format renders one entry as a listing line.
func Format(e *journal.Entry, width int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%6d %+10.3fs %-6s %-12s %-6s", e.Seq, float64(e.TNs)/1e9, e.Lane, arrow(e), e.Proc)
	switch e.Kind {
	case journal.KindMsg:
		method := e.Method
		if method == "" {
			method = "-"
		}
		fmt.Fprintf(&b, " %s", method)
		if len(e.ID) > 0 {
			fmt.Fprintf(&b, " [%s]", e.ID)
		}
		if e.Redacted > 0 {
			fmt.Fprintf(&b, " (%d redacted)", e.Redacted)
		}
		b.WriteString("  " + cut(string(e.Msg), width))
	case journal.KindNonJSON:
		fmt.Fprintf(&b, " NON-JSON (%s)  %s", e.Reason, cut(textOf(e), width))
	case journal.KindStderr:
		fmt.Fprintf(&b, " stderr  %s", cut(textOf(e), width))
	case journal.KindSpawn:
		fmt.Fprintf(&b, " SPAWN pid %d  %s", e.Pid, cut(strings.Join(e.Argv, " "), width))
	case journal.KindExit:
		if e.Exit != nil && e.Exit.Signal != "" {
			fmt.Fprintf(&b, " EXIT by %s", e.Exit.Signal)
		} else if e.Exit != nil {
			fmt.Fprintf(&b, " EXIT code %d", e.Exit.Code)
		}
	case journal.KindNote:
		fmt.Fprintf(&b, " NOTE  %s", textOf(e))
	}
	return b.String()
}

func textOf(e *journal.Entry) string {
	if e.B64 != nil {
		return fmt.Sprintf("<%d bytes, not UTF-8>", len(e.B64))
	}
	return e.TextOf()
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

func cut(s string, width int) string {
	if width <= 0 || len(s) <= width {
		return s
	}
	r := []rune(s)
	if len(r) <= width {
		return s
	}
	return string(r[:width]) + fmt.Sprintf("… (+%d chars)", len(r)-width)
}
