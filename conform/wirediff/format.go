package wirediff

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// Output formats of WriteReport.
const (
	FormatText          = "text"
	FormatJSON          = "json"
	FormatGitHubActions = "github-actions"
	FormatMarkdown      = "markdown"
)

// Formats lists the formats WriteReport accepts.
var Formats = []string{FormatText, FormatJSON, FormatGitHubActions, FormatMarkdown}

// WriteReport renders r in format.
func WriteReport(w io.Writer, r *Report, format string) error {
	switch format {
	case FormatJSON:
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		return enc.Encode(r)
	case FormatGitHubActions:
		return writeGitHub(w, r)
	case FormatMarkdown:
		return writeMarkdown(w, r)
	case FormatText:
		return writeText(w, r)
	}
	return fmt.Errorf("unknown format %q (want one of %s)", format, strings.Join(Formats, ", "))
}

// WriteRules prints every rule: id, category, purpose.
func WriteRules(w io.Writer) error {
	for _, r := range Rules {
		if _, err := fmt.Fprintf(w, "%-34s %-9s %s\n", r.ID, r.Category, r.Purpose); err != nil {
			return err
		}
	}
	return nil
}

// Summary is one line: the verdict and the counts by category.
func (r *Report) Summary() string {
	var parts []string
	for _, c := range Categories {
		if n := r.Count(c); n > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", c, n))
		}
	}
	counts := "no change"
	if len(parts) > 0 {
		counts = strings.Join(parts, ", ")
	}
	verdict := "compatible"
	if r.Breaking() > 0 {
		findings := "findings"
		if r.Breaking() == 1 {
			findings = "finding"
		}
		verdict = fmt.Sprintf("BREAKING (%d %s in %s)", r.Breaking(), findings, joinCats(r.Gate))
	}
	return fmt.Sprintf("%s: %s", verdict, counts)
}

func joinCats(cs []Category) string {
	s := make([]string, len(cs))
	for i, c := range cs {
		s[i] = string(c)
	}
	return strings.Join(s, ",")
}

// verdict is how a finding reads: breaking, or its category's word.
func (f Finding) verdict() string {
	if f.Breaking {
		return "breaking"
	}
	return strings.ToLower(string(f.Category))
}

// Sentence says what changed, in one line.
func (f Finding) Sentence() string {
	switch f.Change {
	case "missing", "extra", "moved":
		s := fmt.Sprintf("%s message %s (%s)", f.Change, f.Kind, f.Tag)
		if v := f.Old + f.New; v != "" && f.Path != "" {
			s += fmt.Sprintf(": %s %s", f.Path, v)
		}
		return s
	case "errors":
		return fmt.Sprintf("%s now answers with an error %s", f.Kind, f.New)
	case "removed":
		return fmt.Sprintf("%s: %s removed (was %s)", f.Kind, f.Path, f.Old)
	case "added":
		return fmt.Sprintf("%s: %s added: %s", f.Kind, f.Path, f.New)
	}
	return fmt.Sprintf("%s: %s %s → %s", f.Kind, f.Path, f.Old, f.New)
}

func writeText(w io.Writer, r *Report) error {
	writeCauses(w, r)
	for _, f := range r.Findings {
		if _, err := fmt.Fprintf(w, "%-9s %-32s %s %s line %d (old %d)\n    %s\n",
			f.verdict(), f.Rule, f.Run, f.Session, f.Line, f.OldLine, f.Sentence()); err != nil {
			return err
		}
	}
	for _, k := range r.OnlyOld {
		fmt.Fprintf(w, "only in old: %s\n", k)
	}
	for _, k := range r.OnlyNew {
		fmt.Fprintf(w, "only in new: %s\n", k)
	}
	_, err := fmt.Fprintln(w, r.Summary())
	return err
}

// oneSided says which runs exist on one side only, one line per side
// (none when every run pairs).
func (r *Report) oneSided() []string {
	var out []string
	side := func(word, name string, keys []string) {
		if len(keys) == 0 {
			return
		}
		if name != "" {
			word += " (" + name + ")"
		}
		out = append(out, fmt.Sprintf("%s only in %s: %s", runCount(len(keys)), word, strings.Join(keys, ", ")))
	}
	side("old", r.Old, r.OnlyOld)
	side("new", r.New, r.OnlyNew)
	return out
}

func runCount(n int) string {
	if n == 1 {
		return "1 run"
	}
	return fmt.Sprintf("%d runs", n)
}

// writeGitHub writes one workflow command per finding: ::error for a
// breaking one, ::notice for the rest, at the file and line of the message.
func writeGitHub(w io.Writer, r *Report) error {
	for _, f := range r.Findings {
		level := "notice"
		if f.Breaking {
			level = "error"
		}
		if _, err := fmt.Fprintf(w, "::%s file=%s,line=%d,title=%s::%s\n", level, ghProp(f.File), f.Line,
			ghProp(f.Rule), ghData(f.Run+" "+f.Session+": "+f.Sentence())); err != nil {
			return err
		}
	}
	for _, line := range r.oneSided() {
		fmt.Fprintf(w, "::warning title=runs on one side only::%s\n", ghData(line))
	}
	_, err := fmt.Fprintln(w, r.Summary())
	return err
}

// ghData escapes a workflow command's message; ghProp a property value.
func ghData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

func ghProp(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}

// MarkdownBudget bounds the --markdown output, in bytes (so in characters
// too): GitHub refuses a comment over 65,536 characters, and a CI step may
// add a heading.
const MarkdownBudget = 60_000

// mdReserve is what the end of the comment needs: the closing of the
// details, the note of a cut and the rules line.
const mdReserve = 1_000

// mdOneSidedMax bounds the list of the runs of one side only.
const mdOneSidedMax = 8_000

// mdCellMax bounds one table cell, so that a huge value cannot fill the
// comment alone.
const mdCellMax = 400

// writeMarkdown writes a pull-request comment within MarkdownBudget: the
// verdict and counts, the runs on one side only, the causes (each change
// once, with its count of runs and an example), then every finding,
// breaking ones first, in a collapsed <details>. What does not fit is cut,
// and the comment says how much and where the full report is.
func writeMarkdown(w io.Writer, r *Report) error {
	var b strings.Builder
	icon := "✅"
	if r.Breaking() > 0 {
		icon = "❌"
	}
	fmt.Fprintf(&b, "### %s airwire diff: %s\n\n", icon, r.Summary())
	for _, line := range r.oneSided() {
		fmt.Fprintf(&b, "- %s\n", mdCut(line, mdOneSidedMax))
	}
	if len(r.OnlyOld)+len(r.OnlyNew) > 0 {
		b.WriteString("\n")
	}
	if len(r.Findings) == 0 {
		same := "The two recordings are the same on the wire."
		if len(r.OnlyOld)+len(r.OnlyNew) > 0 {
			same = "The runs both recordings have are the same on the wire."
		}
		_, err := fmt.Fprintln(w, b.String()+same)
		return err
	}
	cut := mdCauses(&b, r)
	cut += mdFindings(&b, r)
	if cut > 0 {
		fmt.Fprintf(&b, "\n%d more rows did not fit in this comment: `airwire diff %s %s` prints the full report.\n",
			cut, mdCell(r.Old), mdCell(r.New))
	}
	b.WriteString("\nRules: `airwire diff --list-rules`.\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// mdRows appends rows to b while it stays within the budget and returns
// how many did not fit.
func mdRows(b *strings.Builder, rows []string) int {
	for i, row := range rows {
		if b.Len()+len(row)+mdReserve > MarkdownBudget {
			return len(rows) - i
		}
		b.WriteString(row)
	}
	return 0
}

// mdCauses writes the table of causes, most runs first.
func mdCauses(b *strings.Builder, r *Report) int {
	causes := r.Causes()
	fmt.Fprintf(b, "**%d %s**, most runs first:\n\n| | Rule | Runs | Example | Change |\n|---|---|---|---|---|\n",
		len(causes), plural(len(causes), "cause", "causes"))
	rows := make([]string, len(causes))
	for i, c := range causes {
		change := c.Sentence()
		if t := c.alsoText(); t != "" {
			change += " (" + t + ")"
		}
		rows[i] = fmt.Sprintf("| %s | `%s` | %d | %s | %s |\n", mdMark(c.Breaking), c.Rule, c.Runs, mdCell(c.Run), mdCut(change, 2*mdCellMax))
	}
	return mdRows(b, rows)
}

// mdFindings writes every finding, breaking ones first, collapsed.
func mdFindings(b *strings.Builder, r *Report) int {
	fmt.Fprintf(b, "\n<details><summary>All %d %s</summary>\n\n| | Rule | Run | Session | Line | Change |\n|---|---|---|---|---|---|\n",
		len(r.Findings), plural(len(r.Findings), "finding", "findings"))
	var rows []string
	for _, breaking := range []bool{true, false} {
		for _, f := range r.Findings {
			if f.Breaking == breaking {
				rows = append(rows, fmt.Sprintf("| %s | `%s` | %s | %s | %d | %s |\n", mdMark(breaking), f.Rule, mdCell(f.Run),
					mdCell(f.Session), f.Line, mdCell(f.Sentence())))
			}
		}
	}
	cut := mdRows(b, rows)
	b.WriteString("\n</details>\n")
	return cut
}

func mdMark(breaking bool) string {
	if breaking {
		return "❌"
	}
	return "ℹ️"
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// mdCell escapes s for a table cell and cuts it at mdCellMax bytes.
func mdCell(s string) string { return mdCut(s, mdCellMax) }

// mdCut escapes s for one Markdown line and cuts it at limit bytes (on a
// rune boundary).
func mdCut(s string, limit int) string {
	s = strings.NewReplacer("|", "\\|", "\n", " ", "`", "'").Replace(s)
	if len(s) <= limit {
		return s
	}
	cut := limit
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}
