package reports

import (
	"slices"
	"strings"
)

// SubsectionSep joins a section and its subsection in a covers name:
// "Session failure > Identity and revisions".
const SubsectionSep = " > "

// cellState is the state of one contract section under one profile in the
// coverage matrix.
type cellState string

// The cell states.
const (
	// cellPass: runs of the profile cover the section and all passed.
	cellPass cellState = "pass"
	// cellFail: a run covering the section failed (not in the baseline).
	cellFail cellState = "fail"
	// cellKnown: no covering run failed anew, but one is an expected
	// failure.
	cellKnown cellState = "known"
	// cellNone: no run of the profile covers the section (or none ran).
	cellNone cellState = "none"
)

// matrixRow is one contract section (or subsection) of the matrix.
type matrixRow struct {
	Section string
	// Depth is 0 for a section, 1 for a subsection.
	Depth int
	// Cells has one state per profile of coverage's result.
	Cells []cellState
}

// covered reports whether a run of some profile covers the row's section.
func (m matrixRow) covered() bool {
	for _, c := range m.Cells {
		if c != cellNone {
			return true
		}
	}
	return false
}

// covers reports whether a run naming covers covers section: it names it,
// or one of its subsections.
func covers(names []string, section string) bool {
	for _, c := range names {
		if c == section || strings.HasPrefix(c, section+SubsectionSep) {
			return true
		}
	}
	return false
}

// coverage returns the profiles (columns) and one row per contract section:
// r.Sections in order, and each covers name they lack right after its
// parent section's rows.
func (r *Report) coverage() ([]string, []matrixRow) {
	profiles := profilesOf(r.Runs)
	var rows []matrixRow
	for _, s := range r.sectionRows() {
		row := matrixRow{Section: s, Depth: strings.Count(s, SubsectionSep)}
		for _, p := range profiles {
			row.Cells = append(row.Cells, r.cell(s, p))
		}
		rows = append(rows, row)
	}
	return profiles, rows
}

// sectionRows is r.Sections with every covers name it lacks inserted
// after the last row of its parent (appended when no parent is listed).
func (r *Report) sectionRows() []string {
	rows := slices.Clone(r.Sections)
	for _, run := range r.Runs {
		for _, c := range run.Covers {
			if slices.Contains(rows, c) {
				continue
			}
			parent, _, _ := strings.Cut(c, SubsectionSep)
			at := len(rows)
			for i, s := range rows {
				if s == parent || strings.HasPrefix(s, parent+SubsectionSep) {
					at = i + 1
				}
			}
			rows = slices.Insert(rows, at, c)
		}
	}
	return rows
}

func (r *Report) cell(section, profile string) cellState {
	state := cellNone
	for _, run := range r.Runs {
		if run.Profile != profile || !covers(run.Covers, section) {
			continue
		}
		switch run.Status {
		case StatusFail:
			return cellFail
		case StatusExpectedFail:
			state = cellKnown
		case StatusPass:
			if state == cellNone {
				state = cellPass
			}
		}
	}
	return state
}
