package reports

import (
	"slices"
	"strings"
)

// SubsectionSep joins a section and its subsection in a covers name:
// "Session failure > Identity and revisions".
const SubsectionSep = " > "

// Cell is the state of one contract section under one profile in the
// coverage matrix.
type Cell string

// The cell states.
const (
	// CellPass: runs of the profile cover the section and all passed.
	CellPass Cell = "pass"
	// CellFail: a run covering the section failed (not in the baseline).
	CellFail Cell = "fail"
	// CellKnown: no covering run failed anew, but one is an expected
	// failure.
	CellKnown Cell = "known"
	// CellNone: no run of the profile covers the section (or none ran).
	CellNone Cell = "none"
)

// MatrixRow is one contract section (or subsection) of the matrix.
type MatrixRow struct {
	Section string
	// Depth is 0 for a section, 1 for a subsection.
	Depth int
	// Cells has one state per profile of Matrix's result.
	Cells []Cell
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

// Matrix returns the profiles (columns) and one row per contract section:
// r.Sections in order, and each covers name they lack right after its
// parent section's rows.
func (r *Report) Matrix() ([]string, []MatrixRow) {
	profiles := profilesOf(r.Runs)
	var rows []MatrixRow
	for _, s := range r.sectionRows() {
		row := MatrixRow{Section: s, Depth: strings.Count(s, SubsectionSep)}
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

func (r *Report) cell(section, profile string) Cell {
	state := CellNone
	for _, run := range r.Runs {
		if run.Profile != profile || !covers(run.Covers, section) {
			continue
		}
		switch run.Status {
		case StatusFail:
			return CellFail
		case StatusExpectedFail:
			state = CellKnown
		case StatusPass:
			if state == CellNone {
				state = CellPass
			}
		}
	}
	return state
}
