package wirediff

import (
	"slices"
	"strings"
)

// Finding is one classified change.
type Finding struct {
	Rule     string   `json:"rule"`
	Category Category `json:"category"`
	// Change names what happened: missing, extra, moved, removed, added,
	// type, changed or errors.
	Change string `json:"change"`
	// Breaking is true when Category is one of the gate's breaking
	// categories (Report.Gate).
	Breaking bool `json:"breaking"`
	// Run is the run key ("scenario/profile"); Session the session in it.
	Run     string `json:"run"`
	Session string `json:"session"`
	// File and Line point at the new message, or at the old one when it
	// is missing.
	File    string `json:"file"`
	Line    int    `json:"line"`
	OldLine int    `json:"oldLine,omitempty"`
	NewLine int    `json:"newLine,omitempty"`
	// Tag is the message's lane and direction; Kind its method and
	// sessionUpdate, or "response <id>".
	Tag  string `json:"tag"`
	Kind string `json:"kind"`
	// Path is the JSON path of the change inside the message ("" for a
	// whole message); Old and New the values there ("" when absent).
	Path string `json:"path,omitempty"`
	Old  string `json:"old,omitempty"`
	New  string `json:"new,omitempty"`
}

// Report is the result of Diff.
type Report struct {
	Old string `json:"old"`
	New string `json:"new"`
	// Gate lists the categories that count as breaking.
	Gate     []Category `json:"gate"`
	Findings []Finding  `json:"findings"`
	// OnlyOld and OnlyNew are run keys that have no counterpart.
	OnlyOld []string `json:"onlyOld,omitempty"`
	OnlyNew []string `json:"onlyNew,omitempty"`
}

// Breaking counts the findings that fail the gate.
func (r *Report) Breaking() int {
	n := 0
	for _, f := range r.Findings {
		if f.Breaking {
			n++
		}
	}
	return n
}

// Count counts the findings of category c.
func (r *Report) Count(c Category) int {
	n := 0
	for _, f := range r.Findings {
		if f.Category == c {
			n++
		}
	}
	return n
}

// Diff compares every run the two sets share, session by session, and
// classifies each change; gate names the breaking categories
// (DefaultBreaking when empty).
func Diff(old, new Set, gate []Category) *Report {
	if len(gate) == 0 {
		gate = DefaultBreaking
	}
	r := &Report{Gate: gate, Findings: []Finding{}}
	for _, k := range old.Keys() {
		if new[k] == nil {
			r.OnlyOld = append(r.OnlyOld, k)
			continue
		}
		r.Findings = append(r.Findings, diffRun(old[k], new[k])...)
	}
	for _, k := range new.Keys() {
		if old[k] == nil {
			r.OnlyNew = append(r.OnlyNew, k)
		}
	}
	for i := range r.Findings {
		r.Findings[i].Breaking = slices.Contains(gate, r.Findings[i].Category)
	}
	return r
}

// diffRun aligns each session of the old run with the session of the same
// name in the new one.
func diffRun(old, new *Run) []Finding {
	air := isAIRClient(new)
	newSessions := map[string][]Message{}
	var order []string
	for _, s := range Sessions(new) {
		newSessions[s.Name] = s.Messages
		order = append(order, s.Name)
	}
	var out []Finding
	seen := map[string]bool{}
	for _, s := range Sessions(old) {
		seen[s.Name] = true
		out = append(out, diffSession(old, new, s.Name, s.Messages, newSessions[s.Name], air)...)
	}
	for _, name := range order {
		if !seen[name] {
			out = append(out, diffSession(old, new, name, nil, newSessions[name], air)...)
		}
	}
	return out
}

func diffSession(oldRun, newRun *Run, name string, old, new []Message, air bool) []Finding {
	d := sessionDiff{run: newRun.Key, session: name, oldFile: oldRun.File, newFile: newRun.File, air: air,
		oldKinds: map[string]bool{}}
	for _, m := range old {
		d.oldKinds[fineKind(m)] = true
	}
	for _, op := range Align(old, new) {
		d.op(op)
	}
	if strings.HasPrefix(name, "cli:") {
		for i := range d.out {
			d.out[i].Rule, d.out[i].Category = CLITrafficChanged, CategoryCLI
		}
	}
	return d.out
}
