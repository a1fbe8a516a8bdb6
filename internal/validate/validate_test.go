package validate_test

import (
	"sync"
	"testing"

	"github.com/airwire/airwire/internal/deps"
	"github.com/airwire/airwire/internal/validate"
	"github.com/airwire/airwire/schemas/acp"
	"github.com/airwire/airwire/schemas/air"
)

var (
	schemaOnce sync.Once
	acpSchema  *acp.Schema
	schemaErr  error
)

// schemas loads the pinned ACP schema once; the test is skipped, with the
// reason, when make deps has not run.
func schemas(t testing.TB) (*acp.Schema, *air.Set) {
	t.Helper()
	p, err := deps.Paths()
	if err != nil {
		t.Skipf("ACP schema not installed: %v", err)
	}
	dir, err := p.RequireACPSchemaDir()
	if err != nil {
		t.Skipf("ACP schema not installed: %v", err)
	}
	schemaOnce.Do(func() { acpSchema, schemaErr = acp.LoadDir(dir, true) })
	if schemaErr != nil {
		t.Fatal(schemaErr)
	}
	set, err := air.Load()
	if err != nil {
		t.Fatal(err)
	}
	return acpSchema, set
}

func TestReferenceJournalsAreClean(t *testing.T) {
	a, s := schemas(t)
	// AIR payloads (and JetBrains shared keys) each journal holds: the count
	// proves the locator finds them.
	payloads := map[string]int{"air-session": 25, "plain-session": 3, "recorded-air": 23, "recorded-plain": 3}
	for _, name := range []string{"air-session", "plain-session", "recorded-air", "recorded-plain"} {
		t.Run(name, func(t *testing.T) {
			rep, err := validate.Journal("testdata/"+name+".jsonl", validate.New(a, s))
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range rep.Findings {
				// A real reference deviation: PromptResponse.usage.totalTokens
				// is null where ACP v1 wants an integer; usage is marked
				// x-deserialize-default-on-error, so it is a warning.
				known := f.Severity == validate.SeverityWarning && f.Method == "session/prompt" &&
					(f.Pointer == "/result/usage" || f.Pointer == "/result/usage/totalTokens")
				if !known {
					t.Errorf("%s", f)
				}
			}
			if rep.Stats.Errors != 0 || rep.Stats.Messages == 0 || rep.Stats.AIRPayloads != payloads[name] {
				t.Errorf("stats %+v", rep.Stats)
			}
			t.Logf("%+v", rep.Stats)
		})
	}
}
