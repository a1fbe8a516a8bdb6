package play

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/airwire/airwire/internal/deps"
	"github.com/airwire/airwire/reports"
	checks "github.com/airwire/airwire/schemas/validate"
)

const journalHead = `{"journal": "airwire", "version": 1, "airwire": "test", "start": "2026-11-30T00:00:00Z"}
{"seq":1,"t_ns":1000,"kind":"msg","lane":"client","dir":"editor","proc":"agent","method":"initialize","msg":{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{"fs":{"readTextFile":true,"writeTextFile":true},"terminal":true}}}}
{"seq":2,"t_ns":2000,"kind":"msg","lane":"client","dir":"agent","proc":"agent","msg":{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1,"agentCapabilities":{"loadSession":true},"authMethods":[]}}}
`

// an agent request the editor never answers
const unanswered = `{"seq":3,"t_ns":3000,"kind":"msg","lane":"client","dir":"agent","proc":"agent","method":"fs/read_text_file","msg":{"jsonrpc":"2.0","id":7,"method":"fs/read_text_file","params":{"sessionId":"s1","path":"/w/a.txt"}}}
`

func newValidator(t *testing.T) *checks.Validator {
	t.Helper()
	p, err := deps.Paths()
	if err != nil || p.ACPSchemaDir == "" {
		deps.Unavailable(t, "the ACP schema is not installed (run make deps): %v", err)
	}
	a, set, err := checks.LoadDir(p.ACPSchemaDir)
	if err != nil {
		t.Fatal(err)
	}
	return checks.New(a, set)
}

// TestWriteReport: the client report of a play whose editor left an agent
// request unanswered fails naming the rule, keeps the journal and draws it;
// that of a clean play passes. Both carry the play's notes.
func TestWriteReport(t *testing.T) {
	for _, tt := range []struct {
		name, journal string
		fail          bool
	}{
		{"clean", journalHead, false},
		{"unanswered", journalHead + unanswered, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			jpath := filepath.Join(dir, JournalFile)
			if err := os.WriteFile(jpath, []byte(tt.journal), 0o644); err != nil {
				t.Fatal(err)
			}
			res := &Result{Scenario: "read", Profile: "plain", Journal: jpath, Prompts: 2, Turns: 1, Started: time.Now(),
				Notes: []string{"prompt 2 is past the scenario's 1; it gets a short text turn"}}
			out := filepath.Join(dir, "report")
			if _, err := WriteReport(res, ReportOptions{Dir: out, Airwire: "test", Validator: newValidator(t), Covers: []string{"Tool call contract"}}); err != nil {
				t.Fatal(err)
			}
			for _, f := range []string{ReportJSON, ReportJUnit, ReportJournal, ReportView, reports.HTMLFile} {
				if _, err := os.Stat(filepath.Join(out, f)); err != nil {
					t.Errorf("no %s: %v", f, err)
				}
			}
			rep, err := reports.Read(filepath.Join(out, ReportJSON))
			if err != nil {
				t.Fatal(err)
			}
			run := rep.Runs[0]
			if failed := run.Status == reports.StatusFail; failed != tt.fail {
				t.Fatalf("status %s, want failed %v (%+v)", run.Status, tt.fail, run.Failure)
			}
			if tt.fail && !slices.Contains(run.Failure.Rules, "client-request-unanswered") {
				t.Errorf("the failure names %q", run.Failure.Rules)
			}
			if len(run.Notes) != 2 || !strings.Contains(run.Notes[0], "sent 2 prompts; the scenario has 1") {
				t.Errorf("notes %q", run.Notes)
			}
		})
	}
}
