package wirediff

import (
	"regexp"
	"testing"

	"github.com/airwire/airwire/reports"
)

func TestReportSchemaLiteral(t *testing.T) {
	want := `"schema"\s*:\s*"` + regexp.QuoteMeta(reports.Schema) + `"`
	if got := reportSchemaRE.String(); got != want {
		t.Errorf("reportSchemaRE = %s, want %s (reports.Schema changed?)", got, want)
	}
}
