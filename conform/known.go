package conform

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/airwire/airwire/internal/journal"
	"github.com/airwire/airwire/schemas/validate"
)

// KnownFindingsFile, in the goldens directory, lists the validator errors
// on the agent's messages that are known departures of the recorded adapter
// (the reference) from the contract, each tied to its goldens/DEVIATIONS.md
// entry and to the reference's agentInfo name and version. Any other error
// on an agent message fails the run: a finding is either a listed deviation
// of the reference or a bug, never ignored silently, and another agent (ours)
// gets no finding excused.
const KnownFindingsFile = "known-findings.json"

// ErrAgentInvalid means the agent sent a message the validator rejects and
// that is not a known deviation.
var ErrAgentInvalid = errors.New("the agent sent a message the validator rejects")

// KnownFinding matches validator errors by rule and JSON pointer (exact, or a
// prefix ending in "/"), optionally only in some runs (<scenario>/<profile>),
// and only on the messages of the agent it names: the initialize response's
// agentInfo name and version, both required and compared exactly.
type KnownFinding struct {
	Rule      string   `json:"rule"`
	Pointer   string   `json:"pointer"`
	Runs      []string `json:"runs,omitempty"`
	Agent     string   `json:"agent"`
	Version   string   `json:"version"`
	Deviation string   `json:"deviation"`
}

// AgentID is the agentInfo (ACP v2: info) name and version of a run's
// initialize response.
type AgentID struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// RunAgent returns the agentInfo (ACP v2: info) of the initialize response among a run's
// journal entries (zero when the agent sent none).
func RunAgent(entries []journal.Entry) AgentID {
	for _, e := range entries {
		if e.Kind != journal.KindMsg || e.Lane != journal.LaneClient || e.Dir != journal.DirAgent || e.Method != "initialize" {
			continue
		}
		var r struct {
			Result struct {
				AgentInfo AgentID `json:"agentInfo"` // ACP v1
				Info      AgentID `json:"info"`      // ACP v2
			} `json:"result"`
		}
		_ = json.Unmarshal(e.Msg, &r) // a malformed answer names no agent
		if r.Result.AgentInfo != (AgentID{}) {
			return r.Result.AgentInfo
		}
		return r.Result.Info
	}
	return AgentID{}
}

// Matches reports whether f, seen in run of agent, is this known item.
func (k KnownFinding) Matches(run string, agent AgentID, f validate.Finding) bool {
	if f.Rule != k.Rule || agent.Name != k.Agent || agent.Version != k.Version {
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
				if k.Rule == "" || k.Deviation == "" || k.Agent == "" || k.Version == "" {
					err = fmt.Errorf("%s: entry %d needs a rule, the agent name and version it was seen from, and the DEVIATIONS.md entry it stands for", KnownFindingsFile, i)
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

// unknownAgentErrors returns the errors on the messages of agent in run
// that no known item for that agent covers.
func unknownAgentErrors(run string, agent AgentID, findings []validate.Finding, known []KnownFinding) []string {
	var out []string
	for _, f := range findings {
		if f.Severity != validate.SeverityError {
			continue
		}
		covered := false
		for _, k := range known {
			if k.Matches(run, agent, f) {
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
