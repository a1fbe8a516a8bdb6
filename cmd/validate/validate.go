// Package validate implements `airwire validate JOURNAL`: it checks the
// client lane of a recorded journal against the official ACP schema (by
// method) and the AIR contract, and prints the findings as text or JSON.
// The checks themselves live in schemas/validate.
package validate

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/airwire/airwire/cmd/cmdutil"
	"github.com/airwire/airwire/cmd/factory"
	"github.com/airwire/airwire/schemas/acp"
	"github.com/airwire/airwire/schemas/air"
	checks "github.com/airwire/airwire/schemas/validate"
)

// Output formats.
const (
	FormatText = "text"
	FormatJSON = "json"
)

// ValidateOptions are the inputs of `airwire validate`.
type ValidateOptions struct {
	IO factory.IOStreams
	// ACPSchemaDir finds the pinned ACP v1 schema directory from the
	// --acp-schema value (factory.Factory.ACPSchemaDir).
	ACPSchemaDir func(ctx context.Context, flag string) (string, error)
	// ACPSchema is the --acp-schema directory ("" = the usual places).
	ACPSchema string

	Journal string
	Side    checks.Side
	Format  string
	// Stable validates against schema.json instead of schema.unstable.json.
	Stable bool
}

// NewCmdValidate builds `airwire validate`. runF replaces the behaviour in tests.
func NewCmdValidate(f *factory.Factory, runF func(*ValidateOptions) error) *cobra.Command {
	opts := &ValidateOptions{IO: f.IO, ACPSchemaDir: f.ACPSchemaDir}
	var side string
	cmd := &cobra.Command{
		Use:   "validate JOURNAL",
		Short: "Check a journal's ACP messages against the ACP schema and the AIR contract",
		Long: `Check every client-lane message of JOURNAL: ACP params, results and errors by
method against the pinned official schema, every _meta.jetbrains.air payload
against airwire's AIR schemas at the place the contract defines it, and the
contract rules over the whole conversation (capability gates, removed keys,
permission options, diffPatch text, failure revisions, message order).
Among them:
  - a session failure title carries no URL, IP address or host:port, token
    or filesystem path (session-failure-title-leak);
  - session/list pages: at most the limit (50 when omitted, clamped to 200)
    for a sessionIndex client and 1000 for any other, no empty page with a
    nextCursor, no row repeated across the pages of one listing
    (session-list-page-size, -empty-page, -repeated-row);
  - one file-change report per accepted request, before its PromptResponse,
    none for a malformed or repeated request id, only paths under the
    session's directories, at most 256 KiB (file-change-report-*);
  - a malformed client declaration enables no capability
    (client-declaration-malformed);
  - no persistent permission choice for a tool call that an ask rule forced,
    read from the CLI's can_use_tool request (permission-ask-rule-persistent).

--side agent checks what the agent sent, --side client what the editor sent.
The editor's side includes its obligations as an ACP client: every agent
request answered exactly once (one never answered is reported at the end of
the journal), a permission request pending at session/cancel answered with
outcome cancelled, a permission answered only with an offered optionId, no
session/prompt to a session it never opened or has closed, only the goal
actions the agent advertised, session/list cursors passed back unchanged for
the cwd they were issued for, and only capabilities both sides declared.
Exits 1 when any finding is an error.

The ACP schema is the official one pinned in airwire (schemas/acp/PIN):
--acp-schema DIR, else $AIRWIRE_ACP_SCHEMA_DIR, else the copy in the user
cache directory (~/.cache/airwire/acp-schema/), which the first run fetches
with npm pack and checks against the pin. DIR holds the v1 schema; a
journal whose initialize negotiates protocolVersion 2 is checked against the
ACP v2 draft's schema in the sibling directory v2 (DIR/../v2), and is an
error without it. In a v2 journal a prompt's turn ends with the idle
state_update that carries its stop reason, where v1 checks the
PromptResponse.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Journal = args[0]
			s, err := checks.ParseSide(side)
			if err != nil {
				return cmdutil.FlagErrorf("--side: %v", err)
			}
			opts.Side = s
			if opts.Format != FormatText && opts.Format != FormatJSON {
				return cmdutil.FlagErrorf("--format: want text or json, got %q", opts.Format)
			}
			if runF != nil {
				return runF(opts)
			}
			return runValidate(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVar(&side, "side", "both", "whose messages to check: agent, client or both")
	cmd.Flags().StringVar(&opts.Format, "format", FormatText, "output format: text or json")
	cmd.Flags().BoolVar(&opts.Stable, "stable", false, "use the stable ACP schema (v1, and v2 for a v2 journal) instead of the unstable superset")
	cmd.Flags().StringVar(&opts.ACPSchema, "acp-schema", "", "`DIR` holding the pinned schema.json and schema.unstable.json (default: $AIRWIRE_ACP_SCHEMA_DIR, else the user cache)")
	return cmd
}

type jsonReport struct {
	Journal  string           `json:"journal"`
	Side     string           `json:"side"`
	Schema   string           `json:"acp_schema"`
	Stats    checks.Stats     `json:"stats"`
	Findings []checks.Finding `json:"findings"`
}

func runValidate(ctx context.Context, opts *ValidateOptions) error {
	dir, err := opts.ACPSchemaDir(ctx, opts.ACPSchema)
	if err != nil {
		return err
	}
	a, err := acp.LoadDir(dir, !opts.Stable)
	if err != nil {
		return err
	}
	set, err := air.Load()
	if err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	j, err := cmdutil.OpenJournal(ctx, opts.Journal)
	if err != nil {
		return err
	}
	defer j.Close()
	vopts := []checks.Option{checks.WithSide(opts.Side)}
	if opts.Stable {
		// The stable v2 schema too, when there is one; without it a v2
		// journal is reported as unchecked.
		if a2, err := acp.LoadDir(acp.V2Dir(dir), false); err == nil {
			vopts = append(vopts, checks.WithV2(a2))
		}
	}
	rep, err := checks.Entries(j.Next, checks.New(a, set, vopts...))
	if err != nil {
		return err
	}
	schemaName := acp.UnstableFile
	if opts.Stable {
		schemaName = acp.StableFile
	}
	switch opts.Format {
	case FormatJSON:
		out := jsonReport{Journal: opts.Journal, Side: opts.Side.String(), Schema: schemaName, Stats: rep.Stats, Findings: rep.Findings}
		if out.Findings == nil {
			out.Findings = []checks.Finding{}
		}
		enc := json.NewEncoder(opts.IO.Out)
		enc.SetIndent("", "  ")
		if err := enc.Encode(out); err != nil {
			return err
		}
	default:
		if err := writeText(opts.IO.Out, rep); err != nil {
			return err
		}
	}
	if rep.HasErrors() {
		return cmdutil.Mismatchf("%s: %s", opts.Journal, cmdutil.Plural(rep.Stats.Errors, "error", "errors"))
	}
	return nil
}

func writeText(w io.Writer, rep checks.Report) error {
	for _, f := range rep.Findings {
		lane, method := f.Lane, f.Method
		if lane == "" { // an entry of no lane (a journal-entry finding)
			lane = "-"
		}
		if method == "" {
			method = "-"
		}
		if _, err := fmt.Fprintf(w, "seq %d %s %s %-7s %s %s\n    %s\n    rule %s · section %q\n",
			f.Seq, lane, arrowOf(f.Dir), f.Severity, method, f.Pointer, f.Message, f.Rule, f.Section); err != nil {
			return err
		}
	}
	s := rep.Stats
	_, err := fmt.Fprintf(w, "%s, %s checked: %s, %s\n", cmdutil.Plural(s.Messages, "message", "messages"),
		cmdutil.Plural(s.AIRPayloads, "AIR payload", "AIR payloads"), cmdutil.Plural(s.Errors, "error", "errors"), cmdutil.Plural(s.Warnings, "warning", "warnings"))
	return err
}

// arrowOf shows who sent a message to whom; a dir of neither side is shown
// as it is, none as "-".
func arrowOf(dir string) string {
	switch dir {
	case checks.DirEditor:
		return "editor→agent"
	case checks.DirAgent:
		return "agent→editor"
	case "":
		return "-"
	}
	return fmt.Sprintf("dir %q", dir)
}
