package reports

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Baseline is an expected-failures file: the runs known to fail, each with
// the reason. It is a YAML mapping, one entry a line:
//
//	# scenario:profile[:check]: reason
//	bash-background:air: the adapter does not report background tasks yet
//	write-new:zed:golden: DEVIATIONS.md 12
//	edit-with-permission:air:diff-patch-text: diffPatch text is not sent yet
//
// check is CheckGolden, CheckValidate, CheckRun, CheckCassette or a validator rule id
// (which may hold colons: the id is split at its first two); without it
// any failure of the run matches.
type Baseline struct {
	// File is the path the baseline was read from.
	File    string
	Entries []Entry
}

// Entry is one expected failure.
type Entry struct {
	Scenario string `json:"scenario"`
	Profile  string `json:"profile"`
	// Check is "" (any failure) or the check the failure must be
	// attributed to.
	Check  string `json:"check,omitempty"`
	Reason string `json:"reason"`
	// File and Line locate the entry, for the message that asks to remove
	// it.
	File string `json:"file"`
	Line int    `json:"line"`
}

// ID is the entry as written: scenario:profile[:check].
func (e Entry) ID() string {
	id := e.Scenario + ":" + e.Profile
	if e.Check != "" {
		id += ":" + e.Check
	}
	return id
}

// LoadBaseline reads an expected-failures file. Every entry needs a
// scenario, a profile and a reason; a run listed twice is an error.
func LoadBaseline(path string) (*Baseline, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(b, &doc); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	bl := &Baseline{File: path}
	if len(doc.Content) == 0 {
		return bl, nil // an empty file: no expected failure
	}
	m := doc.Content[0]
	if m.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("%s:%d: want a mapping of scenario:profile[:check] to a reason", path, m.Line)
	}
	seen := map[string]int{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		e, err := parseEntry(path, m.Content[i], m.Content[i+1])
		if err != nil {
			return nil, err
		}
		run := e.Scenario + "/" + e.Profile
		if prev, dup := seen[run]; dup {
			return nil, fmt.Errorf("%s:%d: %s is listed on line %d already", path, e.Line, run, prev)
		}
		seen[run] = e.Line
		bl.Entries = append(bl.Entries, e)
	}
	return bl, nil
}

func parseEntry(path string, k, v *yaml.Node) (Entry, error) {
	parts := strings.SplitN(k.Value, ":", 3)
	e := Entry{File: path, Line: k.Line, Scenario: parts[0]}
	if len(parts) > 1 {
		e.Profile = parts[1]
	}
	if len(parts) > 2 {
		e.Check = parts[2]
	}
	if v.Kind == yaml.ScalarNode {
		e.Reason = strings.TrimSpace(v.Value)
	}
	switch {
	case k.Kind != yaml.ScalarNode || e.Scenario == "" || e.Profile == "":
		return e, fmt.Errorf("%s:%d: %q: want scenario:profile or scenario:profile:check", path, k.Line, k.Value)
	case len(parts) > 2 && e.Check == "":
		return e, fmt.Errorf("%s:%d: %q: empty check", path, k.Line, k.Value)
	case e.Reason == "":
		return e, fmt.Errorf("%s:%d: %s: give the reason the run is expected to fail", path, k.Line, k.Value)
	}
	return e, nil
}

// entry is the entry that lists the run, or nil.
func (b *Baseline) entry(r *Run) *Entry {
	for i, e := range b.Entries {
		if e.Scenario == r.Scenario && e.Profile == r.Profile {
			return &b.Entries[i]
		}
	}
	return nil
}

// Mark makes a failed run that an entry lists StatusExpectedFail, with
// the entry in r.Baseline. It returns a note when an entry lists the run
// with a check its failure is not attributed to: the run stays a failure,
// and the note says how it failed instead.
func (b *Baseline) Mark(r *Run) string {
	if b == nil || r.Status != StatusFail || r.Failure == nil {
		return ""
	}
	e := b.entry(r)
	if e == nil {
		return ""
	}
	f := r.Failure
	if e.Check == "" || e.Check == f.Check || f.Check == CheckValidate && slices.Contains(f.Rules, e.Check) {
		r.Status, r.Baseline = StatusExpectedFail, e
		return ""
	}
	how := f.Check
	if f.Check == CheckValidate {
		how += " (rules " + strings.Join(f.Rules, ", ") + ")"
	}
	return fmt.Sprintf("%s:%d: %s expects check %s, but the run failed %s", e.File, e.Line, e.ID(), e.Check, how)
}

// Stale returns one message per entry whose run passed: the baseline must
// lose that line. Entries whose runs were not run (another shard, another
// --scenario) are not stale.
func (b *Baseline) Stale(runs []Run) []string {
	if b == nil {
		return nil
	}
	var out []string
	for _, r := range runs {
		if e := b.entry(&r); e != nil && r.Status == StatusPass {
			out = append(out, fmt.Sprintf("%s:%d: %s passes now: remove this line (stale expected failure: %s)", e.File, e.Line, e.ID(), e.Reason))
		}
	}
	return out
}

// Known checks that every entry names a run of the suite. runs maps each
// scenario to the profiles it runs; a nil slice (a scenario file that did
// not load) accepts any of profiles, the suite's profiles. A typo would otherwise never match a run
// and go unnoticed, so the error names the file and line of every entry
// that names no run.
func (b *Baseline) Known(runs map[string][]string, profiles []string) error {
	if b == nil {
		return nil
	}
	var bad []string
	for _, e := range b.Entries {
		ps, ok := runs[e.Scenario]
		switch {
		case !ok:
			bad = append(bad, fmt.Sprintf("%s:%d: %s: the suite has no scenario %q", e.File, e.Line, e.ID(), e.Scenario))
		case !slices.Contains(profiles, e.Profile):
			bad = append(bad, fmt.Sprintf("%s:%d: %s: no profile %q (the profiles are %s)", e.File, e.Line, e.ID(), e.Profile, strings.Join(profiles, ", ")))
		case ps != nil && !slices.Contains(ps, e.Profile):
			bad = append(bad, fmt.Sprintf("%s:%d: %s: scenario %s does not run profile %s (it runs %s)", e.File, e.Line, e.ID(), e.Scenario, e.Profile, strings.Join(ps, ", ")))
		}
	}
	if len(bad) > 0 {
		return fmt.Errorf("%s", strings.Join(bad, "\n"))
	}
	return nil
}
