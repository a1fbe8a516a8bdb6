package conform

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/airwire/airwire/conform/golden"
	"github.com/airwire/airwire/conform/scenario"
)

// The scenario catalogue: what each scenario shows an editor, for
// `airwire play --list [--section NAME]`, which plays one scenario's agent
// side to a real editor. It is read from the scenarios and goldens as they
// are: each scenario's name, description and covers, and the profiles its
// goldens exist for.

// CatalogueEntry is one scenario of the catalogue.
type CatalogueEntry struct {
	// Name is the scenario's name (scenarios/<name>.yaml).
	Name string
	// Profiles are the profiles the scenario runs that have a golden
	// (goldens/<name>/<profile>.golden), in the order the suite runs them.
	Profiles []string
	// Sections are the contract sections the scenario covers, as its
	// covers list them ("Section" or "Section > Subsection").
	Sections []string
	// Description is one line saying what the editor will see: the first
	// sentence of the scenario's description, clipped to
	// MaxCatalogueDescription runes.
	Description string
}

// MaxCatalogueDescription bounds CatalogueEntry.Description, in runes.
const MaxCatalogueDescription = 120

// ErrUnknownSection means a section filter names no contract section or
// subsection (scenario.Outline).
var ErrUnknownSection = errors.New("unknown contract section")

// Catalogue lists the scenarios of scenariosDir, by name, with the
// profiles goldensDir holds goldens for. A non-empty section keeps the
// scenarios that cover it: a contract section or "Section > Subsection",
// matched case-insensitively; a section matches its subsections too
// ("Permission presentation" matches "Permission presentation >
// Cancellation and failures"). A section the contract does not have is
// ErrUnknownSection, whose message lists the known ones.
func Catalogue(scenariosDir, goldensDir string, section string) ([]CatalogueEntry, error) {
	if section != "" {
		if err := knownSection(section); err != nil {
			return nil, err
		}
	}
	scs, err := scenario.LoadDir(scenariosDir)
	if err != nil {
		return nil, err
	}
	g := golden.New(goldensDir, golden.WithUpdate(false))
	out := []CatalogueEntry{}
	for _, sc := range scs {
		if section != "" && !coversSection(sc.Covers, section) {
			continue
		}
		e := CatalogueEntry{Name: sc.Name, Sections: append([]string(nil), sc.Covers...), Description: catalogueLine(sc.Description)}
		for _, p := range sc.RunProfiles() {
			if _, err := os.Stat(g.File(GoldenName(sc, p))); err == nil {
				e.Profiles = append(e.Profiles, string(p))
			}
		}
		out = append(out, e)
	}
	return out, nil
}

// coversSection reports whether covers names section, or a subsection of
// it, case-insensitively.
func coversSection(covers []string, section string) bool {
	for _, c := range covers {
		if strings.EqualFold(c, section) {
			return true
		}
		if parent, _, ok := strings.Cut(c, scenario.SubsectionSep); ok && strings.EqualFold(parent, section) {
			return true
		}
	}
	return false
}

// knownSection checks that section is a contract section or subsection
// (case-insensitively); the error lists each section with its
// subsections.
func knownSection(section string) error {
	for _, s := range scenario.Outline() {
		if strings.EqualFold(s, section) {
			return nil
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%q; the contract's sections (and their subsections, named \"Section%sSubsection\"):", section, scenario.SubsectionSep)
	for _, s := range scenario.Sections {
		fmt.Fprintf(&b, "\n  %s", s)
		if subs := scenario.SubsectionsOf(s); len(subs) > 0 {
			fmt.Fprintf(&b, " (%s)", strings.Join(subs, ", "))
		}
	}
	return fmt.Errorf("%w %s", ErrUnknownSection, b.String())
}

// catalogueLine is the first sentence of a scenario's description (up to
// a full stop that a capital letter follows), white space folded, clipped
// to MaxCatalogueDescription runes at a word boundary.
func catalogueLine(desc string) string {
	s := strings.Join(strings.Fields(desc), " ")
	for i := 0; i+2 < len(s); i++ {
		if s[i] == '.' && s[i+1] == ' ' {
			if r, _ := utf8.DecodeRuneInString(s[i+2:]); unicode.IsUpper(r) {
				s = s[:i+1]
				break
			}
		}
	}
	if utf8.RuneCountInString(s) <= MaxCatalogueDescription {
		return s
	}
	cut := string([]rune(s)[:MaxCatalogueDescription-1])
	if i := strings.LastIndexByte(cut, ' '); i > MaxCatalogueDescription/2 {
		cut = cut[:i]
	}
	return strings.TrimRight(cut, " ,;:") + "…"
}

// WriteCatalogue writes entries as a text table, two lines a scenario:
// its name, the profiles it has goldens for and what the editor will see,
// then, below the description, the contract sections it covers (each
// section once, its subsections in parentheses); at the end, how many
// scenarios it lists.
func WriteCatalogue(w io.Writer, entries []CatalogueEntry) error {
	const head1, head2 = "SCENARIO", "PROFILES"
	nameW, profW := len(head1), len(head2)
	for _, e := range entries {
		nameW, profW = max(nameW, len(e.Name)), max(profW, len(profileList(e.Profiles)))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%-*s  %-*s  %s\n", nameW, head1, profW, head2, "WHAT THE EDITOR SEES / CONTRACT SECTIONS")
	for _, e := range entries {
		fmt.Fprintf(&b, "%-*s  %-*s  %s\n", nameW, e.Name, profW, profileList(e.Profiles), e.Description)
		fmt.Fprintf(&b, "%*s  [%s]\n", nameW+2+profW, "", sectionList(e.Sections))
	}
	noun := "scenarios"
	if len(entries) == 1 {
		noun = "scenario"
	}
	fmt.Fprintf(&b, "%d %s\n", len(entries), noun)
	_, err := io.WriteString(w, b.String())
	return err
}

// profileList is a catalogue entry's profiles column ("-" for none).
func profileList(ps []string) string {
	if len(ps) == 0 {
		return "-"
	}
	return strings.Join(ps, ",")
}

// sectionList names each section of covers once, in order, with the
// subsections covers names in parentheses: "Plan file (Activation,
// Fallback); Permission presentation".
func sectionList(covers []string) string {
	var order []string
	subs := map[string][]string{}
	for _, c := range covers {
		sec, sub, _ := strings.Cut(c, scenario.SubsectionSep)
		if _, seen := subs[sec]; !seen {
			order = append(order, sec)
			subs[sec] = nil
		}
		if sub != "" {
			subs[sec] = append(subs[sec], sub)
		}
	}
	parts := make([]string, len(order))
	for i, sec := range order {
		parts[i] = sec
		if len(subs[sec]) > 0 {
			parts[i] += " (" + strings.Join(subs[sec], ", ") + ")"
		}
	}
	return strings.Join(parts, "; ")
}
