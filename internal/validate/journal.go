package validate

import (
	"errors"
	"fmt"
	"io"

	"github.com/airwire/airwire/internal/journal"
)

// Report is the outcome over a whole journal.
type Report struct {
	Findings []Finding `json:"findings"`
	Stats    Stats     `json:"stats"`
}

// HasErrors reports whether any finding is an error.
func (r Report) HasErrors() bool { return r.Stats.Errors > 0 }

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

// Entries is Journal over any entry source (next returns io.EOF at the end).
func Entries(next func() (journal.Entry, error), v *Validator) (Report, error) {
	var rep Report
	for {
		e, err := next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return rep, err
		}
		if e.Lane != journal.LaneClient {
			continue
		}
		switch e.Kind {
		case journal.KindMsg:
			rep.Findings = append(rep.Findings, v.Check(Message{Seq: e.Seq, Lane: string(e.Lane), Dir: string(e.Dir), Msg: e.Msg})...)
		case journal.KindNonJSON:
			f := Finding{Seq: e.Seq, Lane: string(e.Lane), Dir: string(e.Dir), Rule: "jsonrpc-envelope", Section: SectionACP,
				Severity: SeverityError, Message: fmt.Sprintf("a frame that is not JSON: %s", e.Reason)}
			if v.keeps(f) {
				v.stats.Messages++
				v.stats.Errors++
				rep.Findings = append(rep.Findings, f)
			}
		}
	}
	rep.Stats = v.Stats()
	return rep, nil
}

func (v *Validator) keeps(f Finding) bool { return v.keepsDir(f.Dir) }

// keepsDir reports whether messages sent by dir are on the checked side;
// Stats count only those.
func (v *Validator) keepsDir(dir string) bool {
	return !(v.side == SideAgent && dir != DirAgent || v.side == SideClient && dir != DirEditor)
}
