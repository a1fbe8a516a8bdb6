package air_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airwire/airwire/schemas/air"
	"github.com/airwire/airwire/schemas/verdict"
)

type negative struct {
	Rule     string          `json:"rule"`
	Note     string          `json:"note"`
	Instance json.RawMessage `json:"instance"`
}

func rules(vs []verdict.Violation) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = v.Rule()
	}
	return out
}

func TestExamplesPass(t *testing.T) {
	set, err := air.Load()
	if err != nil {
		t.Fatal(err)
	}
	if n := len(set.Names()); n < 40 {
		t.Fatalf("only %d schemas loaded", n)
	}
	for _, name := range set.Names() {
		s := set.Get(name)
		for i, ex := range s.Examples {
			if vs := s.Validate(ex); len(vs) > 0 {
				t.Errorf("%s example %d fails: %v", name, i, vs)
			}
		}
	}
}

func TestNegativesFailWithTheirRule(t *testing.T) {
	set, err := air.Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range set.Names() {
		b, err := os.ReadFile(filepath.Join("testdata", "negative", name+".json"))
		if err != nil {
			t.Errorf("%s: no negative fixture: %v", name, err)
			continue
		}
		var negs []negative
		if err := json.Unmarshal(b, &negs); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(negs) == 0 {
			t.Errorf("%s: empty negative fixture", name)
		}
		for _, n := range negs {
			t.Run(name+"/"+n.Note, func(t *testing.T) {
				got := rules(set.Get(name).Validate(n.Instance))
				for _, r := range got {
					if r == n.Rule {
						return
					}
				}
				t.Errorf("want %s, got %v", n.Rule, got)
			})
		}
	}
}

// Every required property and every const/enum of a schema is a rule; each one
// must be exercised by at least one negative fixture.
func TestEveryRequiredRuleHasANegative(t *testing.T) {
	set, err := air.Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range set.Names() {
		raw, err := os.ReadFile(name + ".schema.json")
		if err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Required []string `json:"required"`
		}
		if err := json.Unmarshal(raw, &doc); err != nil {
			t.Fatal(err)
		}
		negRaw, _ := os.ReadFile(filepath.Join("testdata", "negative", name+".json"))
		var negs []negative
		_ = json.Unmarshal(negRaw, &negs)
		covered := map[string]bool{}
		for _, n := range negs {
			covered[n.Rule] = true
		}
		for _, req := range doc.Required {
			if req == "sessionUpdate" {
				continue // the discriminator: the validator dispatches on it
			}
			ok := covered["required@/"+req]
			if !ok { // a const/enum/type/pattern rule on the same field also proves it is checked
				for r := range covered {
					if strings.HasSuffix(r, "@/"+req) || strings.Contains(r, "@/"+req+"/") {
						ok = true
					}
				}
			}
			if !ok {
				t.Errorf("%s: required %q has no negative fixture", name, req)
			}
		}
	}
}

func TestSchemaFilesCiteTheirSection(t *testing.T) {
	set, err := air.Load()
	if err != nil {
		t.Fatal(err)
	}
	contract := []string{"Client declaration", "Agent declaration", "AIR metadata keys", "JetBrains shared keys", "Goal",
		"Diff patch", "Permission presentation", "Recommended config values", "Async tasks", "Agent file-change report",
		"Session failure", "Native subagent sessions", "Session index", "Context compaction", "Question custom answers",
		"Session fork point", "Presentation hints", "Tool call contract", "Claude tools and ACP fields"}
	known := map[string]bool{}
	for _, c := range contract {
		known[c] = true
	}
	seen := map[string]bool{}
	for _, name := range set.Names() {
		s := set.Get(name)
		if !known[s.Section] {
			t.Errorf("%s cites unknown section %q", name, s.Section)
		}
		if s.ID != air.ID(name) {
			t.Errorf("%s: $id %s", name, s.ID)
		}
		seen[s.Section] = true
	}
	for _, c := range contract {
		if !seen[c] {
			t.Errorf("no schema cites %q", c)
		}
	}
}
