package conform

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/airwire/airwire/schemas/validate"
)

// KnownFindingsFile, in the goldens directory, lists the validator errors
// on the agent's messages that are known departures of the recorded adapter
// from the contract, each tied to its goldens/DEVIATIONS.md entry. Any other
// error on an agent message fails the run (issue 4, harness wiring): a
// finding is either a listed deviation or a bug, never ignored silently.
const KnownFindingsFile = "known-findings.json"

// ErrAgentInvalid means the agent sent a message the validator rejects and
// that is not a known deviation.
var ErrAgentInvalid = errors.New("the agent sent a message the validator rejects")

// KnownFinding matches validator errors by rule and JSON pointer (exact, or a
// prefix ending in "/"), optionally only in some runs (<scenario>/<profile>).
type KnownFinding struct {
	Rule      string   `json:"rule"`
	Pointer   string   `json:"pointer"`
	Runs      []string `json:"runs,omitempty"`
	Deviation string   `json:"deviation"`
}

// Matches reports whether f, seen in run, is this known item.
func (k KnownFinding) Matches(run string, f validate.Finding) bool {
	if f.Rule != k.Rule {
		return false
	}
	if f.Pointer != k.Pointer && !(strings.HasSuffix(k.Pointer, "/") && strings.HasPrefix(f.Pointer, k.Pointer)) {
		return false
	}
	if len(k.Runs) == 0 {
		return true
	}
	for _, r := range k.Runs {
		if r == run {
			return true
		}
	}
	return false
}

var knownCache sync.Map // goldens dir → []KnownFinding or error

// LoadKnownFindings reads dir/known-findings.json; a missing file is an
// empty list. Every entry must name its rule and its deviation.
func LoadKnownFindings(dir string) ([]KnownFinding, error) {
	if v, ok := knownCache.Load(dir); ok {
		if err, isErr := v.(error); isErr {
			return nil, err
		}
		return v.([]KnownFinding), nil
	}
	var known []KnownFinding
	b, err := os.ReadFile(filepath.Join(dir, KnownFindingsFile))
	switch {
	case errors.Is(err, os.ErrNotExist):
		err = nil
	case err == nil:
		if err = json.Unmarshal(b, &known); err == nil {
			for i, k := range known {
				if k.Rule == "" || k.Deviation == "" {
					err = fmt.Errorf("%s: entry %d needs a rule and the DEVIATIONS.md entry it stands for", KnownFindingsFile, i)
					break
				}
			}
		}
	}
	if err != nil {
		knownCache.Store(dir, err)
		return nil, err
	}
	knownCache.Store(dir, known)
	return known, nil
}

// unknownAgentErrors returns the agent errors of run that no known item covers.
func unknownAgentErrors(run string, findings []validate.Finding, known []KnownFinding) []string {
	var out []string
	for _, f := range findings {
		if f.Severity != validate.SeverityError {
			continue
		}
		covered := false
		for _, k := range known {
			if k.Matches(run, f) {
				covered = true
				break
			}
		}
		if !covered {
			out = append(out, f.String())
		}
	}
	return out
}
