// Package diff implements `airwire diff OLD NEW`: it compares two
// recordings of an adapter (two golden sets, two conform reports, two
// golden files or two journals) message by message and classifies every change with the rules
// of conform/wirediff, failing when one is breaking.
package diff

import (
	"slices"

	"github.com/spf13/cobra"

	"github.com/airwire/airwire/cmd/cmdutil"
	"github.com/airwire/airwire/cmd/factory"
	"github.com/airwire/airwire/conform/wirediff"
)

// DiffOptions are the inputs of `airwire diff`.
type DiffOptions struct {
	IO       factory.IOStreams
	Old, New string
	// Format is text, json, github-actions or markdown (--markdown).
	Format string
	// Breaking lists the categories that fail the command.
	Breaking  []wirediff.Category
	ListRules bool
}

// NewCmdDiff builds `airwire diff`. runF replaces the behaviour in tests.
func NewCmdDiff(f *factory.Factory, runF func(*DiffOptions) error) *cobra.Command {
	opts := &DiffOptions{IO: f.IO}
	var breaking string
	var markdown bool
	cmd := &cobra.Command{
		Use:   "diff OLD NEW",
		Short: "Classify the wire changes between two recordings: breaking, additive or cosmetic",
		Long:  longHelp,
		Example: `  # today's goldens against a new release's
  airwire diff goldens/ /tmp/new-goldens/
  # the last release's suite report against this one's, as a PR comment
  airwire diff --markdown last-release/report.json report.json
  # two journals of the same session, annotations on the pull request
  airwire diff --format github-actions old.jsonl new.jsonl
  # a pull-request comment; only changes that break every client fail
  airwire diff --markdown --breaking WIRE old/ new/
  airwire diff --list-rules`,
		Args: cobra.RangeArgs(0, 2),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := opts.fill(cmd, args, breaking, markdown); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return runDiff(opts)
		},
	}
	cmd.Flags().StringVar(&opts.Format, "format", wirediff.FormatText, "output `FORMAT`: text, json or github-actions")
	cmd.Flags().BoolVar(&markdown, "markdown", false, "print a pull-request comment (Markdown) instead")
	cmd.Flags().StringVar(&breaking, "breaking", "WIRE,AIR,CLI", "`CATEGORIES` that fail the command (any of WIRE, AIR, CLI)")
	cmd.Flags().BoolVar(&opts.ListRules, "list-rules", false, "print every rule (id, category, purpose) and exit")
	return cmd
}

const longHelp = `Compare two recordings of an ACP adapter after normalization, message by
message within each session, and classify every change the way buf breaking
does for protobuf: each rule has a stable id, a category and a purpose
(airwire diff --list-rules).

OLD and NEW are both one of:
  - a golden set: a directory of <scenario>/<profile>.golden files
    (runs pair by scenario/profile);
  - a report JSON of "airwire conform --json" (or "airwire report merge"):
    each run's transcript as compared, read from the report's
    transcripts folder beside it (FILE.transcripts/), paired by
    scenario/profile, so two releases' suite runs compare directly;
  - a golden file (canonical lines "<tag> <json>");
  - an airwire journal (airwire record), rendered canonical first with the
    conformance suite's placement and normalization.

Durations and the token counts the CLI estimates (a compaction's
preTokens and postTokens) are masked on both sides, as airwire conform
masks what a live run measures anew: they never read as a change.

Messages are aligned with a longest common subsequence of their kinds, so a
message is named missing, extra or moved rather than compared with an
unrelated line. Categories:
  WIRE      breaks any client: a removed key, a changed type or enum value
            (sessionUpdate, stopReason, option kind or optionId, ...), a
            missing, moved or repeated message, a method that now errors, a
            _meta.jetbrains key sent to a client that did not declare AIR
  AIR       breaks AIR clients only: the same changes under _meta.jetbrains
  CLI       what the adapter sends the Claude CLI changed
  ADDITIVE  a client may ignore it: a new _meta key, a new notification
            kind, a new element of an array named by id (a config option)
  COSMETIC  display text changed (title, description, label, message, text)

The text output first groups the findings by cause when one change is
found more than once (the same rule and change, message kind, path, old and
new value, numbered placeholders such as <session-1> made equal): each cause
once, with its count of runs and an example, most runs first; then every
finding. --markdown writes a pull-request comment of at most 60,000
characters: the runs present on one side only, the causes, then every
finding in a collapsed section; when they do not fit, the comment says how
many rows were left out and the command that prints them all.

--breaking picks the categories that fail the command; the default is the
strictest, WIRE,AIR,CLI. A team without AIR clients uses --breaking WIRE.

Exit status: 0 when nothing breaking changed, 1 when something did, 2 on a
usage error.`

// fill checks the flags and copies the arguments.
func (o *DiffOptions) fill(cmd *cobra.Command, args []string, breaking string, markdown bool) error {
	if o.ListRules {
		return nil
	}
	if len(args) != 2 {
		return cmdutil.FlagErrorf("want two recordings, OLD and NEW (got %d)", len(args))
	}
	o.Old, o.New = args[0], args[1]
	if markdown && cmd.Flags().Changed("format") {
		return cmdutil.FlagErrorf("--markdown and --format cannot be used together")
	}
	if markdown {
		o.Format = wirediff.FormatMarkdown
	}
	if !slices.Contains(wirediff.Formats, o.Format) || o.Format == wirediff.FormatMarkdown && !markdown {
		return cmdutil.FlagErrorf("--format: want text, json or github-actions, got %q", o.Format)
	}
	cats, err := wirediff.ParseCategories(breaking)
	if err != nil {
		return cmdutil.FlagErrorf("--breaking: %v", err)
	}
	o.Breaking = cats
	return nil
}

func runDiff(opts *DiffOptions) error {
	if opts.ListRules {
		return wirediff.WriteRules(opts.IO.Out)
	}
	old, err := wirediff.Load(opts.Old)
	if err != nil {
		return err
	}
	new, err := wirediff.Load(opts.New)
	if err != nil {
		return err
	}
	rep := wirediff.Diff(old, new, opts.Breaking)
	rep.Old, rep.New = opts.Old, opts.New
	if err := wirediff.WriteReport(opts.IO.Out, rep, opts.Format); err != nil {
		return err
	}
	if n := rep.Breaking(); n > 0 {
		return cmdutil.Mismatchf("%s", cmdutil.Plural(n, "breaking change", "breaking changes"))
	}
	return nil
}
