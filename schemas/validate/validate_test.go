package validate_test

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/airwire/airwire/internal/deps"
	"github.com/airwire/airwire/schemas/acp"
	"github.com/airwire/airwire/schemas/air"
	"github.com/airwire/airwire/schemas/validate"
)

// schemas loads the schemas once; the test is skipped, with the reason, when
// make deps has not run.
func schemas(t testing.TB) (*acp.Schema, *air.Set) {
	t.Helper()
	a, s, err := validate.Load()
	if errors.Is(err, deps.ErrMissing) {
		deps.Unavailable(t, "ACP schema not installed: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	return a, s
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
				// Also real: the reference advertises capabilities that the
				// contract's Capabilities table does not name.
				known = known || f.Rule == "air-capability-unknown" && f.Severity == validate.SeverityWarning &&
					knownExtraCaps[capabilityAt(t, name, f)]
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

var knownExtraCaps = map[string]bool{"customInstructions": true, "backgroundSubagents": true, "sessionBatchGet": true, "sessionWorktrees": true}

// capabilityAt returns the capability name a finding points at.
func capabilityAt(t *testing.T, journal string, f validate.Finding) string {
	t.Helper()
	for _, m := range messages(t, journal) {
		if m.Seq != f.Seq {
			continue
		}
		var doc any
		if err := json.Unmarshal(m.Msg, &doc); err != nil {
			t.Fatal(err)
		}
		for _, seg := range strings.Split(f.Pointer, "/")[1:] {
			switch v := doc.(type) {
			case map[string]any:
				doc = v[seg]
			case []any:
				i, _ := strconv.Atoi(seg)
				doc = v[i]
			}
		}
		s, _ := doc.(string)
		return s
	}
	return ""
}
