package validate

import (
	"errors"
	"fmt"
	"io"

	"github.com/airwire/airwire/internal/journal"
	"github.com/airwire/airwire/internal/lookup"
)

// Report is the outcome over a whole journal.
type Report struct {
	Findings []Finding `json:"findings"`
	Stats    Stats     `json:"stats"`
}

// HasErrors reports whether any finding is an error.
func (r Report) HasErrors() bool { return r.Stats.Errors > 0 }

// RuleJournal is the rule of a finding about the journal itself (an entry
// the format forbids), reported whatever side is checked.
const RuleJournal = "journal-entry"

// Journal feeds every client-lane entry of the journal at path to v, in
// order. Messages become Messages; a frame that was not JSON is a finding.
func Journal(path string, v *Validator) (Report, error) {
	r, err := journal.Open(path)
	if err != nil {
		return Report{}, err
	}
	defer r.Close()
	return Entries(r.Next, v)
}

// Entries is Journal over any entry source (next returns io.EOF at the end);
// at the end it adds what the conversation left undone (End). Of the cli
// lane it passes only the messages to Check, which notes the CLI's
// permission requests and reports nothing about them.
// Each entry is first checked against the journal format (docs/journal.md,
// "Entries"): a seq that does not rise, a negative t_ns, an unknown kind, a
// client-lane frame of no known sender or a msg entry without msg is a
// RuleJournal error, and such a frame is not checked as a message.
func Entries(next func() (journal.Entry, error), v *Validator) (Report, error) {
	var rep Report
	var seen bool
	var last uint64
	for {
		e, err := next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return rep, err
		}
		bad := v.entryFindings(e, seen, last)
		seen, last = true, e.Seq
		rep.Findings = append(rep.Findings, bad...)
		if len(bad) == 0 && e.Lane == journal.LaneCLI && e.Kind == journal.KindMsg {
			v.Check(Message{Seq: e.Seq, Lane: string(e.Lane), Dir: string(e.Dir), Msg: e.Msg}) // notes only, no findings
		}
		if len(bad) > 0 || e.Lane != journal.LaneClient {
			continue
		}
		switch e.Kind {
		case journal.KindMsg:
			rep.Findings = append(rep.Findings, v.Check(Message{Seq: e.Seq, Lane: string(e.Lane), Dir: string(e.Dir), Msg: e.Msg})...)
		case journal.KindNonJSON:
			rep.Findings = append(rep.Findings, v.nonJSON(e)...)
		}
	}
	rep.Findings = append(rep.Findings, v.End()...)
	rep.Stats = v.Stats()
	return rep, nil
}

// nonJSON reports a client-lane frame that was not JSON.
func (v *Validator) nonJSON(e journal.Entry) []Finding {
	f := Finding{Seq: e.Seq, Lane: string(e.Lane), Dir: string(e.Dir), Rule: "jsonrpc-envelope", Section: SectionACP,
		Severity: SeverityError, Message: fmt.Sprintf("a frame that is not JSON: %s", e.Reason)}
	if !v.keeps(f) {
		return nil
	}
	v.stats.Messages++
	v.stats.Errors++
	return []Finding{f}
}

// knownKinds are the entry kinds of journal format version 1.
var knownKinds = lookup.Lazy[map[journal.Kind]bool]{Build: func() map[journal.Kind]bool {
	return map[journal.Kind]bool{journal.KindMsg: true, journal.KindNonJSON: true, journal.KindStderr: true,
		journal.KindSpawn: true, journal.KindExit: true, journal.KindNote: true}
}}

// entryFindings checks one entry against the journal format (docs/journal.md,
// "Entries"): seq rises (from 1: 0 is no seq), t_ns is not negative, kind
// is known, a client-lane frame comes from the editor or the agent, and a
// msg entry has its msg. seen says whether an entry came before, last its
// seq. Each finding counts as an error.
func (v *Validator) entryFindings(e journal.Entry, seen bool, last uint64) []Finding {
	var out []Finding
	add := func(format string, args ...any) {
		out = append(out, Finding{Seq: e.Seq, Lane: string(e.Lane), Dir: string(e.Dir), Rule: RuleJournal, Section: SectionJournal,
			Severity: SeverityError, Message: fmt.Sprintf(format, args...)})
	}
	switch {
	case e.Seq == 0:
		add("seq 0 is not above the previous entry's (seq counts from 1)")
	case seen && e.Seq <= last:
		add("seq %d is not above the previous entry's %d (seq rises by one along the journal)", e.Seq, last)
	}
	if e.TNs < 0 {
		add("t_ns %d is negative (nanoseconds since the start)", e.TNs)
	}
	frame := e.Kind == journal.KindMsg || e.Kind == journal.KindNonJSON
	switch {
	case !knownKinds.Get()[e.Kind]:
		add("kind %q is not an entry kind of journal version %d (msg, non_json, stderr, spawn, exit, note)", e.Kind, journal.Version)
	case frame && e.Lane == journal.LaneClient && e.Dir != journal.DirEditor && e.Dir != journal.DirAgent:
		add("%s; the frame is not checked", dirText(string(e.Dir)))
	case e.Kind == journal.KindMsg && len(e.Msg) == 0:
		add("a msg entry without msg; the frame is not checked")
	}
	v.stats.Errors += len(out)
	return out
}

// dirText says that dir is no sender of the client lane.
func dirText(dir string) string {
	return fmt.Sprintf(`dir %q is no sender of the client lane ("editor" or "agent")`, dir)
}

func (v *Validator) keeps(f Finding) bool { return f.Rule == RuleJournal || v.keepsDir(f.Dir) }

// keepsDir reports whether messages sent by dir are on the checked side;
// Stats count only those.
func (v *Validator) keepsDir(dir string) bool {
	return !(v.side == SideAgent && dir != DirAgent || v.side == SideClient && dir != DirEditor)
}
