package conform_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/airwire/airwire/conform"
	"github.com/airwire/airwire/conform/scenario"
)

const catalogueYAML = `name: NAME
description: DESC
covers: [COVERS]
scripted: "a catalogue test: nothing runs"
profiles: [plain, air]
client:
  steps:
    - prompt: {text: hi}
`

// catalogueDirs writes three scenarios and the goldens of some of their
// runs.
func catalogueDirs(t *testing.T) (scenarios, goldens string) {
	t.Helper()
	scenarios, goldens = t.TempDir(), t.TempDir()
	for _, sc := range []struct{ name, desc, covers string }{
		{"alpha", "The editor sees a permission request. Then more detail follows.", "Permission presentation > Cancellation and failures"},
		{"beta", "A plan for step no. three of the file. Then more.", "Plan file, Permission presentation"},
		{"gamma", "One " + strings.Repeat("long ", 40) + "sentence.", "Goal > Capability, Goal > Lifecycle, Diff patch"},
	} {
		y := strings.NewReplacer("NAME", sc.name, "DESC", sc.desc, "COVERS", sc.covers).Replace(catalogueYAML)
		if err := os.WriteFile(filepath.Join(scenarios, sc.name+".yaml"), []byte(y), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, g := range []string{"alpha/plain", "alpha/air", "beta/air", "beta/zed"} {
		p := filepath.Join(goldens, g+".golden")
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return scenarios, goldens
}

func TestCatalogue(t *testing.T) {
	scenarios, goldens := catalogueDirs(t)
	tests := []struct {
		section string
		want    []string
	}{
		{"", []string{"alpha", "beta", "gamma"}},
		{"Permission presentation", []string{"alpha", "beta"}}, // a section matches its subsections
		{"permission PRESENTATION > cancellation and failures", []string{"alpha"}},
		{"Permission presentation > Options", nil}, // a known subsection no scenario covers
		{"goal", []string{"gamma"}},
		{"Diff patch > Activation", nil}, // a section does not match its subsections
	}
	for _, tt := range tests {
		t.Run(tt.section, func(t *testing.T) {
			es, err := conform.Catalogue(scenarios, goldens, tt.section)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, e := range es {
				got = append(got, e.Name)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Catalogue(%q) = %v, want %v", tt.section, got, tt.want)
			}
		})
	}
	es, err := conform.Catalogue(scenarios, goldens, "")
	if err != nil {
		t.Fatal(err)
	}
	want := []conform.CatalogueEntry{
		{Name: "alpha", Profiles: []string{"plain", "air"}, Sections: []string{"Permission presentation > Cancellation and failures"},
			Description: "The editor sees a permission request."},
		// a golden of a profile the scenario does not run is not listed
		{Name: "beta", Profiles: []string{"air"}, Sections: []string{"Plan file", "Permission presentation"},
			Description: "A plan for step no. three of the file."},
	}
	if !reflect.DeepEqual(es[:2], want) {
		t.Errorf("entries = %+v, want %+v", es[:2], want)
	}
	if g := es[2]; g.Profiles != nil || utf8.RuneCountInString(g.Description) > conform.MaxCatalogueDescription || !strings.HasSuffix(g.Description, "long…") {
		t.Errorf("gamma = %+v (%d runes), want no profiles and a clipped description", g, utf8.RuneCountInString(g.Description))
	}
}

func TestCatalogueUnknownSection(t *testing.T) {
	scenarios, goldens := catalogueDirs(t)
	_, err := conform.Catalogue(scenarios, goldens, "Permissions")
	if !errors.Is(err, conform.ErrUnknownSection) {
		t.Fatalf("err = %v, want ErrUnknownSection", err)
	}
	for _, want := range []string{`"Permissions"`, "\n  Permission presentation (Request lifecycle, ", "\n  Goal (Capability, ", "\n  Session index ("} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
}

func TestWriteCatalogue(t *testing.T) {
	scenarios, goldens := catalogueDirs(t)
	es, err := conform.Catalogue(scenarios, goldens, "")
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := conform.WriteCatalogue(&b, es); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(b.String(), "\n")
	want := []string{
		"SCENARIO  PROFILES   WHAT THE EDITOR SEES / CONTRACT SECTIONS",
		"alpha     plain,air  The editor sees a permission request.",
		"                     [Permission presentation (Cancellation and failures)]",
		"beta      air        A plan for step no. three of the file.",
		"                     [Plan file; Permission presentation]",
	}
	if !reflect.DeepEqual(lines[:5], want) {
		t.Errorf("table starts\n%s\nwant\n%s", strings.Join(lines[:5], "\n"), strings.Join(want, "\n"))
	}
	if !strings.HasPrefix(lines[5], "gamma     -          One long") || lines[6] != "                     [Goal (Capability, Lifecycle); Diff patch]" || lines[7] != "3 scenarios" {
		t.Errorf("table ends\n%s", strings.Join(lines[5:], "\n"))
	}
}

// TestCatalogueSuite: every scenario of the suite is listed with a
// description and at least one profile that has a golden.
func TestCatalogueSuite(t *testing.T) {
	es, err := conform.Catalogue(filepath.Join("..", "scenarios"), filepath.Join("..", "goldens"), "")
	if err != nil {
		t.Fatal(err)
	}
	files, _ := scenario.Files(filepath.Join("..", "scenarios"))
	if len(es) != len(files) {
		t.Errorf("%d entries for %d scenario files", len(es), len(files))
	}
	for _, e := range es {
		if e.Description == "" || len(e.Profiles) == 0 || len(e.Sections) == 0 {
			t.Errorf("%s: %+v", e.Name, e)
		}
	}
}
