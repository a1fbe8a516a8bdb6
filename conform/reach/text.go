package reach

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"
)

// Biggest is how many of its largest unexecuted functions the text names
// per contract area.
const Biggest = 5

// WriteText writes r as text tables: the modules, the contract areas, the
// biggest unexecuted functions of each area, then every unexecuted function
// of each module.
func (r *Report) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "Reach of the conformance suite over %s\n", r.Dist)
	fmt.Fprintf(&b, "%d coverage files, %d of them from adapter processes; functions executed/total, blocks executed/total of those V8 reported (docs/reach.md)\n\n", r.Files, r.Processes)
	r.writeModules(&b)
	if r.Selection != nil {
		r.writeSelection(&b)
	} else {
		r.writeAreas(&b)
		r.writeBiggest(&b)
	}
	r.writeUncovered(&b)
	_, err := io.WriteString(w, b.String())
	return err
}

func (r *Report) writeModules(b *strings.Builder) {
	tw := tabwriter.NewWriter(b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "MODULE\tAREA\tFUNCTIONS\t\tBLOCKS\t")
	for _, m := range r.Modules {
		if !m.Loaded {
			fmt.Fprintf(tw, "%s\t%s\tnot loaded\t\t\t\n", m.Name, dash(m.Area))
			continue
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", m.Name, dash(m.Area),
			ratio(m.Functions), pct(m.Functions), ratio(m.Blocks), pct(m.Blocks))
	}
	tw.Flush()
	b.WriteString("\n")
}

func (r *Report) writeAreas(b *strings.Builder) {
	fmt.Fprintf(b, "Contract areas (target: %.0f %% of their functions)\n", Target)
	tw := tabwriter.NewWriter(b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "AREA\tFUNCTIONS\t\tBLOCKS\t\tMODULES")
	for _, a := range append(append(append([]AreaReach(nil), r.Areas...), r.Contract), r.Total) {
		mods := fmt.Sprint(len(a.Modules))
		if len(a.NotLoaded) > 0 {
			mods += fmt.Sprintf(" (%d not loaded: %s)", len(a.NotLoaded), strings.Join(a.NotLoaded, ", "))
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", a.Name, ratio(a.Functions), pct(a.Functions)+below(a), ratio(a.Blocks), pct(a.Blocks), mods)
	}
	tw.Flush()
	b.WriteString("\n")
}

// writeSelection sums the selected modules (Select).
func (r *Report) writeSelection(b *strings.Builder) {
	a := *r.Selection
	tw := tabwriter.NewWriter(b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "SELECTION\tFUNCTIONS\t\tBLOCKS\t\tMODULES")
	mods := fmt.Sprint(len(a.Modules))
	if len(a.NotLoaded) > 0 {
		mods += fmt.Sprintf(" (%d not loaded: %s)", len(a.NotLoaded), strings.Join(a.NotLoaded, ", "))
	}
	fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", a.Name, ratio(a.Functions), pct(a.Functions), ratio(a.Blocks), pct(a.Blocks), mods)
	tw.Flush()
	b.WriteString("\n")
}

// below marks an area under Target (not the dist/ total, which has none).
func below(a AreaReach) string {
	if a.Name != "all of dist/" && a.Functions.Total > 0 && a.Functions.Percent() < Target {
		return " <"
	}
	return ""
}

// writeBiggest names each contract area's largest unexecuted functions.
func (r *Report) writeBiggest(b *strings.Builder) {
	fmt.Fprintf(b, "Largest functions no scenario executes, per contract area (at most %d, by lines)\n", Biggest)
	for _, a := range r.Areas {
		fs := r.uncoveredIn(a.Name)
		if len(fs) == 0 {
			fmt.Fprintf(b, "  %s: none\n", a.Name)
			continue
		}
		var names []string
		for _, f := range fs[:min(Biggest, len(fs))] {
			names = append(names, fmt.Sprintf("%s (%s:%d, %s)", f.Name, f.module, f.Line, plural(f.Lines(), "line")))
		}
		fmt.Fprintf(b, "  %s (%d): %s\n", a.Name, len(fs), strings.Join(names, "; "))
	}
	b.WriteString("\n")
}

type placed struct {
	Function
	module string
}

// uncoveredIn lists the unexecuted functions of an area, largest first.
func (r *Report) uncoveredIn(area string) []placed {
	var out []placed
	for _, m := range r.Modules {
		if m.Area != area {
			continue
		}
		for _, f := range m.Uncovered {
			out = append(out, placed{f, m.Name})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Lines() > out[j].Lines() })
	return out
}

func (r *Report) writeUncovered(b *strings.Builder) {
	b.WriteString("Functions no scenario executes, per module (lines, name)\n")
	for _, m := range r.Modules {
		if len(m.Uncovered) == 0 {
			continue
		}
		fmt.Fprintf(b, "%s (%d):\n", m.Name, len(m.Uncovered))
		for _, f := range m.Uncovered {
			fmt.Fprintf(b, "  %d-%d\t%s\n", f.Line, f.EndLine, f.Name)
		}
	}
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func ratio(c Count) string { return fmt.Sprintf("%d/%d", c.Executed, c.Total) }

func pct(c Count) string {
	if c.Total == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f %%", c.Percent())
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
