package reports

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestJSONRoundTrip(t *testing.T) {
	r := fixture(t)
	path := filepath.Join(t.TempDir(), "r.json")
	if err := r.WriteJSON(path); err != nil {
		t.Fatal(err)
	}
	back, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, r) {
		t.Errorf("read back:\n%+v\nwrote:\n%+v", back, r)
	}
	want := Summary{Total: 4, Pass: 1, Fail: 1, Skip: 1, ExpectedFail: 1}
	if back.Summary != want {
		t.Errorf("summary %+v, want %+v", back.Summary, want)
	}
}

func TestReadRejects(t *testing.T) {
	tests := map[string]string{
		"other schema":                   `{"schema":"airwire-report/2","runs":[]}`,
		"no schema":                      `{"runs":[]}`,
		"unknown field":                  `{"schema":"` + Schema + `","runz":[]}`,
		"not json":                       `<testsuites/>`,
		"unknown status":                 `{"schema":"` + Schema + `","runs":[{"scenario":"a","profile":"air","status":"flaky"}]}`,
		"fail without failure":           `{"schema":"` + Schema + `","runs":[{"scenario":"a","profile":"air","status":"fail"}]}`,
		"expected-fail without baseline": `{"schema":"` + Schema + `","runs":[{"scenario":"a","profile":"air","status":"expected-fail","failure":{"check":"run","message":"x"}}]}`,
	}
	for name, text := range tests {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "r.json")
			if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := Read(path)
			if err == nil {
				t.Fatal("Read accepted it")
			}
			if strings.HasPrefix(name, "other") || strings.HasPrefix(name, "no schema") {
				if !errors.Is(err, ErrSchema) {
					t.Errorf("err = %v, want ErrSchema", err)
				}
			}
		})
	}
}

// TestSchemaDocumented: docs/report.md names every field of the JSON
// report, so that the documented schema cannot fall behind the code.
func TestSchemaDocumented(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join(repoRoot(t), "docs", "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(doc), "`"+Schema+"`") {
		t.Errorf("docs/report.md does not name the schema %s", Schema)
	}
	for _, typ := range []any{Report{}, Summary{}, Run{}, Failure{}, Difference{}, Cause{}, Change{}, Finding{}, Entry{}, ShardSpec{}} {
		rt := reflect.TypeOf(typ)
		for i := range rt.NumField() {
			tag, _, _ := strings.Cut(rt.Field(i).Tag.Get("json"), ",")
			if tag != "" && tag != "-" && !strings.Contains(string(doc), "`"+tag+"`") {
				t.Errorf("docs/report.md does not document %s.%s (`%s`)", rt.Name(), rt.Field(i).Name, tag)
			}
		}
	}
	for _, s := range []Status{StatusPass, StatusFail, StatusSkip, StatusExpectedFail} {
		if !strings.Contains(string(doc), "`"+string(s)+"`") {
			t.Errorf("docs/report.md does not document status %s", s)
		}
	}
}

func TestMerge(t *testing.T) {
	full := fixture(t)
	a, b := *full, *full
	a.Runs, b.Runs = full.Runs[:2], full.Runs[2:]
	a.Shard, b.Shard = &ShardSpec{1, 2}, &ShardSpec{2, 2}
	b.DurationMS = 9000
	got, err := Merge(&b, &a)
	if err != nil {
		t.Fatal(err)
	}
	if got.Shard != nil || got.DurationMS != 9000 || got.Summary != full.Summary {
		t.Errorf("merged shard %v, duration %d, summary %+v; want nil, 9000, %+v", got.Shard, got.DurationMS, got.Summary, full.Summary)
	}
	if !reflect.DeepEqual(got.Runs, full.Runs) {
		t.Errorf("merged runs are not the full run set in order")
	}
	if _, err := Merge(&a, full); err == nil || !strings.Contains(err.Error(), "is in report 1 and report 2") {
		t.Errorf("a run in two reports: err = %v", err)
	}
	other := b
	other.Agent = "airwire agent"
	if _, err := Merge(&a, &other); err == nil || !strings.Contains(err.Error(), "ran") {
		t.Errorf("two adapters: err = %v", err)
	}
}

// The CLI version of live shards survives a merge; shards of two CLIs do
// not merge.
func TestMergeKeepsTheCLIVersion(t *testing.T) {
	full := fixture(t)
	a, b := *full, *full
	a.Runs, b.Runs = full.Runs[:2], full.Runs[2:]
	a.CLI, b.CLI = "", "2.1.318"
	got, err := Merge(&a, &b)
	if err != nil {
		t.Fatal(err)
	}
	if got.CLI != "2.1.318" {
		t.Errorf("merged cli = %q, want 2.1.318", got.CLI)
	}
	a.CLI = "2.1.320"
	if _, err := Merge(&a, &b); err == nil || !strings.Contains(err.Error(), "ran Claude CLI 2.1.318, report 1 ran 2.1.320") {
		t.Errorf("two CLIs: err = %v", err)
	}
}
