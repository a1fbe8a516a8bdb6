package journalview

import (
	"bufio"
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"os"
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/airwire/airwire/internal/journal"
)

//go:embed view.html.tmpl
var pageText string

// cardsMark is where the cards go in the page (writeCards).
const cardsMark = "<!-- cards -->\n"

// The parsed templates of the page before and after its cards, parsed on
// first use (no init-time work).
var (
	pageOnce           sync.Once
	pageHead, pageTail *template.Template
)

func page() (head, tail *template.Template) {
	pageOnce.Do(func() {
		h, t, _ := strings.Cut(pageText, cardsMark)
		pageHead = template.Must(template.New("head").Parse(h))
		pageTail = template.Must(template.New("tail").Parse(t))
	})
	return pageHead, pageTail
}

// pageData is what the template renders.
type pageData struct {
	Title    string
	Header   journal.Header
	Agent    string
	Entries  int
	Duration string
	Note     string
	Cards    []Card
	Findings []findingLink
	// Filters is what the filters offer.
	Filters
}

// findingLink names a finding in the page's summary; Card is the seq of
// the card that shows it.
type findingLink struct {
	Seq, Card uint64
	Rule      string
}

// Filters are the values the page's filters offer: the sessions in the
// order they first appear, the methods sorted, the lanes in party order.
type Filters struct {
	Sessions []string
	Methods  []string
	Lanes    []string
}

// Filters lists what the cards hold, for the page's filters.
func (b *Builder) Filters() Filters {
	var f Filters
	seenS, seenM := map[string]bool{}, map[string]bool{}
	lanes := map[journal.Lane]bool{}
	for i := range b.cards {
		c := &b.cards[i]
		if c.Session != "" && !seenS[c.Session] {
			seenS[c.Session] = true
			f.Sessions = append(f.Sessions, c.Session)
		}
		if c.Method != "" && !seenM[c.Method] {
			seenM[c.Method] = true
			f.Methods = append(f.Methods, c.Method)
		}
		lanes[c.Lane] = true
	}
	slices.Sort(f.Methods)
	for _, l := range [...]journal.Lane{journal.LaneClient, journal.LaneCLI, journal.LaneModel} {
		if lanes[l] {
			f.Lanes = append(f.Lanes, string(l))
		}
	}
	return f
}

// Write renders the page: static, styles and script inline, nothing
// loaded from anywhere. Everything the journal holds is HTML-escaped.
func (b *Builder) Write(w io.Writer) error {
	d := b.data()
	head, tail := page()
	bw := bufio.NewWriterSize(w, 64<<10)
	if err := head.Execute(bw, d); err != nil {
		return err
	}
	if err := writeCards(bw, b.cards, b.opts.MaxPageText); err != nil {
		return err
	}
	if err := tail.Execute(bw, d); err != nil {
		return err
	}
	return bw.Flush()
}

// WriteFile renders the page into the file path.
func (b *Builder) WriteFile(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := b.Write(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// data is what the page's templates show.
func (b *Builder) data() pageData {
	d := pageData{Title: b.opts.Title, Header: b.header, Entries: b.entries, Note: b.opts.Note, Cards: b.cards,
		Filters: b.Filters()}
	if len(b.header.AgentCmd) > 0 {
		d.Agent = agentLine(b.header.AgentCmd)
	}
	if n := len(b.cards); n > 0 {
		d.Duration = fmt.Sprintf("%.3f s", float64(b.lastNs)/1e9)
	}
	for i := range b.cards {
		for _, f := range b.cards[i].Findings {
			d.Findings = append(d.Findings, findingLink{Seq: f.Seq, Card: b.cards[i].Seq, Rule: f.Rule})
		}
	}
	return d
}

// agentLine is the agent's command with each path cut to its base name,
// so no folder of the recording machine is shown.
func agentLine(argv []string) string {
	out := make([]string, len(argv))
	for i, a := range argv {
		out[i] = a
		if strings.ContainsAny(a, `/\`) && !strings.ContainsAny(a, " \t") {
			out[i] = path.Base(strings.ReplaceAll(a, `\`, "/"))
		}
	}
	return strings.Join(out, " ")
}

// Class is the card's CSS classes: its lane (or, for a process entry, the
// party alone), its sender, a tool call, findings.
func (c *Card) Class() string {
	cls := []string{"from-" + c.From}
	switch {
	case c.To == "":
		cls = append(cls, "solo")
	default:
		cls = append(cls, "lane-"+string(c.Lane))
		if partyIndex(c.From) > partyIndex(c.To) {
			cls = append(cls, "dir-left")
		}
	}
	if c.Tool != "" {
		cls = append(cls, "tool-call")
	}
	if len(c.Findings) > 0 {
		cls = append(cls, "has-finding")
	}
	return strings.Join(cls, " ")
}

func partyIndex(p string) int {
	return strings.Index("editor agent cli model", p)
}

// FilterLane is the lane the lane filter matches: the entry's lane.
func (c *Card) FilterLane() string { return string(c.Lane) }

// Time is the card's time since the journal's start.
func (c *Card) Time() string { return fmt.Sprintf("+%.3f s", float64(c.TNs)/1e9) }

// Arrow says who sent the card's message to whom.
func (c *Card) Arrow() string {
	if c.To == "" && (c.Proc == "" || c.Proc == c.From) {
		return c.From
	}
	if c.To == "" {
		return c.From + " (" + c.Proc + ")"
	}
	return c.From + " → " + c.To
}
