// Package view implements `airwire journal view`: a journal drawn as a
// static HTML page, one swim lane per party (reports/journalview).
package view

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/airwire/airwire/cmd/cmdutil"
	"github.com/airwire/airwire/cmd/factory"
	"github.com/airwire/airwire/internal/journal"
	"github.com/airwire/airwire/reports/journalview"
	"github.com/airwire/airwire/schemas/acp"
	"github.com/airwire/airwire/schemas/air"
	checks "github.com/airwire/airwire/schemas/validate"
)

// ViewOptions are the inputs of `airwire journal view`.
type ViewOptions struct {
	IO factory.IOStreams
	// ACPSchemaDir finds the pinned ACP schema directory from the
	// --acp-schema value (factory.Factory.ACPSchemaDir).
	ACPSchemaDir func(ctx context.Context, flag string) (string, error)
	ACPSchema    string
	// NoValidate draws the page without checking the messages.
	NoValidate bool

	Journal string
	Output  string
}

// NewCmdView builds `airwire journal view`. runF replaces the behaviour in tests.
func NewCmdView(f *factory.Factory, runF func(*ViewOptions) error) *cobra.Command {
	opts := &ViewOptions{IO: f.IO, ACPSchemaDir: f.ACPSchemaDir}
	cmd := &cobra.Command{
		Use:   "view JOURNAL -o PAGE.html",
		Short: "Draw a journal as a web page: one swim lane per party, one card per message",
		Long: `Draw the dialogue of JOURNAL as one static HTML page that any browser opens
from disk (no server; nothing is loaded from the network).

The page has one swim lane per party: the editor, the agent, the Claude
CLI and the model API. Each message is a card between the two parties of
its lane (editor ↔ agent, agent ↔ CLI, CLI ↔ model) with its time since the
start, its direction and its method (the session update kind, the CLI
frame type or the model API event), and its JSON folded away. Streamed
pieces fold into one card with their count and joined text: the agent's
message and thought chunks of a session, the CLI's stream_event deltas and
the model API's content_block_delta events. Filters pick a session, lanes,
a method prefix, or only the cards with findings.

The editor ↔ agent messages are checked as "airwire validate" checks them
(the pinned ACP schema and the AIR contract), and each finding is shown on
its message's card. When the ACP schema cannot be found the page is drawn
without findings and says so (and stderr says why).

The page opens fast whatever the journal's size: it draws its cards a few
hundred at a time as it is scrolled, a card shows at most 4 KiB of a
message's JSON, the page at most 16 MiB of JSON and 8 MiB of other text in
all ("airwire journal cat" lists everything).`,
		Example: `  airwire journal view session.jsonl -o session.html
  airwire journal view session.jsonl -o session.html --acp-schema ~/acp-schema/v1
  airwire journal view session.jsonl -o - --no-validate > page.html`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Journal = args[0]
			if opts.Output == "" {
				return cmdutil.FlagErrorf("-o PAGE.html is required (- writes the page to stdout)")
			}
			if runF != nil {
				return runF(opts)
			}
			return runView(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVarP(&opts.Output, "output", "o", "", "write the page to `FILE` (- for stdout)")
	cmd.Flags().BoolVar(&opts.NoValidate, "no-validate", false, "draw the page without checking the messages")
	cmd.Flags().StringVar(&opts.ACPSchema, "acp-schema", "", "`DIR` holding the pinned schema.json and schema.unstable.json (default: $AIRWIRE_ACP_SCHEMA_DIR, else the user cache)")
	return cmd
}

func runView(ctx context.Context, opts *ViewOptions) error {
	v, note := opts.validator(ctx)
	j, err := cmdutil.OpenJournal(ctx, opts.Journal)
	if err != nil {
		return err
	}
	defer j.Close()
	b := journalview.NewBuilder(j.Header(), journalview.Options{Title: filepath.Base(opts.Journal), Note: note})
	next := func() (journal.Entry, error) {
		e, err := j.Next()
		if err == nil {
			b.Add(e)
		}
		return e, err
	}
	if v != nil {
		rep, err := checks.Entries(next, v)
		if err != nil {
			return err
		}
		b.SetFindings(Findings(rep.Findings))
	} else if err := drain(next); err != nil {
		return err
	}
	if t := j.Torn(); t != nil {
		fmt.Fprintf(opts.IO.ErrOut, "airwire journal view: warning: %v\n", t)
	}
	return opts.write(b)
}

// drain reads every entry.
func drain(next func() (journal.Entry, error)) error {
	for {
		if _, err := next(); errors.Is(err, io.EOF) {
			return nil
		} else if err != nil {
			return err
		}
	}
}

// validator loads the ACP schema and the AIR schemas. Without them it
// returns no validator and the page's note; stderr says why.
func (opts *ViewOptions) validator(ctx context.Context) (*checks.Validator, string) {
	if opts.NoValidate {
		return nil, "The messages were not checked (--no-validate)."
	}
	a, err := opts.loadACP(ctx)
	if err != nil {
		fmt.Fprintf(opts.IO.ErrOut, "airwire journal view: warning: the messages are not checked: %v\n", err)
		return nil, "The messages were not checked: the ACP schema is not available (pass --acp-schema DIR; airwire journal view said why on stderr)."
	}
	set, err := air.Load()
	if err != nil {
		fmt.Fprintf(opts.IO.ErrOut, "airwire journal view: warning: the messages are not checked: %v\n", err)
		return nil, "The messages were not checked: the AIR schemas do not load."
	}
	return checks.New(a, set), ""
}

func (opts *ViewOptions) loadACP(ctx context.Context) (*acp.Schema, error) {
	dir, err := opts.ACPSchemaDir(ctx, opts.ACPSchema)
	if err != nil {
		return nil, err
	}
	return acp.LoadDir(dir, true)
}

// write writes the page to its file (or stdout).
func (opts *ViewOptions) write(b *journalview.Builder) error {
	if opts.Output == "-" {
		return b.Write(opts.IO.Out)
	}
	return b.WriteFile(opts.Output)
}

// Findings converts the validator's findings for the page.
func Findings(fs []checks.Finding) []journalview.Finding {
	out := make([]journalview.Finding, 0, len(fs))
	for _, f := range fs {
		out = append(out, journalview.Finding{Seq: f.Seq, Severity: f.Severity.String(), Rule: f.Rule, Section: f.Section,
			Pointer: f.Pointer, Message: f.Message})
	}
	return out
}
