package conform

import (
	"errors"
	"path/filepath"
	"strings"

	"github.com/airwire/airwire/conform/cassette"
	"github.com/airwire/airwire/internal/journal"
)

// ErrCassetteNotApplicable means a replayed run's adapter started the CLI
// with other arguments, or sent it a control request, than the recording
// has: the cassette's player refused it (cassette.NotApplicable), so the
// run says nothing about the adapter against the golden. It is a verdict of
// its own, not a golden mismatch; the run can still be made with --live.
var ErrCassetteNotApplicable = errors.New("cassette does not apply")

// CassetteError is a replayed run whose cassette does not apply.
type CassetteError struct {
	// Cassette is the cassette's name (<scenario>/<profile>.cassette).
	Cassette string
	// Reasons are what the player refused, one per refused spawn or frame
	// (the text after cassette.NotApplicable).
	Reasons []string
}

func (e *CassetteError) Error() string {
	return "cassette does not apply (" + e.Cassette + "): " + strings.Join(e.Reasons, "; ") + "; " + cassette.LiveHint
}

func (e *CassetteError) Unwrap() error { return ErrCassetteNotApplicable }

// notApplicable returns the player's refusals in a run's journal: the CLI
// lane's stderr lines that start with cassette.NotApplicable.
func notApplicable(entries []journal.Entry) []string {
	var out []string
	for i := range entries {
		e := &entries[i]
		if e.Lane != journal.LaneCLI || e.Kind != journal.KindStderr {
			continue
		}
		if r, ok := strings.CutPrefix(strings.TrimSpace(e.TextOf()), cassette.NotApplicable); ok {
			out = append(out, r)
		}
	}
	return out
}

// cassetteVerdict is the CassetteError of a replayed run whose player
// refused the adapter, else nil. It wins over any other failure of the run:
// an adapter the recording does not fit fails in whatever way follows.
func cassetteVerdict(o Options, res *Result) error {
	if res == nil || o.Live || !o.Scenario.Live() {
		return nil
	}
	reasons := notApplicable(res.Entries)
	if len(reasons) == 0 {
		return nil
	}
	name := filepath.Base(filepath.Dir(o.Cassette)) + "/" + filepath.Base(o.Cassette)
	return &CassetteError{Cassette: name, Reasons: reasons}
}
