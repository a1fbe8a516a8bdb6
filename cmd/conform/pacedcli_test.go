package conform

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/airwire/airwire/cmd/factory"
	"github.com/airwire/airwire/conform"
)

func TestPacedCLIDocumentRunIsNotPaced(t *testing.T) {
	// `auth status --json` prints a document of many lines; the pause per
	// line of a stream-json process must not hold it.
	dir := t.TempDir()
	script := filepath.Join(dir, "cli.json")
	if err := os.WriteFile(script, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"HOME": dir, "AIRWIRE_FAKE_CLI_SCRIPT": script}
	var out, errOut bytes.Buffer
	f := &factory.Factory{
		IO:      factory.IOStreams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut},
		Getenv:  func(k string) string { return env[k] },
		Environ: func() []string { return nil },
	}
	start := time.Now()
	if err := runPacedCLI(context.Background(), f, []string{"auth", "status", "--json"}); err != nil {
		t.Fatalf("err = %v; stderr %s", err, errOut.String())
	}
	took := time.Since(start)
	lines := strings.Count(out.String(), "\n")
	if lines < 3 || !strings.Contains(out.String(), `"loggedIn"`) {
		t.Fatalf("output %q is not the auth status document", out.String())
	}
	if paced := time.Duration(lines-1) * conform.DefaultPace; took >= paced {
		t.Errorf("%d lines took %s: paced line by line (%s)", lines, took, paced)
	}
}
